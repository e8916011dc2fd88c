import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, StoreContext } from './support/browser.js';
import { newCustomer } from './support/fixtures.js';
import { placeOrder, shopWithProduct } from './support/shopping.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * GraphiQL at `GET /graphql`, served from our own bundle: in Chromium with every other host blocked,
 * it runs a query, shows the schema, and takes a subscription over the websocket with the bearer
 * token from its headers editor.
 */
let t: TestApp;
let browser: Browser;
let store: StoreContext;
/** Requests the page tried to make to another host (all refused). */
const elsewhere: string[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp({ graphiql: true }), launchBrowser()]);
  store = await StoreContext.open(browser, t);
  const own = new URL(t.baseUrl).host;
  await store.context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).host === own) return route.continue();
    elsewhere.push(url);
    return route.abort('internetdisconnected');
  });
});

afterAll(async () => {
  await store?.close();
  await browser?.close();
  await t?.close();
});

/** Replaces the text of a Monaco editor (inserted, so no brackets are auto-closed). */
async function setEditor(page: Page, editor: string, text: string) {
  await page.locator(editor).click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Delete');
  await page.keyboard.insertText(text);
}

const QUERY_EDITOR = '.graphiql-query-editor .monaco-editor';
const HEADERS_EDITOR = '.monaco-editor[data-uri*="headers"]';

/** Waits until the response pane shows `text` (Monaco draws it in many spans: compare the whole text). */
async function responseShows(page: Page, text: string, timeoutMs = 10_000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if ((await page.locator('.graphiql-response').textContent())?.includes(text)) return true;
  }
  return false;
}

describe('GraphiQL', () => {
  it('answers a browser at GET /graphql with its page, and GraphQL clients as before', async () => {
    const page = await fetch(`${t.baseUrl}/graphql`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).toContain('<div id="graphiql">');
    expect(html).not.toMatch(/https?:\/\//);
    const get = await fetch(`${t.baseUrl}/graphql?query=${encodeURIComponent('{ currency { code } }')}`, { headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(await get.json()).toEqual({ data: { currency: { code: 'CNY' } } });
  });

  it('runs { currency { code } } in Chromium with the network to other hosts blocked', async () => {
    const page = await store.page();
    await page.goto('/graphql');
    await setEditor(page, QUERY_EDITOR, '{ currency { code } }');
    await page.locator('.graphiql-execute-button').click();
    expect(await responseShows(page, '"CNY"')).toBe(true);
    await page.getByRole('button', { name: /Documentation Explorer/ }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor();
    expect(elsewhere).toEqual([]);
    expect(store.problems).toEqual([]);
    await page.close();
  });

  it('sends the headers editor\u2019s bearer token over the websocket, and shows subscription events', async () => {
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    // Enough stock for every try of the loop below on a slow machine (each try places an order).
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 1000 }]);
    const page = await store.page();
    await page.goto('/graphql');
    await page.getByRole('button', { name: 'Headers' }).click();
    await setEditor(page, HEADERS_EDITOR, JSON.stringify({ Authorization: `Bearer ${customer.token}` }));
    await setEditor(page, QUERY_EDITOR, 'subscription { myOrderEvents { type } }');
    await page.locator('.graphiql-execute-button').click();
    // The page does not show when the websocket's subscription is live: place orders until one shows.
    // On a loaded machine GraphiQL's editor and websocket take seconds: keep trying for 30 s.
    let shown = false;
    for (const until = Date.now() + 30_000; Date.now() < until && !shown; ) {
      await placeOrder(t, customer.token, product.skuIds[0]);
      shown = await responseShows(page, 'ORDER_PLACED', 1000);
    }
    expect(shown).toBe(true);
    expect(elsewhere).toEqual([]);
    expect(store.problems).toEqual([]);
    await page.close();
  });
});
