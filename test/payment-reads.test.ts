import { describe, it, expect, beforeAll, afterAll, afterEach } from 'vitest';
import { SandboxProvider } from '../src/services/payments/sandbox-provider.js';
import { settlePaymentRefunds } from '../src/services/payments/payment-refunds.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, type TestUser } from './support/fixtures.js';
import { addToCart, checkoutOk, shopWithProduct } from './support/shopping.js';
import { subscribe, type LiveSubscription } from './support/subscriptions.js';

/**
 * The reads the storefront's cashier and the consoles use: an order's payments (its customer, its
 * own shop, an admin; a shop sees only its own order's share) and the live `paymentUpdates`
 * subscription the waiting page listens to. The sandbox here never notifies by itself: each test
 * sends the gateway's signed notification when it wants the payment to move.
 */
class SilentSandbox extends SandboxProvider {
  override deliverTo(): void {}
}

let t: TestApp;
const open: LiveSubscription[] = [];
const sandbox = () => t.deps.wiring.paymentProviders.sandbox as SandboxProvider;

beforeAll(async () => {
  t = await startTestApp({}, { wiring: (base) => ({ paymentProviders: { ...base.paymentProviders, sandbox: new SilentSandbox({ delayMs: 0, secret: 'reads-secret' }) } }) });
});
afterEach(async () => {
  for (const sub of open.splice(0)) await sub.close();
});
afterAll(() => t?.close());

/** A new customer without money, a checkout over two shops, and a sandbox payment started for it. */
async function pendingSandboxPayment(options: { simulateFailure?: boolean } = {}) {
  const customer = await newCustomer(t, { available: 0, points: 0 });
  const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
  const b = await shopWithProduct(t, [{ price: 500, stock: 10 }]);
  await addToCart(t, customer.token, a.product.skuIds[0], 1);
  await addToCart(t, customer.token, b.product.skuIds[0], 2);
  const orders = await checkoutOk(t, customer.token);
  const res = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orders.map((o) => o.id), method: 'sandbox', ...(options.simulateFailure ? { simulate_failure: true } : {}) } });
  expect(res.status).toBe(201);
  const byShop = (shopId: number) => orders.find((o) => o.shop.id === shopId)!;
  return { customer, payment: res.body as { id: number; provider_reference: string; amount: number }, orderA: byShop(a.shop.id), orderB: byShop(b.shop.id), shopA: a.shop.id, shopB: b.shop.id };
}

/** Delivers the sandbox's signed notification for the payment, as the gateway would. */
async function notify(reference: string) {
  const signed = sandbox().notificationFor(reference)!;
  const res = await t.api('POST', '/api/payments/notifications/sandbox', { raw: signed.body, headers: { 'sandbox-signature': signed.signature } });
  expect(res.status).toBe(200);
  return res.body.outcome as string;
}

const UPDATES = 'subscription ($id: Int!) { paymentUpdates(paymentId: $id) { id status capturedAmount refundedAmount nextStep { type } orderIds } }';

describe("an order's payments", () => {
  it("are read by the order's customer, its own shop (its share only) and an admin; another customer or another shop learns 404 on both doors", async () => {
    const { customer, payment, orderA, orderB, shopA, shopB } = await pendingSandboxPayment();
    expect(await notify(payment.provider_reference)).toBe('captured');
    const other = await newCustomer(t);
    const [operatorA, operatorB, admin] = [await newOperator(t, shopA), await newOperator(t, shopB), await newAdmin(t)];

    const mine = await t.api('GET', `/api/orders/${orderA.id}/payments`, { token: customer.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items).toEqual([expect.objectContaining({ payment_id: payment.id, method: 'sandbox', status: 'captured', order_amount: orderA.total, paid_this_order: true, refunds: [] })]);
    // The shop sees its order's share of the checkout's payment, not the whole amount.
    const shop = await t.api('GET', `/api/orders/${orderB.id}/payments`, { token: operatorB.token });
    expect(shop.body.items).toEqual([expect.objectContaining({ payment_id: payment.id, order_amount: orderB.total })]);
    expect(orderB.total).toBeLessThan(payment.amount);
    expect(shop.body.items[0]).not.toHaveProperty('amount');
    expect((await t.api('GET', `/api/orders/${orderA.id}/payments`, { token: admin.token })).body.items).toHaveLength(1);

    for (const [token, orderId] of [[other.token, orderA.id], [operatorA.token, orderB.id], [operatorB.token, orderA.id]] as const) {
      const refused = await t.api('GET', `/api/orders/${orderId}/payments`, { token });
      expect(refused.status).toBe(404);
      expect(refused.body.error.code).toBe('NOT_FOUND');
      const gql = await t.gql('query ($id: Int!) { orderPayments(orderId: $id) { paymentId } }', { id: orderId }, token);
      expect(gql.data.orderPayments).toBeNull();
      expect(gql.errors?.[0].extensions.code).toBe('NOT_FOUND');
    }
    expect((await t.api('GET', `/api/orders/${orderA.id}/payments`)).status).toBe(401);
    const viaGraphql = await t.gql('query ($id: Int!) { orderPayments(orderId: $id) { paymentId method status orderAmount paidThisOrder refunds { amount } } }', { id: orderB.id }, operatorB.token);
    expect(viaGraphql.data.orderPayments).toEqual([{ paymentId: payment.id, method: 'SANDBOX', status: 'CAPTURED', orderAmount: orderB.total, paidThisOrder: true, refunds: [] }]);
  });

  it('lists a failed payment and the retry that paid, newest first, and the refund of a line back on the method with its provider reference once settled', async () => {
    const { customer, payment: failed, orderA, orderB, shopB } = await pendingSandboxPayment({ simulateFailure: true });
    expect(await notify(failed.provider_reference)).toBe('failed');
    const retry = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: [orderA.id, orderB.id], method: 'sandbox' } });
    expect(await notify(retry.body.provider_reference)).toBe('captured');

    const order = (await t.api('GET', `/api/orders/${orderB.id}`, { token: customer.token })).body;
    const asked = await t.api('POST', `/api/orders/${orderB.id}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: order.items[0].id, quantity: 1 }] } });
    expect(asked.status).toBe(201);
    const operatorB = await newOperator(t, shopB);
    expect((await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: operatorB.token, body: {} })).body.status).toBe('completed');

    const before = (await t.api('GET', `/api/orders/${orderB.id}/payments`, { token: operatorB.token })).body.items;
    expect(before.map((p: { payment_id: number; status: string }) => [p.payment_id, p.status])).toEqual([[retry.body.id, 'captured'], [failed.id, 'failed']]);
    expect(before[0].refunds).toEqual([expect.objectContaining({ refund_id: asked.body.id, amount: asked.body.amount, status: 'pending', provider_reference: null })]);
    // The other shop's order of the same payment shows no refund of this one.
    expect((await t.api('GET', `/api/orders/${orderA.id}/payments`, { token: customer.token })).body.items[0].refunds).toEqual([]);

    expect(await settlePaymentRefunds(await t.context())).toBeGreaterThanOrEqual(1);
    const after = (await t.api('GET', `/api/orders/${orderB.id}/payments`, { token: customer.token })).body.items[0];
    expect(after.refunds).toEqual([expect.objectContaining({ refund_id: asked.body.id, status: 'succeeded', provider_reference: expect.stringMatching(/^sbx_refund_/) })]);
    // GraphQL answers the same status as its PaymentRefundStatus enum, as it answers late money's.
    const viaGraphql = await t.gql('query ($id: Int!) { orderPayments(orderId: $id) { refunds { refundId status } } }', { id: orderB.id }, customer.token);
    expect(viaGraphql.data.orderPayments[0].refunds).toEqual([{ refundId: asked.body.id, status: 'SUCCEEDED' }]);
  });

  it("shows a wallet payment's refunds as credited to the balance", async () => {
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const shop = await shopWithProduct(t, [{ price: 800, stock: 5 }]);
    await addToCart(t, customer.token, shop.product.skuIds[0], 2);
    const [order] = await checkoutOk(t, customer.token);
    const paid = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: [order.id], method: 'wallet' } });
    expect(paid.body.status).toBe('captured');
    const full = (await t.api('GET', `/api/orders/${order.id}`, { token: customer.token })).body;
    const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Too many', items: [{ order_item_id: full.items[0].id, quantity: 1 }] } });
    const operator = await newOperator(t, shop.shop.id);
    await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: operator.token, body: {} });
    const [payment] = (await t.api('GET', `/api/orders/${order.id}/payments`, { token: customer.token })).body.items;
    expect(payment).toMatchObject({ method: 'wallet', status: 'captured', refunds: [{ refund_id: asked.body.id, amount: asked.body.amount, status: 'succeeded', provider_reference: null }] });
  });

  it('refuses a malformed order id with a clear error and no 500', async () => {
    const customer = await newCustomer(t);
    const res = await t.api('GET', '/api/orders/abc/payments', { token: customer.token });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('paymentUpdates', () => {
  it('answers the payment as it is, then live as the verified notification captures it', async () => {
    const { customer, payment } = await pendingSandboxPayment();
    const sub = await subscribe(t, UPDATES, { token: customer.token, variables: { id: payment.id } });
    open.push(sub);
    expect(await sub.next('paymentUpdates')).toMatchObject({ id: payment.id, status: 'PENDING', nextStep: { type: 'wait' } });
    expect(await notify(payment.provider_reference)).toBe('captured');
    expect(await sub.next('paymentUpdates')).toMatchObject({ id: payment.id, status: 'CAPTURED', capturedAmount: payment.amount, nextStep: null });
  });

  it('brings a failure live, and another payment of the same customer does not wake it', async () => {
    const { customer, payment } = await pendingSandboxPayment({ simulateFailure: true });
    const sub = await subscribe(t, UPDATES, { token: customer.token, variables: { id: payment.id } });
    open.push(sub);
    expect((await sub.next('paymentUpdates')).status).toBe('PENDING');
    const unrelated = await pendingSandboxPayment();
    expect(await notify(unrelated.payment.provider_reference)).toBe('captured');
    expect(await notify(payment.provider_reference)).toBe('failed');
    const next = await sub.next('paymentUpdates');
    expect(next).toMatchObject({ id: payment.id, status: 'FAILED' });
    expect(sub.results).toHaveLength(2);
  });

  it("is refused (NOT_FOUND) for another customer's payment and for a shop operator", async () => {
    const { payment, shopA } = await pendingSandboxPayment();
    const other: TestUser = await newCustomer(t);
    const operator = await newOperator(t, shopA);
    for (const token of [other.token, operator.token]) {
      const sub = await subscribe(t, UPDATES, { token, variables: { id: payment.id } });
      open.push(sub);
      const result = await sub.nextResult();
      expect(result.errors?.[0].extensions?.code).toBe('NOT_FOUND');
    }
  });
});
