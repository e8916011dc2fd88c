import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator } from './support/fixtures.js';
import { payOk, placeOrder, shipOk, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TODAY = `query($timeZone: String, $shopId: Int) {
  operationsToday(timeZone: $timeZone, shopId: $shopId) {
    shopId timeZone since currency ordersPlaced ordersPaid paidAmount ordersCancelled awaitingShipment refundsRequested refundsOpen
  }
}`;
const AWAITING = `query($shopId: Int) { ordersAwaitingShipment(shopId: $shopId) { total items { id status shop { id } items { id } } } }`;

describe('operations reads', () => {
  it("counts today's orders of the operator's own shop, and of every shop for an admin, the same over REST and GraphQL", async () => {
    const a = await shopWithProduct(t, [{ price: 1500, stock: 50 }]);
    const b = await shopWithProduct(t, [{ price: 700, stock: 50 }]);
    const opA = await newOperator(t, a.shop.id);
    const opB = await newOperator(t, b.shop.id);
    const admin = await newAdmin(t);
    const buyer = await newCustomer(t, { available: 100_000, points: 0 });

    const paidA = await placeOrder(t, buyer.token, a.product.skuIds[0], 2);
    await payOk(t, buyer.token, paidA.id);
    const shippedA = await placeOrder(t, buyer.token, a.product.skuIds[0]);
    await payOk(t, buyer.token, shippedA.id);
    await shipOk(t, opA.token, shippedA.id);
    const cancelledA = await placeOrder(t, buyer.token, a.product.skuIds[0]);
    expect((await t.api('POST', `/api/orders/${cancelledA.id}/cancel`, { token: buyer.token })).status).toBe(200);
    const refundA = await placeOrder(t, buyer.token, a.product.skuIds[0]);
    await payOk(t, buyer.token, refundA.id);
    const refund = await t.api('POST', `/api/orders/${refundA.id}/refunds`, {
      token: buyer.token,
      body: { kind: 'refund', reason: 'changed my mind', items: [{ order_item_id: refundA.items[0].id, quantity: 1 }] },
    });
    expect(refund.status).toBe(201);
    const paidB = await placeOrder(t, buyer.token, b.product.skuIds[0]);
    await payOk(t, buyer.token, paidB.id);

    const rest = await t.api('GET', '/api/ops/today?time_zone=Asia/Shanghai', { token: opA.token });
    expect(rest.status).toBe(200);
    expect(rest.body).toMatchObject({
      shop_id: a.shop.id, time_zone: 'Asia/Shanghai', currency: 'CNY',
      orders_placed: 4, orders_paid: 3, paid_amount: 3000 + 1500 + 1500, orders_cancelled: 1,
      awaiting_shipment: 2, refunds_requested: 1, refunds_open: 1,
    });
    expect(Date.parse(rest.body.since)).toBeLessThanOrEqual(Date.now());
    expect(Date.now() - Date.parse(rest.body.since)).toBeLessThan(24 * 3600 * 1000);

    const gql = await t.gql(TODAY, { timeZone: 'Asia/Shanghai' }, opA.token);
    expect(gql.errors).toBeUndefined();
    expect(gql.data.operationsToday).toMatchObject({ shopId: a.shop.id, ordersPlaced: 4, ordersPaid: 3, paidAmount: 6000, awaitingShipment: 2 });

    const opBView = await t.api('GET', '/api/ops/today', { token: opB.token });
    expect(opBView.body).toMatchObject({ shop_id: b.shop.id, time_zone: 'UTC', orders_placed: 1, orders_paid: 1, paid_amount: 700, refunds_open: 0 });

    // An admin sees every shop (other test files' databases are separate, this one has only these).
    const all = await t.api('GET', '/api/ops/today', { token: admin.token });
    expect(all.body).toMatchObject({ orders_placed: 5, orders_paid: 4, paid_amount: 6700, awaiting_shipment: 3 });
    expect(all.body.shop_id).toBeNull();
    const onlyB = await t.gql(TODAY, { shopId: b.shop.id }, admin.token);
    expect(onlyB.data.operationsToday).toMatchObject({ shopId: b.shop.id, ordersPlaced: 1 });
  });

  it('lists the paid orders waiting for shipment, oldest first, scoped by role', async () => {
    const a = await shopWithProduct(t, [{ price: 100, stock: 50 }]);
    const b = await shopWithProduct(t, [{ price: 100, stock: 50 }]);
    const opA = await newOperator(t, a.shop.id);
    const admin = await newAdmin(t);
    const buyer = await newCustomer(t, { available: 10_000, points: 0 });
    const first = await placeOrder(t, buyer.token, a.product.skuIds[0]);
    await payOk(t, buyer.token, first.id);
    const second = await placeOrder(t, buyer.token, a.product.skuIds[0]);
    await payOk(t, buyer.token, second.id);
    await placeOrder(t, buyer.token, a.product.skuIds[0]); // unpaid: not waiting
    const other = await placeOrder(t, buyer.token, b.product.skuIds[0]);
    await payOk(t, buyer.token, other.id);

    const mine = await t.api('GET', '/api/ops/awaiting-shipment', { token: opA.token });
    expect(mine.status).toBe(200);
    expect(mine.body.items.map((o: any) => o.id)).toEqual([first.id, second.id]);
    expect(mine.body.items[0]).toMatchObject({ status: 'paid', shop: { id: a.shop.id } });

    const gql = await t.gql(AWAITING, {}, admin.token);
    expect(gql.data.ordersAwaitingShipment.items.map((o: any) => o.id)).toEqual(expect.arrayContaining([first.id, second.id, other.id]));
    const onlyB = await t.gql(AWAITING, { shopId: b.shop.id }, admin.token);
    expect(onlyB.data.ordersAwaitingShipment.items.map((o: any) => o.id)).toEqual([other.id]);

    // Batched: the page and its orders' items cost a constant number of statements.
    t.resetQueryLog();
    await t.api('GET', '/api/ops/awaiting-shipment?page_size=100', { token: admin.token });
    expect(t.queries.filter((q) => /shop_order/.test(q)).length).toBeLessThanOrEqual(2);
  });

  it('refuses customers, anonymous callers, another shop, and an unknown time zone', async () => {
    const a = await shopWithProduct(t);
    const b = await shopWithProduct(t);
    const opA = await newOperator(t, a.shop.id);
    const customer = await newCustomer(t);
    expect((await t.api('GET', '/api/ops/today')).status).toBe(401);
    expect((await t.api('GET', '/api/ops/today', { token: customer.token })).body.error.code).toBe('FORBIDDEN');
    expect((await t.api('GET', '/api/ops/awaiting-shipment', { token: customer.token })).status).toBe(403);
    const foreign = await t.api('GET', `/api/ops/awaiting-shipment?shop_id=${b.shop.id}`, { token: opA.token });
    expect(foreign.status).toBe(404);
    expect((await t.api('GET', `/api/ops/today?shop_id=${a.shop.id}`, { token: opA.token })).status).toBe(200);
    const badZone = await t.api('GET', '/api/ops/today?time_zone=Mars/Olympus', { token: opA.token });
    expect(badZone.status).toBe(400);
    expect(badZone.body.error.code).toBe('VALIDATION_FAILED');
    const gql = await t.gql(TODAY, {}, customer.token);
    expect(gql.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
