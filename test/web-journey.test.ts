import { vi } from 'vitest';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newBrand, newCategory, newCouponTemplate, newCustomer, newFreightTemplate, newGroupBuy, newOperator, newProduct, newShop, PASSWORD, setContent } from './support/fixtures.js';
import { shipOk } from './support/shopping.js';
import { newFlashSale } from './support/flash-sales.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, MOBILE, SCREENSHOT_DIR, sessionFor, StoreContext, WAIT_TIMEOUT_MS } from './support/browser.js';
import { webAppDir } from '../src/server/web-app.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The storefront in Chromium against a real server and PostgreSQL: the shopper's journey from an
 * anonymous add-to-cart to a delivered, reviewed order; the sign-in redirect rule; the first page's
 * weight; one request for a listing; screenshots at desktop and mobile widths; no console errors.
 */
let t: TestApp;
let browser: Browser;
const contexts: StoreContext[] = [];

const data = {} as {
  shop: { id: number; slug: string };
  flashShop: { id: number; slug: string };
  category: { id: number };
  product: { id: number; skuIds: number[] };
  flashProduct: { id: number; skuIds: number[] };
  operator: { token: string };
  customer: { id: number; email: string; token: string };
  coupon: { id: number };
};

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  data.shop = await newShop(t, { name: 'Harbor Tech' });
  data.flashShop = await newShop(t, { name: 'Avenue Style' });
  const top = await newCategory(t);
  data.category = await newCategory(t, top);
  const brand = await newBrand(t);
  data.product = await newProduct(t, { shopId: data.shop.id, categoryId: data.category.id, brandId: brand.id, name: 'Trail Lantern', skus: [{ price: 12900, stock: 8, name: 'Graphite' }, { price: 13900, stock: 3, name: 'Sand' }] });
  for (let i = 0; i < 3; i++) await newProduct(t, { shopId: data.shop.id, categoryId: data.category.id, name: `Camp Mug ${i + 1}`, skus: [{ price: 2500 + i * 700, stock: 20 }] });
  data.flashProduct = await newProduct(t, { shopId: data.flashShop.id, categoryId: data.category.id, name: 'Linen Shirt', skus: [{ price: 19900, stock: 30, name: 'M' }, { price: 19900, stock: 30, name: 'L' }] });
  await newFlashSale(t, { shopId: data.flashShop.id, name: 'Noon flash', items: [{ skuId: data.flashProduct.skuIds[0], activityPrice: 9900, reservedStock: 10, perCustomerLimit: 2 }] });
  await newGroupBuy(t, { shopId: data.flashShop.id, productId: data.flashProduct.id, skuId: data.flashProduct.skuIds[1], groupPrice: 14900, capacity: 3 });
  await newFreightTemplate(t, data.shop.id, { firstUnitFee: 800, additionalUnitFee: 200 }, [data.product.id]);
  data.coupon = await newCouponTemplate(t, data.shop.id, { name: 'Harbor ¥10 off', amountOff: 1000 });
  await setContent(t, 'banners', [{ title: 'Lanterns for long nights', destination: `/products/${data.product.id}` }, { title: 'Flash sales at noon', destination: '/flash-sales' }]);
  await setContent(t, 'quick_links', [{ title: 'Coupons', destination: '/coupons' }, { title: 'Group buys', destination: '/group-buys' }, { title: 'Points mall', destination: '/points' }]);
  await setContent(t, 'promos', [{ title: 'Camping gear', destination: `/categories/${data.category.id}` }]);
  data.operator = await newOperator(t, data.shop.id);
  data.customer = await newCustomer(t, { available: 500_000, points: 0 });
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

async function open(viewport = DESKTOP, session?: unknown): Promise<StoreContext> {
  const context = await StoreContext.open(browser, t, viewport, session);
  contexts.push(context);
  return context;
}

async function signIn(page: Page, email: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('the storefront in Chromium', () => {
  it('takes a shopper from a guest cart of two shops through sign-in, a saved address and one payment to delivered and reviewed orders', async () => {
    const store = await open();
    const page = await store.page();
    const productPath = `/products/${data.product.id}`;

    // Signed out: two shops' items go to the guest cart kept in the browser; the header counts them.
    await page.goto(productPath);
    await page.getByRole('heading', { name: 'Trail Lantern' }).waitFor();
    await page.getByRole('radio', { name: /Sand/ }).check();
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByText('Added to your cart.').waitFor();
    await page.goto(`/products/${data.flashProduct.id}`);
    await page.getByRole('radio', { name: /^L/ }).check();
    await page.getByLabel('Quantity').fill('2');
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('link', { name: 'Cart, 3 items' }).waitFor();

    await page.goto('/cart');
    // The guest cart shows its lines (names and quantities) before sign-in.
    await expect.poll(() => page.getByTestId('guest-cart-line').count(), { timeout: WAIT_TIMEOUT_MS }).toBe(2);
    expect(await page.getByTestId('guest-cart-line').allInnerTexts()).toEqual([expect.stringContaining('Trail Lantern'), expect.stringContaining('Linen Shirt')]);
    await page.getByRole('link', { name: 'Sign in to check out' }).click();
    await page.waitForURL((url) => url.pathname === '/login');
    await signIn(page, data.customer.email);
    await page.waitForURL((url) => url.pathname === '/cart');
    // Both lines are in the account's cart: nothing was lost at sign-in.
    const cart = await t.api('GET', '/api/cart', { token: data.customer.token });
    expect(cart.body.lines.map((l: { sku_id: number; quantity: number }) => [l.sku_id, l.quantity]).sort()).toEqual(
      [[data.product.skuIds[1], 1], [data.flashProduct.skuIds[1], 2]].sort(),
    );
    expect(await page.evaluate(() => localStorage.getItem('mallfront.guestCart'))).toBeNull();
    await page.getByRole('link', { name: 'Cart, 3 items' }).waitFor();

    await page.goto(`/shops/${data.shop.slug}`);
    await page.getByRole('button', { name: 'Claim' }).click();
    await page.getByText('Claimed: it is in your coupons.').waitFor();

    await page.goto('/cart');
    await page.getByRole('link', { name: 'Trail Lantern' }).waitFor();
    await store.screenshot(page, 'cart-desktop');
    await page.getByRole('link', { name: 'Check out' }).click();
    await page.waitForURL('**/checkout');
    // A province the old list lacked, saved to the address book as the first address.
    await page.getByLabel('Recipient').fill('Lin Wei');
    await page.getByLabel('Phone').fill('+86 138 0000 1111');
    await page.getByLabel('Region').selectOption({ label: 'Hubei 湖北' });
    await page.getByLabel('Address', { exact: true }).fill('8 Harbor Road, Wuhan');
    await page.getByLabel('Coupon').first().selectOption({ label: 'Harbor ¥10 off' });
    // Before placing: the priced lines, the server's discount, freight and the total.
    const totals = page.getByRole('table', { name: 'Totals' });
    await totals.getByText('¥137.00').first().waitFor();
    await totals.getByText('¥8.00').waitFor();
    await totals.getByText('¥535.00').waitFor();
    await store.screenshot(page, 'checkout-desktop');
    await page.getByRole('button', { name: 'Place order' }).click();
    await page.getByRole('heading', { name: 'Your 2 orders (one per shop)' }).waitFor();
    expect((await t.api('GET', '/api/me/addresses', { token: data.customer.token })).body.items).toEqual([
      expect.objectContaining({ region: 'CN-HB', recipient: 'Lin Wei', is_default: true }),
    ]);

    const orders = (await t.api('GET', '/api/orders', { token: data.customer.token })).body.items as { id: number; status: string; shop: { id: number }; total: number; items: { id: number }[] }[];
    expect(orders.map((o) => o.status)).toEqual(['pending_payment', 'pending_payment']);
    const order = orders.find((o) => o.shop.id === data.shop.id)!;
    expect(order).toMatchObject({ items_total: 13900, discount: 1000, freight_fee: 800, total: 13700 });
    await page.getByText('¥535.00').first().waitFor();
    // One payment for both shops' orders.
    await page.getByRole('button', { name: 'Pay all 2 orders from balance' }).click();
    await page.getByText('Paid. Thank you!').nth(1).waitFor();
    const paid = (await t.api('GET', '/api/orders', { token: data.customer.token })).body.items as { status: string }[];
    expect(paid.map((o) => o.status)).toEqual(['paid', 'paid']);

    await shipOk(t, data.operator.token, order.id);
    await page.goto(`/orders/${order.id}`);
    await page.getByRole('button', { name: 'Confirm delivery' }).click();
    await page.getByText('Delivered', { exact: true }).first().waitFor();
    await page.getByLabel('Your review').fill('Bright, light and the battery lasts all weekend.');
    await page.getByRole('button', { name: 'Post review' }).click();
    await page.getByText(/your review of Trail Lantern is saved/).waitFor();
    await store.screenshot(page, 'order-desktop');
    // Reviewed: the form is gone for good.
    await page.reload();
    await page.getByText('Delivered', { exact: true }).first().waitFor();
    expect(await page.getByLabel('Your review').count()).toBe(0);

    expect((await t.sql('select status from shop_order where id = ?', [order.id]))[0].status).toBe('delivered');
    expect(await t.sql('select rating from review where order_item_id = ?', [order.items[0].id])).toEqual([{ rating: 5 }]);

    // The next checkout starts from the saved default address.
    await page.goto(productPath);
    await page.getByRole('button', { name: 'Add to cart' }).click();
    await page.getByText('Added to your cart.').waitFor();
    await page.goto('/checkout');
    const saved = page.getByRole('radio', { name: /Lin Wei/ });
    await saved.waitFor();
    expect(await saved.isChecked()).toBe(true);
    expect(await page.getByLabel('Region').inputValue()).toBe('CN_HB');

    await page.goto(productPath);
    await page.getByText('Bright, light and the battery lasts all weekend.').waitFor();
    await page.goto('/account');
    await page.getByRole('heading', { name: 'Balances' }).waitFor();
    // An API error is a sentence, not a code.
    await page.goto('/orders/99999999');
    await page.getByRole('alert').getByText('We could not find that.').waitFor();
    expect(await page.getByRole('alert').textContent()).not.toContain('NOT_FOUND');
    expect(store.problems).toEqual([]);
  });

  it('prices every cart line as checkout does (flash-sale units apart, the coupon on its shop), and the lines add up to the totals', async () => {
    const shopper = await newCustomer(t, { available: 500_000, points: 0 });
    // Three shirts at a flash price limited to two per customer: two at ¥99.00, one at ¥199.00.
    for (const [skuId, quantity] of [[data.flashProduct.skuIds[0], 3], [data.product.skuIds[0], 1]]) {
      expect((await t.api('PUT', `/api/cart/items/${skuId}`, { token: shopper.token, body: { quantity } })).status).toBe(200);
    }
    expect((await t.api('POST', `/api/coupon-templates/${data.coupon.id}/claim`, { token: shopper.token })).status).toBe(201);
    const store = await open(DESKTOP, await sessionFor(t, shopper.email, PASSWORD));
    const page = await store.page();
    /** Amounts (minor units) of the `<data>` elements under a locator. */
    const amounts = async (where: ReturnType<Page['locator']>) => Promise.all((await where.locator('data').all()).map(async (e) => Number(await e.getAttribute('value'))));
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

    await page.goto('/cart');
    const shirts = page.getByRole('region', { name: 'From Avenue Style' });
    await shirts.getByText('Flash sale').waitFor();
    const shirtLine = shirts.getByRole('row').filter({ hasText: 'Linen Shirt' });
    expect((await shirtLine.getByRole('cell').nth(1).innerText()).replace(/\s+/g, ' ')).toBe('¥99.00 ¥199.00 Flash sale × 2 ¥199.00 × 1');
    expect(await amounts(shirtLine.locator('.line-total'))).toEqual([2 * 9900 + 19900]);
    const lanterns = page.getByRole('region', { name: 'From Harbor Tech' });
    await lanterns.getByText('Harbor ¥10 off: choose it at checkout.').waitFor();
    // The shops' lines add up to the cart's totals, row by row and in all.
    const cartTotals = page.getByRole('table', { name: 'Cart totals' });
    for (const [region, shop] of [[shirts, 'Avenue Style'], [lanterns, 'Harbor Tech']] as const) {
      const lines = sum(await amounts(region.locator('.line-total')));
      expect([shop, await amounts(cartTotals.getByRole('row').filter({ hasText: shop }))]).toEqual([shop, [lines]]);
    }
    expect(await amounts(cartTotals.locator('tfoot'))).toEqual([2 * 9900 + 19900 + 12900]);
    await store.screenshot(page, 'cart-flash-sale-desktop');

    await page.getByRole('link', { name: 'Check out' }).click();
    await page.waitForURL('**/checkout');
    // No region is chosen for a shopper without a saved address: no totals until they choose one.
    await page.getByText('Choose the region you ship to: the freight, and so the totals, depend on it.').waitFor();
    expect(await page.getByLabel('Region').inputValue()).toBe('');
    await page.getByLabel('Region').selectOption({ label: 'Hubei 湖北' });
    await page.getByRole('group', { name: 'Harbor Tech' }).getByLabel('Coupon').selectOption({ label: 'Harbor ¥10 off' });
    const totals = page.getByRole('table', { name: 'Totals' });
    await totals.getByText('-¥10.00').waitFor();
    // Each shop's box: its priced lines add up to the Items cell, its coupon line to the Discount cell.
    for (const [shop, items, discount] of [['Avenue Style', 2 * 9900 + 19900, 0], ['Harbor Tech', 12900, 1000]] as const) {
      const box = page.getByRole('list', { name: `Lines from ${shop}` });
      const lines = await amounts(box.locator('li:not(.coupon-line) .line-total'));
      const coupon = await amounts(box.locator('.coupon-line .line-total'));
      const row = await amounts(totals.getByRole('row').filter({ hasText: shop }));
      expect({ shop, lines: sum(lines), coupon: Math.abs(sum(coupon)) }).toEqual({ shop, lines: items, coupon: discount });
      expect(row.slice(0, 2).map(Math.abs)).toEqual([items, discount]);
    }
    await page.getByRole('list', { name: 'Lines from Avenue Style' }).getByText('Flash sale').waitFor();
    expect(store.problems).toEqual([]);
  });

  it('sends a signed-in visitor to / when the redirect target is not a same-origin path', async () => {
    const store = await open();
    const page = await store.page();
    for (const hostile of ['//evil.example', 'https://evil.example/products/1', '/%2F%2Fevil.example']) {
      await page.goto(`/login?redirect=${encodeURIComponent(hostile)}`);
      await signIn(page, data.customer.email);
      await page.waitForURL(`${t.baseUrl}/`);
      expect(page.url()).toBe(`${t.baseUrl}/`);
      await page.evaluate(() => localStorage.clear());
    }
    expect(store.problems).toEqual([]);
  });

  it('keeps the device token of a sign-in across signing out, so strangers failing on the account from the same address cannot keep the owner out', async () => {
    const owner = await newCustomer(t);
    const store = await open();
    const page = await store.page();
    await page.goto('/login');
    await signIn(page, owner.email);
    await page.waitForURL(`${t.baseUrl}/`);
    const devices = await page.evaluate(() => localStorage.getItem('mallfront.devices'));
    expect(JSON.parse(devices ?? '{}')).toEqual({ [owner.email]: expect.stringMatching(/^d1\./) });

    // Signed out, and someone on the same network (same address) fails ten times on the account.
    await page.evaluate(() => localStorage.removeItem('mallfront.session'));
    for (let i = 0; i < 10; i++) await t.api('POST', '/api/auth/login', { body: { email: owner.email, password: `guess ${i}` } });
    expect((await t.api('POST', '/api/auth/login', { body: { email: owner.email, password: PASSWORD } })).status).toBe(429);

    await page.goto('/login');
    await signIn(page, owner.email);
    await page.waitForURL(`${t.baseUrl}/`);
    expect(store.problems).toEqual([]);
  });

  it('loads the first page under 200 KB of gzipped JavaScript, and a listing with one GraphQL request', async () => {
    const store = await open();
    const page = await store.page();
    const scripts = new Set<string>();
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Best sellers' }).waitFor();
    const gzipped = [...scripts].reduce((sum, path) => sum + gzipSync(readFileSync(join(webAppDir(), path))).length, 0);
    expect(scripts.size).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(200 * 1024);

    const listing = await (await open()).page();
    const graphqlRequests: string[] = [];
    listing.on('request', (req) => {
      if (new URL(req.url()).pathname === '/graphql') graphqlRequests.push(req.postData() ?? '');
    });
    await listing.goto(`/categories/${data.category.id}?sort=price&order=asc`);
    await listing.getByRole('link', { name: 'Camp Mug 1' }).waitFor();
    await listing.waitForLoadState('networkidle');
    expect(graphqlRequests).toHaveLength(1);
    expect(graphqlRequests[0]).toContain('CategoryPage');

    mkdirSync(join(SCREENSHOT_DIR, '..'), { recursive: true });
    writeFileSync(join(SCREENSHOT_DIR, '..', 'web-metrics.json'), JSON.stringify({ firstPageScripts: [...scripts], firstPageJsGzipBytes: gzipped }, null, 2));
    expect(store.problems).toEqual([]);
  });

  it('renders the main pages at desktop and mobile widths without console errors', async () => {
    const session = await sessionFor(t, data.customer.email, PASSWORD);
    const pages = [
      ['home', '/', 'Best sellers'],
      ['category', `/categories/${data.category.id}`, 'Camp Mug 1'],
      ['product-flash-sale', `/products/${data.flashProduct.id}`, 'Linen Shirt'],
      ['shop', `/shops/${data.shop.slug}`, 'Harbor Tech'],
      ['flash-sales', '/flash-sales', 'Noon flash'],
      ['group-buys', '/group-buys', 'Linen Shirt'],
      ['search', '/search?q=lantern', 'Results for “lantern”'],
      ['orders', '/orders', 'Your orders'],
      ['account', '/account', 'Balances'],
      ['favorites', '/favorites', 'Favorites'],
      ['coupons', '/coupons', 'Your coupons'],
      ['points', '/points', 'Points mall'],
      ['cart', '/cart', 'Your cart'],
      ['checkout', '/checkout', 'Checkout'],
    ] as const;
    // Both widths at once, each in its own context: they share the waits for the network to go quiet.
    await Promise.all(([['desktop', DESKTOP], ['mobile', MOBILE]] as const).map(async ([width, viewport]) => {
      const store = await open(viewport, session);
      const page = await store.page();
      for (const [name, path, text] of pages) {
        await page.goto(path);
        await page.getByText(text, { exact: false }).first().waitFor();
        await page.waitForLoadState('networkidle');
        // No page scrolls sideways on a 390 px phone.
        const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
        expect({ page: name, width, overflow: Math.max(0, overflow) }).toEqual({ page: name, width, overflow: 0 });
        await store.screenshot(page, `${name}-${width}`);
      }
      expect(store.problems).toEqual([]);
    }));
  });
});
