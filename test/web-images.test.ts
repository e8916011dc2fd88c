import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { launchBrowser, StoreContext } from './support/browser.js';
import { newCategory, newProduct, newShop } from './support/fixtures.js';

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
}, 60_000);
