import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { startTestApp, type TestApp } from './support/harness.js';
import { pageCsp, webAppDir } from '../src/server/web-app.js';

let t: TestApp;
beforeAll(async () => {
  if (!existsSync(join(webAppDir(), 'index.html'))) throw new Error('web app not built: `npm test` builds it (npm run build:web)');
  t = await startTestApp();
});
afterAll(() => t.close());

const get = (path: string, accept = 'text/html') => fetch(t.baseUrl + path, { headers: { accept } });
const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;

describe('the web app served by the API process', () => {
  it.each(['/', '/products/12', '/shops/tech-harbor', '/categories/3', '/brands/1', '/flash-sales', '/group-buys', '/points', '/coupons', '/search?q=tea', '/login', '/register', '/cart', '/checkout', '/checkout/payment/7', '/orders', '/orders/5', '/account', '/favorites', '/ops'])(
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

  it('sends the build\'s brotli or gzip twin with Content-Encoding and Vary, and the plain file to a client that accepts neither', async () => {
    const html = await (await get('/')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const plain = readFileSync(join(webAppDir(), script));
    const raw = (path: string, acceptEncoding: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
        const req = request(`${t.baseUrl}${path}`, { headers: { 'accept-encoding': acceptEncoding, accept: '*/*' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const br = await raw(script, 'gzip, deflate, br');
    expect([br.status, br.headers['content-encoding'], br.headers['content-type']]).toEqual([200, 'br', 'text/javascript; charset=utf-8']);
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.length / 2);
    const gz = await raw(script, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(plain)).toBe(true);
    const identity = await raw(script, 'identity');
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.headers.vary).toContain('Accept-Encoding');
    expect(identity.body.equals(plain)).toBe(true);
    // The page too, when it is large enough for the build to have compressed it.
    const page = await raw('/cart', 'br');
    const index = readFileSync(join(webAppDir(), 'index.html'), 'utf8');
    if (existsSync(join(webAppDir(), 'index.html.br'))) expect([page.headers['content-encoding'], brotliDecompressSync(page.body).toString()]).toEqual(['br', index]);
    else expect([page.headers['content-encoding'], page.body.toString()]).toEqual([undefined, index]);
    expect(page.headers.vary).toContain('Accept-Encoding');
  });

  it("sends a preloaded route the build's copy of the page that names the route's chunks, and every other route the page without them", async () => {
    const routePages = JSON.parse(readFileSync(join(webAppDir(), 'route-pages.json'), 'utf8')) as { path: string; page: string }[];
    expect(routePages.map((r) => r.path)).toEqual(['^/$', '^/products/(\\d+)$', '^/search$', '^/merchant(/.*)?$', '^/admin(/.*)?$']);
    // A chunk's hash is 8 characters of [A-Za-z0-9_-] and may start with '-' (`product-page--f0EJ73D.js`).
    const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="\/assets\/([a-z-]+?)-[\w-]{8}\.js">/g)].map((m) => m[1]);
    const index = readFileSync(join(webAppDir(), 'index.html'), 'utf8');
    const routes = [
      ['/', 'route-0.html', 'home-page'],
      ['/products/7', 'route-1.html', 'product-page'],
      ['/search?q=tea', 'route-2.html', 'search-page'],
      ['/merchant/orders', 'route-3.html', 'merchant-console'],
      ['/admin', 'route-4.html', 'admin-console'],
    ];
    for (const [path, page, chunk] of routes) {
      const res = await get(path);
      const html = await res.text();
      expect(html).toBe(readFileSync(join(webAppDir(), page), 'utf8'));
      expect(preloads(html)).toContain(chunk);
      // The same inline blocks as index.html: the policy allows them by the same hashes.
      expect(res.headers.get('content-security-policy')).toBe((await get('/cart')).headers.get('content-security-policy'));
    }
    for (const path of ['/cart', '/products/7/reviews', '/shops/tech-harbor', '/merchants']) {
      const html = await (await get(path)).text();
      expect(html).toBe(index);
      expect(preloads(html).filter((c) => c.endsWith('-page') || c.endsWith('-console'))).toEqual([]);
    }
    // A console's page links the console's stylesheet, so its first paint does not wait for the code to ask for it.
    expect(await (await get('/merchant')).text()).toMatch(/<link rel="stylesheet" crossorigin href="\/assets\/[\w-]+\.css">/);
  });

  it("allows the page's own inline blocks (the stylesheet, the route preload script) by their hashes, and no other inline code", async () => {
    const res = await get('/');
    const html = await res.text();
    const csp = res.headers.get('content-security-policy') ?? '';
    const blocks = [...html.matchAll(/<(script|style)>([\s\S]*?)<\/\1>/g)];
    expect(blocks.map(([, tag]) => tag).sort()).toEqual(['script', 'style']);
    for (const [, tag, body] of blocks) {
      const directive = csp.split('; ').find((d) => d.startsWith(`${tag}-src `)) ?? '';
      expect(directive).toContain(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
    }
    expect(csp).not.toContain('unsafe-inline');
    // The script knows the first query of the home and product pages, and no stylesheet is left to fetch.
    expect(html).toContain('"operation":"HomePage"');
    expect(html).toContain('"operation":"ProductPage"');
    expect(html).not.toMatch(/<link rel="stylesheet"/);
  });

  it("names Stripe's documented origins (its script, its card frames, its API) only where Stripe is offered", async () => {
    const served = (await get('/')).headers.get('content-security-policy') ?? '';
    expect(served).not.toContain('stripe.com');
    const html = readFileSync(join(webAppDir(), 'index.html'), 'utf8');
    const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d]));
    const withStripe = directives(pageCsp(html, { stripe: true }));
    expect(withStripe['script-src']).toMatch(/ https:\/\/js\.stripe\.com$/);
    expect(withStripe['connect-src']).toMatch(/ https:\/\/api\.stripe\.com$/);
    expect(withStripe['frame-src']).toBe('frame-src https://js.stripe.com https://hooks.stripe.com');
    // Nothing else loosens: the rest is the page's policy without Stripe.
    const without = directives(pageCsp(html));
    expect(Object.keys(withStripe).filter((k) => k !== 'frame-src')).toEqual(Object.keys(without));
    expect(without['script-src']).toBe(served.split('; ').find((d) => d.startsWith('script-src ')));
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
