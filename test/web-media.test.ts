import { vi } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, MOBILE, sessionFor, StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Uploading pictures in Chromium (issue 44, "media"): a shop's owner uploads a product's picture
 * from the product form (a file chosen, the picture shown, its address in the field), the storefront
 * shows it at the width the screen needs; a file that is no picture is refused on its field; a
 * platform admin uploads a shop's logo from the shop's profile.
 */
/** What the test reads of an `<img>` in the page (the test's own types have no DOM). */
interface Img {
  decode(): Promise<void>;
  srcset: string;
  currentSrc: string;
  naturalWidth: number;
}

let t: TestApp;
let browser: Browser;
let dir: string;
const contexts: StoreContext[] = [];
let shop: { id: number; slug: string; name: string };
let owner: TestUser;
let category: { id: number };

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'mallfront-web-media-'));
  [t, browser] = await Promise.all([startTestApp({ media: { maxBytes: 5 * 1024 * 1024, store: { kind: 'disk', dir } } }), launchBrowser()]);
  shop = await newShop(t, { name: 'Lantern Works', withProfile: true });
  owner = await newOperator(t, shop.id);
  category = await newCategory(t);
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

async function pageOf(user: TestUser, viewport = DESKTOP) {
  const ctx = await StoreContext.open(browser, t, viewport, await sessionFor(t, user.email, PASSWORD));
  contexts.push(ctx);
  return { ctx, page: await ctx.page() };
}

it("uploads a product's picture from the product form, and the storefront shows it at the width it needs", async () => {
  const { ctx, page } = await pageOf(owner);
  await page.goto('/merchant/products/new');
  await page.getByLabel('Name', { exact: true }).waitFor();
  // A file that is no picture is refused on the field, and nothing is kept.
  await page.getByLabel('Upload a picture').setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('these are notes, not a picture') });
  await page.getByText('That file is not a picture that can be read').waitFor();
  expect(await page.getByLabel('Picture', { exact: true }).getAttribute('aria-invalid')).toBe('true');
  expect(await t.sql('select id from media_asset')).toHaveLength(0);

  const photo = await sharp({ create: { width: 1600, height: 1200, channels: 3, background: { r: 220, g: 120, b: 40 } } }).jpeg().toBuffer();
  await page.getByLabel('Upload a picture').setInputFiles({ name: 'lantern.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByText('Uploaded lantern.jpg').waitFor();
  const url = await page.getByLabel('Picture', { exact: true }).inputValue();
  expect(url).toMatch(/^\/media\/[0-9a-f]{64}\/640\.webp$/);
  expect(await page.getByLabel('Picture', { exact: true }).getAttribute('aria-invalid')).toBe('false');
  // The preview is the picture itself, loaded.
  await page.locator('.picture-row img').evaluate((img) => (img as unknown as Img).decode());

  await page.getByLabel('Name', { exact: true }).fill('Paper Lantern');
  await page.getByLabel('Category').selectOption(String(category.id));
  await page.getByLabel('SKU 1 name').fill('Red');
  await page.getByLabel('SKU 1 price').fill('39.00');
  await page.getByLabel('SKU 1 stock').fill('8');
  await page.getByRole('button', { name: 'Create product' }).click();
  await page.waitForURL(/\/merchant\/products\/\d+$/);
  const productId = Number(page.url().split('/').pop());
  const [stored] = await t.sql<{ image_url: string }>('select image_url from product where id = ?', [productId]);
  expect(stored.image_url).toBe(url);
  await page.getByRole('button', { name: 'Publish', exact: true }).click();
  await page.getByTestId('product-status').getByText('Published').waitFor();

  // On a phone (3x), the product page takes the width its screen needs from the picture's widths.
  const shopper = await StoreContext.open(browser, t, MOBILE, await sessionFor(t, (await newCustomer(t)).email, PASSWORD));
  contexts.push(shopper);
  const phone = await shopper.context.newPage();
  await phone.goto(`/products/${productId}`);
  const image = phone.getByRole('img', { name: 'Paper Lantern' });
  await image.waitFor();
  const shown = await image.evaluate(async (element) => {
    const img = element as unknown as Img;
    await img.decode();
    return { srcset: img.srcset, current: img.currentSrc, natural: img.naturalWidth };
  });
  const digest = /\/media\/([0-9a-f]{64})\//.exec(url)![1];
  expect(shown.srcset).toBe([160, 320, 640, 1280].map((w) => `/media/${digest}/${w}.webp ${w}w`).join(', '));
  expect(shown.current).toMatch(new RegExp(`/media/${digest}/(640|1280)\\.webp$`));
  expect(shown.natural).toBeGreaterThan(0);
  expect(ctx.problems.filter((p) => !p.includes('422'))).toEqual([]);
});

it("lets the platform upload a shop's logo from the shop's profile", async () => {
  const { page } = await pageOf(await newAdmin(t));
  await page.goto('/admin/shops');
  await page.getByRole('row', { name: new RegExp(shop.name) }).getByRole('button', { name: /profile/i }).click();
  const form = page.getByRole('form', { name: `Profile of ${shop.name}` });
  const logo = await sharp({ create: { width: 300, height: 300, channels: 3, background: { r: 20, g: 60, b: 200 } } }).png().toBuffer();
  await form.getByLabel('Upload a picture').first().setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
  await form.getByText('Uploaded logo.png').waitFor();
  await form.getByRole('button', { name: 'Save profile' }).click();
  await page.getByRole('form', { name: `Profile of ${shop.name}` }).waitFor({ state: 'detached' });
  const [profile] = await t.sql<{ logo_url: string }>('select logo_url from shop_profile where shop_id = ?', [shop.id]);
  expect(profile.logo_url).toMatch(/^\/media\/[0-9a-f]{64}\/640\.webp$/);
  const [asset] = await t.sql<{ shop_id: number | null; filename: string }>("select shop_id, filename from media_asset where '/media/' || digest || '/640.webp' = ?", [profile.logo_url]);
  expect(asset).toEqual({ shop_id: null, filename: 'logo.png' });
});
