import { startTestApp, type TestApp } from './support/harness.js';
import { expiredTokenFor, newAdmin, newCustomer, newOperator, newShop } from './support/fixtures.js';
import { allowedToken, customerHolder, ownerHolder, adminHolder, refusedToken, type Caller } from './support/callers.js';
import { Permission } from '../src/shared/permissions.js';
import { addToCart, checkoutBody, checkoutOk, shopWithProduct, stockOf } from './support/shopping.js';
import { registeredOperations } from '../src/rest/openapi/operation.js';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { apiRouter } from '../src/rest/api.js';

/**
 * The rules every REST route keeps alike (docs/api.md, "Conventions"): 405 with `Allow`, one rule
 * for unknown query parameters, `Idempotency-Key` checked as a header, and text fields checked by
 * exactly the patterns the OpenAPI document states.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

type JsonObject = Record<string, any>;
const doc = () => buildOpenApiDocument() as JsonObject;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** Every path under /api with its methods, and a concrete URL for it (ids 1, slugs `x`, kinds `banners`). */
function paths(): { template: string; url: string; methods: string[] }[] {
  apiRouter();
  const byPath = new Map<string, string[]>();
  for (const op of registeredOperations()) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op.method]);
  return [...byPath].map(([template, methods]) => ({
    template,
    url: `/api${template.replace(/:slug/g, 'x').replace(/:kind/g, 'banners').replace(/:[A-Za-z]+/g, '1')}`,
    methods,
  }));
}

describe('405 Method Not Allowed', () => {
  it('names the methods a path takes in Allow and in details.allowed, on every path', async () => {
    for (const { url, methods } of paths()) {
      const other = METHODS.find((m) => !methods.includes(m))!;
      const res = await t.api(other.toUpperCase(), url);
      expect(res.status).toBe(405);
      const allowed = methods.map((m) => m.toUpperCase());
      if (allowed.includes('GET')) allowed.push('HEAD');
      expect(res.headers.get('allow')).toBe(allowed.join(', '));
      expect(res.body.error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', details: { allowed } });
    }
  });
});

/** A token of each role: the one that may call an operation of each access level, and one that may not. */
async function roleTokens() {
  const shop = await newShop(t);
  const [customer, operator, admin] = [await newCustomer(t), await newOperator(t, shop.id), await newAdmin(t)];
  const callers: Caller[] = [
    { token: customer.token, holder: customerHolder },
    { token: operator.token, holder: ownerHolder },
    { token: admin.token, holder: adminHolder },
  ];
  const allowed = (permission: Permission) => allowedToken(permission, callers);
  const refused = (permission: Permission) => refusedToken(permission, callers);
  return { allowed, refused, expired: await expiredTokenFor(t, customer.id) };
}

describe('who may call comes before what is sent', () => {
  it('answers an anonymous, expired or wrong-role call of every protected operation 401 or 403, whatever its parameters and body', async () => {
    const { refused, expired } = await roleTokens();
    const protectedOps = registeredOperations().filter((op) => op.doc.permission !== Permission.Public);
    expect(protectedOps.length).toBeGreaterThan(90);
    for (const op of protectedOps) {
      const url = `${paths().find((p) => p.template === op.path)!.url}?x=1&page_size=0`;
      const method = op.method.toUpperCase();
      const raw = method === 'GET' || method === 'DELETE' ? undefined : '{"not json';
      const anonymous = await t.api(method, url, { raw });
      expect({ op: `${method} ${op.path}`, status: anonymous.status, code: anonymous.body.error.code }).toEqual({ op: `${method} ${op.path}`, status: 401, code: 'UNAUTHENTICATED' });
      const late = await t.api(method, url, { raw, token: expired });
      expect({ op: `${method} ${op.path}`, code: late.body.error.code }).toEqual({ op: `${method} ${op.path}`, code: 'TOKEN_EXPIRED' });
      const wrongRole = refused(op.doc.permission);
      if (!wrongRole) continue;
      const other = await t.api(method, url, { raw: raw && '{"unheard_of": true}', token: wrongRole });
      expect({ op: `${method} ${op.path}`, status: other.status, code: other.body.error.code }).toEqual({ op: `${method} ${op.path}`, status: 403, code: 'FORBIDDEN' });
    }
  });

  it('still answers the caller who may call with what is wrong in the request', async () => {
    const { allowed } = await roleTokens();
    const res = await t.api('GET', '/api/admin/reconciliation?x=1', { token: allowed(Permission.PlatformMoneyManage) });
    expect(res.status).toBe(400);
    expect(res.body.error.details.problems).toEqual([{ field: 'x', message: 'Unknown query parameter' }]);
    const unreadable = await t.api('POST', '/api/admin/payout-batches', { token: allowed(Permission.PlatformMoneyManage), raw: '{"not json' });
    expect(unreadable.body.error.code).toBe('MALFORMED_JSON');
    // A path no route takes answers an unreadable body as before.
    expect((await t.api('POST', '/api/no-such-route', { raw: '{"not json' })).body.error.code).toBe('MALFORMED_JSON');
  });
});

describe('unknown query parameters', () => {
  it('are refused on every operation with 400 naming each one, before anything runs', async () => {
    const { allowed } = await roleTokens();
    for (const op of registeredOperations()) {
      const url = paths().find((p) => p.template === op.path)!.url;
      const res = await t.api(op.method.toUpperCase(), `${url}?unheard_of=1&alsoThis=2`, { token: allowed(op.doc.permission) });
      expect({ op: `${op.method} ${op.path}`, status: res.status }).toEqual({ op: `${op.method} ${op.path}`, status: 400 });
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.problems).toEqual([
        { field: 'unheard_of', message: 'Unknown query parameter' },
        { field: 'alsoThis', message: 'Unknown query parameter' },
      ]);
    }
  });

  it('leave the documented ones alone', async () => {
    expect((await t.api('GET', '/api/products?page=1&page_size=5&sort=price&order=desc')).status).toBe(200);
    const customer = await newCustomer(t);
    expect((await t.api('GET', '/api/orders?status=paid&page=1', { token: customer.token })).status).toBe(200);
    expect((await t.api('GET', '/api/me/coupons?status=available', { token: customer.token })).status).toBe(200);
    expect((await t.api('GET', '/api/flash-sales?include_upcoming=true')).status).toBe(200);
  });

  it('take yes/no filters as true or false only', async () => {
    expect((await t.api('GET', '/api/flash-sales?include_upcoming=false')).status).toBe(200);
    for (const value of ['yes', '1', 'TRUE', '']) {
      const res = await t.api('GET', `/api/flash-sales?include_upcoming=${value}`);
      expect(res.status).toBe(400);
      expect(res.body.error.details.problems[0].field).toBe('include_upcoming');
    }
  });
});

describe('Idempotency-Key', () => {
  const BAD = ['', ' ', 'k'.repeat(201), 'café', 'a b'];

  it('refuses an empty or malformed key on checkout with 400 naming the header, and orders nothing', async () => {
    const [skuId] = (await shopWithProduct(t)).product.skuIds;
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, skuId, 1);
    for (const key of BAD) {
      const res = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody(), headers: { 'idempotency-key': key } });
      expect({ key, status: res.status }).toEqual({ key, status: 400 });
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.problems).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 200 visible ASCII characters' }]);
    }
    expect(await t.sql('select id from shop_order where customer_id = ?', [customer.id])).toEqual([]);
    expect(await stockOf(t, skuId)).toBe(10);
    // The longest key there may be works.
    expect((await checkoutOk(t, customer.token, { 'idempotency-key': 'k'.repeat(200) })).length).toBe(1);
  });

  it('refuses an empty or malformed key on payment with 400 naming the header, and charges nothing', async () => {
    const [skuId] = (await shopWithProduct(t)).product.skuIds;
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    await addToCart(t, customer.token, skuId, 1);
    const [order] = await checkoutOk(t, customer.token);
    for (const key of BAD) {
      const res = await t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token, headers: { 'idempotency-key': key } });
      expect(res.status).toBe(400);
      expect(res.body.error.details.problems).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 200 visible ASCII characters' }]);
    }
    expect((await t.api('GET', `/api/orders/${order.id}`, { token: customer.token })).body.status).toBe('pending_payment');
  });

  it('over GraphQL an empty idempotencyKey is refused the same way, as a user error naming the input field', async () => {
    const customer = await newCustomer(t);
    const res = await t.gql('mutation { payOrder(input: { orderId: 1, idempotencyKey: "" }) { order { id } userErrors { code field } } }', {}, customer.token);
    expect(res.errors).toBeUndefined();
    expect(res.data.payOrder).toEqual({ order: null, userErrors: [{ code: 'VALIDATION_FAILED', field: ['input', 'idempotencyKey'] }] });
  });
});

describe('a replayed idempotent answer', () => {
  /** The answer's status and body exactly as they came over the wire. */
  async function rawCall(url: string, token: string, key: string, body?: unknown) {
    const res = await fetch(t.baseUrl + url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return `${res.status} ${await res.text()}`;
  }
  async function rawGql(query: string, token: string) {
    const res = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
    return `${res.status} ${await res.text()}`;
  }

  it('is the first answer byte for byte over REST: cart merge, checkout, payment, payment of a whole checkout', async () => {
    const [skuA, skuB] = (await shopWithProduct(t, [{ price: 1000, stock: 10 }, { price: 2000, stock: 10 }])).product.skuIds;
    const [skuC] = (await shopWithProduct(t)).product.skuIds;
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    for (const [url, body] of [['/api/cart/merge', { items: [{ sku_id: skuA, quantity: 1 }, { sku_id: skuC, quantity: 2 }] }], ['/api/checkout', checkoutBody()]] as const) {
      const first = await rawCall(url, customer.token, `rest:${url}`, body);
      expect(first).toMatch(/^20[01] /);
      expect(await rawCall(url, customer.token, `rest:${url}`, body)).toBe(first);
    }
    const [orderA, orderC] = (await t.sql<{ id: number }>('select id from shop_order where customer_id = ? order by id', [customer.id])).map((o) => o.id);
    const paid = await rawCall(`/api/orders/${orderA}/pay`, customer.token, 'rest-pay');
    expect(paid).toMatch(/^200 /);
    expect(await rawCall(`/api/orders/${orderA}/pay`, customer.token, 'rest-pay')).toBe(paid);
    const all = await rawCall('/api/checkout/pay', customer.token, 'rest-pay-all', { order_ids: [orderA, orderC] });
    expect(all).toMatch(/^200 /);
    expect(await rawCall('/api/checkout/pay', customer.token, 'rest-pay-all', { order_ids: [orderA, orderC] })).toBe(all);
    void skuB;
  });

  it('is the first answer byte for byte over GraphQL: cart merge, checkout, payment, payment of a whole checkout', async () => {
    const [skuA] = (await shopWithProduct(t)).product.skuIds;
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const order = 'id status total createdAt paidAt shippingAddress { recipient region } items { skuId quantity unitPrice } shop { id slug }';
    const merge = `mutation { mergeCart(input: { items: [{ skuId: ${skuA}, quantity: 2 }], idempotencyKey: "gql-merge" }) { merged { cart { lines { skuId quantity } total } lines { skuId requested inCart outcome } } userErrors { code } } }`;
    const place = `mutation { checkout(input: { shippingAddress: { recipient: "Test Buyer", phone: "+86 138 0000 0000", region: CN_SH, address: "1 Test Road" }, idempotencyKey: "gql-checkout" }) { orders { ${order} } userErrors { code } } }`;
    for (const mutation of [merge, place]) {
      const first = await rawGql(mutation, customer.token);
      expect(first).not.toContain('userErrors":[{');
      expect(await rawGql(mutation, customer.token)).toBe(first);
    }
    const [{ id }] = await t.sql<{ id: number }>('select id from shop_order where customer_id = ?', [customer.id]);
    const pay = `mutation { payOrder(input: { orderId: ${id}, idempotencyKey: "gql-pay" }) { order { ${order} } userErrors { code } } }`;
    const payAll = `mutation { payCheckout(input: { orderIds: [${id}], idempotencyKey: "gql-pay-all" }) { orders { ${order} } userErrors { code } } }`;
    for (const mutation of [pay, payAll]) {
      const first = await rawGql(mutation, customer.token);
      expect(first).toContain('"status":"PAID"');
      expect(await rawGql(mutation, customer.token)).toBe(first);
    }
  });
});

/** The request schema of an operation's body in the committed document. */
const bodySchema = (path: string, method: string): JsonObject => doc().paths[path][method].requestBody.content['application/json'].schema;

describe('text rules are the patterns the document states', () => {
  const EMAILS = [
    'shopper@example.test', 'first.last+tag@mail.example.com', "o'neil@example.co", 'a@b.cd',
    'x@b-.test', 'x@-b.test', 'x@b..test', 'x@b.c', 'x@example', '.x@example.test', 'x.@example.test', 'x..y@example.test', 'x y@example.test', 'x@exa_mple.test', '',
  ];

  it('registration takes an email exactly when the documented pattern does', async () => {
    const { pattern, maxLength } = bodySchema('/api/auth/register', 'post').properties.email;
    expect(maxLength).toBe(254);
    const rule = new RegExp(pattern);
    expect(EMAILS.filter((e) => rule.test(e)).length).toBe(4);
    for (const [i, email] of EMAILS.entries()) {
      const res = await t.api('POST', '/api/auth/register', { body: { email, password: 'long enough pw', display_name: `Rule ${i}` } });
      expect({ email, accepted: res.status === 201 }).toEqual({ email, accepted: rule.test(email) });
      if (res.status !== 201) expect(res.body.error.details.problems).toEqual([{ field: 'email', message: 'must be an email address' }]);
    }
  });

  const URLS = [
    'https://img.example.test/a.png', 'http://cdn.example.com:8080/x/y?z=1#w', 'https://a.bc', 'https://127.0.0.1/a.png', '/demo-images/content/banners-0.svg',
    'https://img.example.test/a%20b?q=(1)',
    'ftp://img.example.test/a.png', 'https://localhost/a.png', 'https://-bad.example.test/a', 'https://img.example.test/a b', 'javascript:alert(1)', 'https://img.example.test/\u00e9',
    // What the probe got stored: port 0, a bad escape and characters a URL must escape.
    'http://O.a.EuR.CQHBYmFAaOeY:0?=pJIh?F%aM&0!^TC', 'https://img.example.test:65536/a', 'https://256.1.1.1/a', '//evil.example.test/a', '/\\evil.example.test/a', 'https://img.example.test/%zz',
  ];

  it('a shop profile takes a logo URL exactly when the documented pattern does', async () => {
    const admin = await newAdmin(t);
    const shop = await newShop(t);
    const { pattern } = bodySchema('/api/admin/shops/{id}/profile', 'put').properties.logo_url;
    const rule = new RegExp(pattern);
    expect(URLS.filter((u) => rule.test(u)).length).toBe(6);
    for (const url of URLS) {
      const res = await t.api('PUT', `/api/admin/shops/${shop.id}/profile`, { token: admin.token, body: { logo_url: url } });
      expect({ url, accepted: res.status === 200 }).toEqual({ url, accepted: rule.test(url) });
    }
  });

  it('the keyword takes at most the documented 200 characters, with a letter or digit', async () => {
    const q = doc().paths['/api/products'].get.parameters.find((p: JsonObject) => p.name === 'q').schema;
    expect(q.maxLength).toBe(200);
    const rule = new RegExp(q.pattern, 'u');
    for (const keyword of ['a'.repeat(200), '蓝'.repeat(200), ' phone ', '   ', '%%%', '#1']) {
      const res = await t.api('GET', `/api/products?q=${encodeURIComponent(keyword)}`);
      expect({ keyword, accepted: res.status === 200 }).toEqual({ keyword, accepted: rule.test(keyword) });
    }
    expect((await t.api('GET', `/api/products?q=${'a'.repeat(201)}`)).status).toBe(400);
    expect((await t.api('GET', `/api/products?q=${encodeURIComponent('蓝'.repeat(201))}`)).status).toBe(400);
  });

  it('sort and order take exactly their documented values, on the listing and its facets', async () => {
    const parameters = doc().paths['/api/products/facets'].get.parameters as JsonObject[];
    const values = (name: string) => parameters.find((p) => p.name === name)!.schema.enum as string[];
    expect(values('sort')).toEqual(['price', 'sales']);
    expect(values('order')).toEqual(['asc', 'desc']);
    for (const path of ['/api/products', '/api/products/facets']) {
      for (const sort of values('sort')) expect((await t.api('GET', `${path}?sort=${sort}`)).status).toBe(200);
      const res = await t.api('GET', `${path}?sort=rating`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'SORT_UNSUPPORTED', details: { parameter: 'sort', allowed: ['price', 'sales'] } });
    }
  });
});
