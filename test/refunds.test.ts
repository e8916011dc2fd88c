import { soldCounts } from '../src/services/catalog/sold-count.js';
import { waitFor } from './support/subscriptions.js';
import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newFreightTemplate, newOperator, newProduct, newShop } from './support/fixtures.js';
import { addToCart, balanceOf, checkoutOk, deliveredOrder, expectLedgerReplays, payOk, placeOrder, shipOk, shopWithProduct, stockOf } from './support/shopping.js';
import { discountShares, itemRefundAmount } from '../src/services/after-sale/refund-amount.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { auditStockAndClose } from './support/inventory-audit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

const FUNDS = { available: 1_000_000, points: 0 };

/** A shop with one product (price 1000, stock 50), its operator and a funded customer. */
async function scene(price = 1000, stock = 50) {
  const { shop, product } = await shopWithProduct(t, [{ price, stock }]);
  const operator = await newOperator(t, shop.id);
  const customer = await newCustomer(t, FUNDS);
  return { shop, product, sku: product.skuIds[0], operator, customer };
}

async function paidOrder(token: string, skuId: number, quantity: number) {
  const order = await placeOrder(t, token, skuId, quantity);
  await payOk(t, token, order.id);
  return order;
}

const ask = (token: string, orderId: number, kind: 'refund' | 'return', items: { order_item_id: number; quantity: number }[], reason = 'Changed my mind') =>
  t.api('POST', `/api/orders/${orderId}/refunds`, { token, body: { kind, reason, items } });

async function askOk(token: string, orderId: number, kind: 'refund' | 'return', items: { order_item_id: number; quantity: number }[]) {
  const res = await ask(token, orderId, kind, items);
  if (res.status !== 201) throw new Error(`refund request failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const act = (token: string, refundId: number, action: 'approve' | 'reject' | 'receive', body: unknown = {}) =>
  t.api('POST', `/api/merchant/refunds/${refundId}/${action}`, { token, body });

/** The money entries of a refund (points taken back are tested in points-earning.test.ts). */
const refundLedger = (refundId: number) =>
  t.sql(`select l.delta, l.reason from ledger_entry l join balance b on b.id = l.balance_id
          where l.reference_type = 'refund' and l.reference_id = ? and b.kind in ('available', 'frozen') order by l.id`, [refundId]);

describe('refund before shipment', () => {
  it('approval credits the money back through the ledger and restores the SKU stock', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 3);
    const afterPay = await balanceOf(t, customer.id, 'available');
    expect(await stockOf(t, sku)).toBe(47);

    const requested = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 2 }]);
    expect(requested).toMatchObject({
      order_id: order.id, kind: 'refund', status: 'requested', amount: 2000, freight_amount: 0, currency: 'CNY', reason: 'Changed my mind',
      items: [{ order_item_id: order.items[0].id, quantity: 2, amount: 2000 }],
    });
    expect(await balanceOf(t, customer.id, 'available')).toBe(afterPay);

    const approved = await act(operator.token, requested.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'completed', decided_at: expect.any(String), completed_at: expect.any(String) });
    expect(await balanceOf(t, customer.id, 'available')).toBe(afterPay + 2000);
    expect(await refundLedger(requested.id)).toEqual([{ delta: '2000', reason: 'refund' }]);
    expect(await stockOf(t, sku)).toBe(49);
    const view = await t.api('GET', `/api/orders/${order.id}`, { token: customer.token });
    expect(view.body).toMatchObject({ status: 'paid', items: [{ refund_quantity: 2, shipped_quantity: 0 }] });
    expect(await expectLedgerReplays(t)).toBeGreaterThan(0);
  });

  it('ships only the units not being refunded; the order ships once the refund is decided', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 3);
    const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);

    const tooMany = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, {
      token: operator.token, body: { company_code: 'sf', tracking_number: 'X', items: [{ order_item_id: order.items[0].id, quantity: 3 }] },
    });
    expect(tooMany.body.error).toMatchObject({ code: 'SHIPMENT_EXCEEDS_ORDER', details: { remaining: 2 } });
    const shipped = await shipOk(t, operator.token, order.id);
    // The open refund might be rejected (its unit would still have to ship): the order stays paid.
    expect(shipped).toMatchObject({ status: 'paid', items: [{ shipped_quantity: 2, refund_quantity: 1 }] });
    const nothingLeft = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'Y' } });
    expect(nothingLeft.body.error.code).toBe('ORDER_NOT_SHIPPABLE');

    await act(operator.token, refund.id, 'approve');
    const after = await t.api('GET', `/api/orders/${order.id}`, { token: customer.token });
    expect(after.body).toMatchObject({ status: 'shipped', shipped_at: expect.any(String) });
  });

  it('gives rejected units back to shipping', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 2);
    const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);
    await shipOk(t, operator.token, order.id);
    expect((await act(operator.token, refund.id, 'reject', {})).status).toBe(400);
    const rejected = await act(operator.token, refund.id, 'reject', { reason: 'Already packed' });
    expect(rejected.body).toMatchObject({ status: 'rejected', reject_reason: 'Already packed' });
    expect((await act(operator.token, refund.id, 'approve')).body.error.code).toBe('REFUND_WRONG_STATE');
    const rest = await shipOk(t, operator.token, order.id);
    expect(rest).toMatchObject({ status: 'shipped', items: [{ shipped_quantity: 2, refund_quantity: 0 }] });
    expect(await refundLedger(refund.id)).toEqual([]);
  });

  it('refunding every unit of an order before shipment returns the freight too and closes the order', async () => {
    const { shop, product, sku, operator, customer } = await scene(1000);
    await newFreightTemplate(t, shop.id, { firstUnitFee: 800, additionalUnitFee: 200 }, [product.id]);
    const before = await balanceOf(t, customer.id, 'available');
    const order = await paidOrder(customer.token, sku, 3);
    expect(order).toMatchObject({ freight_fee: 1200, total: 4200 });
    const first = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);
    const last = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 2 }]);
    expect(last).toMatchObject({ amount: 2000, freight_amount: 0 });
    // The completion that closes the order carries the freight, whichever request it is.
    expect((await act(operator.token, last.id, 'approve')).body).toMatchObject({ amount: 2000, freight_amount: 0 });
    expect((await act(operator.token, first.id, 'approve')).body).toMatchObject({ amount: 1000 + 1200, freight_amount: 1200 });
    expect(await refundLedger(first.id)).toEqual([{ delta: '2200', reason: 'refund' }]);
    expect(await balanceOf(t, customer.id, 'available')).toBe(before);
    const closed = await t.api('GET', `/api/orders/${order.id}`, { token: customer.token });
    expect(closed.body).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
    expect(await stockOf(t, sku)).toBe(50);
    // Nothing was sold in the end: the order leaves sold_count.
    expect((await soldCounts(t.em(), [product.id])).get(product.id)).toBe(0);
    const ship = await t.api('POST', `/api/merchant/orders/${order.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'Z' } });
    expect(ship.body.error.code).toBe('ORDER_NOT_SHIPPABLE');
  });

  it('refuses a refund of an order not paid, or already shipped in full', async () => {
    const { sku, operator, customer } = await scene();
    const pending = await placeOrder(t, customer.token, sku, 1);
    const res = await ask(customer.token, pending.id, 'refund', [{ order_item_id: pending.items[0].id, quantity: 1 }]);
    expect([res.status, res.body.error.code]).toEqual([409, 'ORDER_NOT_REFUNDABLE']);
    const delivered = await deliveredOrder(t, customer.token, operator.token, sku, 1);
    const late = await ask(customer.token, delivered.id, 'refund', [{ order_item_id: delivered.items[0].id, quantity: 1 }]);
    expect(late.body.error).toMatchObject({ code: 'ORDER_NOT_REFUNDABLE', details: { status: 'delivered' } });
    const paid = await paidOrder(customer.token, sku, 1);
    const early = await ask(customer.token, paid.id, 'return', [{ order_item_id: paid.items[0].id, quantity: 1 }]);
    expect([early.status, early.body.error.code]).toEqual([409, 'ORDER_NOT_RETURNABLE']);
  });
});

describe('quantity bound', () => {
  it('is what was bought minus what is refunded or in flight, and shipped units cannot be refunded', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 5);
    const itemId = order.items[0].id;
    await shipOk(t, operator.token, order.id, [{ order_item_id: itemId, quantity: 1 }]);
    const first = await askOk(customer.token, order.id, 'refund', [{ order_item_id: itemId, quantity: 2 }]);
    const over = await ask(customer.token, order.id, 'refund', [{ order_item_id: itemId, quantity: 3 }]);
    expect(over.status).toBe(422);
    expect(over.body.error).toMatchObject({ code: 'REFUND_EXCEEDS_QUANTITY', details: { order_item_id: itemId, requested: 3, available: 2 } });
    // The same item named twice counts once with the summed quantity.
    const twice = await ask(customer.token, order.id, 'refund', [{ order_item_id: itemId, quantity: 2 }, { order_item_id: itemId, quantity: 1 }]);
    expect(twice.body.error.code).toBe('REFUND_EXCEEDS_QUANTITY');
    await act(operator.token, first.id, 'approve');
    await askOk(customer.token, order.id, 'refund', [{ order_item_id: itemId, quantity: 2 }]);
    expect((await ask(customer.token, order.id, 'refund', [{ order_item_id: itemId, quantity: 1 }])).body.error.details.available).toBe(0);
    expect(await t.sql('select refund_quantity, shipped_quantity from order_item where id = ?', [itemId])).toEqual([{ refund_quantity: 4, shipped_quantity: 1 }]);
    expect(await t.sql('select count(*)::int as n from refund where order_id = ?', [order.id])).toEqual([{ n: 2 }]);
  });

  it('holds when many requests race: exactly the bought quantity is granted', async () => {
    const { sku, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 4);
    const itemId = order.items[0].id;
    const results = await Promise.all(Array.from({ length: 12 }, () => ask(customer.token, order.id, 'refund', [{ order_item_id: itemId, quantity: 1 }])));
    expect(results.filter((r) => r.status === 201)).toHaveLength(4);
    expect(results.filter((r) => r.status === 422).every((r) => r.body.error.code === 'REFUND_EXCEEDS_QUANTITY')).toBe(true);
    expect(await t.sql('select refund_quantity from order_item where id = ?', [itemId])).toEqual([{ refund_quantity: 4 }]);
    expect(await t.sql(`select sum(ri.quantity)::int as n from refund_item ri where ri.order_item_id = ?`, [itemId])).toEqual([{ n: 4 }]);
  });

  it('refuses items of another order, and bad input, with nothing changed', async () => {
    const { sku, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 2);
    const other = await paidOrder(customer.token, sku, 1);
    const foreign = await ask(customer.token, order.id, 'refund', [{ order_item_id: other.items[0].id, quantity: 1 }]);
    expect([foreign.status, foreign.body.error.code]).toEqual([422, 'ORDER_ITEM_NOT_IN_ORDER']);
    const item = order.items[0].id;
    for (const body of [
      { kind: 'refund', reason: 'x', items: [] },
      { kind: 'refund', reason: 'x', items: [{ order_item_id: item, quantity: 0 }] },
      { kind: 'refund', reason: 'x', items: [{ order_item_id: item, quantity: 1.5 }] },
      { kind: 'swap', reason: 'x', items: [{ order_item_id: item, quantity: 1 }] },
      { kind: 'refund', reason: ' ', items: [{ order_item_id: item, quantity: 1 }] },
      { kind: 'refund', items: [{ order_item_id: item, quantity: 1 }] },
    ]) {
      const res = await t.api('POST', `/api/orders/${order.id}/refunds`, { token: customer.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await t.sql('select id from refund where order_id = any(?::int[])', [`{${order.id},${other.id}}`])).toEqual([]);
    expect(await t.sql('select refund_quantity from order_item where id = ?', [item])).toEqual([{ refund_quantity: 0 }]);
  });
});

describe('return after delivery', () => {
  it('runs approve, ship back and receive; the money comes back once and the stock is not restocked', async () => {
    const { sku, operator, customer } = await scene();
    const order = await deliveredOrder(t, customer.token, operator.token, sku, 2);
    const afterPay = await balanceOf(t, customer.id, 'available');
    const stock = await stockOf(t, sku);
    const ret = await askOk(customer.token, order.id, 'return', [{ order_item_id: order.items[0].id, quantity: 1 }]);
    expect(ret).toMatchObject({ kind: 'return', status: 'requested', amount: 1000 });

    const early = await act(operator.token, ret.id, 'receive');
    expect([early.status, early.body.error.code]).toEqual([409, 'REFUND_WRONG_STATE']);
    expect((await act(operator.token, ret.id, 'approve')).body).toMatchObject({ status: 'approved', decided_at: expect.any(String) });
    expect(await balanceOf(t, customer.id, 'available')).toBe(afterPay);

    const shipBack = (body: unknown) => t.api('POST', `/api/refunds/${ret.id}/ship-back`, { token: customer.token, body });
    expect((await shipBack({ company_code: 'nope', tracking_number: 'R1' })).body.error.code).toBe('SHIPPING_COMPANY_UNKNOWN');
    expect((await shipBack({ company_code: 'sf' })).status).toBe(400);
    const sent = await shipBack({ company_code: 'zto', tracking_number: 'ZTO-1' });
    expect(sent.body).toMatchObject({ status: 'shipped_back', return_shipment: { company_code: 'zto', carrier: 'ZTO Express', tracking_number: 'ZTO-1', shipped_at: expect.any(String) } });
    expect((await t.api('POST', `/api/refunds/${ret.id}/cancel`, { token: customer.token })).body.error.code).toBe('REFUND_WRONG_STATE');

    const received = await act(operator.token, ret.id, 'receive');
    expect(received.body).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    expect(await balanceOf(t, customer.id, 'available')).toBe(afterPay + 1000);
    expect(await refundLedger(ret.id)).toEqual([{ delta: '1000', reason: 'refund' }]);
    expect(await stockOf(t, sku)).toBe(stock);
    expect((await t.api('GET', `/api/orders/${order.id}`, { token: customer.token })).body).toMatchObject({ status: 'delivered', items: [{ refund_quantity: 1 }] });
    // The second unit can still be returned; the first cannot again.
    const over = await ask(customer.token, order.id, 'return', [{ order_item_id: order.items[0].id, quantity: 2 }]);
    expect(over.body.error.details).toMatchObject({ available: 1 });
  });

  it('can be withdrawn before it is sent back, freeing the units', async () => {
    const { sku, operator, customer } = await scene();
    const order = await deliveredOrder(t, customer.token, operator.token, sku, 1);
    const ret = await askOk(customer.token, order.id, 'return', [{ order_item_id: order.items[0].id, quantity: 1 }]);
    await act(operator.token, ret.id, 'approve');
    const cancelled = await t.api('POST', `/api/refunds/${ret.id}/cancel`, { token: customer.token });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect((await t.api('POST', `/api/refunds/${ret.id}/cancel`, { token: customer.token })).status).toBe(200);
    expect(await t.sql('select refund_quantity from order_item where id = ?', [order.items[0].id])).toEqual([{ refund_quantity: 0 }]);
    await askOk(customer.token, order.id, 'return', [{ order_item_id: order.items[0].id, quantity: 1 }]);
  });

  it('has no ship-back or receipt for a money-only refund', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 1);
    const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);
    expect((await t.api('POST', `/api/refunds/${refund.id}/ship-back`, { token: customer.token, body: { company_code: 'sf', tracking_number: '1' } })).body.error.code).toBe('REFUND_WRONG_STATE');
    expect((await act(operator.token, refund.id, 'receive')).body.error.code).toBe('REFUND_WRONG_STATE');
  });
});

describe('exactly-once completion', () => {
  it('credits once when twelve approvals of a refund race, and the ledger replays to the balance', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 3);
    const afterPay = await balanceOf(t, customer.id, 'available');
    const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 3 }]);
    const results = await Promise.all(Array.from({ length: 12 }, () => act(operator.token, refund.id, 'approve')));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(results.every((r) => r.body.status === 'completed')).toBe(true);
    expect(await refundLedger(refund.id)).toEqual([{ delta: '3000', reason: 'refund' }]);
    expect(await balanceOf(t, customer.id, 'available')).toBe(afterPay + 3000);
    expect(await stockOf(t, sku)).toBe(50);
    await expectLedgerReplays(t);
  });

  it('credits once when receipts of a return race', async () => {
    const { sku, operator, customer } = await scene();
    const order = await deliveredOrder(t, customer.token, operator.token, sku, 2);
    const afterPay = await balanceOf(t, customer.id, 'available');
    const ret = await askOk(customer.token, order.id, 'return', [{ order_item_id: order.items[0].id, quantity: 2 }]);
    await act(operator.token, ret.id, 'approve');
    await t.api('POST', `/api/refunds/${ret.id}/ship-back`, { token: customer.token, body: { company_code: 'sf', tracking_number: 'SF-R' } });
    const results = await Promise.all(Array.from({ length: 12 }, () => act(operator.token, ret.id, 'receive')));
    expect(results.every((r) => r.status === 200 && r.body.status === 'completed')).toBe(true);
    expect(await refundLedger(ret.id)).toEqual([{ delta: '2000', reason: 'refund' }]);
    expect(await balanceOf(t, customer.id, 'available')).toBe(afterPay + 2000);
    await expectLedgerReplays(t);
  });

  it('lets exactly one of a racing approval and rejection win', async () => {
    const { sku, operator, customer } = await scene();
    for (let round = 0; round < 5; round++) {
      const order = await paidOrder(customer.token, sku, 1);
      const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);
      const [approve, reject] = await Promise.all([act(operator.token, refund.id, 'approve'), act(operator.token, refund.id, 'reject', { reason: 'no' })]);
      const [row] = await t.sql('select status from refund where id = ?', [refund.id]);
      const credited = (await refundLedger(refund.id)).length;
      if (row.status === 'completed') expect([approve.status, reject.status, credited]).toEqual([200, 409, 1]);
      else expect([row.status, approve.status, reject.status, credited]).toEqual(['rejected', 409, 200, 0]);
    }
  });
});

describe('amount rule', () => {
  it('shares the discount over the items by amount, to the cent', () => {
    const items = [
      { id: 1, unitPrice: 1000, quantity: 3, amount: 3000 },
      { id: 2, unitPrice: 500, quantity: 1, amount: 500 },
      { id: 3, unitPrice: 250, quantity: 2, amount: 500 },
    ];
    const shares = discountShares(items, 1001);
    expect([...shares.values()].reduce((a, b) => a + b, 0)).toBe(1001);
    expect(Object.fromEntries(shares)).toEqual({ 1: 751, 2: 125, 3: 125 });
    expect(discountShares(items, 0).get(1)).toBe(0);
    // Partial refunds of an item never add up to more than its paid amount, and all of them reach it.
    const item = items[0];
    const share = shares.get(1)!;
    const parts = [1, 1, 1].map((q) => itemRefundAmount(item, share, q));
    expect(parts).toEqual([749, 749, 749]);
    expect(itemRefundAmount(item, share, 3)).toBe(3000 - 751);
    expect(parts.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000 - 751);
    expect(itemRefundAmount({ id: 9, unitPrice: 2_000_000_000, quantity: 1, amount: 2_000_000_000 }, 1_999_999_999, 1)).toBe(1);
  });

  it('refunds an order with a discount: the lines share it, and the whole order refunds exactly what was paid', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 1000, stock: 10 }, { price: 500, stock: 10 }] });
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, FUNDS);
    const before = await balanceOf(t, customer.id, 'available');
    await addToCart(t, customer.token, product.skuIds[0], 3);
    await addToCart(t, customer.token, product.skuIds[1], 1);
    const [order] = await checkoutOk(t, customer.token);
    // A discount as a coupon would leave it (items 3500, discount 700).
    await t.sql('update shop_order set discount = 700, total = items_total - 700 + freight_fee where id = ?', [order.id]);
    await payOk(t, customer.token, order.id);
    const [big, small] = order.items;
    const one = await askOk(customer.token, order.id, 'refund', [{ order_item_id: big.id, quantity: 1 }]);
    expect(one.amount).toBe(1000 - 200);
    const rest = await askOk(customer.token, order.id, 'refund', [{ order_item_id: big.id, quantity: 2 }, { order_item_id: small.id, quantity: 1 }]);
    expect(rest.items.map((i: any) => i.amount)).toEqual([2000 - 400, 500 - 100]);
    await act(operator.token, one.id, 'approve');
    await act(operator.token, rest.id, 'approve');
    expect(await balanceOf(t, customer.id, 'available')).toBe(before);
    expect((await t.api('GET', `/api/orders/${order.id}`, { token: customer.token })).body).toMatchObject({ status: 'cancelled', cancel_reason: 'refunded' });
  });
});

describe('access', () => {
  it("hides another customer's refund (404) and another shop's (404), and checks roles", async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 2);
    const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);
    const stranger = await newCustomer(t);
    expect((await t.api('GET', `/api/refunds/${refund.id}`, { token: stranger.token })).status).toBe(404);
    expect((await t.api('POST', `/api/refunds/${refund.id}/cancel`, { token: stranger.token })).status).toBe(404);
    expect((await t.api('POST', `/api/refunds/${refund.id}/ship-back`, { token: stranger.token, body: { company_code: 'sf', tracking_number: '1' } })).status).toBe(404);
    expect((await ask(stranger.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }])).status).toBe(404);
    expect((await t.api('GET', '/api/me/refunds', { token: stranger.token })).body.total).toBe(0);

    const other = await shopWithProduct(t);
    const otherOperator = await newOperator(t, other.shop.id);
    for (const action of ['approve', 'reject', 'receive'] as const) {
      expect((await act(otherOperator.token, refund.id, action, { reason: 'x' })).status).toBe(404);
    }
    expect((await t.api('GET', `/api/merchant/refunds/${refund.id}`, { token: otherOperator.token })).status).toBe(404);
    expect((await t.api('GET', '/api/merchant/refunds', { token: otherOperator.token })).body.total).toBe(0);
    expect((await act(customer.token, refund.id, 'approve')).status).toBe(403);
    expect((await t.api('GET', '/api/me/refunds', { token: operator.token })).status).toBe(403);
    expect((await t.api('GET', '/api/me/refunds')).status).toBe(401);
    expect(await t.sql('select status from refund where id = ?', [refund.id])).toEqual([{ status: 'requested' }]);

    expect((await t.api('GET', `/api/refunds/${refund.id}`, { token: customer.token })).body.id).toBe(refund.id);
    const mine = await t.api('GET', '/api/me/refunds?status=requested', { token: customer.token });
    expect(mine.body).toMatchObject({ total: 1, items: [{ id: refund.id }] });
    const shopList = await t.api('GET', '/api/merchant/refunds?kind=refund', { token: operator.token });
    expect(shopList.body).toMatchObject({ total: 1, items: [{ id: refund.id, customer_id: customer.id }] });
    expect((await t.api('GET', '/api/merchant/refunds?status=nope', { token: operator.token })).status).toBe(400);
  });

  it('emits refund events to the shop and the customer after commit', async () => {
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    try {
      const { shop, sku, operator, customer } = await scene();
      const order = await paidOrder(customer.token, sku, 1);
      const refund = await askOk(customer.token, order.id, 'refund', [{ order_item_id: order.items[0].id, quantity: 1 }]);
      await act(operator.token, refund.id, 'approve');
      await act(operator.token, refund.id, 'approve');
      await waitFor(() => seen.some((e) => e.type === 'refund.completed' && e.customerId === customer.id));
      const mine = seen.filter((e) => e.type.startsWith('refund.') && e.customerId === customer.id);
      expect(mine.map((e) => [e.type, e.shopIds, 'refundId' in e.payload ? e.payload.refundId : null])).toEqual([
        ['refund.requested', [shop.id], refund.id],
        ['refund.completed', [shop.id], refund.id],
      ]);
    } finally {
      stop();
    }
  });
});

describe('GraphQL door', () => {
  it('requests, approves and lists refunds through the same rules', async () => {
    const { sku, operator, customer } = await scene();
    const order = await paidOrder(customer.token, sku, 2);
    const refund = 'refund { id kind status amount items { orderItemId quantity } }';
    const orderItemId = order.items[0].id;
    const created = await mutate(t, 'requestRefund', { orderId: order.id, kind: 'REFUND', reason: 'Too many', items: [{ orderItemId, quantity: 1 }] }, refund, customer.token);
    expect(created.errors).toBeUndefined();
    expect(created.payload.refund).toMatchObject({ kind: 'REFUND', status: 'REQUESTED', amount: 1000 });
    const over = await mutate(t, 'requestRefund', { orderId: order.id, kind: 'REFUND', reason: 'More', items: [{ orderItemId, quantity: 2 }] }, refund, customer.token);
    expect(over.userErrors).toEqual([
      { code: 'REFUND_EXCEEDS_QUANTITY', message: expect.any(String), field: null, details: expect.objectContaining({ orderItemId, requested: 2, available: 1 }) },
    ]);
    const id = created.payload.refund.id;
    const approved = await mutate(t, 'approveRefund', { refundId: id }, 'refund { status completedAt }', operator.token);
    expect(approved.payload.refund.status).toBe('COMPLETED');
    const rejectLate = await mutate(t, 'rejectRefund', { refundId: id, reason: 'Too late' }, 'refund { status }', operator.token);
    expect(rejectLate.userErrors.map((e) => [e.code, e.details?.status, e.details?.expected])).toEqual([['REFUND_WRONG_STATE', 'COMPLETED', ['REQUESTED']]]);
    const mine = await t.gql(`{ myRefunds { total items { id status } } }`, {}, customer.token);
    expect(mine.data.myRefunds).toEqual({ total: 1, items: [{ id, status: 'COMPLETED' }] });
    const stranger = await newCustomer(t);
    expect((await t.gql(`query($id: Int!) { refund(id: $id) { id } }`, { id }, stranger.token)).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
