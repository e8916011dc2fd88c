import { vi } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, PASSWORD } from './support/fixtures.js';
import { payOk, placeOrder, shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, sessionFor, StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * Issue 41 item 4 from the customer's side, in Chromium: a refund the shop rejected is escalated from
 * the account page (a reason is needed), shows as with the platform, and then with the platform's
 * ruling and the money it gave back.
 */
let t: TestApp;
let browser: Browser;
const contexts: StoreContext[] = [];

beforeAll(async () => {
  [t, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

it('a customer asks the platform to rule on a rejected refund and reads the ruling', async () => {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
  const operator = await newOperator(t, shop.id);
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
  await payOk(t, customer.token, order.id);
  const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, {
    token: customer.token, body: { kind: 'refund', reason: 'Wrong colour', items: [{ order_item_id: order.items[0].id, quantity: 2 }] },
  });
  await t.api('POST', `/api/merchant/refunds/${asked.body.id}/reject`, { token: operator.token, body: { reason: 'Colour as pictured' } });

  const store = await StoreContext.open(browser, t, DESKTOP, await sessionFor(t, customer.email, PASSWORD));
  contexts.push(store);
  const page = await store.page();
  await page.goto('/account');
  const refund = page.getByTestId('my-refund').filter({ hasText: `Refund #${asked.body.id}` });
  await refund.getByText('The shop: “Colour as pictured”').waitFor();
  await refund.getByRole('button', { name: 'Ask the platform to rule' }).click();

  // No reason: refused, and nothing is opened.
  await refund.getByRole('button', { name: 'Send to the platform' }).click();
  await refund.getByText('Not sent to the platform').waitFor();
  expect((await t.sql('select count(*)::int as n from dispute where refund_id = ?', [asked.body.id]))[0].n).toBe(0);

  await refund.getByLabel('Why the platform should rule otherwise').fill('The picture shows another colour');
  await refund.getByRole('button', { name: 'Send to the platform' }).click();
  const dispute = page.getByTestId('my-dispute').filter({ hasText: `Refund #${asked.body.id}` });
  await dispute.getByText(/with the platform/).waitFor();
  await dispute.getByText('You wrote: “The picture shows another colour”.').waitFor();
  // Asked once: the button is gone.
  expect(await refund.getByRole('button', { name: 'Ask the platform to rule' }).count()).toBe(0);

  const [{ id: disputeId }] = await t.sql<{ id: number }>('select id from dispute where refund_id = ?', [asked.body.id]);
  const admin = await newAdmin(t);
  const ruled = await t.api('POST', `/api/admin/disputes/${disputeId}/refund`, { token: admin.token, body: { amount: 1500, reason: 'The listing photo was misleading' } });
  expect(ruled.status).toBe(200);
  await page.reload();
  await dispute.getByText(/refunded by the platform/).waitFor();
  await dispute.getByText('The platform: “The listing photo was misleading”').waitFor();
  await dispute.locator('data[value="1500"]').waitFor();
  expect(store.problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
});
