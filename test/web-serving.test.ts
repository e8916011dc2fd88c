import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './support/harness.js';
import { webAppDir } from '../src/server/web-app.js';

let t: TestApp;
beforeAll(async () => {
  if (!existsSync(join(webAppDir(), 'index.html'))) throw new Error('web app not built: `npm test` builds it (npm run build:web)');
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (path: string, accept = 'text/html') => fetch(t.baseUrl + path, { headers: { accept } });
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('the web app served by the API process', () => {
  it.each(['/', '/products/12', '/shops/tech-harbor', '/categories/3', '/brands/1', '/flash-sales', '/group-buys', '/points', '/coupons', '/search?q=tea', '/login', '/register', '/cart', '/checkout', '/orders', '/orders/5', '/account', '/favorites', '/ops'])(
    'answers %s with the app (history fallback)',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(await res.text()).toContain('<div id="root">');
    },
  );

  it('serves hashed assets for a year', async () => {
    const html = await (await get('/')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const res = await get(script!, '*/*');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('max-age=31536000');
    expect(res.headers.get('cache-control')).toContain('immutable');
  });

  it('leaves the API doors their own answers, 404s in the common error shape included', async () => {
    const api = await get('/api/nope');
    expect(api.status).toBe(404);
    expect(await errorCode(api)).toBe('ROUTE_NOT_FOUND');
    const apiJson = await get('/api/nope', 'application/json');
    expect(await errorCode(apiJson)).toBe('ROUTE_NOT_FOUND');
    expect((await get('/healthz')).headers.get('content-type')).toContain('application/json');
    expect((await get('/readyz')).status).toBe(200);
    const gql = await fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ currency { code } }"}' });
    expect(await gql.json()).toEqual({ data: { currency: { code: 'CNY' } } });
    const missingAsset = await get('/assets/missing-123.js', '*/*');
    expect(missingAsset.status).toBe(404);
    expect(await errorCode(missingAsset)).toBe('ROUTE_NOT_FOUND');
  });

  it('answers an unknown page with the app and 404 for browsers, and the JSON 404 for API clients', async () => {
    const page = await get('/no-such-page');
    expect(page.status).toBe(404);
    expect(await page.text()).toContain('<div id="root">');
    const json = await get('/no-such-page', 'application/json');
    expect(json.status).toBe(404);
    expect(await errorCode(json)).toBe('ROUTE_NOT_FOUND');
    expect((await fetch(`${t.baseUrl}/`, { method: 'POST' })).status).toBe(404);
  });
});
