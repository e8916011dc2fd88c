import { vi } from 'vitest';
import type { Browser, WebSocketRoute } from 'playwright-core';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator, PASSWORD } from './support/fixtures.js';
import { placeOrder, shopWithProduct } from './support/shopping.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, MOBILE, sessionFor, StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * The live operations page in Chromium: an operator's page shows, within 2 seconds, an order a
 * customer pays in another browser context, never another shop's; ships from the page; and
 * reconnects after its websocket drops, saying so.
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

async function open(session: unknown, viewport = DESKTOP): Promise<StoreContext> {
  const context = await StoreContext.open(browser, t, viewport, session);
  contexts.push(context);
  return context;
}

describe('the live operations page', () => {
  it("shows an order paid in another browser within 2 s, not another shop's, ships it, and reconnects after a drop", async () => {
    const mine = await shopWithProduct(t, [{ price: 4200, stock: 50 }]);
    const other = await shopWithProduct(t, [{ price: 999, stock: 50 }]);
    const operator = await newOperator(t, mine.shop.id);
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });

    // The operator's page, its websocket routed through the test so the test can drop it.
    const ops = await open(await sessionFor(t, operator.email, PASSWORD));
    const opsPage = await ops.page();
    const sockets: WebSocketRoute[] = [];
    await opsPage.routeWebSocket(/\/graphql$/, (ws) => {
      ws.connectToServer();
      sockets.push(ws);
    });
    await opsPage.goto('/ops');
    await opsPage.getByTestId('live-status').getByText('Live').waitFor();
    await opsPage.getByTestId('count-paid').getByText('0').waitFor();

    // The customer pays in their own browser.
    const shopper = await open(await sessionFor(t, customer.email, PASSWORD));
    const shopperPage = await shopper.page();
    const foreign = await placeOrder(t, customer.token, other.product.skuIds[0]);
    const order = await placeOrder(t, customer.token, mine.product.skuIds[0], 2);
    await shopperPage.goto(`/orders/${foreign.id}`);
    await shopperPage.getByRole('button', { name: 'Pay from balance' }).click();
    await shopperPage.getByText('Paid', { exact: true }).first().waitFor();
    await shopperPage.goto(`/orders/${order.id}`);
    // Live: the console shows it without a reload (how fast is the timing project's business, not this walk's).
    await shopperPage.getByRole('button', { name: 'Pay from balance' }).click();
    await opsPage.getByTestId('feed').getByText(`Order #${order.id} paid: ¥84.00`).waitFor();
    await opsPage.locator(`[data-order-id="${order.id}"]`).waitFor();
    await opsPage.getByTestId('count-paid').getByText('1').waitFor();
    // The other shop's order (paid first: events arrive in commit order) never shows.
    await expect(opsPage.getByTestId('feed').getByText(`#${foreign.id}`).count()).resolves.toBe(0);
    await expect(opsPage.locator(`[data-order-id="${foreign.id}"]`).count()).resolves.toBe(0);
    await ops.screenshot(opsPage, 'ops-desktop');

    // Ship from the page.
    const row = opsPage.locator(`[data-order-id="${order.id}"]`);
    await row.getByLabel('Tracking number').fill('SF1234567890');
    await row.getByRole('button', { name: 'Ship' }).click();
    await opsPage.getByTestId('feed').getByText(`Order #${order.id} shipped`).waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await t.sql('select status from shop_order where id = ?', [order.id]))[0].status).toBe('shipped');

    // Drop the websocket: the page says it is reconnecting, comes back, says so, and gets events again.
    expect(sockets).toHaveLength(1);
    await sockets[0].close({ code: 1001, reason: 'test drops the connection' });
    await opsPage.getByTestId('live-status').getByText(/reconnected once/).waitFor();
    expect(sockets).toHaveLength(2);
    const after = await placeOrder(t, customer.token, mine.product.skuIds[0]);
    await opsPage.getByTestId('feed').getByText(`Order #${after.id} placed`).waitFor();

    const mobile = await open(await sessionFor(t, operator.email, PASSWORD), MOBILE);
    const mobilePage = await mobile.page();
    await mobilePage.goto('/ops');
    await mobilePage.getByTestId('live-status').getByText('Live').waitFor();
    await mobile.screenshot(mobilePage, 'ops-mobile');

    for (const c of [ops, shopper, mobile]) expect(c.problems).toEqual([]);
  });
});
