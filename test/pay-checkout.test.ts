import { mutate } from './support/graphql.js';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, type TestUser } from './support/fixtures.js';
import { addToCart, balanceOf, checkoutBody, checkoutOk, expectLedgerReplays, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A customer with `funds` and a two-shop checkout of 1000 + 2 x 500 (no freight template: no fee). */
async function twoShopCheckout(funds: number): Promise<{ customer: TestUser; orders: { id: number; total: number }[] }> {
  const customer = await newCustomer(t, { available: funds, points: 0 });
  const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
  const b = await shopWithProduct(t, [{ price: 500, stock: 10 }]);
  await addToCart(t, customer.token, a.product.skuIds[0], 1);
  await addToCart(t, customer.token, b.product.skuIds[0], 2);
  const orders = await checkoutOk(t, customer.token);
  return { customer, orders: orders.map((o) => ({ id: o.id, total: o.total })) };
}

const statuses = async (ids: number[]) => (await t.sql('select status from shop_order where id = any(?::int[]) order by id', [`{${ids.join(',')}}`])).map((r: { status: string }) => r.status);
const payments = async (userId: number) =>
  Number((await t.sql(`select count(*)::int as n from ledger_entry l join balance b on b.id = l.balance_id where b.user_id = ? and l.reason = 'order_payment'`, [userId]))[0].n);

describe('one payment for one checkout', () => {
  it('pays every order of the checkout in one call, one ledger entry per order', async () => {
    const { customer, orders } = await twoShopCheckout(5000);
    expect(orders).toHaveLength(2);
    const total = orders.reduce((n, o) => n + o.total, 0);
    const res = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: orders.map((o) => o.id) } });
    expect(res.status).toBe(200);
    expect(res.body.orders.map((o: { status: string }) => o.status)).toEqual(['paid', 'paid']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(5000 - total);
    expect(await payments(customer.id)).toBe(2);
    // Paying again charges nothing.
    const again = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: orders.map((o) => o.id) } });
    expect(again.status).toBe(200);
    expect(await balanceOf(t, customer.id, 'available')).toBe(5000 - total);
    await expectLedgerReplays(t);
  });

  it('pays none when the balance covers only some: INSUFFICIENT_FUNDS, every order still pending', async () => {
    const { customer, orders } = await twoShopCheckout(1500);
    const res = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: orders.map((o) => o.id) } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await statuses(orders.map((o) => o.id))).toEqual(['pending_payment', 'pending_payment']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(1500);
    expect(await payments(customer.id)).toBe(0);
  });

  it("pays none when one order is cancelled, or is another customer's", async () => {
    const { customer, orders } = await twoShopCheckout(5000);
    const other = await twoShopCheckout(5000);
    const mixed = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: [orders[0].id, other.orders[0].id] } });
    expect(mixed.status).toBe(404);
    await t.api('POST', `/api/orders/${orders[1].id}/cancel`, { token: customer.token });
    const res = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: orders.map((o) => o.id) } });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'ORDER_STATE_CONFLICT', details: { status: 'cancelled' } });
    expect(await statuses(orders.map((o) => o.id))).toEqual(['pending_payment', 'cancelled']);
    expect(await balanceOf(t, customer.id, 'available')).toBe(5000);
    expect(await statuses(other.orders.map((o) => o.id))).toEqual(['pending_payment', 'pending_payment']);
  });

  it('states in the OpenAPI document that order_ids are unique, and refuses a repeated id as it says', async () => {
    const doc = buildOpenApiDocument() as { paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: { properties: Record<string, { uniqueItems?: boolean }> } }> } }>> };
    expect(doc.paths['/api/checkout/pay'].post.requestBody.content['application/json'].schema.properties.order_ids.uniqueItems).toBe(true);
    const customer = await newCustomer(t);
    const res = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: [1, 1] } });
    expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('refuses bad input and changes nothing', async () => {
    const { customer, orders } = await twoShopCheckout(5000);
    for (const body of [{}, { order_ids: [] }, { order_ids: [orders[0].id, orders[0].id] }, { order_ids: ['x'] }, { order_ids: orders.map((o) => o.id), extra: 1 }]) {
      const res = await t.api('POST', '/api/checkout/pay', { token: customer.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await statuses(orders.map((o) => o.id))).toEqual(['pending_payment', 'pending_payment']);
  });

  it('with an idempotency key replays the answer and refuses the key for other orders', async () => {
    const { customer, orders } = await twoShopCheckout(5000);
    const ids = orders.map((o) => o.id);
    const headers = { 'Idempotency-Key': `pay-${customer.id}` };
    const first = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: ids }, headers });
    const replay = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: [...ids].reverse() }, headers });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const reused = await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: [ids[0]] }, headers });
    expect([reused.status, reused.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await payments(customer.id)).toBe(2);
  });

  it('takes a key for one operation only: a checkout key sent to a payment (or a cart merge) is 422 and does nothing, over both doors', async () => {
    const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const checkoutWithKey = async (customer: TestUser, key: string) => {
      await addToCart(t, customer.token, a.product.skuIds[0], 1);
      return checkoutOk(t, customer.token, { 'Idempotency-Key': key });
    };
    const reused = (res: { status: number; body: any }) => [res.status, res.body.error?.code];

    // REST: the checkout's key on pay-all, on paying its order, on a cart merge.
    const customer = await newCustomer(t, { available: 5000, points: 0 });
    const [order] = await checkoutWithKey(customer, 'shared-key');
    const headers = { 'Idempotency-Key': 'shared-key' };
    expect(reused(await t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: [order.id] }, headers }))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(reused(await t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token, headers }))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(reused(await t.api('POST', '/api/cart/merge', { token: customer.token, body: { items: [{ sku_id: a.product.skuIds[0], quantity: 1 }] }, headers }))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect([await payments(customer.id), await statuses([order.id])]).toEqual([0, ['pending_payment']]);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.lines).toEqual([]);
    // The checkout's own replay still answers it; a key that paid one order pays no other.
    const replay = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody(), headers });
    expect([replay.status, replay.body.orders.map((o: { id: number }) => o.id)]).toEqual([201, [order.id]]);
    const [second] = await checkoutWithKey(customer, 'another-checkout');
    expect((await t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token, headers: { 'Idempotency-Key': 'pay-one' } })).status).toBe(200);
    expect(reused(await t.api('POST', `/api/orders/${second.id}/pay`, { token: customer.token, headers: { 'Idempotency-Key': 'pay-one' } }))).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    expect(await statuses([order.id, second.id])).toEqual(['paid', 'pending_payment']);
    // Keys are each customer's own: another customer's same key is a new key.
    const other = await newCustomer(t, { available: 5000, points: 0 });
    expect((await checkoutWithKey(other, 'shared-key')).length).toBe(1);

    // GraphQL: the same rule, as a user error of the mutation.
    const third = await newCustomer(t, { available: 5000, points: 0 });
    await addToCart(t, third.token, a.product.skuIds[0], 1);
    const placed = await mutate(t, 'checkout', { shippingAddress: { recipient: 'Test Buyer', phone: '+86 138 0000 0000', region: 'CN_SH', address: '1 Test Road' }, idempotencyKey: 'gql-key' }, 'orders { id }', third.token);
    expect(placed.userErrors).toEqual([]);
    const [placedId] = placed.payload.orders.map((o: { id: number }) => o.id);
    const payAll = await mutate(t, 'payCheckout', { orderIds: [placedId], idempotencyKey: 'gql-key' }, 'orders { id }', third.token);
    const payOne = await mutate(t, 'payOrder', { orderId: placedId, idempotencyKey: 'gql-key' }, 'order { id }', third.token);
    expect([payAll.errors, payAll.userErrors.map((e) => e.code), payOne.errors, payOne.userErrors.map((e) => e.code)]).toEqual([undefined, ['IDEMPOTENCY_KEY_REUSED'], undefined, ['IDEMPOTENCY_KEY_REUSED']]);
    expect([await payments(third.id), await statuses([placedId])]).toEqual([0, ['pending_payment']]);
  });

  it('charges exactly once when the same checkout is paid 8 times at once, with or without a key', async () => {
    for (const keyed of [false, true]) {
      const { customer, orders } = await twoShopCheckout(5000);
      const total = orders.reduce((n, o) => n + o.total, 0);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: orders.map((o) => o.id) }, headers: keyed ? { 'Idempotency-Key': 'same' } : {} }),
        ),
      );
      expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
      expect(await balanceOf(t, customer.id, 'available')).toBe(5000 - total);
      expect(await payments(customer.id)).toBe(2);
    }
    await expectLedgerReplays(t);
  });

  it('against a concurrent cancellation of one order: all paid, or none paid and that one cancelled', async () => {
    for (let round = 0; round < 4; round++) {
      const { customer, orders } = await twoShopCheckout(5000);
      const ids = orders.map((o) => o.id);
      const [pay, cancel] = await Promise.all([
        t.api('POST', '/api/checkout/pay', { token: customer.token, body: { order_ids: ids } }),
        t.api('POST', `/api/orders/${ids[1]}/cancel`, { token: customer.token }),
      ]);
      const after = await statuses(ids);
      const total = orders.reduce((n, o) => n + o.total, 0);
      if (pay.status === 200) {
        expect(after).toEqual(['paid', 'paid']);
        expect(cancel.status).toBe(409);
        expect(await balanceOf(t, customer.id, 'available')).toBe(5000 - total);
      } else {
        expect(pay.status).toBe(409);
        expect(cancel.status).toBe(200);
        expect(after).toEqual(['pending_payment', 'cancelled']);
        expect(await balanceOf(t, customer.id, 'available')).toBe(5000);
      }
    }
  });

  it('works over GraphQL with user errors', async () => {
    const { customer, orders } = await twoShopCheckout(1000);
    const short = await mutate(t, 'payCheckout', { orderIds: orders.map((o) => o.id) }, 'orders { id status }', customer.token);
    expect(short.payload.orders).toBeNull();
    expect(short.userErrors[0].code).toBe('INSUFFICIENT_FUNDS');
    await t.sql(`update balance set amount = amount + 5000 where user_id = ? and kind = 'available'`, [customer.id]);
    const paid = await mutate(t, 'payCheckout', { orderIds: orders.map((o) => o.id), idempotencyKey: 'k1' }, 'orders { id status }', customer.token);
    expect(paid.userErrors).toEqual([]);
    expect(paid.payload.orders.map((o: { status: string }) => o.status)).toEqual(['PAID', 'PAID']);
  });
});
