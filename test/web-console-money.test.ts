import { vi } from 'vitest';
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newProduct, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { deliveredOrder, expectBooksBalance, payOk, placeOrder } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, StoreContext } from './support/browser.js';
import { completeDeliveredOrders } from '../src/services/orders/order.service.js';
import { systemContext } from '../src/server/jobs.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Issue 30 item 7 in the consoles, in Chromium and over the public GraphQL API only: a shop sees its
 * earnings pending, then available once the after-sale window passed; an admin pays them out in a
 * batch (the bank's CSV downloaded, the payout marked paid); the shop sees the payout and a statement
 * whose entries add up to each balance; the reconciliation report shows the books at zero.
 */
let t: TestApp;
let browser: Browser;
const contexts: StoreContext[] = [];
let shop: { id: number; slug: string };
let operator: TestUser;
let admin: TestUser;
let customer: TestUser;
let skuId: number;

/** 10% commission: of a ¥100.00 order the shop earns ¥90.00. */
const PRICE = 10_000;
const SHARE = 9_000;

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  shop = await newShop(t, { name: 'Quay Ceramics', withProfile: true });
  const category = await newCategory(t);
  skuId = (await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Quay Teapot', skus: [{ price: PRICE, stock: 20 }] })).skuIds[0];
  operator = await newOperator(t, shop.id);
  admin = await newAdmin(t);
  customer = await newCustomer(t, { available: 1_000_000, points: 0 });
  const rate = await t.api('POST', `/api/admin/shops/${shop.id}/commission-rates`, { token: admin.token, body: { rate_bp: 1000 } });
  expect(rate.status).toBe(201);
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

async function open(user: TestUser): Promise<{ ctx: StoreContext; page: Page }> {
  const ctx = await StoreContext.open(browser, t, DESKTOP, await sessionFor(t, user.email, PASSWORD));
  contexts.push(ctx);
  return { ctx, page: await ctx.page() };
}

async function go(page: Page, navLabel: string) {
  await page.getByRole('navigation', { name: /console/ }).getByRole('link', { name: navLabel, exact: true }).click();
}

/** Waits until a figure shows this amount in minor units (`<data value>` of the Money component): a screen shows its last answer while it reads again. */
const showsAmount = (page: Page, testId: string, amount: number) => page.getByTestId(testId).locator(`data[value="${amount}"]`).waitFor();
const amountIn = async (page: Page, testId: string) => Number(await page.getByTestId(testId).locator('data').first().getAttribute('value'));

/** Moves the delivery back past the after-sale window (as if the days had passed), then runs the sweep that completes orders. */
async function passAfterSaleWindow(orderId: number) {
  await t.sql(`update shop_order set delivered_at = now() - make_interval(days => ?::int) where id = ?`, [t.config.afterSaleWindowDays + 1, orderId]);
  await completeDeliveredOrders(systemContext(t.deps, 'test'));
}

describe("the shop's money and the platform's payouts", () => {
  it('shows earnings pending then available, pays them out in a batch marked paid, a statement adding up to the balances, and the books at zero', async () => {
    const { ctx: shopCtx, page: shopPage } = await open(operator);
    const { ctx: adminCtx, page: adminPage } = await open(admin);

    // A delivered order: the shop's share is pending while the after-sale window runs.
    const first = await deliveredOrder(t, customer.token, operator.token, skuId);
    await shopPage.goto('/merchant/money');
    await shopPage.getByRole('heading', { name: 'Money' }).waitFor();
    await shopPage.getByTestId('statement').getByRole('link', { name: `Order #${first.id}` }).waitFor();
    await showsAmount(shopPage, 'balance-pending', SHARE);
    await showsAmount(shopPage, 'balance-available', 0);

    // The window passes: the earnings are released to available. A second order is paid (pending).
    await passAfterSaleWindow(first.id);
    expect((await t.sql('select status from shop_order where id = ?', [first.id]))[0].status).toBe('completed');
    const second = await placeOrder(t, customer.token, skuId);
    await payOk(t, customer.token, second.id);
    await go(shopPage, 'Dashboard');
    await go(shopPage, 'Money');
    await shopPage.getByTestId('statement').getByRole('link', { name: `Order #${second.id}` }).waitFor();
    await showsAmount(shopPage, 'balance-available', SHARE);
    await showsAmount(shopPage, 'balance-pending', SHARE);

    // A threshold no shop reaches is refused on its field: no empty batch.
    await adminPage.goto('/admin/payouts');
    await adminPage.getByLabel('Threshold').fill('9000000');
    await adminPage.getByRole('button', { name: 'Create batch' }).click();
    await adminPage.getByRole('button', { name: 'Yes, create batch' }).click();
    await adminPage.locator('.field-message').getByText(/no shop has this much available/).waitFor();
    expect(await adminPage.getByLabel('Threshold').getAttribute('aria-invalid')).toBe('true');
    // The keyboard is taken to the field the server refused.
    expect(await adminPage.getByLabel('Threshold').evaluate((input) => input === (input as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement)).toBe(true);
    // The admin creates a batch over a ¥50.00 threshold: the shop's available balance is in it.
    await adminPage.getByLabel('Threshold').fill('50');
    await adminPage.getByRole('button', { name: 'Create batch' }).click();
    await adminPage.getByRole('button', { name: 'Yes, create batch' }).click();
    await adminPage.waitForURL(/\/admin\/payouts\/\d+$/);
    const batchId = Number(adminPage.url().split('/').pop());
    const row = adminPage.locator(`[data-shop-id="${shop.id}"]`);
    await row.getByTestId('payout-status').getByText('Pending').waitFor();
    const payoutId = Number(await row.getAttribute('data-payout-id'));
    expect(Number(await row.locator('data').first().getAttribute('value'))).toBe(SHARE);
    // The shop by its name, not its id; the confirmation names it too.
    await row.getByRole('cell', { name: 'Quay Ceramics', exact: true }).waitFor();

    // The bank's file, downloaded through the API.
    const [download] = await Promise.all([adminPage.waitForEvent('download'), adminPage.getByRole('button', { name: 'Download CSV for the bank' }).click()]);
    expect(download.suggestedFilename()).toBe(`payout-batch-${batchId}.csv`);
    const csv = readFileSync(await download.path(), 'utf8').split('\r\n');
    expect(csv[0]).toBe('payout_id,shop_id,shop_slug,shop_name,amount,currency,status');
    expect(csv).toContain(`${payoutId},${shop.id},${shop.slug},Quay Ceramics,${SHARE},CNY,pending`);
    await adminCtx.screenshot(adminPage, 'admin-payout-batch');

    // Marked paid, after a confirmation.
    await row.getByRole('button', { name: 'Mark paid' }).click();
    await row.getByText(/to Quay Ceramics\?/).waitFor();
    await row.getByRole('button', { name: 'Yes, mark paid' }).click();
    await row.getByTestId('payout-status').getByText(/^Paid/).waitFor();
    expect((await t.sql('select status from payout where id = ?', [payoutId]))[0].status).toBe('paid');
    await go(adminPage, 'Payouts');
    await adminPage.getByTestId('payout-batches').getByRole('link', { name: `Batch #${batchId}` }).waitFor();
    await adminCtx.screenshot(adminPage, 'admin-payouts');

    // The shop sees the payout, and a statement whose entries add up to each balance.
    await go(shopPage, 'Dashboard');
    await go(shopPage, 'Money');
    const payoutRow = shopPage.getByTestId('payouts').locator(`#payout-${payoutId}`);
    await payoutRow.getByTestId('payout-status').getByText('Paid').waitFor();
    await shopPage.getByTestId('statement').getByRole('link', { name: `Payout #${payoutId}` }).first().waitFor();
    await showsAmount(shopPage, 'balance-available', 0);
    const balances = { SHOP_PENDING: await amountIn(shopPage, 'balance-pending'), SHOP_AVAILABLE: await amountIn(shopPage, 'balance-available'), SHOP_IN_TRANSIT: await amountIn(shopPage, 'balance-in-transit') };
    expect(balances).toEqual({ SHOP_PENDING: SHARE, SHOP_AVAILABLE: 0, SHOP_IN_TRANSIT: 0 });
    expect(await shopPage.getByTestId('balance-debt').count()).toBe(0);
    // Order paid, released (two entries), paid out (two), settled, the second order paid: one page of 7.
    await shopPage.getByText('Page 1 of 1 · 7 in all').waitFor();
    const entries = await shopPage.getByTestId('statement').locator('tbody tr').evaluateAll((rows) => rows.map((r) => ({ account: r.getAttribute('data-account'), delta: Number(r.getAttribute('data-delta')) })));
    expect(entries).toHaveLength(7);
    const sums: Record<string, number> = { SHOP_PENDING: 0, SHOP_AVAILABLE: 0, SHOP_IN_TRANSIT: 0 };
    for (const e of entries) sums[e.account!] += e.delta;
    expect(sums).toEqual(balances);
    // The API agrees with the screen.
    expect((await t.api('GET', '/api/merchant/balances', { token: operator.token })).body).toMatchObject({ pending: SHARE, available: 0, in_transit: 0, debt: 0 });
    // One account's entries: the newest one's balance after is the balance.
    await shopPage.getByRole('combobox', { name: /^Account/ }).selectOption('SHOP_PENDING');
    await shopPage.getByText('Page 1 of 1 · 3 in all').waitFor();
    const newest = shopPage.getByTestId('statement').locator('tbody tr').first();
    expect(Number(await newest.locator('td').last().locator('data').getAttribute('value'))).toBe(SHARE);
    await shopPage.getByRole('combobox', { name: /^Account/ }).selectOption('');
    await shopPage.getByText('Page 1 of 1 · 7 in all').waitFor();
    await shopCtx.screenshot(shopPage, 'console-money');

    // The reconciliation report: today's orders and payout beside the zero-sum check.
    await go(adminPage, 'Reconciliation');
    await adminPage.getByTestId('books-check').getByText(/The books balance/).waitFor();
    const today = adminPage.locator(`[data-day="${new Date().toISOString().slice(0, 10)}"]`);
    await today.getByTestId('orders-paid').getByText(/^2 ·/).waitFor();
    await today.getByTestId('payouts-created').getByText(/^1 ·/).waitFor();
    await adminCtx.screenshot(adminPage, 'admin-reconciliation');
    await expectBooksBalance(t);

    expect(shopCtx.problems).toEqual([]);
    expect(adminCtx.problems).toEqual([]);
  });

  it("pages the admin's payout batches, newest first, the page in the address", async () => {
    // Another shop's released earnings, paid out again and again: the bank refuses each payout, so the
    // money is available for the next batch. With the batch above, more than one page of 20.
    const other = await newShop(t, { name: 'Harbour Kites' });
    const category = await newCategory(t);
    const otherSku = (await newProduct(t, { shopId: other.id, categoryId: category.id, skus: [{ price: PRICE, stock: 5 }] })).skuIds[0];
    const otherOperator = await newOperator(t, other.id);
    await passAfterSaleWindow((await deliveredOrder(t, customer.token, otherOperator.token, otherSku)).id);
    for (let i = 0; i < 21; i++) {
      const batch = await t.api('POST', '/api/admin/payout-batches', { token: admin.token, body: { threshold: 1 } });
      expect(batch.status).toBe(201);
      for (const p of batch.body.payouts as { id: number }[]) expect((await t.api('POST', `/api/admin/payouts/${p.id}/settle`, { token: admin.token, body: { status: 'failed' } })).status).toBe(200);
    }
    const ids = (await t.sql<{ id: number }>('select id from payout_batch order by id desc')).map((r) => r.id);
    expect(ids.length).toBeGreaterThan(20);
    const shown = (page: Page) => page.getByTestId('payout-batches').locator('tbody tr').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-batch-id'))));

    const { ctx, page } = await open(admin);
    await page.goto('/admin/payouts');
    const table = page.getByRole('table', { name: 'Payout batches' });
    await table.getByRole('link', { name: `Batch #${ids[0]}`, exact: true }).waitFor();
    await page.getByText(`Page 1 of 2 · ${ids.length} in all`).waitFor();
    expect(await shown(page)).toEqual(ids.slice(0, 20));
    // The next page goes on where the first stopped, and the address keeps it across a reload.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click();
    await page.waitForURL(/[?&]page=2\b/);
    await table.getByRole('link', { name: `Batch #${ids[20]}`, exact: true }).waitFor();
    expect(await shown(page)).toEqual(ids.slice(20, 40));
    await page.reload();
    await page.getByText(`Page 2 of 2 · ${ids.length} in all`).waitFor();
    expect(await shown(page)).toEqual(ids.slice(20, 40));
    // A batch's row opens it.
    await table.getByRole('link', { name: `Batch #${ids[20]}`, exact: true }).click();
    await page.getByRole('heading', { name: `Payout batch #${ids[20]}` }).waitFor();
    await page.goBack();
    await page.getByText(`Page 2 of 2 · ${ids.length} in all`).waitFor();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Previous' }).click();
    await page.getByText(`Page 1 of 2 · ${ids.length} in all`).waitFor();
    expect(new URL(page.url()).searchParams.has('page')).toBe(false);
    await expectBooksBalance(t);
    expect(ctx.problems).toEqual([]);
  });
});
