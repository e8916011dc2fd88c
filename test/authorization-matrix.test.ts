import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, isObjectType, isScalarType, isUnionType,
  type GraphQLField, type GraphQLInputType, type GraphQLSchema,
} from 'graphql';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newMember, newShop, newStaff, addMembership, type TestUser } from './support/fixtures.js';
import { customerHolder, memberHolder, staffHolder } from './support/callers.js';
import { apiRouter } from '../src/rest/api.js';
import { registeredOperations } from '../src/rest/openapi/operation.js';
import { graphqlSchema } from '../src/resolvers/schema.js';
import { grantOf, Permission, type PermissionHolder } from '../src/shared/permissions.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';
import { PlatformRole, Role } from '../src/entities/user.entity.js';
import { subscribe } from './support/subscriptions.js';

/**
 * The authorization matrix (issue 41): every operation of both doors, read from the route table and
 * the GraphQL schema, called for real by every kind of caller, against what its declared permission
 * says (src/shared/permissions.ts). A caller is refused when the answer is 401 or 403 FORBIDDEN
 * (GraphQL: a top-level error with that code on the field); anything else (a 404 of the dummy id, a
 * 400 of the empty body, a success) means the door let it through. Zero unexpected allowances, and
 * no unexpected refusals either (those would be a door and its use case disagreeing). An operation
 * without a declared permission fails the test. Subscriptions are subscribed to over a real
 * websocket, as a client does, since a refusal there comes from the subscribe step, not a request.
 */

interface Role_ {
  name: string;
  /** What the caller holds acting for the shop under test; null: anonymous. */
  holder: PermissionHolder | null;
  user?: TestUser;
  /** The `X-Shop-Id` the caller sends. */
  shopHeader?: number;
}

let t: TestApp;
const roles: Role_[] = [];
const NONE_HERE: PermissionHolder = { role: Role.ShopOperator, shopRole: null, platformRole: null };

beforeAll(async () => {
  t = await startTestApp();
  const shop = await newShop(t);
  const other = await newShop(t);
  roles.push({ name: 'anonymous', holder: null });
  roles.push({ name: 'customer', holder: customerHolder, user: await newCustomer(t) });
  for (const role of Object.values(ShopRole)) roles.push({ name: `shop ${role}`, holder: memberHolder(role), user: await newMember(t, shop.id, role) });
  // The owner of another shop naming this one: not a member here, whatever they hold there.
  roles.push({ name: 'owner of another shop', holder: NONE_HERE, user: await newMember(t, other.id, ShopRole.Owner), shopHeader: shop.id });
  // A member of two shops who names neither: acts for no shop.
  const both = await newMember(t, other.id, ShopRole.Owner);
  await addMembership(t, both.id, shop.id, ShopRole.Owner);
  roles.push({ name: 'member of two shops, none named', holder: NONE_HERE, user: both });
  for (const role of Object.values(PlatformRole)) roles.push({ name: `platform ${role}`, holder: staffHolder(role), user: await newStaff(t, role) });
}, 60_000);
afterAll(() => t?.close());

const expected = (role: Role_, permissions: readonly Permission[]): boolean => permissions.some((p) => grantOf(role.holder, p) !== null);

function headersOf(role: Role_, token?: string): Record<string, string> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (role.shopHeader !== undefined) headers['x-shop-id'] = String(role.shopHeader);
  return headers;
}

/** A token of the role's user, new for each call: a call may end its session (logout). */
async function tokenOf(role: Role_): Promise<string | undefined> {
  if (!role.user) return undefined;
  const res = await fetch(`${t.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: role.user.email, password: 'correct horse battery' }),
  });
  return ((await res.json()) as { token: string }).token;
}

interface Finding {
  op: string;
  role: string;
  expected: 'allowed' | 'refused' | `refused ${string}`;
  got: string;
}

/** Runs `work` over `items`, a few at a time (a single file must not hog the machine's two cores). */
async function inBatches<T>(items: T[], size: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) await Promise.all(items.slice(i, i + size).map(work));
}

describe('REST: every operation of the route table, by every role', () => {
  it('declares a permission on every operation', () => {
    apiRouter();
    const undeclared = registeredOperations().filter((op) => !Object.values(Permission).includes(op.doc.permission));
    expect(undeclared.map((op) => `${op.method} ${op.path}`)).toEqual([]);
  });

  it('allows exactly the roles that hold the declared permission', async () => {
    apiRouter();
    const tokens = new Map<Role_, string | undefined>();
    for (const role of roles) tokens.set(role, await tokenOf(role));
    const findings: Finding[] = [];
    const faults: string[] = [];
    let calls = 0;
    const cases = registeredOperations().flatMap((op) => roles.map((role) => ({ op, role })));
    await inBatches(cases, 4, async ({ op, role }) => {
      const url = `/api${op.path.replace(/:slug/g, 'no-such-shop').replace(/:kind/g, 'banners').replace(/:method/g, 'sandbox').replace(/:[A-Za-z]+/g, '999999')}`;
      const method = op.method.toUpperCase();
      // Logout ends the session it is called with: a token of its own.
      const token = op.path === '/auth/logout' ? await tokenOf(role) : tokens.get(role);
      const headers = { ...headersOf(role, token), ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) };
      const res = await fetch(t.baseUrl + url, { method, headers, body: method === 'GET' ? undefined : '{}' });
      const text = await res.text();
      const code = text ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : undefined;
      calls++;
      const refused = res.status === 401 || (res.status === 403 && code === 'FORBIDDEN');
      const should = expected(role, [op.doc.permission]);
      if (res.status >= 500) faults.push(`${method} ${op.path} as ${role.name}: ${res.status} ${code}`);
      if (refused === should) findings.push({ op: `${method} ${op.path} (${op.doc.permission})`, role: role.name, expected: should ? 'allowed' : 'refused', got: `${res.status} ${code ?? ''}` });
    });
    expect(calls).toBe(registeredOperations().length * roles.length);
    expect(faults).toEqual([]);
    expect(findings.filter((f) => f.expected === 'refused')).toEqual([]);
    expect(findings).toEqual([]);
  }, 600_000);
});

/** A literal of `type` that parses (not necessarily one the use case takes). */
function literal(type: GraphQLInputType): string {
  if (isNonNullType(type)) return literal(type.ofType);
  if (isListType(type)) return `[${literal(type.ofType)}]`;
  if (isEnumType(type)) return type.getValues()[0].name;
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields()).filter((f) => isNonNullType(f.type) && f.defaultValue === undefined);
    return `{ ${fields.map((f) => `${f.name}: ${literal(f.type)}`).join(', ')} }`;
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int': return '999999';
      case 'Float': return '1.5';
      case 'Boolean': return 'false';
      case 'ID': return '"999999"';
      case 'DateTimeISO': return '"2026-01-01T00:00:00.000Z"';
      // A file goes as a part of a multipart request, never inline: a variable the request fills (`requestOf`).
      case 'Upload': return '$file';
      default: return '"x"';
    }
  }
  throw new Error(`no literal for ${String(type)}`);
}

/** The operation that calls root field `field` with its required arguments, selecting only `__typename` below it. */
function operationOf(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>): string {
  const args = field.args.filter((a) => isNonNullType(a.type) && a.defaultValue === undefined);
  const argText = args.length > 0 ? `(${args.map((a) => `${a.name}: ${literal(a.type)}`).join(', ')})` : '';
  const named = getNamedType(getNullableType(field.type));
  const selection = isObjectType(named) || isUnionType(named) ? ' { __typename }' : '';
  return `${kind}${argText.includes('$file') ? '($file: Upload!)' : ''} { ${field.name}${argText}${selection} }`;
}

/** The HTTP request of an operation: JSON, or a multipart request (GraphQL multipart request specification) when it carries a file. */
function requestOf(query: string): { headers: Record<string, string>; body: string | FormData } {
  if (!query.includes('$file')) return { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) };
  const form = new FormData();
  form.append('operations', JSON.stringify({ query, variables: { file: null } }));
  form.append('map', JSON.stringify({ 0: ['variables.file'] }));
  form.append('0', new Blob(['not a picture']), 'x.png');
  return { headers: { 'apollo-require-preflight': 'true' }, body: form };
}

const permissionsOf = (field: GraphQLField<unknown, unknown>) => (field.extensions as { permissions?: Permission[] }).permissions;

describe('GraphQL: every root field of the schema, by every role', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await graphqlSchema();
  });

  it('declares a permission on every query, mutation and subscription', () => {
    const roots = [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap((type) => Object.values(type?.getFields() ?? {}));
    expect(roots.length).toBeGreaterThan(150);
    expect(roots.filter((f) => !permissionsOf(f)?.length || !permissionsOf(f)!.every((p) => Object.values(Permission).includes(p))).map((f) => f.name)).toEqual([]);
  });

  it('allows exactly the roles that hold the declared permission', async () => {
    const tokens = new Map<Role_, string | undefined>();
    for (const role of roles) tokens.set(role, await tokenOf(role));
    const fields = [
      ...Object.values(schema.getQueryType()!.getFields()).map((field) => ({ kind: 'query' as const, field })),
      ...Object.values(schema.getMutationType()!.getFields()).map((field) => ({ kind: 'mutation' as const, field })),
    ];
    const findings: Finding[] = [];
    const unexecuted: string[] = [];
    const cases = fields.flatMap((f) => roles.map((role) => ({ ...f, role })));
    await inBatches(cases, 4, async ({ kind, field, role }) => {
      const token = field.name === 'logout' ? await tokenOf(role) : tokens.get(role);
      const request = requestOf(operationOf(kind, field));
      const res = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { ...request.headers, ...headersOf(role, token) }, body: request.body });
      const json = (await res.json()) as { data?: Record<string, unknown> | null; errors?: { path?: string[]; extensions?: { code?: string } }[] };
      const own = (json.errors ?? []).filter((e) => e.path?.[0] === field.name);
      if (json.data == null && own.length === 0) {
        unexecuted.push(`${field.name}: ${JSON.stringify(json.errors?.[0])}`);
        return;
      }
      const codes = own.map((e) => e.extensions?.code);
      const refused = codes.some((c) => c === 'FORBIDDEN' || c === 'UNAUTHENTICATED' || c === 'TOKEN_INVALID' || c === 'TOKEN_EXPIRED');
      const should = expected(role, permissionsOf(field)!);
      if (refused === should) findings.push({ op: `${kind} ${field.name} (${permissionsOf(field)!.join(' | ')})`, role: role.name, expected: should ? 'allowed' : 'refused', got: codes.join(',') || 'data' });
    });
    expect(unexecuted).toEqual([]);
    expect(findings.filter((f) => f.expected === 'refused')).toEqual([]);
    expect(findings).toEqual([]);
  }, 600_000);
});

/** The codes a refusal is told by: a refused socket's close reason, or a refused operation's error code. */
const REFUSALS = new Set(['FORBIDDEN', 'UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED']);

describe('GraphQL subscriptions over a websocket, by every role', () => {
  let schema: GraphQLSchema;
  beforeAll(async () => {
    schema = await graphqlSchema();
  });

  /**
   * Each subscription field is subscribed to for real, as a client does: a graphql-ws connection with
   * the role's bearer token and the shop it names in `connectionParams`. Refused: the connection is
   * closed (4401, an anonymous caller: every socket needs an account) or the operation answers
   * FORBIDDEN. Allowed: the server listens for events for it, or answers it otherwise (the dummy
   * payment id's NOT_FOUND, which comes after the door). A subscription with no declared permission
   * is a finding of its own.
   */
  it('allows exactly the roles that hold the declared permission', async () => {
    const fields = Object.values(schema.getSubscriptionType()?.getFields() ?? {});
    expect(fields.map((f) => f.name).sort()).toEqual(expect.arrayContaining(['events', 'myOrderEvents', 'paymentUpdates']));
    const findings: Finding[] = [];
    let subscribed = 0;
    for (const field of fields) {
      const permissions = permissionsOf(field);
      if (!permissions?.length) {
        findings.push({ op: `subscription ${field.name} (no permission)`, role: '*', expected: 'refused', got: 'undeclared' });
        continue;
      }
      for (const role of roles) {
        const live = await subscribe(t, operationOf('subscription', field), { token: await tokenOf(role), shopId: role.shopHeader });
        // A closed socket ends the subscription with its close event; errors the server raises before
        // the operation runs end it with their list; errors of the operation come as its first result.
        const close = live.error && !Array.isArray(live.error) ? (live.error as { code?: number; reason?: string }) : null;
        const errors = (Array.isArray(live.error) ? live.error : live.results[0]?.errors) as { extensions?: { code?: unknown } }[] | undefined;
        const got = close ? `close ${close.code} ${close.reason}` : errors ? String(errors[0].extensions?.code) : live.results.length ? 'data' : live.completed ? 'completed' : 'listening';
        const refused = close ? close.code === 4401 && REFUSALS.has(close.reason ?? '') : errors?.some((e) => REFUSALS.has(String(e.extensions?.code))) ?? false;
        const should = expected(role, permissions);
        // Refused for the reason the table gives: no account at all, or an account without the permission.
        const reason = role.user ? 'FORBIDDEN' : 'close 4401 UNAUTHENTICATED';
        if (refused === should || (refused && got !== reason)) {
          findings.push({ op: `subscription ${field.name} (${permissions.join(' | ')})`, role: role.name, expected: should ? 'allowed' : `refused ${reason}`, got });
        }
        await live.close();
        subscribed++;
      }
    }
    expect(findings.filter((f) => f.expected !== 'allowed')).toEqual([]);
    expect(findings).toEqual([]);
    expect(subscribed).toBe(fields.length * roles.length);
  }, 120_000);
});
