import { gzipSync } from 'node:zlib';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { expectDocumentedAnswer } from './support/contract.js';
import { addToCart, ADDRESS, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const NUL = 'a\u0000b';
const LONE_SURROGATE = 'a\ud800b';

const count = async (table: string) => (await t.sql<{ n: number }>(`select count(*)::int as n from ${table}`))[0].n;

function expectValidationOf(res: { status: number; body: any }, fields: string[]) {
  expect(res.status).toBe(400);
  expect(res.body.error.code).toBe('VALIDATION_FAILED');
  expect(res.body.error.details.problems.map((p: { field: string }) => p.field)).toEqual(fields);
}

/** Raw JSON nested `depth` arrays deep around a value. */
const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('text with NUL or a lone surrogate', () => {
  it('is refused in a checkout body, naming the field, and nothing is ordered', async () => {
    const { product } = await shopWithProduct(t);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    for (const bad of [NUL, LONE_SURROGATE]) {
      const res = await t.api('POST', '/api/checkout', { token: customer.token, body: { shipping_address: { ...ADDRESS, address: bad } } });
      expectValidationOf(res, ['shipping_address.address']);
    }
    expect(await count('shop_order')).toBe(0);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.item_count).toBe(1);
  });

  it('is refused in registration, and no account is made', async () => {
    const before = await count('app_user');
    for (const bad of [NUL, LONE_SURROGATE]) {
      const res = await t.api('POST', '/api/auth/register', { body: { email: 'text@example.test', password: 'long enough pw', display_name: bad } });
      expectValidationOf(res, ['display_name']);
    }
    expect(await count('app_user')).toBe(before);
  });

  it('is refused in a path segment and in a query string', async () => {
    expectValidationOf(await t.api('GET', '/api/shops/a%00b'), ['slug']);
    expectValidationOf(await t.api('GET', '/api/products?sort=%00&page_size=2'), ['sort']);
  });

  it('is refused in an object key', async () => {
    const res = await t.api('POST', '/api/auth/login', { body: { email: 'x@example.test', password: 'pw', [NUL]: 1 } });
    expectValidationOf(res, [null as unknown as string]);
  });

  it('is refused over GraphQL, in variables and inline arguments, and no account is made', async () => {
    const before = await count('app_user');
    const viaVariables = await t.gql(`mutation($i: RegisterInput!) { register(input: $i) { session { token } } }`, {
      i: { email: 'gql-text@example.test', password: 'long enough pw', displayName: LONE_SURROGATE },
    });
    expect(viaVariables.status).toBe(400);
    expect(viaVariables.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { problems: [{ field: 'i.displayName' }] } });
    expect(viaVariables.data).toBeUndefined();

    const inline = await t.gql(`mutation { register(input: { email: "gql-text@example.test", password: "long enough pw", displayName: "a\\u0000b" }) { session { token } } }`);
    expect(inline.status).toBe(400);
    expect(inline.errors?.[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', details: { problems: [{ field: 'input.displayName' }] } });
    expect(JSON.stringify(inline.errors)).not.toContain('"http"');
    expect(await count('app_user')).toBe(before);
  });
});

describe('JSON nested too deep', () => {
  it('is refused with 400 JSON_TOO_DEEP on every route with a body, anonymous login included', async () => {
    // A signed-in caller on the route that needs one: an anonymous one is answered 401 before its body is read.
    const customer = await newCustomer(t);
    for (const path of ['/api/auth/login', '/api/auth/register', '/api/checkout', '/graphql']) {
      const token = path === '/api/checkout' ? customer.token : undefined;
      const res = await t.api('POST', path, { raw: `{"a":${nested(3000)}}`, token });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'JSON_TOO_DEEP', details: { max_depth: 32 } });
    }
  });

  it('lets 32 levels through to validation, and counts brackets inside strings as text', async () => {
    const atLimit = await t.api('POST', '/api/auth/login', { raw: `{"email":${nested(31)}}` });
    expect(atLimit.body.error.code).toBe('VALIDATION_FAILED');
    const inText = await t.api('POST', '/api/auth/login', { body: { email: '['.repeat(100), password: '{"\\'.repeat(100) } });
    expect(inText.body.error.code).toBe('VALIDATION_FAILED');
    const over = await t.api('POST', '/api/auth/login', { raw: `{"email":${nested(32)}}` });
    expect(over.body.error.code).toBe('JSON_TOO_DEEP');
  });
});

describe('Content-Encoding', () => {
  /** A login with an encoded body; its answer is checked against the document like every other. */
  const post = async (body: Uint8Array | string, encoding: string) => {
    const res = await fetch(`${t.baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'content-encoding': encoding }, body });
    const json: unknown = await res.json();
    expectDocumentedAnswer('POST', '/api/auth/login', res.status, json, res.headers);
    return { status: res.status, json: () => json };
  };

  it('refuses a body that does not decode with 400 MALFORMED_ENCODING', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const res = await post('{"email":"x@example.test","password":"pw"}', encoding);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: 'MALFORMED_ENCODING', message: expect.any(String) } });
    }
  });

  it('reads a gzip body that does decode', async () => {
    const res = await post(gzipSync(JSON.stringify({ email: 'nobody@example.test', password: 'wrong one' })), 'gzip');
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_CREDENTIALS');
  });

  it('answers 400 to a path that is not valid percent-encoding', async () => {
    const res = await t.api('GET', '/api/shops/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('BAD_REQUEST');
  });
});

describe('unique keys', () => {
  it('answers 409 EMAIL_TAKEN to all but one of 10 concurrent registrations of one email', async () => {
    const body = { email: 'race@example.test', password: 'long enough pw', display_name: 'Racer' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => t.api('POST', '/api/auth/register', { body })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    for (const a of answers.filter((a) => a.status === 409)) expect(a.body.error.code).toBe('EMAIL_TAKEN');
    expect((await t.sql(`select count(*)::int as n from app_user where email = 'race@example.test'`))[0].n).toBe(1);
  });
});

describe('unknown fields', () => {
  it('are refused on registration, login and a cart line, and change nothing', async () => {
    const before = await count('app_user');
    const reg = await t.api('POST', '/api/auth/register', { body: { email: 'extra@example.test', password: 'long enough pw', display_name: 'E', role: 'platform_admin' } });
    expect(reg.status).toBe(400);
    expect(reg.body.error.details.problems).toEqual([{ field: 'role', message: 'Unknown field' }]);
    expect(await count('app_user')).toBe(before);
    expect((await t.api('POST', '/api/auth/login', { body: { email: 'x@example.test', password: 'pw', remember: true } })).status).toBe(400);

    const { product } = await shopWithProduct(t);
    const customer = await newCustomer(t);
    const cart = await t.api('PUT', `/api/cart/items/${product.skuIds[0]}`, { token: customer.token, body: { quantity: 1, unit_price: 1 } });
    expect(cart.status).toBe(400);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.item_count).toBe(0);
  });

  it('refuses a __proto__ key as an unknown field instead of taking it as a prototype', async () => {
    const res = await t.api('POST', '/api/auth/register', {
      raw: '{"email":"proto@example.test","password":"long enough pw","display_name":"P","__proto__":{"role":"platform_admin"}}',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(await count(`app_user where email = 'proto@example.test'`)).toBe(0);
  });

  it('are refused over GraphQL by the schema', async () => {
    const res = await t.gql(`mutation { login(input: { email: "x@example.test", password: "pw", remember: true }) { session { token } } }`);
    expect(res.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });
});
