import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';

/** CORS on the API doors: the origins of CORS_ORIGINS may call /api and /graphql from a page, no other. */
const ALLOWED = 'https://shop.example';
const REFUSED = 'https://elsewhere.example';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ corsOrigins: [ALLOWED, 'http://localhost:5173'] });
});
afterAll(() => t.close());

const preflight = (path: string, origin: string, method = 'POST') =>
  fetch(t.baseUrl + path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type,idempotency-key' },
  });

describe.each(['/api/checkout', '/graphql'])('CORS on %s', (path) => {
  it('answers an allowed origin\u2019s preflight with the methods and headers, and no credentials mode', async () => {
    const res = await preflight(path, ALLOWED);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase().split(/,\s*/)).toEqual(expect.arrayContaining(['authorization', 'content-type', 'idempotency-key']));
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('gives a refused origin\u2019s preflight no CORS header', async () => {
    const res = await preflight(path, REFUSED);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
    expect(res.headers.get('access-control-allow-methods')).toBeNull();
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });
});

describe('CORS on answers', () => {
  it('lets an allowed origin read REST and GraphQL answers, errors included', async () => {
    const user = await newCustomer(t);
    const me = await t.api('GET', '/api/me', { token: user.token, headers: { origin: ALLOWED } });
    expect(me.status).toBe(200);
    expect(me.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(me.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
    expect(me.headers.get('access-control-allow-credentials')).toBeNull();
    const missing = await t.api('GET', '/api/products/999999', { headers: { origin: ALLOWED } });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    const gql = await t.api('POST', '/graphql', { headers: { origin: 'http://localhost:5173' }, body: { query: '{ currency { code } }' } });
    expect(gql.body).toEqual({ data: { currency: { code: 'CNY' } } });
    expect(gql.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
  });

  it('gives a refused origin the answer without a CORS header (the browser keeps it from the page)', async () => {
    for (const res of [
      await t.api('GET', '/api/products', { headers: { origin: REFUSED } }),
      await t.api('POST', '/graphql', { headers: { origin: REFUSED }, body: { query: '{ currency { code } }' } }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/Origin/);
    }
  });

  it('leaves other paths alone', async () => {
    const res = await fetch(`${t.baseUrl}/healthz`, { headers: { origin: ALLOWED } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
