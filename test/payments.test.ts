import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig } from '../src/config.js';
import { SandboxProvider } from '../src/services/payments/sandbox-provider.js';
import { queryPendingPayments } from '../src/services/payments/payment.service.js';
import { withSubscriber } from '../src/services/wiring.js';
import { settlePaymentRefunds } from '../src/services/payments/payment-refunds.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newGroupBuy, newOperator, type TestUser } from './support/fixtures.js';
import { addToCart, balanceOf, checkoutOk, expectLedgerReplays, groupCheckoutOk, groupRow, shopWithProduct } from './support/shopping.js';
import { twoShopCheckout as checkoutOfTwoShops } from './support/payment-flows.js';
import { mutate } from './support/graphql.js';

/** A sandbox whose notifications never leave: what a gateway's lost notification looks like. */
class SilentSandbox extends SandboxProvider {
  override deliverTo(): void {}
}

let t: TestApp;
let silent: TestApp;
let failNextPayment = false;
beforeAll(async () => {
  t = await startTestApp({ payments: { ...loadConfig({ NODE_ENV: 'test' }).payments, sandbox: { delayMs: 50, secret: 'test-sandbox-secret' } } });
  silent = await startTestApp({}, {
    wiring: (base) => ({
      paymentProviders: { ...base.paymentProviders, sandbox: new SilentSandbox({ delayMs: 0, secret: 'silent-secret' }) },
      // A fault inside the capture's transaction, after the provider took the money: as the process dying there.
      orderTransitions: withSubscriber(base.orderTransitions, 'order.paid', () => {
        if (!failNextPayment) return Promise.resolve();
        failNextPayment = false;
        return Promise.reject(new Error('simulated crash inside the capture'));
      }),
    }),
  });
});
afterAll(async () => {
  await t?.close();
  await silent?.close();
});

const sandboxOf = (app: TestApp) => app.deps.wiring.paymentProviders.sandbox as SandboxProvider;

/** A new customer (no money at all, unless `funds`) with a two-shop checkout of 1000 + 2 x 500. */
const twoShopCheckout = (app: TestApp, funds = 0) => checkoutOfTwoShops(app, { funds, lines: [[1000, 1], [500, 2]] });

async function startSandbox(app: TestApp, customer: TestUser, orderIds: number[], extra: Record<string, unknown> = {}) {
  const res = await app.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'sandbox', ...extra } });
  expect(res.status).toBe(201);
  return res.body as { id: number; status: string; provider_reference: string; amount: number; next_step: { type: string } | null };
}

/** Waits (by condition, not by clock) until the payment leaves `pending`. */
async function settled(app: TestApp, paymentId: number): Promise<string> {
  // A ceiling for a server that never notifies, far above the sandbox's delay on a loaded machine.
  for (let i = 0; i < 2400; i++) {
    const [row] = await app.sql<{ status: string }>('select status from payment where id = ?', [paymentId]);
    if (row.status !== 'pending') return row.status;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`payment ${paymentId} still pending`);
}

const statuses = async (app: TestApp, ids: number[]) =>
  (await app.sql<{ status: string }>('select status from shop_order where id = any(?::int[]) order by id', [`{${ids.join(',')}}`])).map((r) => r.status);
/** A gateway's clearing account: the sum of its rows (CLEARING_SLOTS). */
const clearing = async (app: TestApp, kind: string) => Number((await app.sql('select coalesce(sum(amount), 0) as amount from balance where kind = ? and user_id is null and shop_id is null', [kind]))[0].amount);
const captures = async (app: TestApp, paymentId: number) =>
  Number((await app.sql(`select count(distinct transfer_id)::int as n from ledger_entry where reason = 'payment_capture' and reference_type = 'payment' and reference_id = ?`, [paymentId]))[0].n);
const orderPayments = async (app: TestApp, orderIds: number[]) =>
  Number((await app.sql(`select count(*)::int as n from ledger_entry l join balance b on b.id = l.balance_id where l.reason = 'order_payment' and b.user_id is not null and l.reference_id = any(?::int[])`, [`{${orderIds.join(',')}}`]))[0].n);
const outcomes = async (app: TestApp, paymentId: number) =>
  (await app.sql<{ outcome: string }>('select outcome from payment_event where payment_id = ? order by id', [paymentId])).map((r) => r.outcome);

/** The payment's events in the outbox, by type. */
const paymentEventsOf = async (app: TestApp, paymentId: number) =>
  (await app.sql<{ type: string }>(`select type from event where type like 'payment.%' and (payload->>'paymentId')::int = ? order by id`, [paymentId])).map((r) => r.type);

function notify(app: TestApp, body: string, signature: string) {
  return app.api('POST', '/api/payments/notifications/sandbox', { raw: body, headers: { 'sandbox-signature': signature } });
}

describe('the wallet as a provider', () => {
  it('pays a checkout at once: one captured payment covering its orders, orders paid, the ledger replays', async () => {
    const { customer, orderIds, total } = await twoShopCheckout(t, 5000);
    const res = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'wallet' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ method: 'wallet', status: 'captured', amount: total, captured_amount: total, order_ids: orderIds, next_step: null });
    expect(await statuses(t, orderIds)).toEqual(['paid', 'paid']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(5000 - total);
    // Paying again: nothing pending, refused, nothing charged.
    const again = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'wallet' } });
    expect([again.status, again.body.error.code]).toEqual([409, 'ORDER_STATE_CONFLICT']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(5000 - total);
    await expectLedgerReplays(t);
  });

  it('"Pay all" records the same captured wallet payment; short funds leave no payment behind', async () => {
    const paid = await twoShopCheckout(t, 5000);
    expect((await t.api('POST', '/api/checkout/pay', { token: paid.customer.token, body: { order_ids: paid.orderIds } })).status).toBe(200);
    const rows = await t.sql('select status, amount from payment where customer_id = ?', [paid.customer.id]);
    expect(rows).toEqual([{ status: 'captured', amount: paid.total }]);
    const short = await twoShopCheckout(t, 100);
    const res = await t.api('POST', '/api/checkout/pay', { token: short.customer.token, body: { order_ids: short.orderIds } });
    expect(res.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await t.sql('select id from payment where customer_id = ?', [short.customer.id])).toEqual([]);
  });
});

describe('the payment window (PAYMENT_WINDOW_MINUTES)', () => {
  const pastWindow = (app: TestApp, orderIds: number[]) =>
    app.sql(`update shop_order set created_at = now() - make_interval(mins => ? + 1) where id = any(?::int[])`, [app.config.paymentWindowMinutes, `{${orderIds.join(',')}}`]);

  it('refuses to pay an order past it before the sweep has cancelled it, on every wallet door, and nothing moves', async () => {
    const { customer, orderIds } = await twoShopCheckout(t, 5000);
    await pastWindow(t, [orderIds[0]]);
    const payments = async () => t.sql('select id from payment where customer_id = ?', [customer.id]);
    for (const [path, body] of [[`/api/orders/${orderIds[0]}/pay`, undefined], ['/api/checkout/pay', { order_ids: orderIds }], ['/api/payments', { order_ids: orderIds, method: 'wallet' }]] as const) {
      const res = await t.api('POST', path, { token: customer.token, body });
      expect([path, res.status, res.body.error.code, res.body.error.details]).toEqual([path, 409, 'ORDER_STATE_CONFLICT', { order_id: orderIds[0], status: 'pending_payment', transition: 'pay' }]);
      expect(res.body.error.message).toMatch(/payment window .* has closed/);
    }
    const viaGraphql = await mutate(t, 'payOrder', { orderId: orderIds[0] }, 'order { id }', customer.token);
    expect(viaGraphql.userErrors.map((e) => e.code)).toEqual(['ORDER_STATE_CONFLICT']);
    expect(await statuses(t, orderIds)).toEqual(['pending_payment', 'pending_payment']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(5000);
    expect(await payments()).toEqual([]);
    // The order still within its window is paid as ever.
    expect((await t.api('POST', `/api/orders/${orderIds[1]}/pay`, { token: customer.token })).status).toBe(200);
    await expectLedgerReplays(t);
  });

  it("takes a gateway's capture that arrives after it as late money: the orders stay unpaid and the amount goes back to the method", async () => {
    const { customer, orderIds, total } = await twoShopCheckout(silent);
    const payment = await startSandbox(silent, customer, orderIds);
    const signed = sandboxOf(silent).notificationFor(payment.provider_reference)!;
    await pastWindow(silent, orderIds);
    expect((await notify(silent, signed.body, signed.signature)).body.outcome).toBe('captured_orders_not_payable');
    expect(await statuses(silent, orderIds)).toEqual(['pending_payment', 'pending_payment']);
    expect(await orderPayments(silent, orderIds)).toBe(0);
    expect(await silent.sql('select amount, status from payment_refund where payment_id = ?', [payment.id])).toEqual([{ amount: total, status: 'pending' }]);
    expect(await balanceOf(silent, customer.id, 'available')).toBe(0);
    await expectLedgerReplays(silent);

    // The admin console's list of late money, over both doors; nobody else reads it.
    const admin = await newAdmin(silent);
    const listed = await silent.api('GET', '/api/admin/payments/late-money?status=pending&page_size=100', { token: admin.token });
    expect(listed.status).toBe(200);
    const row = (listed.body.items as { payment_id: number }[]).find((item) => item.payment_id === payment.id);
    // The customer by name as well as by id: the desk reads who it is.
    const [{ display_name: customerName }] = await silent.sql<{ display_name: string }>('select display_name from app_user where id = ?', [customer.id]);
    expect(row).toMatchObject({ method: 'sandbox', customer_id: customer.id, customer_name: customerName, amount: total, status: 'pending', unpaid_order_ids: [...orderIds].sort((a, b) => a - b), refund_reference: null });
    const gql = await silent.gql('query { lateMoney(status: PENDING, pageSize: 100) { total items { paymentId customerName amount status unpaidOrderIds } } }', undefined, admin.token);
    expect(gql.data.lateMoney.items).toContainEqual({ paymentId: payment.id, customerName, amount: total, status: 'PENDING', unpaidOrderIds: [...orderIds].sort((a, b) => a - b) });
    expect(gql.data.lateMoney.total).toBe(listed.body.total);
    expect((await silent.api('GET', '/api/admin/payments/late-money?status=succeeded&page_size=100', { token: admin.token })).body.items.some((item: { payment_id: number }) => item.payment_id === payment.id)).toBe(false);
    expect((await silent.api('GET', '/api/admin/payments/late-money', { token: customer.token })).status).toBe(403);
    const bad = await silent.api('GET', '/api/admin/payments/late-money?status=lost&page_size=0', { token: admin.token });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });
});

describe('the sandbox gateway', () => {
  it('lets a new customer with no money pay two shops: pending, then its signed notification captures, money through its clearing account', async () => {
    const before = await clearing(t, 'clearing_sandbox');
    const { customer, orderIds, total } = await twoShopCheckout(t);
    const payment = await startSandbox(t, customer, orderIds);
    expect(payment).toMatchObject({ status: 'pending', amount: total, next_step: { type: 'wait' } });
    expect(await settled(t, payment.id)).toBe('captured');
    expect(await statuses(t, orderIds)).toEqual(['paid', 'paid']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    expect(await clearing(t, 'clearing_sandbox')).toBe(before - total);
    expect(await captures(t, payment.id)).toBe(1);
    const events = await t.api('GET', `/api/payments/${payment.id}/events`, { token: customer.token });
    expect(events.body.items).toMatchObject([{ source: 'notification', verified: true, status: 'captured', amount: total, outcome: 'captured' }]);
    expect(await paymentEventsOf(t, payment.id)).toEqual(['payment.captured']);
    await expectLedgerReplays(t);
  });

  it("takes each payment's money through its own row of the clearing account (payment id % 8), so captures of different payments never queue on one row", async () => {
    const paid = await Promise.all([1, 2, 3].map(async () => {
      const { customer, orderIds, total } = await twoShopCheckout(t);
      const payment = await startSandbox(t, customer, orderIds);
      expect(await settled(t, payment.id)).toBe('captured');
      return { id: payment.id, total };
    }));
    for (const payment of paid) {
      const rows = await t.sql<{ slot: number; delta: number }>(
        `select b.slot, l.delta::int as delta from ledger_entry l join balance b on b.id = l.balance_id where b.kind = 'clearing_sandbox' and l.reference_type = 'payment' and l.reference_id = ?`, [payment.id]);
      expect(rows).toEqual([{ slot: payment.id % 8, delta: -payment.total }]);
    }
    expect(await t.sql(`select count(*)::int as n from balance where kind = 'clearing_sandbox'`)).toEqual([{ n: 8 }]);
    await expectLedgerReplays(t);
  });

  it('sends its notification again while the server does not take it (503), as gateways retry, and the payment is captured once', async () => {
    // A front that answers 503 to the first two deliveries (a busy server), then passes them to the server.
    let deliveries = 0;
    const front = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        deliveries++;
        if (deliveries <= 2) return void res.writeHead(503).end();
        const signature = String(req.headers['sandbox-signature'] ?? '');
        void notify(t, Buffer.concat(chunks).toString(), signature).then((answer) => res.writeHead(answer.status).end());
      });
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    sandboxOf(t).deliverTo(`http://127.0.0.1:${(front.address() as AddressInfo).port}`);
    try {
      const { customer, orderIds } = await twoShopCheckout(t);
      const payment = await startSandbox(t, customer, orderIds);
      expect(await settled(t, payment.id)).toBe('captured');
      expect(deliveries).toBe(3);
      expect(await outcomes(t, payment.id)).toEqual(['captured']);
      expect(await captures(t, payment.id)).toBe(1);
    } finally {
      sandboxOf(t).deliverTo(t.baseUrl);
      await new Promise((resolve) => front.close(resolve));
    }
  });

  it('fails on demand: the payment fails, the orders stay pending, no money moves; a retry with another payment works', async () => {
    const { customer, orderIds } = await twoShopCheckout(t);
    const payment = await startSandbox(t, customer, orderIds, { simulate_failure: true });
    expect(await settled(t, payment.id)).toBe('failed');
    expect(await statuses(t, orderIds)).toEqual(['pending_payment', 'pending_payment']);
    expect(await captures(t, payment.id)).toBe(0);
    expect(await paymentEventsOf(t, payment.id)).toEqual(['payment.failed']);
    const retry = await startSandbox(t, customer, orderIds);
    expect(await settled(t, retry.id)).toBe('captured');
    expect(await statuses(t, orderIds)).toEqual(['paid', 'paid']);
    await expectLedgerReplays(t);
  });

  it('refuses simulate_failure for another method, and a method not configured, changing nothing', async () => {
    const { customer, orderIds } = await twoShopCheckout(t, 5000);
    const wallet = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'wallet', simulate_failure: true } });
    expect([wallet.status, wallet.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    const stripe = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'stripe' } });
    expect([stripe.status, stripe.body.error.code]).toEqual([422, 'PAYMENT_METHOD_UNAVAILABLE']);
    for (const body of [{}, { order_ids: orderIds }, { order_ids: [], method: 'wallet' }, { order_ids: orderIds, method: 'cash' }]) {
      const res = await t.api('POST', '/api/payments', { token: customer.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await t.sql('select id from payment where customer_id = ?', [customer.id])).toEqual([]);
    expect((await t.api('GET', '/api/payments/methods')).body).toEqual({ methods: ['wallet', 'sandbox'] });
  });

  it("shows a payment to its customer and admins only; another customer's is 404", async () => {
    const { customer, orderIds } = await twoShopCheckout(t);
    const payment = await startSandbox(t, customer, orderIds);
    const other = await newCustomer(t);
    expect((await t.api('GET', `/api/payments/${payment.id}`, { token: other.token })).status).toBe(404);
    expect((await t.api('GET', `/api/payments/${payment.id}/events`, { token: other.token })).status).toBe(404);
    const admin = await newAdmin(t);
    // The platform's desk reads the customer by name, over both doors.
    expect((await t.api('GET', `/api/payments/${payment.id}`, { token: admin.token })).body).toMatchObject({ id: payment.id, customer_id: customer.id, customer_name: 'Test User' });
    expect((await t.gql('query($id: Int!) { payment(id: $id) { customerId customerName } }', { id: payment.id }, admin.token)).data.payment).toEqual({ customerId: customer.id, customerName: 'Test User' });
    expect((await t.api('GET', `/api/payments/${payment.id}`)).status).toBe(401);
    await settled(t, payment.id);
  });

  it('is refused at start in production, and not offered there by default', () => {
    const secret = 'x'.repeat(40);
    expect(() => loadConfig({ NODE_ENV: 'production', DEVICE_TOKEN_SECRET: secret, PAYMENT_METHODS: 'wallet,sandbox' })).toThrow(ConfigError);
    expect(loadConfig({ NODE_ENV: 'production', DEVICE_TOKEN_SECRET: secret }).payments.methods).toEqual(['wallet']);
    expect(loadConfig({ NODE_ENV: 'development' }).payments.methods).toEqual(['wallet', 'sandbox']);
    expect(() => loadConfig({ PAYMENT_METHODS: 'wallet,cash' })).toThrow(/PAYMENT_METHODS/);
    expect(() => loadConfig({ PAYMENT_METHODS: 'stripe' })).toThrow(/STRIPE_SECRET_KEY/);
    const stripe = { PAYMENT_METHODS: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(() => loadConfig(stripe)).toThrow(/STRIPE_PUBLISHABLE_KEY/);
    // The key handed to every browser must never be the secret one.
    expect(() => loadConfig({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'sk_test_x' })).toThrow(/publishable key \(pk_/);
    expect(loadConfig({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_test_x' }).payments.stripe?.publishableKey).toBe('pk_test_x');
  });
});

describe('notifications', () => {
  /** A pending sandbox payment whose notification has not been applied (the silent app sends none). */
  async function pendingPayment() {
    const { customer, orderIds, total } = await twoShopCheckout(silent);
    const payment = await startSandbox(silent, customer, orderIds);
    const signed = sandboxOf(silent).notificationFor(payment.provider_reference)!;
    return { customer, orderIds, total, payment, signed };
  }

  it('refuses a forged signature: recorded unverified, 400, nothing changes', async () => {
    const { orderIds, payment, signed } = await pendingPayment();
    // One hex digit of the signature changed (to another digit, whatever it was).
    const forged = await notify(silent, signed.body, signed.signature.replace(/v1=(.)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`));
    const bad = await notify(silent, signed.body, 't=1,v1=' + 'ab'.repeat(32));
    const missing = await notify(silent, signed.body, '');
    for (const res of [forged, bad, missing]) expect([res.status, res.body.error.code]).toEqual([400, 'NOTIFICATION_REJECTED']);
    const tampered = await notify(silent, signed.body.replace('"captured"', '"failed"'), signed.signature);
    expect(tampered.status).toBe(400);
    const [row] = await silent.sql(`select count(*)::int as n from payment_event where verified = false and outcome = 'signature_invalid' and raw = ?`, [signed.body]);
    expect(row.n).toBeGreaterThanOrEqual(3);
    // The silent sandbox never notifies: only these forged notifications could have moved it.
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('pending');
    expect(await statuses(silent, orderIds)).toEqual(['pending_payment', 'pending_payment']);
  }, 30_000);

  it('records and refuses a wrong amount or currency, and an unknown payment', async () => {
    const { payment, total } = await pendingPayment();
    const sandbox = sandboxOf(silent);
    for (const change of [{ amount: total + 1 }, { currency: 'USD' }]) {
      const body = JSON.stringify({ id: 'evt_wrong', reference: payment.provider_reference, status: 'captured', amount: total, currency: 'CNY', ...change });
      const res = await notify(silent, body, sandbox.sign(body));
      expect([res.status, res.body.outcome]).toEqual([200, 'amount_mismatch']);
    }
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('pending');
    expect(await captures(silent, payment.id)).toBe(0);
    const unknown = JSON.stringify({ id: 'evt_unknown', reference: 'sbx_nothing', status: 'captured', amount: 1, currency: 'CNY' });
    const res = await notify(silent, unknown, sandbox.sign(unknown));
    expect(res.body).toEqual({ received: true, outcome: 'unknown_payment', payment_id: null });
    expect((await silent.sql(`select count(*)::int as n from payment_event where outcome = 'unknown_payment' and raw = ?`, [unknown]))[0].n).toBe(1);
  });

  it('is idempotent: the same notification twice captures once; a failure after the capture changes nothing', async () => {
    const { orderIds, payment, signed, total } = await pendingPayment();
    expect((await notify(silent, signed.body, signed.signature)).body.outcome).toBe('captured');
    expect((await notify(silent, signed.body, signed.signature)).body.outcome).toBe('duplicate');
    const failed = JSON.stringify({ id: 'evt_late_fail', reference: payment.provider_reference, status: 'failed', amount: total, currency: 'CNY' });
    expect((await notify(silent, failed, sandboxOf(silent).sign(failed))).body.outcome).toBe('ignored_after_capture');
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('captured');
    expect(await captures(silent, payment.id)).toBe(1);
    expect(await orderPayments(silent, orderIds)).toBe(2);
    expect(await outcomes(silent, payment.id)).toEqual(['captured', 'duplicate', 'ignored_after_capture']);
    await expectLedgerReplays(silent);
  });

  it('a notification arriving before the payment stored its reference finds the payment by the id the gateway echoes', async () => {
    const { orderIds, payment, signed } = await pendingPayment();
    // As if the gateway answered so fast that the reference was not written yet.
    await silent.sql('update payment set provider_reference = null where id = ?', [payment.id]);
    expect((await notify(silent, signed.body, signed.signature)).body).toEqual({ received: true, outcome: 'captured', payment_id: payment.id });
    expect((await silent.sql('select provider_reference from payment where id = ?', [payment.id]))[0].provider_reference).toBe(payment.provider_reference);
    expect(await statuses(silent, orderIds)).toEqual(['paid', 'paid']);
  });

  it('captures once when the same notification arrives 20 times at once; the ledger sums to zero', async () => {
    const { customer, orderIds, payment, signed } = await pendingPayment();
    const answers = await Promise.all(Array.from({ length: 20 }, () => notify(silent, signed.body, signed.signature)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.body.outcome === 'captured')).toHaveLength(1);
    expect(answers.filter((a) => a.body.outcome === 'duplicate')).toHaveLength(19);
    expect(await paymentEventsOf(silent, payment.id)).toEqual(['payment.captured']);
    expect(await captures(silent, payment.id)).toBe(1);
    expect(await orderPayments(silent, orderIds)).toBe(2);
    expect(await statuses(silent, orderIds)).toEqual(['paid', 'paid']);
    expect(await balanceOf(silent, customer.id, 'available')).toBe(0);
    await expectLedgerReplays(silent);
  }, 60_000);

  it('a failure arriving first, then the capture: captured late; the money of an order no longer payable goes back to the method', async () => {
    const { customer, orderIds, payment, signed, total } = await pendingPayment();
    const failed = JSON.stringify({ id: 'evt_fail_first', reference: payment.provider_reference, status: 'failed', amount: total, currency: 'CNY' });
    expect((await notify(silent, failed, sandboxOf(silent).sign(failed))).body.outcome).toBe('failed');
    await silent.api('POST', `/api/orders/${orderIds[0]}/cancel`, { token: customer.token });
    expect((await notify(silent, signed.body, signed.signature)).body.outcome).toBe('captured_orders_not_payable');
    expect(await statuses(silent, orderIds)).toEqual(['cancelled', 'paid']);
    const [cancelledTotal] = (await silent.sql<{ total: number }>('select total from shop_order where id = ?', [orderIds[0]])).map((r) => r.total);
    // The cancelled order's money goes back to the method at once (late money), not onto the balance.
    expect(await balanceOf(silent, customer.id, 'available')).toBe(0);
    expect(await captures(silent, payment.id)).toBe(1);
    expect(await silent.sql('select amount, status, refund_id from payment_refund where payment_id = ?', [payment.id])).toEqual([{ amount: cancelledTotal, status: 'pending', refund_id: null }]);
    expect((await silent.sql('select refunded_amount from payment where id = ?', [payment.id]))[0].refunded_amount).toBe(cancelledTotal);
    await settlePaymentRefunds(await silent.context());
    expect((await silent.sql('select status from payment_refund where payment_id = ?', [payment.id]))[0].status).toBe('succeeded');
    await expectLedgerReplays(silent);
  });
});

describe('a capture whose orders can no longer be paid', () => {
  it('a group seat filled while the customer was at the gateway: the capture commits, the seat is not taken, the money goes back to the method', async () => {
    const { shop, product } = await shopWithProduct(silent, [{ price: 1000, stock: 10 }]);
    const activity = await newGroupBuy(silent, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], groupPrice: 600, capacity: 2 });
    const [opener, joiner, late] = await Promise.all([0, 1, 2].map(() => newCustomer(silent, { available: 5000, points: 0 })));
    const first = await groupCheckoutOk(silent, opener.token, { activity_id: activity.id });
    const second = await groupCheckoutOk(silent, joiner.token, { activity_id: activity.id, group_id: first.group_id });
    const third = await groupCheckoutOk(silent, late.token, { activity_id: activity.id, group_id: first.group_id });
    const payment = await startSandbox(silent, late, [third.id]);
    for (const [who, order] of [[opener, first], [joiner, second]] as const) {
      expect((await silent.api('POST', `/api/orders/${order.id}/pay`, { token: who.token })).status).toBe(200);
    }
    expect(await groupRow(silent, first.group_id)).toMatchObject({ state: 'successful', paid_seats: 2 });
    const signed = sandboxOf(silent).notificationFor(payment.provider_reference)!;
    const res = await notify(silent, signed.body, signed.signature);
    expect([res.status, res.body.outcome]).toEqual([200, 'captured_orders_not_payable']);
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('captured');
    expect(await statuses(silent, [third.id])).toEqual(['pending_payment']);
    expect(await balanceOf(silent, late.id, 'available')).toBe(5000);
    expect(await silent.sql('select amount, status from payment_refund where payment_id = ?', [payment.id])).toEqual([{ amount: third.total, status: 'pending' }]);
    expect(await balanceOf(silent, late.id, 'frozen')).toBe(0);
    expect(await groupRow(silent, first.group_id)).toMatchObject({ paid_seats: 2 });
    // No event of a seat that was not taken.
    expect((await silent.sql(`select count(*)::int as n from event where type = 'order.paid' and (payload->>'orderId')::int = ?`, [third.id]))[0].n).toBe(0);
    await expectLedgerReplays(silent);
  });
});

describe('refunds to the method', () => {
  it("an approved refund of an order the sandbox paid goes back through the sandbox, via its clearing account; the wallet's stays on the balance", async () => {
    const { customer, orderIds, shopIds } = await twoShopCheckout(t);
    const payment = await startSandbox(t, customer, orderIds);
    expect(await settled(t, payment.id)).toBe('captured');
    const order = (await t.api('GET', `/api/orders/${orderIds[1]}`, { token: customer.token })).body;
    const operator = await newOperator(t, shopIds[1]);
    const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Wrong size', items: [{ order_item_id: order.items[0].id, quantity: 1 }] } });
    expect(asked.status).toBe(201);
    const clearingBefore = await clearing(t, 'clearing_sandbox');
    const approved = await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: operator.token, body: {} });
    expect(approved.body.status).toBe('completed');
    const amount = approved.body.amount as number;
    expect(amount).toBeGreaterThan(0);
    // The money went on to the gateway, not onto the balance.
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    expect(await clearing(t, 'clearing_sandbox')).toBe(clearingBefore + amount);
    expect((await t.sql('select refunded_amount from payment where id = ?', [payment.id]))[0].refunded_amount).toBe(amount);
    expect(await t.sql('select status, amount from payment_refund where refund_id = ?', [asked.body.id])).toEqual([{ status: 'pending', amount }]);
    expect(await settlePaymentRefunds(await t.context())).toBeGreaterThanOrEqual(1);
    const [done] = await t.sql('select status, provider_reference from payment_refund where refund_id = ?', [asked.body.id]);
    expect(done.status).toBe('succeeded');
    expect(done.provider_reference).toMatch(/^sbx_refund_/);
    expect(await paymentEventsOf(t, payment.id)).toEqual(['payment.captured', 'payment.refunded']);
    await expectLedgerReplays(t);
  });
});

describe('races', () => {
  it("a capture racing the customer's cancellation: each order ends paid, or cancelled with its money on the way back; the ledger at zero", async () => {
    const rounds = await Promise.all(Array.from({ length: 6 }, async () => {
      const { customer, orderIds } = await twoShopCheckout(silent);
      const payment = await startSandbox(silent, customer, orderIds);
      return { customer, orderIds, payment, signed: sandboxOf(silent).notificationFor(payment.provider_reference)! };
    }));
    await Promise.all(rounds.flatMap(({ customer, orderIds, signed }) => [
      notify(silent, signed.body, signed.signature),
      silent.api('POST', `/api/orders/${orderIds[0]}/cancel`, { token: customer.token }),
    ]));
    for (const { customer, orderIds, payment } of rounds) {
      expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('captured');
      expect(await captures(silent, payment.id)).toBe(1);
      const [first, second] = await statuses(silent, orderIds);
      expect(second).toBe('paid');
      const refunds = await silent.sql<{ amount: number }>('select amount from payment_refund where payment_id = ?', [payment.id]);
      const firstTotal = (await silent.sql<{ total: number }>('select total from shop_order where id = ?', [orderIds[0]]))[0].total;
      if (first === 'paid') expect(refunds).toEqual([]);
      else expect([first, refunds]).toEqual(['cancelled', [{ amount: firstTotal }]]);
      expect(await balanceOf(silent, customer.id, 'available')).toBe(0);
    }
    await expectLedgerReplays(silent);
  }, 60_000);

  it('two refunds of one payment approved at once: both go back, never above what was captured', async () => {
    const { customer, orderIds, shopIds } = await twoShopCheckout(t);
    const payment = await startSandbox(t, customer, orderIds);
    expect(await settled(t, payment.id)).toBe('captured');
    const asks = await Promise.all(orderIds.map(async (orderId, i) => {
      const order = (await t.api('GET', `/api/orders/${orderId}`, { token: customer.token })).body;
      const asked = await t.api('POST', `/api/orders/${orderId}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Both', items: order.items.map((item: { id: number; quantity: number }) => ({ order_item_id: item.id, quantity: item.quantity })) } });
      return { refundId: asked.body.id as number, operator: await newOperator(t, shopIds[i]) };
    }));
    const approved = await Promise.all(asks.map(({ refundId, operator }) => t.api('POST', `/api/merchant/refunds/${refundId}/approve`, { token: operator.token, body: {} })));
    expect(approved.map((a) => a.body.status)).toEqual(['completed', 'completed']);
    const [row] = await t.sql('select captured_amount, refunded_amount from payment where id = ?', [payment.id]);
    expect(row.refunded_amount).toBe(approved.reduce((n, a) => n + (a.body.amount as number), 0));
    expect(row.refunded_amount).toBeLessThanOrEqual(row.captured_amount);
    expect(await t.sql('select count(*)::int as n from payment_refund where payment_id = ?', [payment.id])).toEqual([{ n: 2 }]);
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    await expectLedgerReplays(t);
  }, 60_000);
});

describe('faults', () => {
  it('a crash inside the capture (after the provider took the money) commits nothing; the sweep captures once later; the retried notification is a duplicate', async () => {
    const { customer, orderIds } = await twoShopCheckout(silent);
    const payment = await startSandbox(silent, customer, orderIds);
    const signed = sandboxOf(silent).notificationFor(payment.provider_reference)!;
    failNextPayment = true;
    const crashed = await notify(silent, signed.body, signed.signature);
    expect([crashed.status, crashed.body.error.code]).toEqual([500, 'INTERNAL']);
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('pending');
    expect(await captures(silent, payment.id)).toBe(0);
    expect(await statuses(silent, orderIds)).toEqual(['pending_payment', 'pending_payment']);
    await silent.sql(`update payment set created_at = now() - interval '10 minutes' where id = ?`, [payment.id]);
    await queryPendingPayments(await silent.context());
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('captured');
    expect((await notify(silent, signed.body, signed.signature)).body.outcome).toBe('duplicate');
    expect(await captures(silent, payment.id)).toBe(1);
    expect(await orderPayments(silent, orderIds)).toBe(2);
    expect(await balanceOf(silent, customer.id, 'available')).toBe(0);
    await expectLedgerReplays(silent);
  });
});

describe('an Idempotency-Key on starting a payment', () => {
  const start = (app: TestApp, customer: TestUser, body: Record<string, unknown>, key: string) =>
    app.api('POST', '/api/payments', { token: customer.token, body, headers: { 'idempotency-key': key } });

  it('a retry with the same key answers the same payment, byte for byte, and starts nothing at the provider', async () => {
    const { customer, orderIds } = await twoShopCheckout(silent);
    const first = await start(silent, customer, { order_ids: orderIds, method: 'sandbox' }, 'pay-once-1');
    const again = await start(silent, customer, { order_ids: orderIds, method: 'sandbox' }, 'pay-once-1');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(first.body));
    expect(first.body.next_step).toMatchObject({ type: 'wait' });
    expect(await silent.sql('select id from payment where customer_id = ?', [customer.id])).toEqual([{ id: first.body.id }]);
    // The key names one request: other orders, another method, or another operation are refused.
    const other = await start(silent, customer, { order_ids: orderIds, method: 'sandbox', simulate_failure: true }, 'pay-once-1');
    expect([other.status, other.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const gql = await mutate(silent, 'startPayment', { orderIds, method: 'SANDBOX', idempotencyKey: 'pay-once-1' }, 'payment { id }', customer.token);
    expect([gql.payload.payment, gql.userErrors]).toEqual([{ id: first.body.id }, []]);
    expect(await silent.sql('select count(*)::int as n from payment where customer_id = ?', [customer.id])).toEqual([{ n: 1 }]);
  });

  it('ten retries with one key at once start one payment, and every answer names it', async () => {
    const { customer, orderIds } = await twoShopCheckout(silent);
    const answers = await Promise.all(Array.from({ length: 10 }, () => start(silent, customer, { order_ids: orderIds, method: 'sandbox' }, 'pay-once-race')));
    const payments = await silent.sql<{ id: number }>('select id from payment where customer_id = ?', [customer.id]);
    expect(payments).toHaveLength(1);
    for (const res of answers) expect([res.status, res.body.id]).toEqual([201, payments[0].id]);
  });

  it('a bad key is refused before anything is written', async () => {
    const { customer, orderIds } = await twoShopCheckout(silent);
    const res = await start(silent, customer, { order_ids: orderIds, method: 'sandbox' }, ' ');
    expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(await silent.sql('select id from payment where customer_id = ?', [customer.id])).toEqual([]);
  });
});

describe('the lost-notification sweep', () => {
  it('queries the provider for payments pending too long and captures them from its answer, once', async () => {
    const { customer, orderIds, total } = await twoShopCheckout(silent);
    const payment = await startSandbox(silent, customer, orderIds);
    const ctx = await silent.context();
    // Not yet due: younger than PAYMENT_QUERY_AFTER_SECONDS.
    await queryPendingPayments(ctx);
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('pending');
    await silent.sql(`update payment set created_at = now() - interval '10 minutes' where id = ?`, [payment.id]);
    expect(await queryPendingPayments(await silent.context())).toBeGreaterThanOrEqual(1);
    expect((await silent.sql('select status from payment where id = ?', [payment.id]))[0].status).toBe('captured');
    expect(await statuses(silent, orderIds)).toEqual(['paid', 'paid']);
    const events = await silent.sql('select source, verified, outcome, amount from payment_event where payment_id = ?', [payment.id]);
    expect(events).toEqual([{ source: 'query', verified: true, outcome: 'captured', amount: total }]);
    // The notification that finally arrives changes nothing.
    const signed = sandboxOf(silent).notificationFor((await silent.sql('select provider_reference from payment where id = ?', [payment.id]))[0].provider_reference)!;
    expect((await notify(silent, signed.body, signed.signature)).body.outcome).toBe('duplicate');
    expect(await captures(silent, payment.id)).toBe(1);
    await expectLedgerReplays(silent);
  });
});

describe('the sweep expires', () => {
  it('a payment that never got its provider reference (its start failed midway), with a payment.failed event', async () => {
    const { customer, orderIds } = await twoShopCheckout(silent);
    const payment = await startSandbox(silent, customer, orderIds);
    await silent.sql(`update payment set provider_reference = null, created_at = now() - interval '10 minutes' where id = ?`, [payment.id]);
    await queryPendingPayments(await silent.context());
    expect(await silent.sql('select status, close_reason from payment where id = ?', [payment.id])).toEqual([{ status: 'expired', close_reason: 'never_reached_provider' }]);
    expect(await paymentEventsOf(silent, payment.id)).toEqual(['payment.failed']);
    expect(await statuses(silent, orderIds)).toEqual(['pending_payment', 'pending_payment']);
  });
});

describe('GraphQL', () => {
  it('starts a payment, reads it and its events, with the same answers as REST', async () => {
    const { customer, orderIds, total } = await twoShopCheckout(t);
    const started = await mutate(t, 'startPayment', { orderIds, method: 'SANDBOX' }, 'payment { id status method amount nextStep { type } }', customer.token);
    expect(started.userErrors).toEqual([]);
    expect(started.payload.payment).toMatchObject({ status: 'PENDING', method: 'SANDBOX', amount: total, nextStep: { type: 'wait' } });
    const id = started.payload.payment.id as number;
    expect(await settled(t, id)).toBe('captured');
    const read = await t.gql('query($id: Int!) { payment(id: $id) { status capturedAmount orderIds } paymentEvents(paymentId: $id) { outcome verified } }', { id }, customer.token);
    expect(read.data).toEqual({ payment: { status: 'CAPTURED', capturedAmount: total, orderIds }, paymentEvents: [{ outcome: 'captured', verified: true }] });
    const refused = await mutate(t, 'startPayment', { orderIds, method: 'STRIPE' }, 'payment { id }', customer.token);
    expect(refused.userErrors.map((e) => e.code)).toEqual(['PAYMENT_METHOD_UNAVAILABLE']);
    expect((await t.gql('{ paymentMethods }')).data).toEqual({ paymentMethods: ['WALLET', 'SANDBOX'] });
  });
});
