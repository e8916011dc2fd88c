import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newOperator, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, layoutShift, MOBILE, sessionFor, StoreContext, WAIT_TIMEOUT_MS } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Issue 41 item 5 in the consoles, in Chromium: an admin reads the audit log and filters it by
 * operation and by shop; a shop's operator reads their own shop's entries and never another's.
 * Issue 44: shops, actors and targets by name, each narrowing the log when clicked.
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

async function signedIn(user: TestUser, viewport = DESKTOP): Promise<{ ctx: StoreContext; page: Page }> {
  const ctx = await StoreContext.open(browser, t, viewport, await sessionFor(t, user.email, PASSWORD));
  contexts.push(ctx);
  return { ctx, page: await ctx.page() };
}

const couponBody = (name: string) => ({ name, discount_kind: 'fixed', amount_off: 500, min_order_amount: 3000, valid_days: 7, claim_stock: 50 });

it('an admin reads the log and filters it by operation and by shop; an operator reads only their shop', async () => {
  const shop = await newShop(t);
  const operator = await newOperator(t, shop.id);
  const other = await newShop(t);
  const otherOperator = await newOperator(t, other.id);
  const mine = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: couponBody('Spring five') });
  await t.api('PATCH', `/api/merchant/coupon-templates/${mine.body.id}`, { token: operator.token, body: { name: 'Spring six' } });
  await t.api('POST', '/api/merchant/coupon-templates', { token: otherOperator.token, body: couponBody('Elsewhere') });
  expect((await t.api('POST', `/api/admin/shops/${other.id}/suspend`, { token: admin.token, body: { reason: 'Counterfeits' } })).status).toBe(200);

  const { ctx, page } = await signedIn(admin);
  await page.goto('/admin');
  await page.getByRole('navigation', { name: /console/ }).getByRole('link', { name: 'Audit log', exact: true }).click();
  await page.getByRole('heading', { name: 'Audit log' }).waitFor();
  // Newest first: the suspension, with the shop's status before and after.
  const first = page.getByTestId('audit-entry').first();
  await first.getByText('suspendShop').waitFor();
  await first.getByText('active → suspended').waitFor();
  await page.getByTestId('audit-entry').filter({ hasText: 'Spring five → Spring six' }).waitFor();

  const filters = page.getByRole('search', { name: 'Filter the audit log' });
  await filters.getByLabel('Operation').fill('updateCouponTemplate');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await page.getByTestId('audit-entry').filter({ hasText: 'Spring five → Spring six' }).waitFor();
  await expect.poll(() => page.getByTestId('audit-entry').filter({ hasNotText: 'updateCouponTemplate' }).count(), { timeout: WAIT_TIMEOUT_MS }).toBe(0);
  await ctx.screenshot(page, 'admin-audit-log');

  await filters.getByLabel('Operation').fill('');
  await filters.getByRole('button', { name: 'Filter' }).click();
  // A shop and an actor are chosen by their names in a row, never typed as ids.
  expect(await filters.getByLabel('Shop id').count()).toBe(0);
  expect(await filters.getByLabel('Actor id').count()).toBe(0);
  const elsewhere = page.getByTestId('audit-entry').filter({ hasText: 'Elsewhere' });
  await elsewhere.getByRole('button', { name: other.name }).click();
  await page.waitForURL(new RegExp(`shop=${other.id}`));
  await page.getByText(`Shop: ${other.name}`).waitFor();
  await expect.poll(() => page.getByTestId('audit-entry').filter({ hasText: 'Spring' }).count(), { timeout: WAIT_TIMEOUT_MS }).toBe(0);
  await elsewhere.waitFor();
  // Within that shop, one actor's writes: the operator's coupon, not the admin's suspension.
  await elsewhere.getByRole('button', { name: otherOperator.email }).click();
  await page.getByText(`By: ${otherOperator.email}`).waitFor();
  await expect.poll(() => page.getByTestId('audit-entry').filter({ hasText: 'suspendShop' }).count(), { timeout: WAIT_TIMEOUT_MS }).toBe(0);
  await elsewhere.waitFor();
  // Widened again, the whole log is back.
  await page.getByRole('button', { name: 'Every shop' }).click();
  await page.getByRole('button', { name: 'Everyone' }).click();
  await page.getByTestId('audit-entry').filter({ hasText: 'Spring five → Spring six' }).waitFor();

  // Targets by name, type and id beside: the suspended shop, the coupon by its name now.
  await first.getByText(`(Shop #${other.id})`).waitFor();
  const renamed = page.getByTestId('audit-entry').filter({ hasText: 'Spring five → Spring six' });
  await renamed.getByText(`(CouponTemplate #${mine.body.id})`).waitFor();
  // Its name narrows the log to that row's history: created, then renamed.
  await renamed.getByRole('button', { name: 'Spring six', exact: true }).click();
  await page.waitForURL(new RegExp(`targetId=${mine.body.id}`));
  await expect.poll(() => page.getByTestId('audit-entry').allInnerTexts(), { timeout: WAIT_TIMEOUT_MS }).toEqual([
    expect.stringContaining('updateCouponTemplate'),
    expect.stringContaining('createCouponTemplate'),
  ]);
  expect(await filters.getByLabel('Target id').inputValue()).toBe(String(mine.body.id));
  expect(ctx.problems).toEqual([]);

  // The shop's operator: their own shop's entries, nothing of the other shop.
  const shopSide = await signedIn(operator);
  await shopSide.page.goto('/merchant');
  await shopSide.page.getByRole('navigation', { name: /console/ }).getByRole('link', { name: 'Audit log', exact: true }).click();
  await shopSide.page.getByTestId('audit-entry').filter({ hasText: 'Spring five → Spring six' }).getByRole('button', { name: 'Spring six', exact: true }).waitFor();
  expect(await shopSide.page.getByTestId('audit-entry').filter({ hasText: 'Elsewhere' }).count()).toBe(0);
  expect(await shopSide.page.getByTestId('audit-entry').filter({ hasText: 'suspendShop' }).count()).toBe(0);
  await expect(shopSide.page.getByLabel('Shop id').count()).resolves.toBe(0);
  await shopSide.ctx.screenshot(shopSide.page, 'console-audit-log');
  expect(shopSide.ctx.problems).toEqual([]);
});

it('pages the log with the page in the address, a filter starting it over, and draws it without moving it (CLS 0)', async () => {
  const shop = await newShop(t);
  const operator = await newOperator(t, shop.id);
  const coupon = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: couponBody('Autumn 0') });
  // One coupon renamed 22 times: with its creation, two pages of its history.
  for (let i = 1; i <= 22; i++) expect((await t.api('PATCH', `/api/merchant/coupon-templates/${coupon.body.id}`, { token: operator.token, body: { name: `Autumn ${i}` } })).status).toBe(200);
  const history = `/admin/audit-log?targetType=CouponTemplate&targetId=${coupon.body.id}`;
  // Drawn once its entries came, on a phone as at a desk: nothing it showed moves (CLS 0).
  const phone = await signedIn(admin, MOBILE);
  await phone.page.goto(history);
  await phone.page.getByRole('table', { name: 'Audit log entries' }).getByTestId('audit-entry').first().getByText('Autumn 21 → Autumn 22').waitFor();
  await phone.page.waitForLoadState('networkidle');
  expect(await layoutShift(phone.page)).toBe(0);
  const { ctx, page } = await signedIn(admin);
  await page.goto(history);
  const table = page.getByRole('table', { name: 'Audit log entries' });
  await table.getByTestId('audit-entry').first().getByText('Autumn 21 → Autumn 22').waitFor();
  await page.waitForLoadState('networkidle');
  expect(await layoutShift(page)).toBe(0);
  await page.getByText('Page 1 of 2 · 23 in all').waitFor();
  expect(await table.getByTestId('audit-entry').count()).toBe(20);
  // Every column is a header of the table; every filter has its label.
  expect(await table.getByRole('columnheader').allInnerTexts()).toEqual(['When', 'Who', 'Shop', 'Operation', 'Target', 'Changes', 'Request']);
  const filters = page.getByRole('search', { name: 'Filter the audit log' });
  for (const name of ['Operation', 'Target type', 'Target id', 'From', 'Until']) expect(await filters.getByLabel(name, { exact: true }).count()).toBe(1);

  // The next page, kept in the address across a reload: the oldest entries, down to the creation.
  await page.getByRole('navigation', { name: 'Pages' }).getByRole('button', { name: 'Next' }).click();
  await page.waitForURL(/[?&]page=2\b/);
  await table.getByTestId('audit-entry').last().getByText('createCouponTemplate').waitFor();
  await page.reload();
  await page.getByText('Page 2 of 2 · 23 in all').waitFor();
  expect(await table.getByTestId('audit-entry').count()).toBe(3);
  expect(await filters.getByLabel('Target id').inputValue()).toBe(String(coupon.body.id));
  // A filter reads the log again from its first page.
  await filters.getByLabel('Operation').fill('createCouponTemplate');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('Page 1 of 1 · 1 in all').waitFor();
  expect(new URL(page.url()).searchParams.has('page')).toBe(false);
  expect(new URL(page.url()).searchParams.get('targetId')).toBe(String(coupon.body.id));
  // Nothing matching: the table says so.
  await filters.getByLabel('Operation').fill('noSuchOperation');
  await filters.getByRole('button', { name: 'Filter' }).click();
  await page.getByText('No entries match.').waitFor();
  expect(ctx.problems).toEqual([]);
  expect(phone.ctx.problems).toEqual([]);
});
