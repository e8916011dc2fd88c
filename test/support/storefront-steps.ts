import type { Page } from 'playwright-core';
import { PASSWORD } from './fixtures.js';

/** A shopper's steps in the storefront, as the journeys take them. */

/** Registers a new customer through the form (signed in after). */
export async function register(page: Page, email: string, name = 'New Shopper'): Promise<void> {
  await page.goto('/register');
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL((url) => url.pathname !== '/register');
}

/** Adds a product's first SKU to the cart from its page. */
export async function addToCart(page: Page, productId: number, name: string): Promise<void> {
  await page.goto(`/products/${productId}`);
  await page.getByRole('heading', { name }).waitFor();
  await page.getByRole('button', { name: 'Add to cart' }).click();
  await page.getByText('Added to your cart.').waitFor();
}

/** Checks the cart out to a Wuhan address: `orders` is how many shops' orders it makes. */
export async function checkOut(page: Page, orders: number): Promise<void> {
  await page.goto('/checkout');
  await page.getByLabel('Recipient').fill('Zhou Min');
  await page.getByLabel('Phone').fill('+86 138 0000 2222');
  await page.getByLabel('Region').selectOption({ label: 'Hubei 湖北' });
  await page.getByLabel('Address', { exact: true }).fill('9 River Road, Wuhan');
  await page.getByRole('button', { name: 'Place order' }).click();
  await page.getByRole('heading', { name: orders === 1 ? 'Your order' : `Your ${orders} orders (one per shop)` }).waitFor();
}
