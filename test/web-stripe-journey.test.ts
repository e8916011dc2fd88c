import { vi } from 'vitest';
import type { Browser, Page, Request } from 'playwright-core';
import { loadConfig } from '../src/config.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newProduct, newShop, PASSWORD } from './support/fixtures.js';
import { waitFor } from './support/subscriptions.js';
import { BROWSER_TEST_TIMEOUT_MS, DESKTOP, launchBrowser, StoreContext } from './support/browser.js';
import { startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in.js';
import { routeStripeTo } from './support/stripe-js-stand-in.js';
import { addToCart, checkOut, register } from './support/storefront-steps.js';

vi.setConfig({ testTimeout: BROWSER_TEST_TIMEOUT_MS, hookTimeout: BROWSER_TEST_TIMEOUT_MS });

/**
 * A new customer pays by card in Chromium: the storefront loads Stripe.js from js.stripe.com and
 * confirms the PaymentIntent with it, the card typed into Stripe's frame. This machine cannot reach
 * Stripe, so the browser's js.stripe.com and api.stripe.com are routed to the stand-in
 * (test/support/stripe-js-stand-in.ts), which answers as Stripe does and sends its signed webhook to
 * the server. The storefront's code, its CSP and the server are the production ones.
 */
const SECRET_KEY = 'sk_test_journey_stand_in';
const PUBLISHABLE_KEY = 'pk_test_journey_stand_in';
const WEBHOOK_SECRET = 'whsec_journey_stand_in';
const DECLINED = '4000 0000 0000 0002';
const GOOD = '4242 4242 4242 4242';

let t: TestApp;
let browser: Browser;
let stripe: StripeStandIn;
const contexts: StoreContext[] = [];
const data = {} as { lantern: { id: number } };

beforeAll(async () => {
  stripe = await startStripeStandIn(SECRET_KEY, { publishableKey: PUBLISHABLE_KEY });
  const env = { NODE_ENV: 'test', PAYMENT_METHODS: 'wallet,stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url };
  [t, browser] = await Promise.all([startTestApp({ payments: loadConfig(env).payments }), launchBrowser()]);
  stripe.webhooks = { url: `${t.baseUrl}/api/payments/notifications/stripe`, secret: WEBHOOK_SECRET };
  const category = await newCategory(t, await newCategory(t));
  const shop = await newShop(t, { name: 'Harbor Tech' });
  data.lantern = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Trail Lantern', skus: [{ price: 12900, stock: 20, name: 'Graphite' }] });
});

afterAll(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await t?.close();
  await stripe?.close();
});

async function typeCard(page: Page, number: string) {
  const card = page.frameLocator('iframe[title="Secure payment input frame"]');
  await card.getByLabel('Card number').fill(number);
  await card.getByLabel('Expiration date (MM / YY)').fill('12 / 34');
  await card.getByLabel('Security code').fill('123');
  await page.getByRole('button', { name: 'Pay by card' }).click();
}

async function payByCard(page: Page): Promise<number> {
  await page.getByRole('radio', { name: 'Card (Stripe)' }).check();
  await page.getByRole('button', { name: 'Pay with Card (Stripe)' }).click();
  await page.waitForURL(/\/checkout\/payment\/\d+$/);
  await page.getByRole('heading', { name: 'Checking your payment…' }).waitFor();
  return Number(new URL(page.url()).pathname.split('/').pop());
}

const paymentRow = async (id: number) =>
  (await t.sql<{ status: string; captured_amount: number; provider_reference: string }>('select status, captured_amount, provider_reference from payment where id = ?', [id]))[0];

describe('paying by card with Stripe.js in Chromium', () => {
  it('takes a new customer from a declined card to a paid order, the card typed only into Stripe\'s frame', async () => {
    const store = await StoreContext.open(browser, t, DESKTOP);
    contexts.push(store);
    await routeStripeTo(store.context, stripe.url);
    // Everything the browser sends to the mall, to show that no card number is in it.
    const toMall: Request[] = [];
    store.context.on('request', (request) => {
      if (request.url().startsWith(t.baseUrl)) toMall.push(request);
    });
    const page = await store.page();

    const email = `card-${Date.now()}@example.test`;
    await register(page, email, 'Card Shopper');
    await addToCart(page, data.lantern.id, 'Trail Lantern');
    await checkOut(page, 1);

    // A declined card: Stripe says so in its frame's answer, and its webhook fails the payment live.
    const declinedId = await payByCard(page);
    // The card fields are Stripe's, in a frame of js.stripe.com: the page itself has none.
    await page.frameLocator('iframe[title="Secure payment input frame"]').getByLabel('Card number').waitFor();
    expect(await page.getByLabel('Card number').count()).toBe(0);
    expect(page.frames().some((frame) => frame.url().startsWith('https://js.stripe.com/v3/elements-inner-payment.html'))).toBe(true);
    await typeCard(page, DECLINED);
    await page.getByRole('heading', { name: 'The payment did not go through' }).waitFor();
    expect(await paymentRow(declinedId)).toMatchObject({ status: 'failed', captured_amount: 0 });

    // Another payment of the same order, a good card: Stripe sends the customer back, the webhook pays.
    const paidId = await page.getByRole('radio', { name: 'Card (Stripe)' }).waitFor().then(() => payByCard(page));
    expect(paidId).not.toBe(declinedId);
    await typeCard(page, GOOD);
    await page.waitForURL((url) => url.searchParams.get('redirect_status') === 'succeeded');
    await page.getByRole('heading', { name: 'Paid. Thank you!' }).waitFor();
    const paid = await paymentRow(paidId);
    expect(paid).toMatchObject({ status: 'captured', captured_amount: 12900 });
    expect(stripe.intents.get(paid.provider_reference)).toMatchObject({ status: 'succeeded', amount_received: 12900 });
    const customer = (await t.api('POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body as { token: string };
    const orders = (await t.api('GET', '/api/orders', { token: customer.token })).body.items as { status: string }[];
    expect(orders.map((o) => o.status)).toEqual(['paid']);

    // Each webhook was taken once; the cards went to Stripe's API only, never to the mall.
    await waitFor(() => stripe.deliveries.length === 2, 5_000, 'both webhooks answered');
    expect(stripe.deliveries.map((d) => [d.type, d.status])).toEqual([
      ['payment_intent.payment_failed', 200],
      ['payment_intent.succeeded', 200],
    ]);
    expect([...stripe.cards.values()].map((c) => c.last4).sort()).toEqual(['0002', '4242']);
    const sent = toMall.map((r) => `${r.url()} ${r.postData() ?? ''}`).join('\n');
    expect(toMall.length).toBeGreaterThan(10);
    for (const digits of ['4242424242424242', '4242 4242 4242 4242', '4000000000000002', '4000 0000 0000 0002']) expect(sent).not.toContain(digits);
    // Chromium logs the card frame's 402 (Stripe's answer for the declined card) as a failed load; nothing else.
    expect(store.problems.filter((p) => !/status of 402 \(Payment Required\)/.test(p))).toEqual([]);
  });
});
