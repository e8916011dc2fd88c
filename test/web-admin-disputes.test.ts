import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, PASSWORD, type TestUser } from './support/fixtures.js';
import { balanceOf, expectLedgerReplays, payOk, placeOrder, shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Issue 41 item 4 in the platform console, in Chromium: an admin rules on a dispute (part refunded,
 * the ruling shown; another upheld) and disables a customer, who can then not sign in, then enables
 * them again.
 */
let t: TestApp;
let browser: Browser;
let admin: TestUser;
const contexts: StoreContext[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
  admin = await newAdmin(t);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

async function adminPage(): Promise<{ ctx: StoreContext; page: Page }> {
  const ctx = await StoreContext.open(browser, t, DESKTOP, await sessionFor(t, admin.email, PASSWORD));
  contexts.push(ctx);
  return { ctx, page: await ctx.page() };
}

/** A dispute's row in the disputes table. */
const disputeRow = (page: Page, id: number) => page.locator(`tr[data-dispute-id="${id}"]`);

/** An open dispute over a rejected refund of 2 x 1000. */
async function openDispute() {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
  const operator = await newOperator(t, shop.id);
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
  await payOk(t, customer.token, order.id);
  const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, {
    token: customer.token, body: { kind: 'refund', reason: 'Wrong colour', items: [{ order_item_id: order.items[0].id, quantity: 2 }] },
  });
  await t.api('POST', `/api/merchant/refunds/${asked.body.id}/reject`, { token: operator.token, body: { reason: 'Colour as pictured' } });
  const dispute = await t.api('POST', `/api/refunds/${asked.body.id}/dispute`, { token: customer.token, body: { reason: 'The picture was wrong' } });
  expect(dispute.status).toBe(201);
  return { customer, operator, shop, order, refundId: asked.body.id as number, dispute: dispute.body as { id: number } };
}

it('an admin refunds part of one dispute and upholds another; both rulings show, and the money moved through the ledger', async () => {
  const refunded = await openDispute();
  const upheld = await openDispute();
  const before = await balanceOf(t, refunded.customer.id, 'available');
  const { ctx, page } = await adminPage();
  await page.goto('/admin');
  await page.getByRole('navigation', { name: /console/ }).getByRole('link', { name: 'Disputes', exact: true }).click();

  const first = disputeRow(page, refunded.dispute.id);
  await first.getByText('The picture was wrong').waitFor();
  // The customer by name, not by id.
  await first.getByText(/customer Test User$/).waitFor();
  await first.getByText('Colour as pictured', { exact: false }).waitFor();
  await first.getByLabel('Amount to refund').fill('12.50');
  await first.getByLabel('Ruling (both sides read it)').fill('Half the picture was wrong');
  await first.getByRole('button', { name: 'Refund' }).click();

  const second = disputeRow(page, upheld.dispute.id);
  // A blank ruling is refused on its field, and nothing changes.
  await second.getByRole('button', { name: 'Uphold the rejection' }).click();
  await second.locator('[aria-invalid="true"]').first().waitFor();
  await second.getByLabel('Ruling (both sides read it)').fill('As pictured');
  await second.getByRole('button', { name: 'Uphold the rejection' }).click();

  // Ruled disputes leave the open list; the other statuses show the rulings.
  await page.getByLabel('Status').selectOption('REFUNDED');
  await disputeRow(page, refunded.dispute.id).getByTestId('ruling').getByText('Half the picture was wrong', { exact: false }).waitFor();
  await page.getByLabel('Status').selectOption('UPHELD');
  await disputeRow(page, upheld.dispute.id).getByTestId('ruling').getByText('As pictured', { exact: false }).waitFor();
  await ctx.screenshot(page, 'admin-disputes-upheld');

  expect(await balanceOf(t, refunded.customer.id, 'available')).toBe(before + 1250);
  const shopSide = await t.api('GET', '/api/merchant/disputes', { token: refunded.operator.token });
  expect(shopSide.body.items[0]).toMatchObject({ status: 'refunded', refunded_amount: 1250, ruling: 'Half the picture was wrong' });
  await expectLedgerReplays(t);
  expect(ctx.problems).toEqual([]);
});

it("an admin finds disputes on the server by the shop's name or the order's number, in any status, shown by names", async () => {
  const wanted = await openDispute();
  const other = await openDispute();
  await t.api('POST', `/api/admin/disputes/${wanted.dispute.id}/uphold`, { token: admin.token, body: { reason: 'Made to order' } });
  const { ctx, page } = await adminPage();
  await page.goto('/admin/disputes');
  // Open ones first: the upheld one is not on the desk, the other open one is.
  await disputeRow(page, other.dispute.id).waitFor();
  await expect.poll(() => disputeRow(page, wanted.dispute.id).count()).toBe(0);

  const search = page.getByRole('search', { name: 'Find disputes' });
  await search.getByLabel('Customer, shop, reason or order number').fill(wanted.shop.name);
  await search.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/[?&]q=/);
  await page.getByText('No dispute matches.').waitFor();
  await page.getByLabel('Status').selectOption('ANY');
  await page.waitForURL(/status=ANY/);
  const row = disputeRow(page, wanted.dispute.id);
  await row.getByTestId('ruling').getByText('Made to order', { exact: false }).waitFor();
  // The server answered with this dispute alone, named by its shop and customer, not by ids.
  await expect.poll(() => page.getByTestId('dispute').count()).toBe(1);
  const text = (await row.innerText()).replace(/\s+/g, ' ');
  expect(text).toContain(`order #${wanted.order.id} at ${wanted.shop.name}, customer Test User`);
  expect(text).not.toContain(`shop #${wanted.shop.id}`);

  // By the order's number: the other dispute, still open, with its ruling form.
  await search.getByLabel('Customer, shop, reason or order number').fill(`#${other.order.id}`);
  await search.getByRole('button', { name: 'Search' }).click();
  await disputeRow(page, other.dispute.id).getByRole('form', { name: `Ruling on dispute ${other.dispute.id}` }).waitFor();
  await expect.poll(() => page.getByTestId('dispute').count()).toBe(1);
  expect(ctx.problems).toEqual([]);
});

it('an admin finds a customer, disables them (they cannot sign in), and enables them again', async () => {
  const customer = await newCustomer(t);
  const { ctx, page } = await adminPage();
  await page.goto('/admin/customers');
  await page.getByRole('search', { name: 'Find customers' }).getByLabel('Email, name or id').fill(customer.email);
  await page.getByRole('search', { name: 'Find customers' }).getByRole('button', { name: 'Search' }).click();
  // The search's answer replaces the list: act on the row once it has (the first page holds this customer too).
  await page.waitForURL(/[?&]q=/);
  await expect.poll(() => page.getByTestId('customer-row').count(), { timeout: 30_000 }).toBe(1);
  const row = page.getByTestId('customer-row').filter({ hasText: customer.email });
  await row.getByLabel('Reason').fill('Chargeback fraud');
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.getByText('Disabled: Chargeback fraud', { exact: false }).waitFor();
  await ctx.screenshot(page, 'admin-customer-disabled');
  // The state filter (kept in the address) narrows the search: disabled keeps the row, active drops it.
  await page.getByLabel('State').selectOption('DISABLED');
  await page.waitForURL(/state=DISABLED/);
  await row.getByText('Disabled: Chargeback fraud', { exact: false }).waitFor();
  await page.getByLabel('State').selectOption('ACTIVE');
  await page.getByText('No customer matches.').waitFor();
  await page.getByLabel('State').selectOption('');
  const refused = await t.api('POST', '/api/auth/login', { body: { email: customer.email, password: PASSWORD } });
  expect(refused.body.error.code).toBe('ACCOUNT_DISABLED');

  await row.getByRole('button', { name: 'Enable' }).click();
  await row.getByText('Active').waitFor();
  expect((await t.api('POST', '/api/auth/login', { body: { email: customer.email, password: PASSWORD } })).status).toBe(200);
  expect(ctx.problems).toEqual([]);
});

it("finds any shop's order by number, the customer's email and status, with its payment and refunds", async () => {
  const { customer, shop, order, refundId } = await openDispute();
  const [{ email, shopName }] = await t.sql<{ email: string; shopName: string }>('select u.email, s.name as "shopName" from app_user u, shop s where u.id = ? and s.id = ?', [customer.id, shop.id]);
  const { ctx, page } = await adminPage();
  await page.goto('/admin');
  await page.getByRole('navigation', { name: /console/ }).getByRole('link', { name: 'Orders', exact: true }).click();
  const search = page.getByRole('search', { name: 'Find orders' });
  await search.getByLabel('Order number').fill(String(order.id));
  await search.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(new RegExp(`order=${order.id}`));
  const rows = page.getByTestId('admin-order-row');
  const theOrder = rows.filter({ has: page.getByRole('cell', { name: new RegExp(`^#${order.id} ·`) }) });
  await theOrder.waitFor();
  await expect.poll(() => rows.count()).toBe(1);
  const row = (await theOrder.innerText()).replace(/\s+/g, ' ');
  expect(row).toContain(shopName);
  expect(row).toContain(`<${email}>`);
  expect(row).toMatch(/Wallet: Captured \(paid it\)/);
  expect(row).toContain(`Refund #${refundId}: Rejected`);

  // By the customer's email, and then only the cancelled ones: none.
  await search.getByLabel('Order number').fill('');
  await search.getByLabel('Customer email').fill(email.toUpperCase());
  await search.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/email=/);
  await theOrder.waitFor();
  await page.getByLabel('Status').selectOption({ label: 'Cancelled' });
  await page.getByText('No order matches.').waitFor();
  expect(ctx.problems).toEqual([]);
});
