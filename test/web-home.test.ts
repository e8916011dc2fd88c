import { vi } from 'vitest';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, MOBILE, SCREENSHOT_DIR, sessionFor, storePages, WAIT_TIMEOUT_MS } from './support/browser.js';
import { ADMIN_EMAIL, DEMO_PASSWORD, SHOPS } from '../src/seed/demo-data.js';
import { seedDemoData } from '../src/seed/demo-seed.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The storefront's first pages with the demo data, in Chromium: the home page's search box completes a
 * Chinese word; the home, product and search pages start their own query while the app's code
 * downloads, and the app takes that answer instead of asking again; a screenshot for the README.
 */
let t: TestApp;
let browser: Browser;
const pages = storePages(() => ({ browser, t }));
const open = pages.open;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  expect(await seedDemoData(t.orm, 'development', t.deps.wiring.mediaStore)).toBe('seeded');
});

afterAll(async () => {
  await pages.close();
  await t?.close();
});


/**
 * Holds the app's entry script back until `until()` holds (or WAIT_TIMEOUT_MS has passed), so that what
 * the page does before its code runs can be seen: a condition, not a clock, so a slow machine only waits
 * longer.
 */
async function holdAppCode(page: Page, until: () => boolean): Promise<{ released: () => number }> {
  let releasedAt = 0;
  await page.route(/\/assets\/main-[\w-]+\.js$/, async (route) => {
    const deadline = Date.now() + WAIT_TIMEOUT_MS;
    while (!until() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    releasedAt = Date.now();
    await route.continue();
  });
  return { released: () => releasedAt };
}

/** The GraphQL operations the page sends, by name, with when each left. */
function recordOperations(page: Page): { name: string; at: number }[] {
  const sent: { name: string; at: number }[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).pathname !== '/graphql' || req.method() !== 'POST') return;
    sent.push({ name: (JSON.parse(req.postData() ?? '{}') as { operationName?: string }).operationName ?? '', at: Date.now() });
  });
  return sent;
}

describe('the home page with the demo data', () => {
  it("completes a Chinese word typed in its search box with the demo catalog's Chinese names, and opens the one chosen", async () => {
    const { store, page } = await open(MOBILE);
    await page.goto('/');
    await page.getByRole('heading', { name: 'Best sellers' }).waitFor();
    await page.getByRole('combobox', { name: 'Search products' }).fill('咖啡');
    const option = page.getByRole('option', { name: /^咖啡/ }).first();
    await option.waitFor();
    const name = (await option.locator('.suggestion-text').textContent()) ?? '';
    expect(name).toMatch(/^咖啡/);
    await option.click();
    await page.waitForURL(/\/products\/\d+$/);
    await page.getByRole('heading', { level: 1, name }).waitFor();
    expect(store.problems).toEqual([]);
  });

  it.each([
    ['home', '/', 'HomePage', 'Best sellers'],
    ['product', null, 'ProductPage', 'About this product'],
    ['search', `/search?q=${encodeURIComponent(' 咖啡 ')}`, 'SearchPage', 'Results for “咖啡”'],
  ] as const)('starts the %s page query from the page itself while the app code loads, and the app takes that answer', async (_name, path, operation, heading) => {
    const [product] = await t.sql<{ id: number }>(`select id from product where status = 'published' and description is not null order by id limit 1`);
    const { store, page } = await open();
    const sent = recordOperations(page);
    // Released once the page's own query has left: without it the app code waits the whole deadline and then asks itself.
    const held = await holdAppCode(page, () => sent.some((s) => s.name === operation));
    await page.goto(path ?? `/products/${product.id}`);
    await page.getByRole('heading', { name: heading }).waitFor();
    await page.waitForLoadState('networkidle');
    const asked = sent.filter((s) => s.name === operation);
    expect(asked).toHaveLength(1);
    // Seen before the app code was let go (the same millisecond at the earliest): the app, held until then, did not send it.
    expect(asked[0].at).toBeLessThanOrEqual(held.released());
    // Taken by the app (the root tsconfig has no DOM types: the expression is a string).
    expect(await page.evaluate("'__mallfrontPreload' in window")).toBe(false);
    expect(store.problems).toEqual([]);
  });

  it.each([
    ['shop', '/merchant', (): string => `ops@${SHOPS[0].slug}.mallfront.test`, 'Dashboard'],
    ['platform', '/admin', (): string => ADMIN_EMAIL, 'Live operations'],
  ] as const)("starts the %s console's frame query from the page itself, signed in, and the console takes that answer", async (_name, path, email, text) => {
    const { store, page } = await open(DESKTOP, await sessionFor(t, email(), DEMO_PASSWORD));
    const sent = recordOperations(page);
    const held = await holdAppCode(page, () => sent.some((s) => s.name === 'ConsoleShell'));
    await page.goto(path);
    await page.getByRole('navigation').getByRole('link', { name: text }).first().waitFor();
    await page.waitForLoadState('networkidle');
    const asked = sent.filter((s) => s.name === 'ConsoleShell');
    expect(asked).toHaveLength(1);
    expect(asked[0].at).toBeLessThanOrEqual(held.released());
    expect(await page.evaluate("'__mallfrontPreload' in window")).toBe(false);
    expect(store.problems).toEqual([]);
  });

  it("shows the storefront at desktop width down to the first row of best sellers (the README's picture: test-output/screenshots/home-demo-desktop.png)", async () => {
    const { store, page } = await open({ width: 1280, height: 1600 });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Best sellers' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate('document.fonts.ready.then(() => true)');
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'home-demo-desktop.png') });
    expect(store.problems).toEqual([]);
  });
});
