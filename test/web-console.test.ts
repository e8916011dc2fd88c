import { vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newBrand, newCategory, newCustomer, newOperator, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { addToCart, checkoutOk, deliveredOrder, placeOrder, shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, layoutShift, MOBILE, sessionFor, StoreContext, TABLET } from './support/browser.js';
import { webAppDir } from '../src/server/web-app.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The shop console (/merchant) and the platform console (/admin) in Chromium, over the public
 * GraphQL API only: a product made and published from the browser, its order live on the dashboard,
 * shipped in part, a refund approved, a flash sale the storefront shows, home content replaced; an
 * operator kept out of another shop's order and of /admin (by the page and by the API); the
 * consoles' code never on the storefront's first page; screenshots of every main screen.
 */
let t: TestApp;
let browser: Browser;
const contexts: StoreContext[] = [];
const data = {} as {
  shop: { id: number; slug: string };
  category: { id: number };
  brand: { id: number };
  operator: TestUser;
  admin: TestUser;
  customer: TestUser;
  foreignOrderId: number;
  productId: number;
  /** The product and shop of a review the moderation screen lists, by name. */
  reviewed: { product: string; shop: string };
};

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  data.shop = await newShop(t, { name: 'Harbor Home', withProfile: true });
  data.category = await newCategory(t);
  data.brand = await newBrand(t);
  data.operator = await newOperator(t, data.shop.id);
  data.admin = await newAdmin(t);
  data.customer = await newCustomer(t, { available: 1_000_000, points: 0 });
  // Another shop's order, which the operator must not open.
  const other = await shopWithProduct(t, [{ price: 999, stock: 5 }]);
  data.foreignOrderId = (await placeOrder(t, data.customer.token, other.product.skuIds[0])).id;
  // A review of the other shop's product, for review moderation.
  const delivered = await deliveredOrder(t, data.customer.token, (await newOperator(t, other.shop.id)).token, other.product.skuIds[0]);
  await t.api('POST', `/api/orders/${delivered.id}/items/${delivered.items[0].id}/review`, { token: data.customer.token, body: { rating: 4, text: 'Sturdy and warm' } });
  const [names] = await t.sql<{ product: string; shop: string }>('select p.name as product, s.name as shop from product p join shop s on s.id = p.shop_id where p.id = ?', [other.product.id]);
  data.reviewed = names;
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

/** A 1×1 PNG for the made-up image host the test's products and banners use. */
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function context(user?: TestUser, viewport = DESKTOP): Promise<StoreContext> {
  const ctx = await StoreContext.open(browser, t, viewport, user ? await sessionFor(t, user.email, PASSWORD) : undefined);
  await ctx.context.route('https://img.test/**', (route) => route.fulfill({ contentType: 'image/png', body: PIXEL }));
  contexts.push(ctx);
  return ctx;
}

async function open(user: TestUser): Promise<{ ctx: StoreContext; page: Page }> {
  const ctx = await context(user);
  const page = await ctx.page();
  return { ctx, page };
}

/** Waits until no optimistic change waits for the server (the consoles mark it `aria-busy`). */
const settled = (page: Page) => page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' });

/** Navigates inside the single-page app (a link click, as a user would), so nothing reloads. */
async function go(page: Page, navLabel: string) {
  await page.getByRole('navigation', { name: /console/ }).getByRole('link', { name: navLabel, exact: true }).click();
}

describe('the shop console', () => {
  it('runs a shop from the browser: freight, a product with two SKUs, a live order, shipping, a refund and a flash sale', async () => {
    const { ctx: op, page } = await open(data.operator);

    // A freight template, edited as a table of regions.
    await page.goto('/merchant/freight');
    await page.getByRole('button', { name: 'New template' }).click();
    await page.getByLabel('Template name').fill('Standard parcel');
    await page.getByLabel('First unit fee').fill('8');
    await page.getByLabel('Each additional unit').fill('2');
    await page.getByRole('button', { name: 'Add region' }).click();
    await page.getByLabel('Region 1 Region code').fill('CN-BJ');
    await page.getByLabel('Region 1 First unit').fill('12');
    await page.getByLabel('Region 1 Each additional unit').fill('3');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'Standard parcel' }).waitFor();
    await op.screenshot(page, 'console-freight');

    // A product with two SKUs; a bad image URL first: the server's error shows on its field and nothing is stored.
    await go(page, 'Products');
    await page.getByRole('link', { name: 'New product' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Harbor Kettle');
    await page.getByLabel('Category').selectOption(String(data.category.id));
    await page.getByLabel('Brand').selectOption(String(data.brand.id));
    await page.getByLabel('Freight template').selectOption({ label: 'Standard parcel' });
    await page.getByLabel('Picture', { exact: true }).fill('not a url');
    await page.getByLabel('SKU 1 name').fill('Small');
    await page.getByLabel('SKU 1 price').fill('59.00');
    await page.getByLabel('SKU 1 stock').fill('20');
    await page.getByRole('button', { name: 'Add SKU' }).click();
    await page.getByLabel('SKU 2 name').fill('Large');
    await page.getByLabel('SKU 2 price').fill('79.50');
    await page.getByLabel('SKU 2 stock').fill('10');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.locator('#f-imageUrl-error').waitFor();
    expect(await page.getByLabel('Picture', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await t.sql('select id from product where name = ?', ['Harbor Kettle'])).toHaveLength(0);
    await page.getByLabel('Picture', { exact: true }).fill('https://img.test/kettle.png');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/\/merchant\/products\/\d+$/);
    data.productId = Number(page.url().split('/').pop());
    await page.getByTestId('product-status').getByText('Draft').waitFor();
    await op.screenshot(page, 'console-product-editor');
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.getByTestId('product-status').getByText('Published').waitFor();
    await settled(page);
    const [stored] = await t.sql('select status, freight_template_id, brand_id from product where id = ?', [data.productId]);
    expect(stored).toMatchObject({ status: 'published', brand_id: data.brand.id });
    expect(stored.freight_template_id).not.toBeNull();
    // The editor shows the template the product has.
    expect(await page.getByLabel('Freight template').locator('option:checked').textContent()).toBe('Standard parcel');
    const skus = await t.sql<{ id: number; name: string; price: number; stock: number }>('select id, name, price, stock from sku where product_id = ? order by price', [data.productId]);
    expect(skus.map((s) => [s.name, s.price, s.stock])).toEqual([['Small', 5900, 20], ['Large', 7950, 10]]);

    // The list finds it by name.
    await go(page, 'Products');
    await page.getByLabel('Search by name').fill('kettle');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByTestId('product-table').getByRole('link', { name: 'Harbor Kettle' }).waitFor();
    await op.screenshot(page, 'console-products');

    // The storefront shows it.
    const { ctx: shopper, page: store } = await open(data.customer);
    await store.goto(`/products/${data.productId}`);
    await store.getByRole('heading', { name: 'Harbor Kettle' }).waitFor();

    // The dashboard, live: the customer's order and payment appear with no reload.
    await go(page, 'Dashboard');
    await page.getByTestId('live-status').getByText('Live').waitFor();
    await page.getByTestId('orders-today').getByText('0', { exact: true }).waitFor();
    await page.evaluate(() => Object.assign(globalThis, { stayedOnPage: true }));
    await addToCart(t, data.customer.token, skus[0].id, 1);
    await addToCart(t, data.customer.token, skus[1].id, 1);
    const [order] = await checkoutOk(t, data.customer.token);
    await page.getByTestId('orders-today').getByText('1', { exact: true }).waitFor();
    await store.goto(`/orders/${order.id}`);
    await store.getByRole('button', { name: 'Pay from balance' }).click();
    await page.getByTestId('paid-today').getByText('1', { exact: true }).waitFor();
    await page.getByTestId('awaiting').getByText('1', { exact: true }).waitFor();
    await page.getByTestId('sales-today').getByText(`¥${(order.total / 100).toFixed(2)}`).waitFor();
    expect(await page.evaluate(() => (globalThis as { stayedOnPage?: boolean }).stayedOnPage)).toBe(true);
    await op.screenshot(page, 'console-dashboard');

    // Ship the small kettle only: a partial shipment with a company and a tracking number.
    await page.getByTestId('latest-orders').getByRole('link', { name: `#${order.id}` }).click();
    await page.getByRole('heading', { name: `Order #${order.id}` }).waitFor();
    await page.getByLabel('Shipping company').selectOption({ index: 0 });
    await page.getByLabel('Tracking number').fill('SF100200300');
    await page.getByLabel(/Large\), 1 to ship/).fill('0');
    await op.screenshot(page, 'console-order');
    await page.getByRole('button', { name: 'Ship', exact: true }).click();
    await page.getByTestId('shipments').getByText(/SF100200300/).waitFor();
    const shipped = await t.sql('select sum(quantity)::int as n from shipment_item si join shipment s on s.id = si.shipment_id where s.order_id = ?', [order.id]);
    expect(shipped[0].n).toBe(1);
    await page.getByRole('button', { name: 'Issue invoice' }).click();
    await page.getByTestId('invoice').waitFor();

    // The customer asks a refund of the unshipped large kettle; the operator approves it.
    const largeItem = (await t.sql('select id from order_item where order_id = ? and sku_id = ?', [order.id, skus[1].id]))[0].id;
    const asked = await t.gql(
      'mutation($input: RequestRefundInput!) { requestRefund(input: $input) { refund { id } userErrors { code message } } }',
      { input: { orderId: order.id, kind: 'REFUND', reason: 'Changed my mind', items: [{ orderItemId: largeItem, quantity: 1 }] } },
      data.customer.token,
    );
    const refundId = asked.data.requestRefund.refund.id;
    await go(page, 'Refunds');
    const row = page.locator(`[data-refund-id="${refundId}"]`);
    await row.getByText('Changed my mind').waitFor();
    await op.screenshot(page, 'console-refunds');
    await row.getByRole('button', { name: 'Approve' }).click();
    await row.getByRole('button', { name: 'Yes, approve' }).click();
    await row.getByTestId('refund-status').getByText(/Completed|Approved/).waitFor();
    expect((await t.sql('select status from refund where id = ?', [refundId]))[0].status).toMatch(/completed|approved/);
    // The table's state filter is read by the server: a decided request is no longer among the requested ones.
    await page.getByLabel('Status').selectOption('REQUESTED');
    await page.waitForURL(/status=REQUESTED/);
    await expect.poll(() => row.count()).toBe(0);
    await page.getByLabel('Status').selectOption('');
    await row.getByText('Changed my mind').waitFor();

    // A flash sale on the small kettle, which the storefront then shows.
    await go(page, 'Flash sales');
    await page.getByLabel('Session name').fill('Kettle hour');
    await page.getByLabel('Item 1 SKU: find product').fill('Harbor');
    await page.getByLabel('Item 1 SKU', { exact: true }).locator('option', { hasText: 'Small' }).waitFor({ state: 'attached' });
    await page.getByLabel('Item 1 SKU', { exact: true }).selectOption(String(skus[0].id));
    await page.getByLabel('Item 1 activity price').fill('39');
    await page.getByLabel('Item 1 activity stock').fill('5');
    await page.getByLabel('Item 1 limit per customer').fill('1');
    await page.getByRole('button', { name: 'Create session' }).click();
    // A new session starts disabled: enabling it is when the server checks for overlaps.
    const session = page.getByTestId('flash-sale-table').getByRole('row', { name: /Kettle hour/ });
    await session.getByRole('button', { name: 'Enable' }).click();
    await session.getByRole('button', { name: 'Disable' }).waitFor();
    await settled(page);
    await op.screenshot(page, 'console-flash-sales');
    await store.goto('/flash-sales');
    await store.getByText('Harbor Kettle').first().waitFor();

    // The other screens render (screenshots for the README).
    for (const [nav, name] of [['Orders', 'orders'], ['Reviews', 'reviews'], ['Coupon templates', 'coupons'], ['Group buys', 'group-buys']] as const) {
      await go(page, nav);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await op.screenshot(page, `console-${name}`);
    }
    expect(op.problems).toEqual([]);
    expect(shopper.problems).toEqual([]);
  });

  it("keeps an operator out of another shop's order and of every /admin page: the page says so and the API refuses", async () => {
    const { ctx, page } = await open(data.operator);
    await page.goto(`/merchant/orders/${data.foreignOrderId}`);
    await page.getByRole('alert').getByText(/No such order/).waitFor();
    const api = await t.gql('query($id: Int!) { merchantOrder(id: $id) { id } }', { id: data.foreignOrderId }, data.operator.token);
    expect(api.data?.merchantOrder ?? null).toBeNull();
    expect(api.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');

    for (const path of ['/admin', '/admin/home-content', '/admin/brands', '/admin/payouts', '/admin/reconciliation']) {
      await page.goto(path);
      await page.getByRole('alert').getByText('This page is for a platform admin account').waitFor();
    }
    const content = await t.gql('query { adminContent { banners { id } } }', {}, data.operator.token);
    expect(content.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const batches = await t.gql('query { payoutBatches { id } }', {}, data.operator.token);
    expect(batches.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const replaced = await t.gql(
      'mutation($input: ReplaceHomeContentInput!) { replaceHomeContent(input: $input) { items { id } userErrors { code } } }',
      { input: { kind: 'BANNERS', items: [] } },
      data.operator.token,
    );
    expect(replaced.errors?.[0]?.extensions?.code ?? replaced.data?.replaceHomeContent?.userErrors?.[0]?.code).toBe('FORBIDDEN');
    expect(ctx.problems).toEqual([]);
  });
});

describe('the platform console', () => {
  it('replaces the home banners, which the storefront then shows, and renders every admin screen', async () => {
    const { ctx, page } = await open(data.admin);
    await page.goto('/admin');
    await page.getByTestId('live-status').getByText('Live').waitFor();
    await ctx.screenshot(page, 'admin-operations');

    await go(page, 'Home content');
    const banners = page.getByRole('region', { name: 'Banners' });
    await banners.getByRole('button', { name: 'Add item' }).click();
    await banners.getByLabel('Banners 1 Title').fill('Winter kettles');
    await banners.getByLabel('Banners 1 Destination').fill(`/products/${data.productId}`);
    await banners.getByLabel('Banners preview').getByText('Winter kettles').waitFor();
    await banners.getByRole('button', { name: 'Replace banners' }).click();
    await banners.getByRole('button', { name: 'Yes, replace banners' }).click();
    await banners.getByText('Replaced: the storefront shows it now.').waitFor();
    await ctx.screenshot(page, 'admin-home-content');

    const { ctx: visitorCtx, page: visitor } = await open(data.customer);
    await visitor.goto('/');
    await visitor.getByRole('link', { name: /Winter kettles/ }).click();
    await visitor.getByRole('heading', { name: 'Harbor Kettle' }).waitFor();

    for (const [nav, name] of [['Brands', 'brands'], ['Shops', 'shops'], ['Points mall', 'points'], ['Review moderation', 'reviews']] as const) {
      await go(page, nav);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await ctx.screenshot(page, `admin-${name}`);
    }
    // Review moderation names the product and the shop, not their ids.
    const moderated = page.getByRole('row').filter({ hasText: 'Sturdy and warm' });
    await moderated.getByRole('link', { name: data.reviewed.product }).waitFor();
    expect(await moderated.innerText()).toContain(`from ${data.reviewed.shop}`);
    expect(await moderated.innerText()).not.toMatch(/(product|shop) #/);
    expect(ctx.problems).toEqual([]);
    expect(visitorCtx.problems).toEqual([]);
  });

  it('does not move what it has drawn while its figures load: the landing pages shift by at most 0.01 (CLS), on a desk and on a phone', async () => {
    const shifts: Record<string, number> = {};
    for (const [user, path, ready, viewport] of [
      [data.admin, '/admin', 'count-placed', DESKTOP], [data.operator, '/merchant', null, DESKTOP],
      [data.admin, '/admin', 'count-placed', MOBILE], [data.operator, '/merchant', null, MOBILE],
    ] as const) {
      const page = await (await context(user, viewport)).page();
      const where = `${path} ${viewport.width}px`;
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      if (ready) await page.getByTestId(ready).waitFor();
      await page.waitForLoadState('networkidle');
      shifts[where] = await layoutShift(page);
    }
    expect(Object.keys(shifts)).toHaveLength(4);
    console.log(`console layout shift: ${JSON.stringify(shifts)}`);
    for (const value of Object.values(shifts)) expect(value).toBeLessThanOrEqual(0.01);
  });

  it("keeps the consoles' code off the storefront's first page", async () => {
    const ctx = await context();
    const page = await ctx.page();
    const scripts = new Set<string>();
    page.on('response', (res) => {
      const url = new URL(res.url());
      if (url.pathname.startsWith('/assets/') && url.pathname.endsWith('.js')) scripts.add(url.pathname);
    });
    await page.goto('/');
    await page.getByRole('heading', { name: 'Best sellers' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(scripts.size).toBeGreaterThan(0);
    // Every console document is compiled into the consoles' chunks, none into what the first page loads.
    for (const path of scripts) {
      const code = readFileSync(join(webAppDir(), path), 'utf8');
      for (const marker of ['ConsoleShell', 'MerchantDashboard', 'AdminContent', 'ProductEditor', 'MerchantStatement', 'AdminPayoutBatch']) expect(`${path}: ${code.includes(marker)}`).toBe(`${path}: false`);
    }
    expect(ctx.problems).toEqual([]);
  });
});

describe('what a console user expects', () => {
  it("never asks a signed-in operator to sign in while the console's code loads", async () => {
    const ctx = await context();
    const page = await ctx.page();
    await page.goto(`/login?redirect=${encodeURIComponent('/merchant')}`);
    await page.getByText('Sign in to continue.').waitFor();
    // The page's code asked for after the click is held until the page says it is opening the console.
    let submitted = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/.*\.js$/, async (route) => {
      if (submitted) await released;
      await route.continue();
    });
    await page.getByLabel('Email').fill(data.operator.email);
    await page.getByLabel('Password').fill(PASSWORD);
    submitted = true;
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('status').getByText('Opening the page').waitFor();
    expect(await page.getByText('Sign in to continue').count()).toBe(0);
    // From here until the console shows, no frame may ask to sign in.
    await page.evaluate(`window.__askedToSignIn = 0; new MutationObserver(() => { if (document.body.innerText.includes('Sign in to continue')) window.__askedToSignIn++; }).observe(document.body, { subtree: true, childList: true, characterData: true });`);
    release();
    await page.getByRole('navigation', { name: /console/ }).waitFor();
    await page.getByRole('main').getByRole('heading').first().waitFor();
    expect(await page.evaluate('window.__askedToSignIn')).toBe(0);
    expect(ctx.problems).toEqual([]);
  });

  it('shows a publish at once, rolls it back when the server refuses, and keeps the server\'s answer when it agrees', async () => {
    const { ctx, page } = await open(data.operator);
    await page.goto('/merchant/products');
    const row = page.getByTestId('product-table').getByRole('row', { name: /Harbor Kettle/ });
    await row.getByTestId('product-status').getByText('Published').waitFor();

    // The server's answer is held, then refused: the new state shows meanwhile, then goes back.
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route('**/graphql', async (route) => {
      if (!String(route.request().postDataJSON()?.query).includes('mutation UnpublishProduct')) return route.fallback();
      await held;
      await route.fulfill({ contentType: 'application/json', body: JSON.stringify({ data: null, errors: [{ message: 'Try again later', extensions: { code: 'INTERNAL' } }] }) });
    });
    await row.getByRole('button', { name: 'Unpublish' }).click();
    await row.getByRole('button', { name: 'Yes, unpublish' }).click();
    await row.getByTestId('product-status').getByText('Unpublished').waitFor();
    expect(await row.locator('[aria-busy="true"]').count()).toBe(1);
    answer();
    await row.getByRole('alert').getByText(/Not unpublished/).waitFor();
    await row.getByTestId('product-status').getByText('Published').waitFor();
    expect((await t.sql('select status from product where id = ?', [data.productId]))[0].status).toBe('published');

    // Unheld: the server agrees, and its state stands; publishing again puts it back.
    await page.unrouteAll();
    await row.getByRole('button', { name: 'Unpublish' }).click();
    await row.getByRole('button', { name: 'Yes, unpublish' }).click();
    await row.getByTestId('product-status').getByText('Unpublished').waitFor();
    await settled(page);
    expect((await t.sql('select status from product where id = ?', [data.productId]))[0].status).toBe('unpublished');
    await row.getByRole('button', { name: 'Publish', exact: true }).click();
    await settled(page);
    await row.getByTestId('product-status').getByText('Published').waitFor();
    expect((await t.sql('select status from product where id = ?', [data.productId]))[0].status).toBe('published');
    expect(ctx.problems).toEqual([]);
  });

  it('orders the brands by drag and by the keyboard, and saves that order', async () => {
    const { ctx, page } = await open(data.admin);
    await page.goto('/admin/brands');
    const rows = page.getByTestId('brand-row');
    await rows.first().waitFor();
    const before = await rows.count();
    for (const name of ['Alder', 'Birch']) {
      await page.getByRole('button', { name: 'Add brand' }).click();
      await page.getByLabel(`Brand ${await rows.count()} name`, { exact: true }).fill(name);
    }
    const names = async () => Promise.all((await rows.all()).map((row) => row.getByRole('textbox').first().inputValue()));
    const first = (await names())[0];

    // Birch dragged by its handle onto the first row takes its place.
    await rows.nth(before + 1).getByTestId('drag-handle').dragTo(rows.first().locator('td').first());
    expect((await names()).slice(0, 2)).toEqual(['Birch', first]);
    // Alder moved up from the keyboard: focus its button, press Enter.
    for (let i = 0; i < before; i++) {
      await page.getByRole('button', { name: 'Move Alder up' }).focus();
      await page.keyboard.press('Enter');
    }
    const order = await names();
    expect(order.slice(0, 3)).toEqual(['Birch', 'Alder', first]);
    await ctx.screenshot(page, 'admin-brands-ordered');

    await page.getByRole('button', { name: 'Save brands' }).click();
    await page.getByRole('status').getByText('Saved in this order.').waitFor();
    expect((await t.sql<{ name: string }>('select name from brand order by position, id')).map((b) => b.name)).toEqual(order);
    expect(ctx.problems).toEqual([]);
  });

  it('keeps every console page readable on a tablet (768 px): no sideways scrolling, the navigation above the screen', async () => {
    const pages = {
      operator: ['/merchant', '/merchant/products', `/merchant/products/${data.productId}`, '/merchant/orders', '/merchant/refunds', '/merchant/reviews', '/merchant/coupons', '/merchant/flash-sales', '/merchant/group-buys', '/merchant/freight', '/merchant/money'],
      admin: ['/admin', '/admin/brands', '/admin/home-content', '/admin/shops', '/admin/points', '/admin/reviews', '/admin/payouts', '/admin/reconciliation'],
    };
    // Both consoles at once, each in its own context: they share the waits for the network to go quiet.
    await Promise.all(Object.entries(pages).map(async ([who, paths]) => {
      const user = who === 'admin' ? data.admin : data.operator;
      const ctx = await context(user, TABLET);
      const page = await ctx.page();
      for (const path of paths) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await page.waitForLoadState('networkidle');
        // In the page (a string: the tests compile without the DOM's types).
        const layout = await page.evaluate<{ overflow: number; mainWidth: number; fontPx: number }>(`(() => {
          const main = document.getElementById('console-main').getBoundingClientRect();
          const cell = document.querySelector('.console-main td, .console-main p');
          return {
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            mainWidth: Math.round(main.width),
            fontPx: cell ? Number.parseFloat(getComputedStyle(cell).fontSize) : 16,
          };
        })()`);
        // The path in each comparison names the page that fails.
        expect({ path, sideways: layout.overflow, fullWidth: layout.mainWidth >= TABLET.width - 40, readable: layout.fontPx >= 13 }).toEqual({ path, sideways: 0, fullWidth: true, readable: true });
      }
      await ctx.screenshot(page, `${who === 'admin' ? 'admin' : 'console'}-tablet`);
      expect(ctx.problems).toEqual([]);
    }));
  });
});
