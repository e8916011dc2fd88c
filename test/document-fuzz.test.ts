import fc from 'fast-check';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { openApiPath, registeredOperations } from '../src/rest/openapi/operation.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator } from './support/fixtures.js';
import { adminHolder, allowedToken, customerHolder, ownerHolder, type Caller } from './support/callers.js';
import { shopWithProduct } from './support/shopping.js';
import { expectDocumentedAnswer } from './support/contract.js';

/**
 * The document against the server, the other way round from test/fuzz.test.ts: requests generated
 * from the OpenAPI document itself, each valid by it (bodies from each operation's request schema,
 * query strings from its parameters), sent by a caller its access level admits. The server must
 * answer none of them 5xx and refuse none of them as invalid input (400 `VALIDATION_FAILED`): what the
 * document allows, the server takes, except for the rules below that JSON Schema cannot state (one
 * field against another), each named with the operation and the message the server gives.
 */
type Schema = Record<string, any>;
const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };

/** Rules between fields, or about the data, which the document says in words (descriptions) and the server checks. */
const CROSS_FIELD_RULES: { operation: RegExp; message: RegExp }[] = [
  // A period ends after it starts: valid_until after valid_from, ends_at after starts_at.
  { operation: /./, message: /must be (after|later than)|ends? (before|after)|before .*start|after .*end/i },
  // The reconciliation report: `from` not after `to`, at most 92 days.
  { operation: /^GET \/api\/admin\/reconciliation$/, message: /^(The report covers at most 92 days|from: from must not be after to)$/ },
  // The audit log's filters: a time window that ends after it starts; a row's id with its type.
  { operation: /^GET \/api\/(admin|merchant)\/audit-entries$/, message: /^(from: from must be before to|target_id: target_id needs target_type)$/ },
  // A listing's price range: the maximum not below the minimum.
  { operation: /^GET \/api\/products/, message: /must not be below the minimum price/ },
  // A list item naming a row by id that does not exist (a brand to rename): the id is valid, the row is not there.
  { operation: /^PUT \/api\/(admin\/brands|merchant\/products)$/, message: /: no (brand|category) \d+$/ },
  // A new SKU (no `id`) needs its `stock`; an existing one takes `stock_delta`.
  { operation: /^PUT \/api\/merchant\/products$/, message: /a new SKU needs its stock|only an existing SKU takes a stock delta|send a stock or a stock delta, not both/ },
  // A coupon template's validity is `valid_days` or a period, not both; `amount_off` or `percent_off` by its kind.
  { operation: /coupon-templates/, message: /give either valid_days or valid_from and valid_until|give valid_from and valid_until, or valid_days|belongs to a (fixed|percent) discount|caps a percent discount only|needs? (an? )?(amount_off|percent_off|valid)/ },
  // A freight template names each region once (objects of one region differ in their fees: not `uniqueItems`).
  { operation: /freight-templates/, message: /Each region may appear once/ },
  // A time zone the runtime's ICU knows (the list changes with the runtime, so the document does not enumerate it).
  { operation: /^GET \/api\/ops\//, message: /not a known IANA time zone/ },
  // The WHATWG URL parser's host numbers and IPv6 grammar, which the pattern states only approximately.
  { operation: /webhooks$/, message: /^The URL is not a URL$/ },
  // `simulate_failure` is the sandbox gateway's only (a field against the method).
  { operation: /^POST \/api\/payments$/, message: /^simulate_failure: is for the sandbox gateway only$/ },
  // A payout batch pays someone: a threshold no shop's available balance reaches is refused (the data's rule).
  { operation: /^POST \/api\/admin\/payout-batches$/, message: /no shop has this much available/ },
  // https only outside development: a rule of the deployment, which the field's description states.
  { operation: /webhooks$/, message: /^The URL must be https$/ },
];

const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(doc.components.schemas[String(schema.$ref).split('/').pop()!]) : schema);

/** A value the schema allows: the document's own JSON Schema read as a generator (the subset the document uses). */
function valueOf(raw: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  const options = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (options) return fc.oneof(...options.map((option) => valueOf({ ...schema, anyOf: undefined, oneOf: undefined, ...option }, depth)));
  if (Array.isArray(schema.type)) return fc.oneof(...(schema.type as string[]).map((type) => valueOf({ ...schema, type }, depth)));
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000_000), max: schema.maximum ?? 1_000_000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000, noNaN: true, noDefaultInfinity: true });
    case 'string':
      return stringOf(schema);
    case 'array': {
      const items = valueOf(schema.items ?? {}, depth + 1);
      const bounds = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, Math.max(schema.minItems ?? 0, 3)) };
      return schema.uniqueItems ? fc.uniqueArray(items, { ...bounds, selector: (v) => JSON.stringify(v) }) : fc.array(items, bounds);
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, inner]) => [name, valueOf(inner, depth + 1)])), { requiredKeys: required });
    }
    default:
      return fc.constant('x');
  }
}

function stringOf(schema: Schema): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? 60;
  const fits = (s: string) => s.length >= min && s.length <= max;
  if (schema.format === 'date-time') return fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'date') return fc.date({ min: new Date('2001-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (schema.pattern) {
    // fast-check cannot generate through a lookahead: generate without it, keep what the whole pattern takes.
    // JSON Schema's patterns are ECMA-262 with Unicode (`\p{L}`), as ajv reads them.
    const pattern = new RegExp(schema.pattern as string, 'u');
    const generable = new RegExp(String(schema.pattern).replace(/\(\?[!=](?:[^()]|\([^()]*\))*\)/g, ''), 'u');
    return fc.stringMatching(generable).filter((s) => fits(s) && pattern.test(s));
  }
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  return fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, 40)) });
}

let t: TestApp;
const callers: Caller[] = [];
beforeAll(async () => {
  t = await startTestApp();
  const { shop } = await shopWithProduct(t);
  callers.push(
    { token: (await newCustomer(t, { available: 100_000, points: 1000 })).token, holder: customerHolder },
    { token: (await newOperator(t, shop.id)).token, holder: ownerHolder },
    { token: (await newAdmin(t)).token, holder: adminHolder },
  );
});
afterAll(() => t?.close());

/** Each operation's declared permission as the router registered it, by `METHOD /api/path/{param}`. */
const PERMISSION_OF = new Map(registeredOperations().map((op) => [`${op.method.toUpperCase()} ${openApiPath(op.path).path}`, op.doc.permission]));

/** A caller the operation's permission admits. */
function callerOf(name: string): string | null {
  const permission = PERMISSION_OF.get(name);
  if (permission === undefined) throw new Error(`${name} is in the document but not among the registered operations`);
  return allowedToken(permission, callers) ?? null;
}

const RUNS = 12;
/** One seed in the suite so that a red run can be rerun; `DOCUMENT_FUZZ_SEED=random` explores anew. */
const SEED = process.env.DOCUMENT_FUZZ_SEED === 'random' ? Date.now() : Number(process.env.DOCUMENT_FUZZ_SEED ?? 20_261_202);
/** Operations that end the caller's session or lock it out: they would spoil the other runs. */
const LEFT_OUT = new Set(['POST /api/auth/logout', 'POST /api/auth/logout-all', 'DELETE /api/me']);

it('takes every request the document allows: no 5xx and no VALIDATION_FAILED for a body or query the document calls valid', async () => {
  const findings = new Map<string, string>();
  let sent = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const name = `${method.toUpperCase()} ${path}`;
      if (LEFT_OUT.has(name)) continue;
      const parameters = (op.parameters ?? []) as Schema[];
      const query = parameters.filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema as Schema | undefined;
      if (!bodySchema && query.length === 0) continue;
      const queryArbitraries: Record<string, fc.Arbitrary<unknown>> = Object.fromEntries(query.map((p) => [p.name, valueOf(p.schema)]));
      const queryValues = fc.record(queryArbitraries, { requiredKeys: query.filter((p) => p.required).map((p) => String(p.name)) });
      await fc.assert(
        fc.asyncProperty(queryValues, bodySchema ? valueOf(bodySchema) : fc.constant(undefined), async (values, body) => {
          // A path parameter: the first of its values when the document lists them (a payment method), else id 1.
          let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
            const values = (parameters.find((p) => p.in === 'path' && p.name === name)?.schema as { enum?: unknown[] } | undefined)?.enum;
            return values ? String(values[0]) : '1';
          });
          const search = Object.entries(values as Record<string, unknown>).map(([k, v]) => `${k}=${encodeURIComponent(Array.isArray(v) ? v.join(',') : String(v))}`);
          if (search.length > 0) url += `?${search.join('&')}`;
          const res = await t.api(method.toUpperCase(), url, { token: callerOf(name) ?? undefined, ...(body === undefined ? {} : { body }) });
          sent++;
          try {
            expectDocumentedAnswer(method.toUpperCase(), url, res.status, res.body);
          } catch (undocumented) {
            if (!findings.has(name)) findings.set(name, (undocumented as Error).message.slice(0, 400));
          }
          const error = (res.body as { error?: { code: string; message: string } } | undefined)?.error;
          const crossField = error && CROSS_FIELD_RULES.some((rule) => rule.operation.test(name) && rule.message.test(error.message));
          if (res.status >= 500 || (error?.code === 'VALIDATION_FAILED' && !crossField)) {
            if (!findings.has(name)) findings.set(name, `${res.status} ${error?.message ?? ''} for ${url} ${JSON.stringify(body)?.slice(0, 300)}`);
          }
        }),
        { numRuns: RUNS, endOnFailure: true, seed: SEED },
      );
    }
  }
  expect(sent).toBeGreaterThan(300);
  expect([...findings].map(([name, what]) => `${name}: ${what}`)).toEqual([]);
}, 300_000);
