import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, MOBILE, launchBrowser, storePages } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Issue 44, item 1, in Chromium: on a 390 px phone the mall is driven from a bottom tab bar (home,
 * categories, cart, account), the home page's first screen shows products to buy, and the product
 * page keeps the bottom for its buy bar. On a desktop there is no tab bar.
 */
let t: TestApp;
let browser: Browser;
let data: Awaited<ReturnType<typeof shopWithProduct>>;
let names: { product: string; category: string };
const pages = storePages(() => ({ browser, t }));
beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  data = await shopWithProduct(t);
  const [row] = await t.sql<{ product: string; category: string }>('select p.name as product, c.name as category from product p join category c on c.id = p.category_id where p.id = ?', [data.product.id]);
  names = row;
});
afterAll(async () => {
  await pages.close();
  await t?.close();
});

const tabBar = (page: Page) => page.getByRole('navigation', { name: 'Sections' });
/** Whether the element's box lies wholly inside the first screen. */
async function onFirstScreen(page: Page, box: { y: number; height: number } | null): Promise<boolean> {
  const height = page.viewportSize()!.height;
  return box !== null && box.y >= 0 && box.y + box.height <= height;
}

it('drives a phone from the tab bar: the first screen has products, Categories lists them, the cart counts, Account signs in', async () => {
  const { page } = await pages.open(MOBILE);
  await page.goto('/');
  const tabs = tabBar(page);
  await tabs.getByRole('link', { name: 'Home' }).waitFor();
  expect(await tabs.getByRole('link').allInnerTexts()).toEqual(['Home', 'Categories', 'Cart', 'Account']);
  expect(await tabs.getByRole('link', { name: 'Home' }).getAttribute('aria-current')).toBe('page');
  // The bar sits at the bottom of the screen, and the best sellers' first card is above it.
  const bar = await tabs.boundingBox();
  expect(Math.round(bar!.y + bar!.height)).toBe(MOBILE.height);
  const firstCard = page.getByRole('region', { name: 'Best sellers' }).getByRole('link', { name: names.product }).first();
  const card = await firstCard.boundingBox();
  expect(await onFirstScreen(page, card)).toBe(true);
  expect(card!.y).toBeLessThan(bar!.y);

  await tabs.getByRole('link', { name: 'Categories' }).click();
  await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
  await page.getByRole('link', { name: names.category, exact: true }).click();
  await page.waitForURL(`**/categories/${data.category.id}`);

  // The product page leaves the bottom to its buy bar, which is on the first screen.
  await page.goto(`/products/${data.product.id}`);
  const add = page.getByRole('button', { name: 'Add to cart' });
  await add.waitFor();
  expect(await tabBar(page).count()).toBe(0);
  expect(await onFirstScreen(page, await add.boundingBox())).toBe(true);
  await add.click();
  await page.getByText('Added to your cart.').waitFor();

  await page.goto('/cart');
  await tabBar(page).getByRole('link', { name: 'Cart: 1 item' }).waitFor();
  await tabBar(page).getByRole('link', { name: 'Account' }).click();
  await page.waitForURL('**/login');
});

it('has no tab bar on a desktop', async () => {
  const { page } = await pages.open(DESKTOP);
  await page.goto('/');
  await page.getByRole('heading', { name: 'Best sellers' }).waitFor();
  expect(await tabBar(page).count()).toBe(0);
});
