import { vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newProduct, newShop, type TestUser } from './support/fixtures.js';
import { BROWSER_TEST_TIMEOUT_MS, launchBrowser, storePages } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Shop states in Chromium (issue 41, item 2): a platform admin suspends a shop and its product
 * leaves the storefront (its page says there is no such product, search finds nothing), then
 * reinstates it and the product is back. The admin's moves go through the API: the console's
 * screens for shops are not built yet.
 */
let t: TestApp;
let browser: Browser;
let admin: TestUser;
const pages = storePages(() => ({ browser, t }));

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  admin = await newAdmin(t);
});
afterAll(async () => {
  await pages.close();
  await t?.close();
});

it('takes a suspended shop product off its page and the search, and brings it back on reinstatement', async () => {
  const shop = await newShop(t, { name: 'Harbour Kettles' });
  const category = await newCategory(t);
  const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Copper Kettle', skus: [{ price: 4_500, stock: 5 }] });
  const { store, page } = await pages.open();

  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { name: 'Copper Kettle' }).waitFor();
  await page.goto('/search?q=copper');
  await page.getByRole('heading', { name: 'Copper Kettle' }).waitFor();

  expect((await t.api('POST', `/api/admin/shops/${shop.id}/suspend`, { token: admin.token, body: { reason: 'Counterfeit goods reported' } })).status).toBe(200);
  await page.goto(`/products/${product.id}`);
  await page.getByRole('alert').filter({ hasText: 'No such product' }).waitFor();
  expect(await page.getByRole('heading', { name: 'Copper Kettle' }).count()).toBe(0);
  await page.goto('/search?q=copper');
  await page.locator('.search-results[aria-busy="false"]').waitFor();
  expect(await page.getByRole('heading', { name: 'Copper Kettle' }).count()).toBe(0);
  await store.screenshot(page, 'shop-suspended-search');

  expect((await t.api('POST', `/api/admin/shops/${shop.id}/reinstate`, { token: admin.token })).status).toBe(200);
  await page.goto(`/products/${product.id}`);
  await page.getByRole('heading', { name: 'Copper Kettle' }).waitFor();
  await page.goto('/search?q=copper');
  await page.getByRole('heading', { name: 'Copper Kettle' }).waitFor();
  // The hidden product is a null answer the page explains, not an error in the console.
  expect(store.problems).toEqual([]);
});
