import { vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, StoreContext } from './support/browser.js';
import { newCategory, newProduct, newShop } from './support/fixtures.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Image addresses are the shops' own and may not load (the demo data's host does not exist): the
 * storefront then shows its grey placeholder, never a broken-image icon.
 */
let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser.close();
  await t.close();
});

it('shows the placeholder where a product image does not load, on the listing and the detail page', async () => {
  const shop = await newShop(t);
  const category = await newCategory(t);
  const broken = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Lantern with a lost picture' });
  // Port 9 (discard) refuses connections: the image fails at once.
  await t.sql('update product set image_url = ? where id = ?', ['https://127.0.0.1:9/missing.jpg', broken.id]);

  const store = await StoreContext.open(browser, t);
  const page = await store.page();
  await page.goto(`/categories/${category.id}`);
  const card = page.locator('article, li').filter({ hasText: 'Lantern with a lost picture' }).first();
  await card.locator('.image-placeholder').waitFor();
  expect(await card.locator('img').count()).toBe(0);

  await page.goto(`/products/${broken.id}`);
  await page.locator('.image-placeholder.product-image').waitFor();
  expect(await page.locator('img.product-image').count()).toBe(0);
  // The only errors are the image's own failed loads.
  expect(store.problems.filter((problem) => !problem.includes('Failed to load resource'))).toEqual([]);
  await store.close();
});

it('serves the demo pictures itself: SVG with width and height, cached for a year, the same bytes each time', async () => {
  const first = await fetch(`${t.baseUrl}/demo-images/products/7.svg`);
  expect(first.status).toBe(200);
  expect(first.headers.get('content-type')).toBe('image/svg+xml');
  expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const svg = await first.text();
  expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="800" height="600"/);
  expect(svg).not.toMatch(/<script|href=/);
  expect(await (await fetch(`${t.baseUrl}/demo-images/products/7.svg`)).text()).toBe(svg);
  expect((await fetch(`${t.baseUrl}/demo-images/banners/style-avenue.svg`)).status).toBe(200);
  for (const bad of ['/demo-images/secrets/1.svg', '/demo-images/products/..%2F1.svg', '/demo-images/products/1.png']) {
    expect((await fetch(`${t.baseUrl}${bad}`)).status).toBe(404);
  }
});

it('shows a demo picture on the product page with its space reserved, and asks no other host', async () => {
  const shop = await newShop(t);
  const category = await newCategory(t);
  const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Lantern with a drawn picture' });
  await t.sql('update product set image_url = ? where id = ?', [`/demo-images/products/${product.id}.svg`, product.id]);
  const store = await StoreContext.open(browser, t);
  const page = await store.page();
  const elsewhere: string[] = [];
  page.on('request', (req) => {
    if (new URL(req.url()).origin !== new URL(t.baseUrl).origin) elsewhere.push(req.url());
  });
  await page.goto(`/products/${product.id}`);
  const img = page.locator('img.product-image');
  await img.waitFor();
  expect([await img.getAttribute('width'), await img.getAttribute('height')]).toEqual(['800', '600']);
  await page.waitForLoadState('networkidle');
  expect(await img.evaluate((el: unknown) => (el as { naturalWidth: number }).naturalWidth)).toBe(800);
  expect(elsewhere).toEqual([]);
  expect(store.problems).toEqual([]);
  await store.close();
});
