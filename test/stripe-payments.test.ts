import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { loadConfig } from '../src/config.js';
import { queryPendingPayments } from '../src/services/payments/payment.service.js';
import { settlePaymentRefunds } from '../src/services/payments/payment-refunds.js';
import type { StripeProvider } from '../src/services/payments/stripe-provider.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, type TestUser } from './support/fixtures.js';
import { balanceOf, expectLedgerReplays } from './support/shopping.js';
import { approvedRefund, settleWhileDown, twoShopCheckout } from './support/payment-flows.js';
import { signStripe, startStripeStandIn, type StripeStandIn } from './support/stripe-stand-in.js';

/**
 * Stripe through the official SDK against the stand-in (test/support/stripe-stand-in.ts): keys and
 * the webhook secret are made up here; the SDK is pointed at the stand-in by host, port and protocol.
 */
const SECRET_KEY = 'sk_test_mallfront_stand_in';
const WEBHOOK_SECRET = 'whsec_mallfront_stand_in_secret';

let t: TestApp;
let stripe: StripeStandIn;
beforeAll(async () => {
  stripe = await startStripeStandIn(SECRET_KEY);
  const env = { NODE_ENV: 'test', PAYMENT_METHODS: 'wallet,stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: 'pk_test_stand_in', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url };
  t = await startTestApp({ payments: loadConfig(env).payments });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

const checkout = () => twoShopCheckout(t);

async function startStripe(customer: TestUser, orderIds: number[]) {
  const res = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'stripe' } });
  expect(res.status).toBe(201);
  return res.body as { id: number; status: string; provider_reference: string; next_step: { type: string; client_secret?: string; publishable_key?: string } };
}

const webhook = (body: string, signature: string) => t.api('POST', '/api/payments/notifications/stripe', { raw: body, headers: { 'stripe-signature': signature } });
const paymentStatus = async (id: number) => (await t.sql<{ status: string }>('select status from payment where id = ?', [id]))[0].status;
const orderStatuses = async (ids: number[]) => (await t.sql<{ status: string }>('select status from shop_order where id = any(?::int[]) order by id', [`{${ids.join(',')}}`])).map((r) => r.status);
/** Stripe's clearing account: the sum of its rows (CLEARING_SLOTS). */
const clearing = async () => Number((await t.sql(`select sum(amount) as amount from balance where kind = 'clearing_stripe'`))[0].amount);

describe('stripe', () => {
  it('creates one PaymentIntent per payment in minor units, hands the client secret on, and captures on the verified webhook', async () => {
    const before = await clearing();
    const { customer, orderIds, total } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const intent = stripe.intents.get(payment.provider_reference)!;
    expect(intent).toMatchObject({ amount: total, currency: 'cny', metadata: { payment_id: String(payment.id) } });
    expect(payment).toMatchObject({ status: 'pending', next_step: { type: 'client_secret', client_secret: intent.client_secret, publishable_key: 'pk_test_stand_in' } });
    expect(stripe.requests.find((r) => r.path === '/v1/payment_intents' && r.form.amount === String(total))?.idempotencyKey).toBe(`mallfront-payment-${payment.id}`);

    const event = stripe.event('payment_intent.succeeded', stripe.succeed(intent.id), WEBHOOK_SECRET);
    const res = await webhook(event.body, event.signature);
    expect([res.status, res.body.outcome]).toEqual([200, 'captured']);
    expect(await paymentStatus(payment.id)).toBe('captured');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
    expect(await clearing()).toBe(before - total);
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    // Replayed: nothing more.
    expect((await webhook(event.body, event.signature)).body.outcome).toBe('duplicate');
    const events = await t.sql('select provider_event_id, verified, outcome from payment_event where payment_id = ? order by id', [payment.id]);
    expect(events).toEqual([{ provider_event_id: event.id, verified: true, outcome: 'captured' }, { provider_event_id: event.id, verified: true, outcome: 'duplicate' }]);
    await expectLedgerReplays(t);
  });

  it('refuses a forged signature, a stale timestamp and a tampered body: 400, recorded unverified, nothing paid', async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const event = stripe.event('payment_intent.succeeded', stripe.succeed(payment.provider_reference), WEBHOOK_SECRET);
    const attempts = [
      signStripe(event.body, 'whsec_someone_else'),
      signStripe(event.body, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600),
      '',
    ];
    for (const signature of attempts) {
      const res = await webhook(event.body, signature);
      expect([res.status, res.body.error.code]).toEqual([400, 'NOTIFICATION_REJECTED']);
    }
    expect((await webhook(event.body.replace(`"amount_received":`, `"amount_received":1${''}`), event.signature)).status).toBe(400);
    expect(await paymentStatus(payment.id)).toBe('pending');
    expect(await orderStatuses(orderIds)).toEqual(['pending_payment', 'pending_payment']);
    const [row] = await t.sql(`select count(*)::int as n from payment_event where provider = 'stripe' and verified = false and outcome = 'signature_invalid' and payment_id is null`);
    expect(row.n).toBeGreaterThanOrEqual(4);
  });

  it('records and refuses a wrong amount or currency; an unknown PaymentIntent is recorded, nothing else', async () => {
    const { customer, orderIds, total } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const intent = stripe.succeed(payment.provider_reference);
    for (const override of [{ amount_received: total - 1 }, { currency: 'usd' }]) {
      const event = stripe.event('payment_intent.succeeded', intent, WEBHOOK_SECRET, override);
      expect((await webhook(event.body, event.signature)).body.outcome).toBe('amount_mismatch');
    }
    expect(await paymentStatus(payment.id)).toBe('pending');
    const stranger = stripe.event('payment_intent.succeeded', intent, WEBHOOK_SECRET, { id: 'pi_not_ours' });
    expect((await webhook(stranger.body, stranger.signature)).body).toEqual({ received: true, outcome: 'unknown_payment', payment_id: null });
    expect(await orderStatuses(orderIds)).toEqual(['pending_payment', 'pending_payment']);
  });

  it('a declined card fails the payment; the same intent succeeding later still captures it once', async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const failed = stripe.event('payment_intent.payment_failed', stripe.decline(payment.provider_reference), WEBHOOK_SECRET);
    expect((await webhook(failed.body, failed.signature)).body.outcome).toBe('failed');
    expect(await paymentStatus(payment.id)).toBe('failed');
    const succeeded = stripe.event('payment_intent.succeeded', stripe.succeed(payment.provider_reference), WEBHOOK_SECRET);
    expect((await webhook(succeeded.body, succeeded.signature)).body.outcome).toBe('captured');
    // The failure delivered again, out of order: nothing changes.
    expect((await webhook(failed.body, failed.signature)).body.outcome).toBe('ignored_after_capture');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
    await expectLedgerReplays(t);
  });

  it('the sweep asks Stripe (PaymentIntent retrieve) when the webhook never came', async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startStripe(customer, orderIds);
    stripe.succeed(payment.provider_reference);
    await t.sql(`update payment set created_at = now() - interval '10 minutes' where id = ?`, [payment.id]);
    await queryPendingPayments(await t.context());
    expect(await paymentStatus(payment.id)).toBe('captured');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
    expect(stripe.requests.some((r) => r.method === 'GET' && r.path === `/v1/payment_intents/${payment.provider_reference}`)).toBe(true);
    await expectLedgerReplays(t);
  });

  it('refunds through the SDK, never above what was received', async () => {
    const { customer, orderIds, total } = await checkout();
    const payment = await startStripe(customer, orderIds);
    stripe.succeed(payment.provider_reference);
    const provider = t.deps.wiring.paymentProviders.stripe as StripeProvider;
    const first = await provider.refund(payment.provider_reference, 500, `refund-${payment.id}-1`);
    expect(first.status).toBe('succeeded');
    expect(await provider.refund(payment.provider_reference, 500, `refund-${payment.id}-1`)).toEqual(first);
    expect(await provider.refund(payment.provider_reference, total, `refund-${payment.id}-2`)).toEqual({ reference: '', status: 'failed' });
    expect(stripe.refunds.filter((r) => r.payment_intent === payment.provider_reference).map((r) => r.amount)).toEqual([500]);
  });

  it('approved refunds go back to the card through the SDK: retried while Stripe is down, and brought back to the balance when Stripe refuses', async () => {
    const { customer, orderIds, shopIds } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const event = stripe.event('payment_intent.succeeded', stripe.succeed(payment.provider_reference), WEBHOOK_SECRET);
    expect((await webhook(event.body, event.signature)).body.outcome).toBe('captured');
    const first = await approvedRefund(t, customer, orderIds[0], shopIds[0]);
    await settleWhileDown(t, stripe);
    expect((await t.sql('select status, attempts from payment_refund where refund_id = ?', [first.refundId]))[0]).toEqual({ status: 'pending', attempts: 1 });
    await settlePaymentRefunds(await t.context());
    expect((await t.sql('select status from payment_refund where refund_id = ?', [first.refundId]))[0].status).toBe('succeeded');
    expect(stripe.refunds.filter((r) => r.payment_intent === payment.provider_reference).map((r) => r.amount)).toEqual([first.amount]);
    // Stripe refuses the second (here: it has nothing left to refund): the money comes back to the balance.
    stripe.intents.get(payment.provider_reference)!.amount_received = first.amount;
    const second = await approvedRefund(t, customer, orderIds[1], shopIds[1]);
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    await settlePaymentRefunds(await t.context());
    expect((await t.sql('select status from payment_refund where refund_id = ?', [second.refundId]))[0].status).toBe('failed');
    expect(await balanceOf(t, customer.id, 'available')).toBe(second.amount);
    expect((await t.sql('select refunded_amount from payment where id = ?', [payment.id]))[0].refunded_amount).toBe(first.amount);
    await expectLedgerReplays(t);
  });

  it('a refund Stripe answers pending is followed to its end by retrieving it, never created again; a failed one comes back to the balance', async () => {
    const { customer, orderIds, shopIds } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const event = stripe.event('payment_intent.succeeded', stripe.succeed(payment.provider_reference), WEBHOOK_SECRET);
    expect((await webhook(event.body, event.signature)).body.outcome).toBe('captured');
    stripe.refundsPending = true;
    try {
      const first = await approvedRefund(t, customer, orderIds[0], shopIds[0]);
      const second = await approvedRefund(t, customer, orderIds[1], shopIds[1]);
      const refundRow = async (refundId: number) => (await t.sql<{ status: string; provider_reference: string | null }>('select status, provider_reference from payment_refund where refund_id = ?', [refundId]))[0];
      await settlePaymentRefunds(await t.context());
      const [a, b] = [await refundRow(first.refundId), await refundRow(second.refundId)];
      expect([a.status, b.status]).toEqual(['pending', 'pending']);
      expect(a.provider_reference).toMatch(/^re_/);
      // Still at the bank: asked again, nothing changes, and no second refund is made.
      await settlePaymentRefunds(await t.context());
      expect(stripe.refunds.filter((r) => r.payment_intent === payment.provider_reference)).toHaveLength(2);
      expect(stripe.requests.filter((r) => r.method === 'GET' && r.path === `/v1/refunds/${a.provider_reference}`)).toHaveLength(1);
      stripe.settleRefund(a.provider_reference!, 'succeeded');
      stripe.settleRefund(b.provider_reference!, 'failed');
      await settlePaymentRefunds(await t.context());
      expect([(await refundRow(first.refundId)).status, (await refundRow(second.refundId)).status]).toEqual(['succeeded', 'failed']);
      expect(stripe.refunds.filter((r) => r.payment_intent === payment.provider_reference)).toHaveLength(2);
      // The failed one's money is back on the customer's balance; the payment's refunded amount is the succeeded one's.
      expect(await balanceOf(t, customer.id, 'available')).toBe(second.amount);
      expect((await t.sql('select refunded_amount from payment where id = ?', [payment.id]))[0].refunded_amount).toBe(first.amount);
      const refunded = await t.sql<{ status: string }>(`select payload->>'status' as status from event where type = 'payment.refunded' and (payload->>'paymentId')::int = ? order by id`, [payment.id]);
      expect(refunded.map((r) => r.status)).toEqual(['succeeded', 'failed']);
      await expectLedgerReplays(t);
    } finally {
      stripe.refundsPending = false;
    }
  });

  it('a Stripe that cannot be reached fails the payment with 502, and the customer may start another', async () => {
    const { customer, orderIds } = await checkout();
    const withKey = { token: customer.token, body: { order_ids: orderIds, method: 'stripe' }, headers: { 'idempotency-key': 'stripe-down-1' } };
    stripe.failing = true;
    try {
      const res = await t.api('POST', '/api/payments', withKey);
      expect([res.status, res.body.error.code]).toEqual([502, 'PAYMENT_PROVIDER_UNAVAILABLE']);
      expect(await paymentStatus(res.body.error.details.payment_id)).toBe('failed');
    } finally {
      stripe.failing = false;
    }
    // The refusal freed the key: the same key starts a new payment once Stripe answers again.
    const retried = await t.api('POST', '/api/payments', withKey);
    expect([retried.status, retried.body.status]).toEqual([201, 'pending']);
    expect((await t.api('POST', '/api/payments', withKey)).body.id).toBe(retried.body.id);
  }, 60_000);

  it("reconciliation shows Stripe's day: captured, confirmed refunded, and what still waits on it, over both doors", async () => {
    const { customer, orderIds, total } = await checkout();
    await startStripe(customer, orderIds); // stays pending: waits on Stripe
    const today = new Date().toISOString().slice(0, 10);
    const admin = await newAdmin(t);
    const res = await t.api('GET', `/api/admin/reconciliation?from=${today}&to=${today}`, { token: admin.token });
    expect(res.status).toBe(200);
    const stripeDay = res.body.days[0].providers.find((p: { provider: string }) => p.provider === 'stripe');
    const [expected] = await t.sql(`select
        (select coalesce(sum(captured_amount), 0)::int from payment where provider = 'stripe' and captured_at is not null) as captured,
        (select coalesce(sum(r.amount), 0)::int from payment_refund r join payment p on p.id = r.payment_id where p.provider = 'stripe' and r.status = 'succeeded') as refunded,
        (select coalesce(sum(amount), 0)::int from payment where provider = 'stripe' and status in ('pending', 'authorized'))
          + (select coalesce(sum(r.amount), 0)::int from payment_refund r join payment p on p.id = r.payment_id where p.provider = 'stripe' and r.status = 'pending') as waiting`);
    expect(stripeDay).toEqual({ provider: 'stripe', ...expected });
    expect(stripeDay.captured).toBeGreaterThan(0);
    expect(stripeDay.refunded).toBeGreaterThan(0);
    expect(stripeDay.waiting).toBeGreaterThanOrEqual(total);
    const gql = await t.gql(`{ reconciliation(from: "${today}", to: "${today}") { days { providers { provider captured refunded waiting } } } }`, {}, admin.token);
    expect(gql.data.reconciliation.days[0].providers).toEqual(res.body.days[0].providers);
  });

  it("lets an admin look a payment up by Stripe's reference, over both doors; others may not", async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startStripe(customer, orderIds);
    const admin = await newAdmin(t);
    const path = `/api/admin/payments/by-reference?method=stripe&provider_reference=${payment.provider_reference}`;
    expect((await t.api('GET', path, { token: admin.token })).body.id).toBe(payment.id);
    expect((await t.api('GET', path, { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/payments/by-reference?method=stripe&provider_reference=pi_nothing', { token: admin.token })).status).toBe(404);
    expect((await t.api('GET', '/api/admin/payments/by-reference?method=cash&provider_reference=x', { token: admin.token })).status).toBe(400);
    const gql = await t.gql('query($r: String!) { paymentByReference(method: STRIPE, providerReference: $r) { id status } }', { r: payment.provider_reference }, admin.token);
    expect(gql.data.paymentByReference).toEqual({ id: payment.id, status: 'PENDING' });
  });
});
