import { vi } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, type TestUser } from './support/fixtures.js';
import { wsOperation } from './support/subscriptions.js';

const defaults = loadConfig({}).graphqlLimits;
let t: TestApp;
/** Introspection off, a small cost budget and a small body limit. */
let strict: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await startTestApp();
  strict = await startTestApp({ graphqlIntrospection: false, bodyLimitBytes: 4096, graphqlLimits: { ...defaults, maxCost: 20 } });
  user = await newCustomer(t);
});
afterAll(async () => {
  await strict?.close();
  await t?.close();
});

/** `{ __type { fields { type { ofType ... { name } } } } }` nested `depth` fields deep. */
function nested(depth: number): string {
  const ofTypes = depth - 4;
  return `{ __type(name: "User") { fields { type { ${'ofType { '.repeat(ofTypes)}name${' }'.repeat(ofTypes)} } } } }`;
}

function aliases(n: number): string {
  return `{ ${Array.from({ length: n }, (_, i) => `a${i}: me { id }`).join(' ')} }`;
}

describe('GraphQL limits', () => {
  it(`refuses a query deeper than the limit (${defaults.maxDepth}) with QUERY_TOO_DEEP and 400, and runs one at the limit`, async () => {
    const deep = await t.gql(nested(defaults.maxDepth + 1));
    expect(deep.status).toBe(400);
    expect(deep.data).toBeUndefined();
    expect(deep.errors).toHaveLength(1);
    expect(deep.errors![0].extensions).toEqual({ code: 'QUERY_TOO_DEEP', status: 400 });
    expect(deep.errors![0].message).toBe(`Query depth limit of ${defaults.maxDepth} exceeded, found ${defaults.maxDepth + 1}.`);

    const atLimit = await t.gql(nested(defaults.maxDepth));
    expect(atLimit.errors).toBeUndefined();
    expect(atLimit.data.__type.fields.length).toBeGreaterThan(0);
  });

  it('counts the depth through fragments as if they were written inline', async () => {
    const ofTypes = defaults.maxDepth - 3;
    const query = `{ __type(name: "User") { ...F } } fragment F on __Type { fields { type { ${'ofType { '.repeat(ofTypes)}name${' }'.repeat(ofTypes)} } } }`;
    expect((await t.gql(query)).errors?.[0].extensions.code).toBe('QUERY_TOO_DEEP');
  });

  it(`refuses more than ${defaults.maxAliases} aliases with TOO_MANY_ALIASES`, async () => {
    const tooMany = await t.gql(aliases(defaults.maxAliases + 1), {}, user.token);
    expect(tooMany.status).toBe(400);
    expect(tooMany.errors![0].extensions).toEqual({ code: 'TOO_MANY_ALIASES', status: 400 });
    const atLimit = await t.gql(aliases(defaults.maxAliases), {}, user.token);
    expect(atLimit.errors).toBeUndefined();
    expect(atLimit.data.a0.id).toBe(user.id);
  });

  it(`refuses a document of more than ${defaults.maxTokens} tokens with QUERY_TOO_LARGE`, async () => {
    const res = await t.gql(`{ me { ${'id '.repeat(defaults.maxTokens)}} }`, {}, user.token);
    expect(res.status).toBe(400);
    expect(res.errors![0].extensions).toEqual({ code: 'QUERY_TOO_LARGE', status: 400 });
    expect(res.errors![0].message).toBe(`The operation has more than ${defaults.maxTokens} tokens`);
  });

  it('refuses a query over the cost budget with QUERY_TOO_COMPLEX', async () => {
    // Cost 2 per object and 1 per scalar, times 1.5 per level: about 31 here, over a budget of 20.
    const res = await strict.gql('{ __type(name: "User") { fields { type { ofType { name kind description } } } } }');
    expect(res.status).toBe(400);
    expect(res.errors![0].extensions).toEqual({ code: 'QUERY_TOO_COMPLEX', status: 400 });
    expect((await strict.gql('{ __typename }')).errors).toBeUndefined();
  });

  it('applies the same limits to operations over the websocket', async () => {
    const deep = await wsOperation(t, nested(defaults.maxDepth + 1), user.token);
    expect(deep.error).toEqual([expect.objectContaining({ extensions: { code: 'QUERY_TOO_DEEP', status: 400 } })]);
    const many = await wsOperation(t, aliases(defaults.maxAliases + 1), user.token);
    expect(many.error).toEqual([expect.objectContaining({ extensions: { code: 'TOO_MANY_ALIASES', status: 400 } })]);
    const large = await wsOperation(t, `{ me { ${'id '.repeat(defaults.maxTokens)}} }`, user.token);
    expect(large.error).toEqual([expect.objectContaining({ extensions: { code: 'QUERY_TOO_LARGE', status: 400 } })]);
    const fine = await wsOperation(t, '{ me { id } }', user.token);
    expect(fine.result).toEqual({ data: { me: { id: user.id } } });
  });

  it('gives no field suggestions in validation errors, over HTTP or the websocket', async () => {
    const http = await t.gql('{ mee { id } }');
    expect(http.errors![0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(http.errors![0].message).toBe('Cannot query field "mee" on type "Query".');
    const ws = await wsOperation(t, '{ mee { id } }', user.token);
    expect(ws.error).toEqual([expect.objectContaining({ message: 'Cannot query field "mee" on type "Query".' })]);
  });

  it('serves no introspection when GRAPHQL_INTROSPECTION is off, over HTTP or the websocket', async () => {
    const query = '{ __schema { queryType { name } } }';
    expect((await t.gql(query)).data.__schema.queryType.name).toBe('Query');
    const http = await strict.gql(query);
    expect(http.status).toBe(400);
    // One refusal, the same over both doors, naming no server software and no way to turn it on.
    const refusal = { message: 'Introspection is turned off on this server', code: 'GRAPHQL_VALIDATION_FAILED' };
    expect(http.errors!.map((e) => ({ message: e.message, code: e.extensions.code }))).toEqual([refusal]);
    expect(JSON.stringify(http.errors)).not.toMatch(/apollo|introspection: true/i);
    const other = await newCustomer(strict);
    const ws = await wsOperation(strict, query, other.token);
    expect(ws.error.map((e: { message: string; extensions: { code: string } }) => ({ message: e.message, code: e.extensions.code }))).toEqual([refusal]);
    expect((await strict.gql('{ __typename }')).data.__typename).toBe('Query');
  });

  it(`answers an operation with more than ${defaults.maxDirectives} directives with that one error, over HTTP or the websocket`, async () => {
    // Sixty `@include` on one field: also fifty-nine "can only be used once at this location".
    const query = `{ __typename ${'@include(if: true) '.repeat(defaults.maxDirectives + 10)}}`;
    const http = await t.gql(query);
    expect(http.status).toBe(400);
    expect(http.errors).toEqual([{ message: `Directives limit of ${defaults.maxDirectives} exceeded, found ${defaults.maxDirectives + 10}.`, extensions: { code: 'TOO_MANY_DIRECTIVES', status: 400 } }]);
    const ws = await wsOperation(t, query, user.token);
    expect(ws.error).toEqual([expect.objectContaining({ extensions: { code: 'TOO_MANY_DIRECTIVES', status: 400 } })]);
  });

  it('refuses a /graphql body over BODY_LIMIT_BYTES with 413 PAYLOAD_TOO_LARGE, and a websocket message over it', async () => {
    const big = `{ __typename ${' '.repeat(5000)}}`;
    const res = await strict.api('POST', '/graphql', { body: { query: big } });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    const other = await newCustomer(strict);
    // graphql-ws reports the refused frame on the console; keep the test output clean.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ws = await wsOperation(strict, big, other.token);
      expect(ws.error).toMatchObject({ code: 1009 });
    } finally {
      quiet.mockRestore();
    }
  });
});
