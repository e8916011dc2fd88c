import { vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, MOBILE, launchBrowser, sessionFor, storePages } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Issue 44, item 1, in Chromium: the address book lives under the account (not only inside checkout),
 * regions are offered by name with none chosen for the shopper, and the header's "Sign in" comes back
 * to the page it was clicked on.
 */
let t: TestApp;
let browser: Browser;
const pages = storePages(() => ({ browser, t }));
beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await pages.close();
  await t?.close();
});

const savedRows = (userId: number) =>
  t.sql<{ recipient: string; region: string; address: string; is_default: boolean }>('select recipient, region, address, is_default from saved_address where user_id = ? order by id', [userId]);

it('a customer keeps an address book on the account page: add, change, make default, delete', async () => {
  const customer = await newCustomer(t);
  const { store, page } = await pages.open(MOBILE, await sessionFor(t, customer.email, PASSWORD));
  await page.goto('/account');
  const book = page.getByRole('region', { name: 'Addresses' });
  await book.getByText('No saved address yet').waitFor();

  await book.getByRole('button', { name: 'Add an address' }).click();
  const form = book.getByRole('form', { name: 'A new address' });
  await form.getByLabel('Recipient').fill('Lin Wei');
  await form.getByLabel('Phone').fill('+86 138 0000 1111');
  await form.getByLabel('Address', { exact: true }).fill('8 Harbor Road, Wuhan');
  // No region is chosen for the shopper; the regions are offered by name.
  const region = form.getByLabel('Region');
  expect(await region.inputValue()).toBe('');
  // The regions come with a query: wait for them, not for a clock.
  await expect.poll(() => region.locator('option:not([disabled])').count(), { timeout: 30_000 }).toBe(34);
  const names = (await region.locator('option:not([disabled])').allInnerTexts()).map((label) => label.split(' ')[0]);
  expect(names).toHaveLength(34);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  // Sent without a region: the browser holds the form (the select is required), nothing is saved.
  await form.getByRole('button', { name: 'Save address' }).click();
  expect(await region.evaluate((select) => (select as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
  expect(await savedRows(customer.id)).toEqual([]);

  await region.selectOption({ label: 'Hubei 湖北' });
  await form.getByRole('button', { name: 'Save address' }).click();
  const lines = book.getByTestId('saved-address');
  await lines.filter({ hasText: 'Lin Wei' }).getByText('Default', { exact: true }).waitFor();

  await book.getByRole('button', { name: 'Add an address' }).click();
  const second = book.getByRole('form', { name: 'A new address' });
  await second.getByLabel('Recipient').fill('Zhou Min');
  await second.getByLabel('Phone').fill('+86 138 0000 2222');
  await second.getByLabel('Region').selectOption({ label: 'Tibet 西藏' });
  await second.getByLabel('Address', { exact: true }).fill('1 Barkhor Street, Lhasa');
  await second.getByRole('button', { name: 'Save address' }).click();
  const zhou = lines.filter({ hasText: 'Zhou Min' });
  await zhou.waitFor();
  expect(await zhou.getByText('Default', { exact: true }).count()).toBe(0);

  await zhou.getByRole('button', { name: 'Make default' }).click();
  await zhou.getByText('Default', { exact: true }).waitFor();
  await lines.first().filter({ hasText: 'Zhou Min' }).waitFor(); // the default is listed first
  expect(await savedRows(customer.id)).toEqual([
    { recipient: 'Lin Wei', region: 'CN-HB', address: '8 Harbor Road, Wuhan', is_default: false },
    { recipient: 'Zhou Min', region: 'CN-XZ', address: '1 Barkhor Street, Lhasa', is_default: true },
  ]);

  const lin = lines.filter({ hasText: 'Lin Wei' });
  await lin.getByRole('button', { name: 'Change' }).click();
  const change = book.getByRole('form', { name: 'Change the address for Lin Wei' });
  expect(await change.getByLabel('Region').inputValue()).toBe('CN_HB');
  await change.getByLabel('Address', { exact: true }).fill('9 River Road, Wuhan');
  await change.getByRole('button', { name: 'Save address' }).click();
  await lines.filter({ hasText: '9 River Road, Wuhan' }).waitFor();

  // Deleting the default: the one left takes it over.
  await lines.filter({ hasText: 'Zhou Min' }).getByRole('button', { name: 'Delete' }).click();
  await lines.filter({ hasText: 'Lin Wei' }).getByText('Default', { exact: true }).waitFor();
  expect(await lines.count()).toBe(1);
  expect(await savedRows(customer.id)).toEqual([{ recipient: 'Lin Wei', region: 'CN-HB', address: '9 River Road, Wuhan', is_default: true }]);
  expect(store.problems).toEqual([]);
});

it("the header's sign-in link comes back to the page it was clicked on", async () => {
  const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
  const customer = await newCustomer(t);
  const { store, page } = await pages.open(DESKTOP);
  await page.goto(`/products/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).waitFor();
  await page.getByRole('link', { name: 'Sign in', exact: true }).click();
  await page.waitForURL('**/login?redirect=*');
  await page.getByLabel('Email').fill(customer.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`**/products/${product.id}`);
  await page.getByRole('button', { name: 'Add to cart' }).waitFor();
  expect(store.problems).toEqual([]);
});
