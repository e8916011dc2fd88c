import type { GraphQLInputType, GraphQLNamedType, GraphQLSchema } from 'graphql';
import { openApiJson } from '../src/rest/openapi/document.js';
import { openApiPath, registeredOperations } from '../src/rest/openapi/operation.js';
import type { Permission } from '../src/shared/permissions.js';
import { adminHolder, allowedToken, customerHolder, ownerHolder } from './support/callers.js';
import { graphqlSchema } from '../src/resolvers/schema.js';
import { toSnake } from '../src/shared/case.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, type TestUser } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';

/**
 * Every date input of both doors, found where the doors describe them, so a new date field is walked
 * without touching this test: REST request bodies and query parameters of `format: date-time` or
 * `date` in the OpenAPI document, GraphQL arguments and input fields of the `DateTimeISO` scalar (and
 * `YYYY-MM-DD` text arguments). Each gets the edge values: outside the range the database and both
 * doors hold (year 0, negative and six-digit years, a minute past either end through an offset),
 * malformed ones (`false`, `0`, `true`, a date without time or offset, 30 February), each a 400 that
 * changes nothing; and the two ends of the range, stored and answered as sent. Never a 500.
 */
let t: TestApp;
let users: Record<'admin' | 'operator' | 'customer', TestUser>;
/** Values for fields that must name real objects, by REST name: the operator's shop and SKUs; the ids the walk created. */
const known: Record<string, number> = {};

const EARLIEST = '0001-01-01T00:00:00.000Z';
const DATE_TIME_RULE = 'must be an ISO 8601 date-time with an offset, from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';
const DATE_RULE = 'must be a date (YYYY-MM-DD) from 0001-01-01 to 9999-12-31';
const LATEST = '9999-12-31T23:59:59.999Z';
const BAD_DATE_TIMES: unknown[] = [
  '0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '10000-01-01T00:00:00Z', '0001-01-01T00:00:00+00:01',
  '9999-12-31T23:59:59-00:01', '2026-02-30T00:00:00Z', '2026-01-01', '2026-01-01T00:00:00', '', false, true, 0, 1764000000000,
];
const BAD_DATES: unknown[] = ['0000-01-01', '-000001-01-01', '+275760-01-01', '10000-01-01', '2026-02-30', '2026-1-1', '2026-01-01T00:00:00Z', '', false, 0];
/** A window as wide as the range: its start field gets the earliest instant, its end field the latest. */
const isStart = (name: string) => /(^|_)(from|starts?)(_at)?$/i.test(toSnake(name));

beforeAll(async () => {
  t = await startTestApp();
  const { shop, product } = await shopWithProduct(t, [{ price: 1_000, stock: 50 }, { price: 2_000, stock: 50 }]);
  users = { admin: await newAdmin(t), operator: await newOperator(t, shop.id), customer: await newCustomer(t) };
  Object.assign(known, { shop_id: shop.id, sku_id: product.skuIds[0], product_id: product.id });
});
afterAll(() => t.close());

/** The database's contents, table by table (the session tokens aside): a refused request must not change it. */
async function fingerprint(): Promise<Record<string, string>> {
  const tables = await t.sql<{ name: string }>(`select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not in ('auth_token', 'mikro_orm_migrations')`);
  const rows = await t.sql<{ name: string; digest: string }>(
    tables.map((tb) => `select '${tb.name}' as name, md5(coalesce(string_agg(x::text, ',' order by x::text), '')) as digest from "${tb.name}" x`).join(' union all '),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

const tokenFor = (permission: Permission) =>
  allowedToken(permission, [{ token: users.admin.token, holder: adminHolder }, { token: users.customer.token, holder: customerHolder }, { token: users.operator.token, holder: ownerHolder }]);

// ------------------------------------------------------------------------------------------------
// REST: the OpenAPI document.

type Schema = Record<string, any>;
const document = JSON.parse(openApiJson()) as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
const deref = (schema: Schema): Schema => (schema.$ref ? deref(document.components.schemas[String(schema.$ref).split('/').pop()!]) : schema);
const isDateFormat = (schema: Schema) => schema.format === 'date-time' || schema.format === 'date';

/** Paths (property names, `[]` for an array item, `|n` for the nth form of a oneOf/anyOf) to every date in a schema. */
function datePaths(schema: Schema, at: string[] = []): { path: string[]; format: string }[] {
  const s = deref(schema);
  if (isDateFormat(s)) return [{ path: at, format: s.format }];
  const found: { path: string[]; format: string }[] = [];
  for (const key of ['oneOf', 'anyOf'] as const) (s[key] as Schema[] | undefined)?.forEach((form, n) => found.push(...datePaths(form, [...at, `|${n}`])));
  for (const [name, inner] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) found.push(...datePaths(inner, [...at, name]));
  if (s.items) found.push(...datePaths(s.items, [...at, '[]']));
  return found;
}

/**
 * A value the schema takes: required properties only (and those on `keep`'s paths), known ids by
 * name, the first form of a choice unless `keep` names another, a window start at 2030 and its end at 2031.
 */
function sample(schema: Schema, name = '', keep: string[][] = []): unknown {
  const s = deref(schema);
  if (name in known) return known[name];
  for (const key of ['oneOf', 'anyOf'] as const) {
    const forms = s[key] as Schema[] | undefined;
    if (!forms) continue;
    const chosen = keep.map((p) => p[0]).find((p) => p?.startsWith('|'));
    const n = chosen ? Number(chosen.slice(1)) : forms.findIndex((f) => deref(f).type !== 'null');
    return sample(forms[n], name, keep.map((p) => p.slice(1)));
  }
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.format === 'date-time') return isStart(name) ? '2030-01-01T00:00:00.000Z' : '2031-01-01T00:00:00.000Z';
  if (s.format === 'date') return isStart(name) ? '2030-01-01' : '2030-01-02';
  switch (s.type) {
    case 'object': {
      const wanted = new Set([...((s.required ?? []) as string[]), ...keep.map((p) => p[0])]);
      const entries = Object.entries((s.properties ?? {}) as Record<string, Schema>).filter(([key]) => wanted.has(key));
      return Object.fromEntries(entries.map(([key, inner]) => [key, sample(inner, key, keep.filter((p) => p[0] === key).map((p) => p.slice(1)))]));
    }
    case 'array':
      return [sample(s.items, name, keep.filter((p) => p[0] === '[]').map((p) => p.slice(1)))];
    case 'integer':
    case 'number':
      return Math.max(1, s.minimum ?? 1, (s.exclusiveMinimum ?? 0) + 1);
    case 'boolean':
      return true;
    default:
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
  }
}

/** `value` at `path` of `body` (the first array item for `[]`; choices are already made). */
function setAt(body: any, path: string[], value: unknown): void {
  const keys = path.filter((k) => !k.startsWith('|'));
  let at = body;
  for (const key of keys.slice(0, -1)) at = key === '[]' ? at[0] : at[key];
  at[keys[keys.length - 1]] = value;
}
const fieldOf = (path: string[]) => path.filter((k) => !k.startsWith('|')).map((k) => (k === '[]' ? '0' : k)).join('.');

interface DateInput {
  method: string;
  path: string;
  access: Permission;
  query: { name: string; format: string }[];
  body?: { schema: Schema; dates: { path: string[]; format: string }[] };
}

/** Every REST operation that takes a date, creations first (their ids serve the operations on what they create). */
function restDateInputs(): DateInput[] {
  const inputs: DateInput[] = [];
  for (const { method, path: expressPath, doc } of registeredOperations()) {
    const { path } = openApiPath(expressPath);
    const operation = document.paths[path][method];
    const query = ((operation.parameters ?? []) as Schema[]).filter((p) => p.in === 'query' && isDateFormat(deref(p.schema))).map((p) => ({ name: String(p.name), format: String(deref(p.schema).format) }));
    const bodySchema = operation.requestBody?.content?.['application/json']?.schema as Schema | undefined;
    const dates = bodySchema ? datePaths(bodySchema) : [];
    if (query.length || dates.length) inputs.push({ method, path, access: doc.permission, query, body: dates.length ? { schema: bodySchema!, dates } : undefined });
  }
  return inputs.sort((a, b) => Number(b.method === 'post') - Number(a.method === 'post'));
}

/** The path with its parameters filled: known ids by name, else the id the creation under the same path answered. */
function filledPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = known[name] ?? known[`created ${path.slice(0, path.indexOf(`/{${name}}`))}`];
    if (value === undefined) throw new Error(`no value for {${name}} of ${path}: create one first, or add it to \`known\``);
    return String(value);
  });
}

/** The forms of a choice that hold a date (`|n`), each its own request; '' for a body without choices. */
const formsOf = (input: DateInput) => (input.body ? [...new Set(input.body.dates.map((d) => d.path.find((k) => k.startsWith('|')) ?? ''))] : ['']);
const formOf = (path: string[]) => path.find((k) => k.startsWith('|')) ?? '';
const nameOf = (path: string[]) => path.filter((k) => !k.startsWith('|') && k !== '[]').pop()!;

/** Where a date goes in one form's request: a body path or a query parameter. */
type Place = { body?: string[]; query?: string; name: string; format: string };
const placesOf = (input: DateInput, form: string): Place[] => [
  ...(input.body?.dates ?? []).filter((d) => formOf(d.path) === form).map((d) => ({ body: d.path, name: nameOf(d.path), format: d.format })),
  ...input.query.map((q) => ({ query: q.name, name: q.name, format: q.format })),
];

/** One form's request with each date set by `dateOf(place)`. */
function requestOf(input: DateInput, form: string, dateOf: (place: Place) => unknown): { url: string; body?: unknown } {
  const places = placesOf(input, form);
  const body = input.body ? sample(input.body.schema, '', places.flatMap((p) => (p.body ? [p.body] : []))) : undefined;
  for (const place of places) if (place.body) setAt(body, place.body, dateOf(place));
  const query = places.flatMap((p) => (p.query ? [`${p.query}=${encodeURIComponent(String(dateOf(p)))}`] : [])).join('&');
  return { url: filledPath(input.path) + (query ? `?${query}` : ''), body };
}

/** The widest window: starts at the earliest, ends at the latest (for `date`, the last days). */
const widest = ({ name, format }: Place) => (format === 'date' ? (isStart(name) ? '9999-12-29' : '9999-12-31') : isStart(name) ? EARLIEST : LATEST);
/** An ordinary window in 2030. */
const ordinary = ({ name, format }: Place) => (format === 'date' ? (isStart(name) ? '2030-01-01' : '2030-01-02') : isStart(name) ? '2030-01-01T00:00:00Z' : '2031-01-01T00:00:00Z');

describe('REST date inputs (every `date-time` and `date` of the OpenAPI document)', () => {
  const inputs = restDateInputs();

  it('finds the date inputs of the document', () => {
    // Commission rates, flash sales and group buys (created and replaced), coupon templates (created
    // in both forms, and patched), the reconciliation report: more may come, none may go unseen.
    expect(inputs.map((i) => `${i.method} ${i.path}`)).toEqual(expect.arrayContaining([
      'post /api/admin/shops/{shop_id}/commission-rates', 'post /api/merchant/flash-sales', 'put /api/merchant/flash-sales/{flash_sale_id}',
      'post /api/merchant/group-buys', 'put /api/merchant/group-buys/{activity_id}', 'post /api/merchant/coupon-templates',
      'patch /api/merchant/coupon-templates/{template_id}', 'get /api/admin/reconciliation',
    ]));
  });

  it('stores and answers the two ends of the range, the whole range as one window', async () => {
    for (const input of inputs) {
      for (const form of formsOf(input)) {
        const request = requestOf(input, form, widest);
        const res = await t.api(input.method.toUpperCase(), request.url, { token: tokenFor(input.access), body: request.body });
        expect([input.method, request.url, form, res.body?.error]).toEqual([input.method, request.url, form, undefined]);
        if (input.method === 'post' && typeof res.body?.id === 'number') known[`created ${input.path}`] = res.body.id;
        // Every instant sent is answered as sent (what the write stored).
        if (input.body) for (const value of [EARLIEST, LATEST]) if (JSON.stringify(request.body).includes(value)) expect(JSON.stringify(res.body)).toContain(value);
      }
      if (input.query.length) {
        const res = await t.api(input.method.toUpperCase(), requestOf(input, '', ({ name, format }) => (format === 'date' ? (isStart(name) ? '0001-01-01' : '0001-01-03') : isStart(name) ? EARLIEST : '0001-01-03T00:00:00Z')).url, { token: tokenFor(input.access) });
        expect([input.path, res.status]).toEqual([input.path, 200]);
      }
    }
  });

  it('refuses a date outside the range, or not a date, as VALIDATION_FAILED naming the field, and changes nothing', async () => {
    const before = await fingerprint();
    for (const input of inputs) {
      for (const form of formsOf(input)) {
        for (const place of placesOf(input, form)) {
          for (const bad of place.format === 'date' ? BAD_DATES : BAD_DATE_TIMES) {
            // A query string carries text only: `false` arrives as "false".
            if (place.query && typeof bad !== 'string') continue;
            const request = requestOf(input, form, (p) => (p === place || (p.name === place.name && p.format === place.format) ? bad : ordinary(p)));
            const res = await t.api(input.method.toUpperCase(), request.url, { token: tokenFor(input.access), body: request.body });
            const field = place.query ?? fieldOf(place.body!);
            expect([input.method, input.path, form, bad, res.status, res.body?.error?.code, res.body?.error?.details?.problems]).toEqual([
              input.method, input.path, form, bad, 400, 'VALIDATION_FAILED', [{ field, message: place.format === 'date' ? DATE_RULE : DATE_TIME_RULE }],
            ]);
          }
        }
      }
    }
    expect(await fingerprint()).toEqual(before);
  });
});

// ------------------------------------------------------------------------------------------------
// GraphQL: the schema.

// type-graphql may build the schema with another copy of graphql-js than this file's: types are told apart by shape.
const named = (type: GraphQLInputType): GraphQLNamedType => ('ofType' in type && type.ofType ? named(type.ofType as GraphQLInputType) : (type as GraphQLNamedType));
const required = (type: GraphQLInputType) => type.toString().endsWith('!');
const isInputObject = (type: GraphQLNamedType): type is GraphQLNamedType & { getFields(): Record<string, { name: string; type: GraphQLInputType; description?: string | null }> } =>
  'getFields' in type && !('getInterfaces' in type);
const isEnum = (type: GraphQLNamedType): type is GraphQLNamedType & { getValues(): { name: string }[] } => 'getValues' in type;
/** A date as text: an argument documented as `YYYY-MM-DD`. */
const dateKind = (field: { type: GraphQLInputType; description?: string | null }) =>
  named(field.type).name === 'DateTimeISO' ? 'date-time' : named(field.type).name === 'String' && field.description === 'YYYY-MM-DD' ? 'date' : null;

/** What a valid input needs beyond its required fields, by input type (rules the schema does not state): a fixed coupon's discount, a group of two. */
const NEEDED: Record<string, Record<string, unknown>> = { CreateCouponTemplateInput: { amountOff: 100 }, CreateGroupBuyInput: { capacity: 2 }, UpdateGroupBuyInput: { capacity: 2 } };

interface GraphQLDateInput {
  operation: 'query' | 'mutation';
  field: string;
  /** `[argument, inputField?]` of each date. */
  dates: { path: string[]; format: string }[];
  args: { name: string; type: string; value: unknown }[];
  selection: string;
}

function sampleInput(type: GraphQLInputType, name: string): unknown {
  const inner = named(type);
  const list = type.toString().replace(/!$/, '').startsWith('[');
  let one: unknown;
  if (known[toSnake(name)] !== undefined) one = known[toSnake(name)];
  else if (isInputObject(inner)) {
    const fields = Object.values(inner.getFields()).filter((f) => required(f.type) || dateKind(f));
    one = { ...Object.fromEntries(fields.map((f) => [f.name, sampleInput(f.type, f.name)])), ...NEEDED[inner.name] };
  } else if (isEnum(inner)) one = inner.getValues()[0].name;
  else one = inner.name === 'DateTimeISO' ? (isStart(name) ? '2030-01-01T00:00:00.000Z' : '2031-01-01T00:00:00.000Z') : inner.name === 'Int' ? 1 : inner.name === 'Boolean' ? true : 'x';
  return list ? [one] : one;
}

function graphqlDateInputs(schema: GraphQLSchema): GraphQLDateInput[] {
  const inputs: GraphQLDateInput[] = [];
  for (const operation of ['mutation', 'query'] as const) {
    const root = operation === 'mutation' ? schema.getMutationType() : schema.getQueryType();
    for (const field of Object.values(root!.getFields())) {
      const dates: { path: string[]; format: string }[] = [];
      for (const arg of field.args) {
        const kind = dateKind(arg);
        if (kind) dates.push({ path: [arg.name], format: kind });
        const inner = named(arg.type);
        if (isInputObject(inner)) for (const f of Object.values(inner.getFields())) if (dateKind(f)) dates.push({ path: [arg.name, f.name], format: dateKind(f)! });
      }
      if (!dates.length) continue;
      const result = named(field.type as unknown as GraphQLInputType) as unknown as { getFields?: () => Record<string, { type: unknown }> };
      const resultField = Object.entries(result.getFields?.() ?? {}).find(([key]) => key !== 'userErrors');
      const selection = operation === 'mutation' ? `{ ${resultField?.[0] ?? ''} { __typename } userErrors { code field } }` : '{ __typename }';
      inputs.push({
        operation,
        field: field.name,
        dates,
        args: field.args.filter((a) => required(a.type) || dates.some((d) => d.path[0] === a.name)).map((a) => ({ name: a.name, type: a.type.toString(), value: sampleInput(a.type, a.name) })),
        selection,
      });
    }
  }
  return inputs;
}

/** The operation with its arguments as variables, the dates of `dates` set to `value`. */
function graphqlRequest(input: GraphQLDateInput, dateOf: (name: string, format: string) => unknown) {
  const variables: Record<string, unknown> = {};
  for (const arg of input.args) variables[arg.name] = structuredClone(arg.value);
  for (const { path, format } of input.dates) {
    const name = path[path.length - 1];
    if (path.length === 1) variables[path[0]] = dateOf(name, format);
    else (variables[path[0]] as Record<string, unknown>)[name] = dateOf(name, format);
  }
  const declared = input.args.map((a) => `$${a.name}: ${a.type}`).join(', ');
  const passed = input.args.map((a) => `${a.name}: $${a.name}`).join(', ');
  return { query: `${input.operation} (${declared}) { ${input.field}(${passed}) ${input.selection} }`, variables };
}

describe('GraphQL date inputs (every DateTimeISO argument and input field)', () => {
  let inputs: GraphQLDateInput[];
  beforeAll(async () => {
    for (const [name, path] of [['flash_sale_id', '/api/merchant/flash-sales'], ['activity_id', '/api/merchant/group-buys'], ['template_id', '/api/merchant/coupon-templates']]) {
      known[name] = known[`created ${path}`] ?? (await t.sql<{ id: number }>(`select max(id) as id from ${name === 'flash_sale_id' ? 'flash_sale' : name === 'activity_id' ? 'group_buy_activity' : 'coupon_template'}`))[0].id;
    }
    inputs = graphqlDateInputs(await graphqlSchema());
  });

  const token = (input: GraphQLDateInput) => (/FlashSale|GroupBuy|CouponTemplate/.test(input.field) ? users.operator.token : users.admin.token);

  it('accepts the two ends of the range and answers no error', async () => {
    expect(inputs.map((i) => i.field)).toEqual(expect.arrayContaining(['addCommissionRate', 'createFlashSale', 'updateFlashSale', 'createGroupBuy', 'updateGroupBuy', 'createCouponTemplate', 'updateCouponTemplate', 'reconciliation']));
    for (const input of inputs) {
      const { query, variables } = graphqlRequest(input, (name, format) => (format === 'date' ? (isStart(name) ? '9999-12-29' : '9999-12-31') : isStart(name) ? EARLIEST : LATEST));
      const res = await t.gql(query, variables, token(input));
      expect([input.field, res.errors, res.data?.[input.field]?.userErrors ?? []]).toEqual([input.field, undefined, []]);
    }
  });

  it('refuses a date outside the range, or not a date, before anything runs (never INTERNAL), and changes nothing', async () => {
    const before = await fingerprint();
    for (const input of inputs) {
      for (const { path, format } of input.dates) {
        const target = path[path.length - 1];
        for (const bad of format === 'date' ? BAD_DATES : BAD_DATE_TIMES) {
          const { query, variables } = graphqlRequest(input, (name, f) => (name === target ? bad : f === 'date' ? (isStart(name) ? '2030-01-01' : '2030-01-02') : isStart(name) ? '2030-01-01T00:00:00Z' : '2031-01-01T00:00:00Z'));
          const res = await t.gql(query, variables, token(input));
          const codes = (res.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code);
          // The scalar refuses a value of a DateTimeISO before execution; a text date is refused by the service.
          expect([input.field, target, bad, codes]).toEqual([input.field, target, bad, [format === 'date' ? expect.stringMatching(/^(VALIDATION_FAILED|BAD_USER_INPUT)$/) : 'BAD_USER_INPUT']]);
        }
      }
    }
    expect(await fingerprint()).toEqual(before);
  });

  it('refuses a date outside the range written inline in the operation, too', async () => {
    const res = await t.gql(`mutation { addCommissionRate(input: { shopId: ${known.shop_id}, rateBp: 1, validFrom: "0000-01-01T00:00:00Z" }) { rate { id } } }`, undefined, users.admin.token);
    expect(res.errors?.map((e: { extensions: { code: string }; message: string }) => [e.extensions.code, e.message])).toEqual([['GRAPHQL_VALIDATION_FAILED', expect.stringMatching(/from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z/)]]);
  });
});

describe('commission rate windows', () => {
  it('refuses valid_until before the defaulted valid_from (now) as VALIDATION_FAILED, over both doors', async () => {
    const before = await t.sql('select count(*)::int as n from commission_rate');
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const rest = await t.api('POST', `/api/admin/shops/${known.shop_id}/commission-rates`, { token: users.admin.token, body: { rate_bp: 1, valid_until: past } });
    expect([rest.status, rest.body.error.code, rest.body.error.details.problems]).toEqual([400, 'VALIDATION_FAILED', [{ field: 'valid_until', message: 'must be after valid_from (now when left out)' }]]);
    const gql = await t.gql('mutation($input: AddCommissionRateInput!) { addCommissionRate(input: $input) { rate { id } userErrors { code field } } }', { input: { shopId: known.shop_id, rateBp: 1, validUntil: past } }, users.admin.token);
    expect(gql.data.addCommissionRate).toEqual({ rate: null, userErrors: [{ code: 'VALIDATION_FAILED', field: ['input', 'validUntil'] }] });
    expect(await t.sql('select count(*)::int as n from commission_rate')).toEqual(before);
  });

  it('does not take false, 0 or true for a date (they were 1970-01-01)', async () => {
    for (const value of [false, 0, true]) {
      const res = await t.api('POST', `/api/admin/shops/${known.shop_id}/commission-rates`, { token: users.admin.token, body: { rate_bp: 1, valid_from: value } });
      expect([value, res.status]).toEqual([value, 400]);
    }
  });
});
