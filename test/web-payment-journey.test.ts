import { vi } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { SandboxProvider } from '../src/services/payments/sandbox-provider.js';
import { settlePaymentRefunds } from '../src/services/payments/payment-refunds.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newOperator, newProduct, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { waitFor } from './support/subscriptions.js';
import { addToCart, checkOut, register } from './support/storefront-steps.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, MOBILE, sessionFor, StoreContext } from './support/browser.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * A customer who was never seeded any money buys from two shops through the sandbox gateway in
 * Chromium: the cashier, the waiting page turning paid live (no reload), a refund of a line approved
 * by the shop and sent back through the gateway, shown on the order page; and a declined payment
 * shown live with a retry that pays.
 *
 * The sandbox here holds its notification until the test lets it go (it is the gateway's own signed
 * notification, posted to the server's notification route as the sandbox does after its delay): so
 * the page is seen checking first, and the capture reaches an open page, whatever the machine's speed.
 */
class HeldSandbox extends SandboxProvider {
  private baseUrl = '';
  override deliverTo(baseUrl: string): void {
    this.baseUrl = baseUrl;
  }
  /** The gateway's signed notification for `reference`, delivered now. */
  async release(reference: string): Promise<string> {
    const signed = this.notificationFor(reference)!;
    const res = await fetch(`${this.baseUrl}/api/payments/notifications/sandbox`, { method: 'POST', headers: { 'content-type': 'application/json', 'sandbox-signature': signed.signature }, body: signed.body });
    if (res.status !== 200) throw new Error(`notification refused: ${res.status} ${await res.text()}`);
    return ((await res.json()) as { outcome: string }).outcome;
  }
}

let t: TestApp;
let browser: Browser;
const contexts: StoreContext[] = [];
const data = {} as { shops: { id: number; slug: string }[]; lantern: { id: number; skuIds: number[] }; shirt: { id: number; skuIds: number[] }; operators: TestUser[] };
const sandbox = () => t.deps.wiring.paymentProviders.sandbox as HeldSandbox;

beforeAll(async () => {
  [t, browser] = await Promise.all([
    // The test configuration offers the wallet and the sandbox, as development does.
    startTestApp({}, { wiring: (base) => ({ paymentProviders: { ...base.paymentProviders, sandbox: new HeldSandbox({ delayMs: 0, secret: 'journey-sandbox' }) } }) }),
    launchBrowser(),
  ]);
  const category = await newCategory(t, await newCategory(t));
  data.shops = [await newShop(t, { name: 'Harbor Tech' }), await newShop(t, { name: 'Avenue Style' })];
  data.lantern = await newProduct(t, { shopId: data.shops[0].id, categoryId: category.id, name: 'Trail Lantern', skus: [{ price: 12900, stock: 20, name: 'Graphite' }] });
  data.shirt = await newProduct(t, { shopId: data.shops[1].id, categoryId: category.id, name: 'Linen Shirt', skus: [{ price: 4900, stock: 20, name: 'M' }] });
  data.operators = [await newOperator(t, data.shops[0].id), await newOperator(t, data.shops[1].id)];
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
});

async function open(viewport = DESKTOP): Promise<{ store: StoreContext; page: Page }> {
  const store = await StoreContext.open(browser, t, viewport);
  contexts.push(store);
  return { store, page: await store.page() };
}

/** Chooses the sandbox at the cashier (optionally declining) and lands on the waiting page: the payment's id. */
async function payWithSandbox(page: Page, options: { decline?: boolean } = {}): Promise<number> {
  await page.getByRole('radio', { name: 'Sandbox gateway (development)' }).check();
  if (options.decline) await page.getByRole('checkbox', { name: /Make the sandbox customer decline/ }).check();
  await page.getByRole('button', { name: 'Pay with Sandbox gateway (development)' }).click();
  await page.waitForURL(/\/checkout\/payment\/\d+$/);
  await page.getByRole('heading', { name: 'Checking your payment…' }).waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

const referenceOf = async (paymentId: number) => (await t.sql<{ provider_reference: string }>('select provider_reference from payment where id = ?', [paymentId]))[0].provider_reference;

/** A marker only this document holds: still there after the outcome arrives means the page was not reloaded. */
const markDocument = (page: Page) => page.evaluate(() => void Object.assign(globalThis, { journeyMark: 1, journeyMarkAt: performance.now() }));
/** How far what was drawn moved since the mark (layout shifts not caused by input, as CLS counts them). */
const shiftSinceMark = async (page: Page) =>
  Number(
    await page.evaluate(`(() => {
      const observer = new PerformanceObserver(() => {});
      observer.observe({ type: 'layout-shift', buffered: true });
      return observer.takeRecords().filter((e) => !e.hadRecentInput && e.startTime > globalThis.journeyMarkAt).reduce((sum, e) => sum + e.value, 0);
    })()`),
  );
const stillSameDocument = (page: Page) => page.evaluate(() => (globalThis as { journeyMark?: number }).journeyMark === 1);

/** No element wider than the viewport (a phone scrolls only down). */
const overflowsWidth = (page: Page) =>
  page.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as { document: { documentElement: { scrollWidth: number } }; innerWidth: number };
    return document.documentElement.scrollWidth > innerWidth;
  });

describe('paying through a gateway in Chromium', () => {
  it('takes a new customer without money from two shops to paid live, and a refunded line back on the method', async () => {
    const { store, page } = await open();
    const email = `cashier-${Date.now()}@example.test`;
    await register(page, email);
    const customer = (await t.api('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body as { token: string; user: { id: number } };
    expect((await t.api('GET', '/api/me/stats', { token: customer.token })).body.available).toBe(0);

    await addToCart(page, data.lantern.id, 'Trail Lantern');
    await addToCart(page, data.shirt.id, 'Linen Shirt');
    await checkOut(page, 2);
    // The cashier lists what the server offers; the balance is empty, so the gateway it is.
    await page.getByRole('radio', { name: 'Mall balance' }).waitFor();
    const paymentId = await payWithSandbox(page);
    expect(await page.getByRole('heading', { name: 'Paid. Thank you!' }).count()).toBe(0);
    await markDocument(page);

    // The gateway tells the server; the open page turns paid by itself, its outcome focused.
    expect(await sandbox().release(await referenceOf(paymentId))).toBe('captured');
    await page.getByRole('heading', { name: 'Paid. Thank you!' }).waitFor();
    expect(await stillSameDocument(page)).toBe(true);
    // The outcome took the room kept for it: nothing drawn moved.
    expect(await shiftSinceMark(page)).toBeLessThanOrEqual(0.01);
    await waitFor(() => page.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent === 'Paid. Thank you!'), 5000, 'the outcome focused');
    const orders = (await t.api('GET', '/api/orders', { token: customer.token })).body.items as { id: number; status: string; shop: { id: number }; items: { id: number }[] }[];
    expect(orders.map((o) => o.status)).toEqual(['paid', 'paid']);
    await store.screenshot(page, 'payment-paid-desktop');

    // A refund of the shirt line, asked on the order page.
    const shirtOrder = orders.find((o) => o.shop.id === data.shops[1].id)!;
    await page.getByRole('link', { name: `View order #${shirtOrder.id}` }).click();
    await page.getByRole('heading', { name: 'Payment' }).waitFor();
    const payment = page.getByRole('list', { name: 'Payment' });
    await payment.getByText('Sandbox gateway (development)').waitFor();
    expect(await payment.getByTestId('payment-status').innerText()).toBe('Paid');
    await page.getByLabel(/Linen Shirt/).fill('1');
    await page.getByLabel('Reason').fill('The colour is not as shown');
    await page.getByRole('button', { name: 'Send request' }).click();
    await page.getByText('Your request is with the shop.').waitFor();

    // The shop approves (over the API); the refund sweep sends it back through the gateway.
    const [refund] = await t.sql<{ id: number }>('select id from refund where order_id = ?', [shirtOrder.id]);
    const approved = await t.api('POST', `/api/merchant/refunds/${refund.id}/approve`, { token: data.operators[1].token, body: {} });
    expect(approved.body.status).toBe('completed');
    expect(await settlePaymentRefunds(await t.context())).toBe(1);

    await page.reload();
    const refunds = page.getByRole('table', { name: 'Refunds to Sandbox gateway (development)' });
    await refunds.getByText('Refunded').waitFor();
    await refunds.locator(`data[value="${approved.body.amount}"]`).waitFor();
    expect((await t.api('GET', '/api/me/stats', { token: customer.token })).body.available).toBe(0);
    await store.screenshot(page, 'order-refund-to-method-desktop');

    // The shop's console shows the same payment and refund on its own order.
    const shopContext = await StoreContext.open(browser, t, DESKTOP, await sessionFor(t, data.operators[1].email, PASSWORD));
    contexts.push(shopContext);
    const shopPage = await shopContext.page();
    await shopPage.goto(`/merchant/orders/${shirtOrder.id}`);
    const panel = shopPage.getByTestId('order-payments');
    await panel.getByText('Refunded').waitFor();
    await panel.getByText(/^sbx_refund_/).waitFor();

    // The platform's payment desk finds the payment by the gateway's reference, with what the gateway said.
    const admin = await newAdmin(t);
    const adminContext = await StoreContext.open(browser, t, DESKTOP, await sessionFor(t, admin.email, PASSWORD));
    contexts.push(adminContext);
    const desk = await adminContext.page();
    await desk.goto('/admin/payments');
    await desk.getByRole('heading', { name: 'Payments', exact: true }).waitFor();
    await desk.getByRole('combobox', { name: /^Provider/ }).selectOption({ label: 'Sandbox gateway (development)' });
    await desk.getByLabel('Provider reference').fill(await referenceOf(paymentId));
    await desk.getByRole('button', { name: 'Find payment' }).click();
    const found = desk.getByTestId('found-payment');
    await found.getByRole('heading', { name: `Payment #${paymentId}: Paid` }).waitFor();
    await found.getByTestId('payment-events').getByRole('cell', { name: 'captured' }).first().waitFor();
    // The customer by name (the storefront's registration gave it), not by account id.
    await found.getByText('New Shopper', { exact: true }).waitFor();
    await desk.getByLabel('Order number').fill(String(shirtOrder.id));
    await desk.getByRole('button', { name: 'Show its payments' }).click();
    await desk.getByTestId('order-payments').getByText('Refunded').waitFor();
    expect(store.problems).toEqual([]);
    expect(shopContext.problems).toEqual([]);
    expect(adminContext.problems).toEqual([]);
  });

  it("pays an unpaid order from its page at 390 px: the decline shown live, and the retry that pays", async () => {
    const { store, page } = await open(MOBILE);
    const email = `declined-${Date.now()}@example.test`;
    await register(page, email);
    await addToCart(page, data.lantern.id, 'Trail Lantern');
    await checkOut(page, 1);
    expect(await overflowsWidth(page)).toBe(false);
    // Left unpaid at checkout, it is paid from the order's own page, where the balance button stays apart.
    const token = (await t.api('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body.token as string;
    const [unpaid] = (await t.api('GET', '/api/orders', { token })).body.items as { id: number }[];
    await page.goto(`/orders/${unpaid.id}`);
    await page.getByRole('group', { name: 'Or pay through a provider' }).waitFor();
    expect(await page.getByRole('radio', { name: 'Mall balance' }).count()).toBe(0);
    expect(await overflowsWidth(page)).toBe(false);
    const declined = await payWithSandbox(page, { decline: true });
    await markDocument(page);
    expect(await sandbox().release(await referenceOf(declined))).toBe('failed');
    await page.getByRole('heading', { name: 'The payment did not go through' }).waitFor();
    expect(await stillSameDocument(page)).toBe(true);
    expect(await shiftSinceMark(page)).toBeLessThanOrEqual(0.01);
    expect(await overflowsWidth(page)).toBe(false);
    await store.screenshot(page, 'payment-declined-mobile');

    // The retry is a new payment of the same order.
    const retry = await payWithSandbox(page);
    expect(retry).not.toBe(declined);
    expect(await sandbox().release(await referenceOf(retry))).toBe('captured');
    await page.getByRole('heading', { name: 'Paid. Thank you!' }).waitFor();
    const [order] = await t.sql<{ status: string }>('select o.status from shop_order o join payment_order po on po.order_id = o.id where po.payment_id = ?', [retry]);
    expect(order.status).toBe('paid');
    expect((await t.sql<{ status: string }>('select status from payment where id in (?, ?) order by id', [declined, retry])).map((r) => r.status)).toEqual(['failed', 'captured']);
    // The order page lists both attempts, the paying one first, within the phone's width.
    await page.getByRole('link', { name: /^View order #/ }).click();
    const attempts = page.getByRole('list', { name: 'Payment' }).getByTestId('payment-status');
    await attempts.nth(1).waitFor();
    expect(await attempts.allInnerTexts()).toEqual(['Paid', 'Failed']);
    expect(await overflowsWidth(page)).toBe(false);
    await store.screenshot(page, 'order-payments-mobile');
    expect(store.problems).toEqual([]);
  });
});
