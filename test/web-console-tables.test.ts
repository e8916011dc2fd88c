import { vi } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newProduct, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { deliveredOrder, payOk, placeOrder, shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, storePages } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The consoles' form kit and paged table in Chromium (issue 44): the product form checks each field
 * as it is typed by the server's own schema and sends nothing while one is invalid; a refusal only
 * the server can make still lands on its field; the product table sorts by a column, searches on the
 * server, and unpublishes exactly the products selected; the shop's refund table filters on the
 * server and approves exactly the requests selected, naming any the server refused.
 */
let t: TestApp;
let browser: Browser;
let operator: TestUser;
let category: { id: number };
const products: Record<string, number> = {};
const pages = storePages(() => ({ browser, t }));

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  const shop = await newShop(t, { name: 'Orchard Goods' });
  operator = await newOperator(t, shop.id);
  category = await newCategory(t);
  // Made in this order (ids ascending), so newest first is the order of no sort below; the form's test adds Walnut Board (45.00), newest.
  for (const [name, price] of [['Maple Tray', 3000], ['Aspen Bowl', 1000], ['Birch Spoon', 500], ['Cedar Box', 2000]] as const) {
    products[name] = (await newProduct(t, { shopId: shop.id, categoryId: category.id, name, skus: [{ price, stock: 10 }] })).id;
  }
});
afterAll(async () => {
  await pages.close();
  await t?.close();
});

async function openConsole(path: string): Promise<{ page: Page; mutations: string[]; listQueries: Record<string, unknown>[] }> {
  const { page } = await pages.open(DESKTOP, await sessionFor(t, operator.email, PASSWORD));
  const mutations: string[] = [];
  const listQueries: Record<string, unknown>[] = [];
  page.on('request', (request: Request) => {
    if (!request.url().endsWith('/graphql') || request.method() !== 'POST') return;
    const body = request.postDataJSON() as { query?: string; variables?: Record<string, unknown> } | null;
    const query = String(body?.query ?? '');
    if (/^\s*mutation/.test(query)) mutations.push(query.match(/mutation (\w+)/)?.[1] ?? '?');
    if (query.includes('query MerchantProductList')) listQueries.push(body?.variables ?? {});
  });
  await page.goto(path);
  return { page, mutations, listQueries };
}

/** The id of the element holding the keyboard (the test runs without the DOM's types). */
const focusedId = (page: Page) => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id);
const productNames = async (page: Page) => (await page.getByTestId('product-table').locator('tbody tr td:nth-child(2)').allInnerTexts()).map((s) => s.trim());
const statusOf = async (name: string) => (await t.sql<{ status: string }>('select status from product where id = ?', [products[name]]))[0].status;

describe('the product form', () => {
  it('marks a price invalid as it is typed, with the server\'s words, and sends nothing', async () => {
    const { page, mutations } = await openConsole('/merchant/products/new');
    const price = page.getByLabel('SKU 1 price');
    await price.fill('abc');
    await page.locator('#sku-0-price-error').getByText('must be a number').waitFor();
    expect(await price.getAttribute('aria-invalid')).toBe('true');
    expect(await price.getAttribute('aria-describedby')).toBe('sku-0-price-error');
    await price.fill('-3');
    await page.locator('#sku-0-price-error').getByText('must be at least 0').waitFor();
    // Fixed, the message goes.
    await price.fill('12.50');
    await page.locator('#sku-0-price-error').waitFor({ state: 'detached' });
    expect(await price.getAttribute('aria-invalid')).toBe('false');
    // Untouched fields say nothing yet.
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('false');
    expect(mutations).toEqual([]);
  });

  it('sends nothing when submitted empty: every field says what it needs, and the first takes the keyboard', async () => {
    const { page, mutations } = await openConsole('/merchant/products/new');
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.locator('#f-name-error').getByText('must not be blank').waitFor();
    await page.locator('#f-categoryId-error').waitFor();
    await page.locator('#sku-0-price-error').getByText('is required').waitFor();
    await page.locator('#sku-0-stock-error').getByText('a new SKU needs its stock').waitFor();
    expect(await focusedId(page)).toBe('f-name');
    expect(mutations).toEqual([]);
    expect((await t.sql('select count(*)::int as n from product where shop_id = (select shop_id from product where id = ?)', [products['Aspen Bowl']]))[0].n).toBe(4);
  });

  it("shows the server's refusal on its field: a category deleted after the form was opened", async () => {
    const doomed = await newCategory(t);
    const { page, mutations } = await openConsole('/merchant/products/new');
    await page.getByLabel('Name', { exact: true }).fill('Walnut Board');
    await page.getByLabel('Category').selectOption(String(doomed.id));
    await page.getByLabel('SKU 1 name').fill('Large');
    await page.getByLabel('SKU 1 price').fill('45');
    await page.getByLabel('SKU 1 stock').fill('3');
    await t.sql('delete from category where id = ?', [doomed.id]);
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.locator('#f-categoryId-error').getByText(`no category ${doomed.id}`).waitFor();
    expect(mutations).toEqual(['UpsertProduct']);
    expect(await page.getByLabel('Category').getAttribute('aria-invalid')).toBe('true');
    expect(await focusedId(page)).toBe('f-categoryId');
    expect(await t.sql('select id from product where name = ?', ['Walnut Board'])).toHaveLength(0);
    // Another category chosen, the refusal of the one gone no longer applies; saved, the product is there.
    await page.getByLabel('Category').selectOption(String(category.id));
    await page.locator('#f-categoryId-error').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create product' }).click();
    await page.waitForURL(/\/merchant\/products\/\d+$/);
    expect(await t.sql('select category_id from product where name = ?', ['Walnut Board'])).toEqual([{ category_id: category.id }]);
  });
});

describe('the coupon template form', () => {
  it("checks a template's terms as they are typed by the server's schema, then creates it", async () => {
    const { page, mutations } = await openConsole('/merchant/coupons');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.locator('#f-name-error').getByText('must not be blank').waitFor();
    await page.locator('#f-amountOff-error').getByText('a fixed discount needs amount_off').waitFor();
    expect(await focusedId(page)).toBe('f-name');
    await page.getByLabel('Discount').selectOption('PERCENT');
    await page.getByLabel('Percent off').fill('150');
    await page.locator('#f-percentOff-error').getByText('must be between 1 and 100').waitFor();
    expect(mutations).toEqual([]);
    await page.getByLabel('Name', { exact: true }).fill('Autumn tenth');
    await page.getByLabel('Percent off').fill('10');
    await page.getByLabel('Or valid for days after claiming').fill('30');
    await page.getByLabel('Coupons to give out').fill('50');
    await page.locator('#f-percentOff-error').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Create template' }).click();
    await expect.poll(async () => (await t.sql('select percent_off, valid_days, claim_stock from coupon_template where name = ?', ['Autumn tenth']))[0]).toEqual({ percent_off: 10, valid_days: 30, claim_stock: 50 });
    expect(mutations).toEqual(['ConsoleCreateCouponTemplate']);
  });
});

describe("the shop's promotion tables", () => {
  it('disable exactly the coupon templates selected, and narrow to a status on the server', async () => {
    const body = (name: string) => ({ name, discount_kind: 'fixed', amount_off: 500, min_order_amount: 3000, valid_days: 7, claim_stock: 50 });
    const ids: Record<string, number> = {};
    for (const name of ['Spring one', 'Spring two', 'Spring three']) ids[name] = (await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: body(name) })).body.id;
    const { page, mutations } = await openConsole('/merchant/coupons');
    const table = page.getByTestId('coupon-template-table');
    await table.getByLabel('Select Spring two').waitFor();
    await table.getByLabel('Select Spring one').check();
    await table.getByLabel('Select Spring three').check();
    const bulk = page.getByRole('group', { name: 'Selected coupon templates' });
    await bulk.getByRole('button', { name: 'Disable' }).click();
    await bulk.getByRole('button', { name: 'Yes, disable' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 disabled.').waitFor();
    expect(mutations).toEqual(['ConsoleDisableCouponTemplate', 'ConsoleDisableCouponTemplate']);
    const status = async (name: string) => (await t.sql<{ status: string }>('select status from coupon_template where id = ?', [ids[name]]))[0].status;
    expect([await status('Spring one'), await status('Spring two'), await status('Spring three')]).toEqual(['disabled', 'active', 'disabled']);
    await page.getByLabel('Status').selectOption('DISABLED');
    await page.waitForURL(/status=DISABLED/);
    const names = () => table.locator('tbody tr td:nth-child(2)').allInnerTexts();
    await expect.poll(async () => (await names()).sort()).toEqual(['Spring one', 'Spring three']);
  });
});

describe('the product table', () => {
  it('sorts by a column, both ways, kept in the address', async () => {
    const { page } = await openConsole('/merchant/products');
    await page.getByTestId('product-table').getByRole('link', { name: 'Cedar Box' }).waitFor();
    expect(await productNames(page)).toEqual(['Walnut Board', 'Cedar Box', 'Birch Spoon', 'Aspen Bowl', 'Maple Tray']);
    await page.getByRole('button', { name: 'Product' }).click();
    await page.waitForURL(/sort=NAME_ASC/);
    await expect.poll(() => productNames(page)).toEqual(['Aspen Bowl', 'Birch Spoon', 'Cedar Box', 'Maple Tray', 'Walnut Board']);
    expect(await page.getByRole('columnheader', { name: 'Product' }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Product' }).click();
    await expect.poll(() => productNames(page)).toEqual(['Walnut Board', 'Maple Tray', 'Cedar Box', 'Birch Spoon', 'Aspen Bowl']);
    await page.getByRole('button', { name: 'From' }).click();
    await page.waitForURL(/sort=PRICE_ASC/);
    await expect.poll(() => productNames(page)).toEqual(['Birch Spoon', 'Aspen Bowl', 'Cedar Box', 'Maple Tray', 'Walnut Board']);
    await page.reload();
    await expect.poll(() => productNames(page)).toEqual(['Birch Spoon', 'Aspen Bowl', 'Cedar Box', 'Maple Tray', 'Walnut Board']);
  });

  it('searches on the server', async () => {
    const { page, listQueries } = await openConsole('/merchant/products');
    await page.getByTestId('product-table').getByRole('link', { name: 'Cedar Box' }).waitFor();
    await page.getByLabel('Search by name').fill('bir');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=bir/);
    await expect.poll(() => productNames(page)).toEqual(['Birch Spoon']);
    expect(listQueries.at(-1)).toMatchObject({ q: 'bir' });
  });

  it('unpublishes exactly the products selected', async () => {
    const { page, mutations } = await openConsole('/merchant/products?sort=NAME_ASC');
    await page.getByTestId('product-table').getByRole('link', { name: 'Cedar Box' }).waitFor();
    await page.getByLabel('Select Aspen Bowl').check();
    await page.getByLabel('Select Cedar Box').check();
    await page.getByRole('group', { name: 'Selected products' }).getByText('2 selected').waitFor();
    await page.getByRole('group', { name: 'Selected products' }).getByRole('button', { name: 'Unpublish' }).click();
    await page.getByRole('button', { name: 'Yes, unpublish' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 unpublished.').waitFor();
    expect(mutations).toEqual(['UnpublishProduct', 'UnpublishProduct']);
    expect([await statusOf('Aspen Bowl'), await statusOf('Birch Spoon'), await statusOf('Cedar Box'), await statusOf('Maple Tray')]).toEqual(['unpublished', 'published', 'unpublished', 'published']);
    const row = (name: string) => page.getByTestId('product-table').getByRole('row', { name: new RegExp(name) });
    await row('Aspen Bowl').getByTestId('product-status').getByText('Unpublished').waitFor();
    await row('Birch Spoon').getByTestId('product-status').getByText('Published').waitFor();
    // The selection went with the action.
    await page.getByRole('group', { name: 'Selected products' }).getByText('0 selected').waitFor();
  });
});

describe('the order table', () => {
  it('sorts by total and ships exactly the paid orders selected, each with its tracking number', async () => {
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const sku = async (name: string) => (await t.sql<{ id: number }>('select id from sku where product_id = ?', [products[name]]))[0].id;
    const small = await placeOrder(t, customer.token, await sku('Birch Spoon'), 1);
    const large = await placeOrder(t, customer.token, await sku('Maple Tray'), 2);
    const pending = await placeOrder(t, customer.token, await sku('Birch Spoon'), 3);
    await payOk(t, customer.token, small.id);
    await payOk(t, customer.token, large.id);
    const { page, mutations } = await openConsole('/merchant/orders');
    const ids = async () => (await page.getByTestId('order-table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number((r as unknown as { dataset: { orderId: string } }).dataset.orderId))));
    await expect.poll(ids).toEqual([pending.id, large.id, small.id]);
    await page.getByRole('button', { name: 'Total' }).click();
    await page.waitForURL(/sort=TOTAL_ASC/);
    // 500, 1,500 and 6,000 minor units.
    await expect.poll(ids).toEqual([small.id, pending.id, large.id]);

    for (const order of [small, large, pending]) await page.getByLabel(`Select order #${order.id}`).check();
    const ship = page.getByRole('form', { name: 'Ship the selected orders' });
    await ship.getByText('1 not paid or already shipped, left out.').waitFor();
    await ship.getByLabel(`Tracking number of order #${small.id}`).fill('SF100');
    await ship.getByLabel(`Tracking number of order #${large.id}`).fill('SF200');
    await ship.getByRole('button', { name: 'Ship 2 orders' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 shipped.').waitFor();
    expect(mutations).toEqual(['ConsoleShip', 'ConsoleShip']);
    const state = async (id: number) => (await t.sql<{ status: string }>('select status from shop_order where id = ?', [id]))[0].status;
    expect([await state(small.id), await state(large.id), await state(pending.id)]).toEqual(['shipped', 'shipped', 'pending_payment']);
    expect((await t.sql<{ tracking_number: string }>('select tracking_number from shipment where order_id in (?, ?) order by order_id', [small.id, large.id])).map((r) => r.tracking_number)).toEqual(
      small.id < large.id ? ['SF100', 'SF200'] : ['SF200', 'SF100'],
    );
  });
});

describe("the platform's order table", () => {
  it("narrows every shop's orders to one shop by its name, never a typed id", async () => {
    const admin = await newAdmin(t);
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const other = await shopWithProduct(t, [{ price: 700, stock: 5 }]);
    const foreign = await placeOrder(t, customer.token, other.product.skuIds[0], 1);
    const sku = (await t.sql<{ id: number }>('select id from sku where product_id = ?', [products['Maple Tray']]))[0].id;
    const own = await placeOrder(t, customer.token, sku, 1);
    const { page } = await pages.open(DESKTOP, await sessionFor(t, admin.email, PASSWORD));
    await page.goto(`/admin/orders?email=${encodeURIComponent(customer.email)}`);
    const rows = page.getByTestId('admin-order-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.getByLabel('Shop id').count()).toBe(0);
    await rows.filter({ hasText: `#${own.id}` }).getByRole('button', { name: 'Orchard Goods' }).click();
    await page.waitForURL(/shop=\d+/);
    await expect.poll(() => rows.count()).toBe(1);
    await rows.filter({ hasText: `#${own.id}` }).waitFor();
    await page.getByText('Shop: Orchard Goods').waitFor();
    await page.getByRole('button', { name: 'Every shop' }).click();
    await expect.poll(() => rows.count()).toBe(2);
    await rows.filter({ hasText: `#${foreign.id}` }).waitFor();
  });
});

describe("the platform's tables", () => {
  it('sort shops and customers by name and every shop\'s orders by total, each column both ways, kept in the address', async () => {
    const admin = await newAdmin(t);
    const tag = `Sorted${Date.now().toString(36)}`;
    // Made out of name order: newest first (no sort) differs from both name orders.
    for (const name of ['Birch', 'Aspen', 'Cedar']) await newShop(t, { name: `${tag} ${name}` });
    const customers: TestUser[] = [];
    for (const name of ['Birch', 'Aspen', 'Cedar']) {
      const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
      await t.sql('update app_user set display_name = ? where id = ?', [`${tag} ${name}`, customer.id]);
      customers.push(customer);
    }
    const { page } = await pages.open(DESKTOP, await sessionFor(t, admin.email, PASSWORD));
    const firstCells = (table: string) => page.getByRole('table', { name: table }).locator('tbody tr td:first-child').allInnerTexts();
    const names = async (table: string) => (await firstCells(table)).map((cell) => cell.match(new RegExp(`${tag} (\\w+)`))?.[1]);

    await page.goto(`/admin/shops?q=${tag}`);
    await expect.poll(() => names('Shops')).toEqual(['Cedar', 'Aspen', 'Birch']);
    await page.getByRole('button', { name: 'Shop', exact: true }).click();
    await page.waitForURL(/sort=NAME_ASC/);
    await expect.poll(() => names('Shops')).toEqual(['Aspen', 'Birch', 'Cedar']);
    expect(await page.getByRole('columnheader', { name: 'Shop' }).getAttribute('aria-sort')).toBe('ascending');
    await page.getByRole('button', { name: 'Shop', exact: true }).click();
    await expect.poll(() => names('Shops')).toEqual(['Cedar', 'Birch', 'Aspen']);

    await page.goto(`/admin/customers?q=${tag}`);
    await expect.poll(() => names('Customers')).toEqual(['Cedar', 'Aspen', 'Birch']);
    await page.getByRole('button', { name: 'Customer', exact: true }).click();
    await page.waitForURL(/sort=NAME_ASC/);
    await expect.poll(() => names('Customers')).toEqual(['Aspen', 'Birch', 'Cedar']);
    await page.getByRole('button', { name: 'Since' }).click();
    await page.waitForURL(/sort=OLDEST/);
    await expect.poll(() => names('Customers')).toEqual(['Birch', 'Aspen', 'Cedar']);

    // One customer's orders, placed out of total order: 3,000, 500, then 2,000 minor units.
    const [{ token, email }] = customers;
    const { product } = await shopWithProduct(t, [{ price: 3000, stock: 5 }, { price: 500, stock: 5 }, { price: 2000, stock: 5 }]);
    const placed = [];
    for (const skuId of product.skuIds) placed.push(await placeOrder(t, token, skuId, 1));
    await page.goto(`/admin/orders?email=${encodeURIComponent(email)}`);
    const orderIds = async () => (await page.getByTestId('admin-order-row').locator('td:first-child').allInnerTexts()).map((cell) => Number(cell.match(/#(\d+)/)?.[1]));
    await expect.poll(orderIds).toEqual([placed[2].id, placed[1].id, placed[0].id]);
    await page.getByRole('button', { name: 'Total', exact: true }).click();
    await page.waitForURL(/sort=TOTAL_ASC/);
    await expect.poll(orderIds).toEqual([placed[1].id, placed[2].id, placed[0].id]);
    await page.reload();
    await expect.poll(orderIds).toEqual([placed[1].id, placed[2].id, placed[0].id]);
  });
});

describe("the points mall's redemptions", () => {
  it('are one table, each named by its product and customer, and exactly the selected are marked sent', async () => {
    const admin = await newAdmin(t);
    const made = await t.api('POST', '/api/admin/points/products', { token: admin.token, body: { name: 'Tea Tin', points_price: 100, stock: 10, published: true } });
    expect(made.status).toBe(201);
    const address = { recipient: 'Li Lei', phone: '+86 138 0000 0000', region: 'CN-GD', address: '1 Binhai Road, Nanshan, Shenzhen' };
    const redeemed: { id: number; name: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const customer = await newCustomer(t, { available: 0, points: 1_000 });
      const res = await t.api('POST', `/api/points/products/${made.body.id}/redeem`, { token: customer.token, body: { quantity: 1, shipping_address: address } });
      expect(res.status).toBe(201);
      const [{ display_name: name }] = await t.sql<{ display_name: string }>('select display_name from app_user where id = ?', [customer.id]);
      redeemed.push({ id: res.body.id, name: `Tea Tin for ${name} (#${res.body.id})` });
    }
    const { page } = await pages.open(DESKTOP, await sessionFor(t, admin.email, PASSWORD));
    await page.goto('/admin/points');
    const table = page.getByTestId('redemption-table');
    for (const r of redeemed) await table.getByLabel(`Select ${r.name}`).waitFor();
    await table.getByLabel(`Select ${redeemed[0].name}`).check();
    await table.getByLabel(`Select ${redeemed[2].name}`).check();
    const bulk = page.getByRole('group', { name: 'Selected redemptions to send' });
    await bulk.getByText('2 selected').waitFor();
    await bulk.getByRole('button', { name: 'Mark sent' }).click();
    await bulk.getByRole('button', { name: 'Yes, mark sent' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 marked sent.').waitFor();
    const status = async (id: number) => (await t.sql<{ status: string }>('select status from redemption where id = ?', [id]))[0].status;
    expect([await status(redeemed[0].id), await status(redeemed[1].id), await status(redeemed[2].id)]).toEqual(['fulfilled', 'pending_fulfillment', 'fulfilled']);
    // Sent, they leave the list of those to send; the one left stays.
    await table.locator(`[data-redemption-id="${redeemed[0].id}"]`).waitFor({ state: 'detached' });
    await table.locator(`[data-redemption-id="${redeemed[1].id}"]`).waitFor();
  });
});

describe("the platform's review moderation", () => {
  it('finds reviews on the server by a word and by stars, names products and shops, and hides exactly the reviews selected', async () => {
    const admin = await newAdmin(t);
    const { shop, product } = await shopWithProduct(t, [{ price: 900, stock: 20 }]);
    const shopOperator = await newOperator(t, shop.id);
    const [{ name: productName }] = await t.sql<{ name: string }>('select name from product where id = ?', [product.id]);
    const written: Record<string, number> = {};
    for (const [text, rating] of [['Cracked lid on arrival', 1], ['Cracked handle, refunded fast', 2], ['Keeps tea warm for hours', 5]] as const) {
      const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
      const order = await deliveredOrder(t, customer.token, shopOperator.token, product.skuIds[0]);
      const res = await t.api('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, { token: customer.token, body: { rating, text } });
      written[text] = res.body.id;
    }
    const { page } = await pages.open(DESKTOP, await sessionFor(t, admin.email, PASSWORD));
    const listed: Record<string, unknown>[] = [];
    page.on('request', (request: Request) => {
      const body = request.url().endsWith('/graphql') ? (request.postDataJSON() as { query?: string; variables?: Record<string, unknown> } | null) : null;
      if (String(body?.query ?? '').includes('query AdminReviews')) listed.push(body?.variables ?? {});
    });
    await page.goto('/admin/reviews');
    const table = page.getByTestId('review-table');
    const texts = async () => (await table.locator('tbody tr td:nth-child(3)').allInnerTexts()).map((s) => s.trim());
    await table.getByText('Keeps tea warm for hours').waitFor();

    // A word, searched by the server (the list is read again with it), then narrowed by stars.
    await page.getByLabel('Words, product or shop').fill('cracked');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=cracked/);
    await expect.poll(texts).toEqual(['Cracked handle, refunded fast', 'Cracked lid on arrival']);
    expect(listed.at(-1)).toMatchObject({ q: 'cracked' });
    await page.getByLabel('Stars').selectOption('1');
    await page.waitForURL(/rating=1/);
    await expect.poll(texts).toEqual(['Cracked lid on arrival']);
    // Names, never ids.
    const row = table.getByRole('row').filter({ hasText: 'Cracked lid on arrival' });
    await row.getByRole('link', { name: productName }).waitFor();
    expect(await row.innerText()).toContain(`from ${shop.name}`);
    expect(await row.innerText()).not.toMatch(/(product|shop) #/);

    // Both cracked reviews selected and hidden; the praise stays visible.
    await page.getByLabel('Stars').selectOption('');
    await expect.poll(texts).toEqual(['Cracked handle, refunded fast', 'Cracked lid on arrival']);
    await page.getByLabel('Select every row on this page').check();
    const selected = page.getByRole('group', { name: 'Selected reviews' });
    await selected.getByText('2 selected').waitFor();
    await selected.getByRole('button', { name: 'Hide' }).click();
    await page.getByRole('button', { name: 'Yes, hide' }).click();
    await page.getByTestId('bulk-outcome').getByText('2 hidden.').waitFor();
    const hidden = async (text: string) => (await t.sql<{ hidden: boolean }>('select hidden from review where id = ?', [written[text]]))[0].hidden;
    expect([await hidden('Cracked lid on arrival'), await hidden('Cracked handle, refunded fast'), await hidden('Keeps tea warm for hours')]).toEqual([true, true, false]);
    await table.getByRole('row').filter({ hasText: 'Cracked lid on arrival' }).getByText('Hidden').waitFor();
  });
});

describe("the shop's refund table", () => {
  it('narrows to the requested ones on the server and approves exactly the requests selected, naming the one refused', async () => {
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const [{ id: skuId }] = await t.sql<{ id: number }>('select id from sku where product_id = ?', [products['Maple Tray']]);
    const ask = async () => {
      const order = await placeOrder(t, customer.token, skuId, 1);
      await payOk(t, customer.token, order.id);
      const res = await t.api('POST', `/api/orders/${order.id}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: order.items[0].id, quantity: 1 }] } });
      expect(res.status).toBe(201);
      return { id: res.body.id as number, orderId: order.id };
    };
    const [first, second, rejected] = [await ask(), await ask(), await ask()];
    const { page, mutations } = await openConsole('/merchant/refunds');
    const row = (r: { id: number }) => page.locator(`tr[data-refund-id="${r.id}"]`);
    for (const r of [first, second, rejected]) await page.getByLabel(`Select refund #${r.id} (order #${r.orderId})`).check();
    // Rejected meanwhile (in another tab, say): the server refuses to approve it, and the table names it.
    await t.api('POST', `/api/merchant/refunds/${rejected.id}/reject`, { token: operator.token, body: { reason: 'Already packed' } });
    const selected = page.getByRole('group', { name: 'Selected refunds' });
    await selected.getByText('3 selected').waitFor();
    await selected.getByRole('button', { name: 'Approve' }).click();
    await page.getByRole('button', { name: 'Yes, approve' }).click();
    await page.getByTestId('bulk-outcome').getByText(`2 approved. Refused: refund #${rejected.id} (order #${rejected.orderId}).`).waitFor();
    expect(mutations).toEqual(['ConsoleApproveRefund', 'ConsoleApproveRefund', 'ConsoleApproveRefund']);
    const status = async (r: { id: number }) => (await t.sql<{ status: string }>('select status from refund where id = ?', [r.id]))[0].status;
    expect([await status(first), await status(second), await status(rejected)]).toEqual(['completed', 'completed', 'rejected']);

    // The status filter is the server's: requested shows none of these, rejected shows the one.
    const another = await ask();
    await page.getByLabel('Status').selectOption('REQUESTED');
    await page.waitForURL(/status=REQUESTED/);
    await row(another).waitFor();
    await expect.poll(() => page.locator('tbody tr[data-refund-id]').count()).toBe(1);
    await page.getByLabel('Status').selectOption('REJECTED');
    await row(rejected).getByText('Rejected: Already packed').waitFor();
    await expect.poll(() => page.locator('tbody tr[data-refund-id]').count()).toBe(1);
  });
});

describe("the shop's review table", () => {
  it('shows the reviews awaiting a reply as the server finds them, by product name, and a reply moves one to the replied', async () => {
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const [{ id: skuId }] = await t.sql<{ id: number }>('select id from sku where product_id = ?', [products['Birch Spoon']]);
    const review = async (text: string) => {
      const order = await deliveredOrder(t, customer.token, operator.token, skuId);
      const res = await t.api('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, { token: customer.token, body: { rating: 3, text } });
      expect(res.status).toBe(201);
      return res.body.id as number;
    };
    const answered = await review('Too small for soup');
    const waiting = await review('Splinters on the handle');
    expect((await t.api('POST', `/api/merchant/reviews/${answered}/reply`, { token: operator.token, body: { text: 'Try the ladle' } })).status).toBe(200);
    const { page } = await openConsole('/merchant/reviews?replied=no');
    const row = (id: number) => page.locator(`tr[data-review-id="${id}"]`);
    await row(waiting).getByRole('link', { name: 'Birch Spoon' }).waitFor();
    await expect.poll(() => row(answered).count()).toBe(0);
    await row(waiting).getByLabel('Reply', { exact: true }).fill('A new batch is sanded twice');
    await row(waiting).getByRole('button', { name: 'Send reply' }).click();
    // Answered, it leaves the list of those awaiting a reply (read again from the server), for the replied.
    await row(waiting).waitFor({ state: 'detached' });
    await page.getByText('No review here.').waitFor();
    await page.getByLabel('Show').selectOption('yes');
    await page.waitForURL(/replied=yes/);
    await row(answered).getByText('Your reply: Try the ladle').waitFor();
    await row(waiting).getByText('Your reply: A new batch is sanded twice').waitFor();
  });
});
