import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator } from './support/fixtures.js';
import { ADDRESS, balanceOf, expectLedgerReplays, GRAPHQL_ADDRESS, payOk, placeOrder, shopWithProduct, stockOf } from './support/shopping.js';
import { cancelUnpaidOrders } from '../src/services/orders/order.service.js';
import { soldCounts } from '../src/services/catalog/sold-count.js';
import { recordAnswer, withIdempotency, type IdempotencyRecord } from '../src/shared/idempotency.js';
import { inTransaction } from '../src/shared/transaction.js';
import { systemContext } from '../src/server/jobs.js';
import { createServiceContext } from '../src/server/request-context.js';
import { createLogger } from '../src/logger.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { waitFor } from './support/subscriptions.js';
import { auditStockAndClose } from './support/inventory-audit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

const deps = () => t.deps;

describe('orders', () => {
  it('lists own orders newest first with items, paginated; another customer sees none of them', async () => {
    const { product } = await shopWithProduct(t, [{ price: 300, stock: 50 }]);
    const customer = await newCustomer(t);
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await placeOrder(t, customer.token, product.skuIds[0])).id);
    const page1 = await t.api('GET', '/api/orders?page=1&page_size=2', { token: customer.token });
    expect(page1.body).toMatchObject({ page: 1, page_size: 2, total: 3 });
    expect(page1.body.items.map((o: any) => o.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.items[0].items).toHaveLength(1);
    const page2 = await t.api('GET', '/api/orders?page=2&page_size=2', { token: customer.token });
    expect(page2.body.items.map((o: any) => o.id)).toEqual([ids[0]]);
    const filtered = await t.api('GET', '/api/orders?status=paid', { token: customer.token });
    expect(filtered.body.total).toBe(0);
    expect((await t.api('GET', '/api/orders?page_size=500', { token: customer.token })).status).toBe(400);
    expect((await t.api('GET', '/api/orders?status=lost', { token: customer.token })).status).toBe(400);

    const other = await newCustomer(t);
    expect((await t.api('GET', '/api/orders', { token: other.token })).body.total).toBe(0);
    const peek = await t.api('GET', `/api/orders/${ids[0]}`, { token: other.token });
    expect(peek.status).toBe(404);
    expect(peek.body.error.code).toBe('NOT_FOUND');
  });

  it('pays from the available balance with a ledger entry referencing the order', async () => {
    const { product } = await shopWithProduct(t, [{ price: 2500, stock: 5 }]);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
    const paid = await payOk(t, customer.token, order.id);
    expect(paid).toMatchObject({ id: order.id, status: 'paid', paid_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/), created_at: expect.stringMatching(/T.*Z$/) });
    expect(await balanceOf(t, customer.id, 'available')).toBe(5_000);
    const entries = await t.sql(`select l.reason, l.delta::int, l.balance_after::int, l.reference_type, l.reference_id from ledger_entry l
      join balance b on b.id = l.balance_id where b.user_id = ? and l.reference_type = 'order' and l.reference_id = ?`, [customer.id, order.id]);
    expect(entries).toEqual([{ reason: 'order_payment', delta: -5000, balance_after: 5000, reference_type: 'order', reference_id: order.id }]);
    // The other side of the transfer: the shop's pending balance (no commission rate: all of it).
    const [shopSide] = await t.sql(`select b.kind, l.delta::int from ledger_entry l join balance b on b.id = l.balance_id
      where b.shop_id is not null and l.reference_type = 'order' and l.reference_id = ?`, [order.id]);
    expect(shopSide).toEqual({ kind: 'shop_pending', delta: 5000 });
    await expectLedgerReplays(t);
  });

  it('refuses payment with insufficient funds (422) and changes nothing', async () => {
    const { product } = await shopWithProduct(t, [{ price: 2500, stock: 5 }]);
    const customer = await newCustomer(t, { available: 1_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0]);
    const res = await t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INSUFFICIENT_FUNDS');
    expect(await balanceOf(t, customer.id, 'available')).toBe(1_000);
    expect((await t.api('GET', `/api/orders/${order.id}`, { token: customer.token })).body.status).toBe('pending_payment');
  });

  it('debits once when the same order is paid twice concurrently', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
    const customer = await newCustomer(t, { available: 50_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0]);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token })));
    expect(results.every((r) => r.status === 200 && r.body.status === 'paid')).toBe(true);
    expect(await balanceOf(t, customer.id, 'available')).toBe(49_000);
    const [debits] = await t.sql(`select count(*)::int as n from ledger_entry l join balance b on b.id = l.balance_id where b.user_id = ? and reference_type = 'order' and reference_id = ?`, [customer.id, order.id]);
    expect(debits.n).toBe(1);
    await expectLedgerReplays(t);
  });

  it('ends in exactly one of paid or cancelled when payment races cancellation', async () => {
    for (let round = 0; round < 10; round++) {
      const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
      const customer = await newCustomer(t, { available: 1_000, points: 0 });
      const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
      const [pay, cancel] = await Promise.all([
        t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token }),
        t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token }),
      ]);
      const [row] = await t.sql('select status from shop_order where id = ?', [order.id]);
      // The customer can afford only 1000 of the 2000: payment may also be refused for funds.
      if (row.status === 'paid') {
        expect(pay.status).toBe(200);
        expect(cancel.status).toBe(409);
        expect(await stockOf(t, product.skuIds[0])).toBe(3);
      } else {
        expect(row.status).toBe('cancelled');
        expect(cancel.status).toBe(200);
        expect([409, 422]).toContain(pay.status);
        expect(await stockOf(t, product.skuIds[0])).toBe(5);
        expect(await balanceOf(t, customer.id, 'available')).toBe(1_000);
      }
    }
  });

  it('pays or cancels exactly once when a funded payment races cancellation', async () => {
    for (let round = 0; round < 10; round++) {
      const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
      const customer = await newCustomer(t, { available: 5_000, points: 0 });
      const order = await placeOrder(t, customer.token, product.skuIds[0]);
      const [pay, cancel] = await Promise.all([
        t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token }),
        t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token }),
      ]);
      const [row] = await t.sql('select status from shop_order where id = ?', [order.id]);
      const debited = 5_000 - (await balanceOf(t, customer.id, 'available'));
      if (row.status === 'paid') {
        expect([pay.status, cancel.status]).toEqual([200, 409]);
        expect(debited).toBe(1000);
        expect(await stockOf(t, product.skuIds[0])).toBe(4);
      } else {
        expect([pay.status, cancel.status]).toEqual([409, 200]);
        expect(pay.body.error.code).toBe('ORDER_STATE_CONFLICT');
        expect(debited).toBe(0);
        expect(await stockOf(t, product.skuIds[0])).toBe(5);
      }
    }
  });

  it('restores stock when a pending order is cancelled, and refuses to cancel a paid order', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0], 3);
    expect(await stockOf(t, product.skuIds[0])).toBe(2);
    const cancelled = await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancel_reason: 'customer' });
    expect(await stockOf(t, product.skuIds[0])).toBe(5);
    // Cancelling again is harmless and restores nothing twice.
    expect((await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token })).status).toBe(200);
    expect(await stockOf(t, product.skuIds[0])).toBe(5);
    const pay = await t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token });
    expect(pay.status).toBe(409);

    const paid = await placeOrder(t, customer.token, product.skuIds[0]);
    await payOk(t, customer.token, paid.id);
    const refusedCancel = await t.api('POST', `/api/orders/${paid.id}/cancel`, { token: customer.token });
    expect(refusedCancel.status).toBe(409);
    expect(refusedCancel.body.error.code).toBe('ORDER_STATE_CONFLICT');
  });

  it('cancels unpaid orders past the payment window in the sweep, restoring stock', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
    const customer = await newCustomer(t);
    const old = await placeOrder(t, customer.token, product.skuIds[0], 2);
    const fresh = await placeOrder(t, customer.token, product.skuIds[0], 1);
    await t.sql(`update shop_order set created_at = now() - interval '2 hours' where id = ?`, [old.id]);
    // Two sweepers at once (two processes): each order is cancelled once.
    const [a, b] = await Promise.all([cancelUnpaidOrders(systemContext(deps(), 'test')), cancelUnpaidOrders(systemContext(deps(), 'test'))]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const rows = await t.sql('select id, status, cancel_reason from shop_order where id in (?, ?) order by id', [old.id, fresh.id]);
    expect(rows).toEqual([
      { id: old.id, status: 'cancelled', cancel_reason: 'payment_timeout' },
      { id: fresh.id, status: 'pending_payment', cancel_reason: null },
    ]);
    expect(await stockOf(t, product.skuIds[0])).toBe(4);
  });

  it('ledger entries replay to every balance after all of the above', async () => {
    expect(await expectLedgerReplays(t)).toBeGreaterThan(0);
  });
});

describe('shipment, delivery and invoice', () => {
  it('runs from payment through partial and full shipment, delivery and an issued invoice', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 50_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0], 3);

    const early = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'X1' } });
    expect(early.status).toBe(409);
    expect(early.body.error.code).toBe('ORDER_NOT_SHIPPABLE');
    expect((await t.api('GET', `/api/orders/${order.id}/invoice`, { token: customer.token })).body.error.code).toBe('INVOICE_NOT_AVAILABLE');
    await payOk(t, customer.token, order.id);

    const itemId = order.items[0].id;
    const tooMany = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'X1', items: [{ order_item_id: itemId, quantity: 4 }] } });
    expect(tooMany.body.error.code).toBe('SHIPMENT_EXCEEDS_ORDER');
    const part = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'X1', items: [{ order_item_id: itemId, quantity: 1 }] } });
    expect(part.status).toBe(201);
    expect(part.body).toMatchObject({ status: 'paid', shipments: [{ company_code: 'sf', carrier: 'SF Express', tracking_number: 'X1', items: [{ order_item_id: itemId, quantity: 1 }] }] });
    const early2 = await t.api('POST', `/api/orders/${order.id}/confirm-delivery`, { token: customer.token });
    expect(early2.body.error.code).toBe('ORDER_STATE_CONFLICT');

    const rest = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'X2' } });
    expect(rest.body.status).toBe('shipped');
    expect(rest.body.shipments[1]).not.toHaveProperty('items');
    expect(rest.body.items[0].shipped_quantity).toBe(3);

    const delivered = await t.api('POST', `/api/orders/${order.id}/confirm-delivery`, { token: customer.token });
    expect(delivered.body).toMatchObject({ status: 'delivered', delivered_at: expect.any(String) });

    const before = await t.api('GET', `/api/orders/${order.id}/invoice`, { token: customer.token });
    expect(before.body).toEqual({ order_id: order.id, status: 'not_issued', invoice_no: null, amount: 3000 });
    const issued = await t.api('POST', `/api/merchant/orders/${order.id}/invoice`, { token: operator.token, body: { title: 'ACME Ltd', tax_number: '9131' } });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ status: 'issued', invoice_no: expect.stringMatching(/^MF\d{4}\d{8}$/), title: 'ACME Ltd', amount: 3000 });
    expect((await t.api('POST', `/api/merchant/orders/${order.id}/invoice`, { token: operator.token, body: {} })).body.error.code).toBe('INVOICE_ALREADY_ISSUED');
    const after = await t.api('GET', `/api/orders/${order.id}/invoice`, { token: customer.token });
    expect(after.body.invoice_no).toBe(issued.body.invoice_no);
  });

  it('hides orders and invoices of other customers and shops (404) and checks roles (403)', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const customer = await newCustomer(t, { available: 50_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0]);
    await payOk(t, customer.token, order.id);
    const stranger = await newCustomer(t);
    expect((await t.api('GET', `/api/orders/${order.id}/invoice`, { token: stranger.token })).status).toBe(404);
    expect((await t.api('POST', `/api/orders/${order.id}/pay`, { token: stranger.token })).status).toBe(404);
    expect((await t.api('POST', `/api/orders/${order.id}/cancel`, { token: stranger.token })).status).toBe(404);

    const other = await shopWithProduct(t);
    const otherOperator = await newOperator(t, other.shop.id);
    expect((await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: otherOperator.token, body: { company_code: 'sf', tracking_number: '1' } })).status).toBe(404);
    expect((await t.api('POST', `/api/merchant/orders/${order.id}/invoice`, { token: otherOperator.token, body: {} })).status).toBe(404);
    expect((await t.api('GET', `/api/merchant/orders/${order.id}`, { token: otherOperator.token })).status).toBe(404);
    expect((await t.api('GET', '/api/merchant/orders', { token: otherOperator.token })).body.total).toBe(0);

    const operator = await newOperator(t, shop.id);
    expect((await t.api('GET', '/api/merchant/orders', { token: operator.token })).body.items.map((o: any) => o.id)).toContain(order.id);
    expect((await t.api('GET', '/api/merchant/orders', { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/orders', { token: operator.token })).status).toBe(403);
    expect((await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: '', tracking_number: '1' } })).status).toBe(400);
  });

  it('emits paid, shipment, delivered and cancelled events after commit', async () => {
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    try {
      const { shop, product } = await shopWithProduct(t, [{ price: 100, stock: 10 }]);
      const operator = await newOperator(t, shop.id);
      const customer = await newCustomer(t, { available: 1_000, points: 0 });
      const order = await placeOrder(t, customer.token, product.skuIds[0]);
      await payOk(t, customer.token, order.id);
      await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'E1' } });
      await t.api('POST', `/api/orders/${order.id}/confirm-delivery`, { token: customer.token });
      const other = await placeOrder(t, customer.token, product.skuIds[0]);
      await t.api('POST', `/api/orders/${other.id}/cancel`, { token: customer.token });
      // Delivered through PostgreSQL NOTIFY, a moment after each commit.
      await waitFor(() => seen.some((e) => e.type === 'order.cancelled' && e.payload.orderId === other.id));
      const mine = seen.filter((e) => e.customerId === customer.id).map((e) => [e.type, 'orderId' in e.payload ? e.payload.orderId : null]);
      expect(mine).toEqual([
        ['order.placed', order.id], ['order.paid', order.id], ['shipment.created', order.id], ['order.delivered', order.id],
        ['order.placed', other.id], ['order.cancelled', other.id],
      ]);
    } finally {
      stop();
    }
  });
});

describe('sold_count and account summary', () => {
  it('counts quantities of paid orders and ignores pending and cancelled ones', async () => {
    const { product } = await shopWithProduct(t, [{ price: 100, stock: 50 }]);
    const { product: untouched } = await shopWithProduct(t);
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const paid = await placeOrder(t, customer.token, product.skuIds[0], 3);
    await payOk(t, customer.token, paid.id);
    await placeOrder(t, customer.token, product.skuIds[0], 4);
    const cancelled = await placeOrder(t, customer.token, product.skuIds[0], 5);
    await t.api('POST', `/api/orders/${cancelled.id}/cancel`, { token: customer.token });
    const counts = await soldCounts(t.em(), [product.id, untouched.id]);
    expect(counts.get(product.id)).toBe(3);
    expect(counts.get(untouched.id)).toBe(0);
  });

  it('GET /api/me/stats gives balances and order counts by state, for customers only', async () => {
    const { product } = await shopWithProduct(t, [{ price: 100, stock: 50 }]);
    const customer = await newCustomer(t, { available: 1_000, points: 70 });
    const paid = await placeOrder(t, customer.token, product.skuIds[0]);
    await payOk(t, customer.token, paid.id);
    await placeOrder(t, customer.token, product.skuIds[0]);
    const stats = await t.api('GET', '/api/me/stats', { token: customer.token });
    expect(stats.body).toEqual({
      currency: 'CNY', available: 900, frozen: 0, points: 70,
      orders: { pending_payment: 1, awaiting_group: 0, paid: 1, shipped: 0, delivered: 0, completed: 0, cancelled: 0 },
    });
    expect((await t.api('GET', '/api/me/stats')).status).toBe(401);
  });

  it('refuses the same idempotency key with a different request (422)', async () => {
    const customer = await newCustomer(t);
    const ctx = await createServiceContext(deps(), customer.token, 'test');
    // An operation that records its answer in its own transaction, as the use cases do.
    const answering = (value: string) => (record: IdempotencyRecord | undefined) =>
      inTransaction(ctx, async (tx) => {
        await recordAnswer(tx, record, value);
        return value;
      });
    await withIdempotency(ctx, { scope: 's', key: 'k1', request: { a: 1 } }, answering('first'));
    await expect(withIdempotency(ctx, { scope: 's', key: 'k1', request: { a: 2 } }, answering('second'))).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED', status: 422 });
    expect(await withIdempotency(ctx, { scope: 's', key: 'k1', request: { a: 1 } }, answering('again'))).toBe('first');
  });
});

describe('GraphQL door', () => {
  it('runs the same flow: cart, checkout, pay, orders, stats', async () => {
    const { product } = await shopWithProduct(t, [{ price: 450, stock: 3 }]);
    const customer = await newCustomer(t, { available: 1_000, points: 0 });
    const cart = await mutate(t, 'setCartItem', { skuId: product.skuIds[0], quantity: 2 }, 'cart { total lines { stock shop { id } } }', customer.token);
    expect(cart.payload.cart.total).toBe(900);
    const order = 'orders { id status total shippingAddress { region } items { unitPrice quantity } }';
    const placed = await mutate(t, 'checkout', { shippingAddress: GRAPHQL_ADDRESS, idempotencyKey: 'g1' }, order, customer.token);
    expect(placed.errors).toBeUndefined();
    expect(placed.payload.orders[0].shippingAddress).toEqual({ region: GRAPHQL_ADDRESS.region });
    const orderId = placed.payload.orders[0].id;
    // The same key replays the first answer; the same key for another request is a user error.
    const replayed = await mutate(t, 'checkout', { shippingAddress: GRAPHQL_ADDRESS, idempotencyKey: 'g1' }, order, customer.token);
    expect(replayed.payload).toEqual(placed.payload);
    const reused = await mutate(t, 'checkout', { shippingAddress: { ...GRAPHQL_ADDRESS, recipient: 'Someone Else' }, idempotencyKey: 'g1' }, order, customer.token);
    expect(reused.userErrors.map((e) => e.code)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    const paid = await mutate(t, 'payOrder', { orderId }, 'order { status }', customer.token);
    expect(paid.payload.order.status).toBe('PAID');
    const list = await t.gql(`{ orders { total items { id createdAt paidAt shop { name } items { productName } } } myStats { available orders { paid } } }`, {}, customer.token);
    expect(list.errors).toBeUndefined();
    expect(list.data.orders.total).toBe(1);
    expect(list.data.orders.items[0].paidAt).toMatch(/T.*Z$/);
    expect(list.data.myStats).toEqual({ available: 100, orders: { paid: 1 } });
    const broke = await mutate(t, 'cancelOrder', { orderId }, 'order { status }', customer.token);
    expect(broke.payload.order).toBeNull();
    expect(broke.userErrors).toEqual([{ code: 'ORDER_STATE_CONFLICT', message: expect.any(String), field: null, details: expect.objectContaining({ status: 'PAID' }) }]);
  });
});
