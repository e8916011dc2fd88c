import { vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, StoreContext } from './support/browser.js';
import { startTestApp, type TestApp } from './support/harness.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await startTestApp();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('the REST reference page at /api/docs', () => {
  it('renders the operations from /api/openapi.json with every file from this server', async () => {
    const store = await StoreContext.open(browser, t);
    const elsewhere: string[] = [];
    // Any request to another host fails, as on a machine without internet.
    await store.context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === t.baseUrl) return route.continue();
      elsewhere.push(url.href);
      return route.abort();
    });
    const page = await store.page();
    // Swagger UI parses a large bundle: give a loaded machine time.
    page.setDefaultTimeout(30_000);
    const res = await page.goto('/api/docs');
    expect(res?.status()).toBe(200);
    await page.getByText('Mallfront REST API').first().waitFor();
    // An operation's path and summary, and the tag it is listed under.
    await page.getByText('Sign in: a bearer token').first().waitFor();
    expect(await page.locator('[data-path="/api/auth/login"]').count()).toBeGreaterThan(0);
    expect(await page.getByRole('heading', { name: 'Accounts' }).count()).toBeGreaterThan(0);
    await store.screenshot(page, 'api-docs');
    // Swagger UI (5.35) lays out only the operations near the viewport and the rest as the reader
    // scrolls: scrolled through, the page shows every operation of the document, once each.
    type Items = Record<string, Record<string, { operationId?: string }>>;
    const document = (await (await fetch(`${t.baseUrl}/api/openapi.json`)).json()) as { paths: Items; webhooks: Items };
    // The operations and the webhooks the server sends (listed under their own tag).
    const operations = [...Object.values(document.paths), ...Object.values(document.webhooks)].flatMap((item) => Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])));
    expect(Object.keys(document.webhooks).length).toBeGreaterThan(20);
    const seen = new Set<string>();
    for (let step = 0; step < 400 && seen.size < operations.length; step++) {
      for (const id of await page.locator('.opblock').evaluateAll((blocks) => blocks.map((b) => b.id))) seen.add(id.slice(id.lastIndexOf('-') + 1));
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(50);
    }
    expect([...seen].sort()).toEqual([...operations].sort());
    expect(elsewhere).toEqual([]);
    expect(store.problems).toEqual([]);
    await store.close();
  });

  it('serves Swagger UI from the npm package, not from a CDN', async () => {
    const html = await (await fetch(`${t.baseUrl}/api/docs`)).text();
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${t.baseUrl}/api/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
  });
});
