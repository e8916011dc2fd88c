import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator } from './support/fixtures.js';
import { balanceOf, deliverOk, expectLedgerReplays, payOk, placeOrder, shipOk, shopWithProduct } from './support/shopping.js';
import { creditPointsForDeliveredOrder, pointsForAmountPaid } from '../src/services/points/points-earning.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const pointsOf = (userId: number) => balanceOf(t, userId, 'points');
const earnedEntries = (orderId: number) =>
  t.sql(
    `select b.user_id, l.delta::int as delta, l.balance_after::int as balance_after from ledger_entry l join balance b on b.id = l.balance_id
      where l.reason = 'points_earned' and l.reference_type = 'order' and l.reference_id = ?`,
    [orderId],
  );
const credit = (order: { userId: number; orderId: number; amountPaid: number }) =>
  t.em().transactional((em) => creditPointsForDeliveredOrder(em, order));

let nextOrderId = 1000;

describe('earning points on delivered orders', () => {
  it('earns 1 point per whole yuan paid, dropping the fraction', () => {
    expect(pointsForAmountPaid(0)).toBe(0);
    expect(pointsForAmountPaid(99)).toBe(0);
    expect(pointsForAmountPaid(100)).toBe(1);
    expect(pointsForAmountPaid(12_345)).toBe(123);
    expect(() => pointsForAmountPaid(-1)).toThrow();
    expect(() => pointsForAmountPaid(1.5)).toThrow();
  });

  it('credits the points with a ledger entry referencing the order', async () => {
    const customer = await newCustomer(t, { available: 0, points: 10 });
    const orderId = ++nextOrderId;
    expect(await credit({ userId: customer.id, orderId, amountPaid: 25_999 })).toBe(259);
    expect(await pointsOf(customer.id)).toBe(269);
    expect(await earnedEntries(orderId)).toEqual([{ user_id: customer.id, delta: 259, balance_after: 269 }]);
  });

  it('credits an order once however often it is called', async () => {
    const customer = await newCustomer(t);
    const orderId = ++nextOrderId;
    expect(await credit({ userId: customer.id, orderId, amountPaid: 5_000 })).toBe(50);
    expect(await credit({ userId: customer.id, orderId, amountPaid: 5_000 })).toBe(0);
    expect(await pointsOf(customer.id)).toBe(50);
    expect(await earnedEntries(orderId)).toHaveLength(1);
  });

  it('credits an order once when called 10 times concurrently', async () => {
    const customer = await newCustomer(t);
    const orderId = ++nextOrderId;
    const results = await Promise.all(Array.from({ length: 10 }, () => credit({ userId: customer.id, orderId, amountPaid: 30_000 })));
    expect(results.sort((a, b) => b - a)).toEqual([300, ...Array(9).fill(0)]);
    expect(await pointsOf(customer.id)).toBe(300);
    expect(await earnedEntries(orderId)).toHaveLength(1);
    await expectLedgerReplays(t);
  });

  it('writes nothing for an order paid under one yuan', async () => {
    const customer = await newCustomer(t);
    const orderId = ++nextOrderId;
    expect(await credit({ userId: customer.id, orderId, amountPaid: 99 })).toBe(0);
    expect(await earnedEntries(orderId)).toEqual([]);
    expect(await pointsOf(customer.id)).toBe(0);
  });

  it('refuses a second points credit for one order in the database itself', async () => {
    const customer = await newCustomer(t);
    const orderId = ++nextOrderId;
    await credit({ userId: customer.id, orderId, amountPaid: 1_000 });
    await expect(
      t.sql(
        `insert into ledger_entry (balance_id, delta, balance_after, reason, reference_type, reference_id, created_at)
         select id, 10, amount + 10, 'points_earned', 'order', ?, now() from balance where user_id = ? and kind = 'points'`,
        [orderId, customer.id],
      ),
    ).rejects.toThrow(/ledger_entry_one_points_credit_per_order/);
  });

  it('credits the points when the customer confirms delivery, once', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 12_345, stock: 5 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
    await payOk(t, customer.token, order.id);
    expect(await pointsOf(customer.id)).toBe(0);
    await shipOk(t, operator.token, order.id);
    expect(await pointsOf(customer.id)).toBe(0);

    expect((await deliverOk(t, customer.token, order.id)).status).toBe('delivered');
    expect(await pointsOf(customer.id)).toBe(246);
    expect(await earnedEntries(order.id)).toEqual([{ user_id: customer.id, delta: 246, balance_after: 246 }]);

    const again = await t.api('POST', `/api/orders/${order.id}/confirm-delivery`, { token: customer.token });
    expect(again.status).toBe(200);
    expect(await pointsOf(customer.id)).toBe(246);
    expect(await earnedEntries(order.id)).toHaveLength(1);
  });
});

describe('points and refunds', () => {
  const post = (path: string, token: string, body: unknown = {}) => t.api('POST', path, { token, body });

  it('earns only on what is left paid when units were refunded before delivery', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 10_000, stock: 5 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0], 3);
    await payOk(t, customer.token, order.id);
    const refund = await post(`/api/orders/${order.id}/refunds`, customer.token, { kind: 'refund', reason: 'Too many', items: [{ order_item_id: order.items[0].id, quantity: 2 }] });
    expect(refund.status).toBe(201);
    expect((await post(`/api/merchant/refunds/${refund.body.id}/approve`, operator.token)).body.status).toBe('completed');
    await shipOk(t, operator.token, order.id);
    await deliverOk(t, customer.token, order.id);
    expect(await pointsOf(customer.id)).toBe(100);
  });

  it('takes the points of a returned delivered order back, never below zero', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 10_000, stock: 5 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
    await payOk(t, customer.token, order.id);
    await shipOk(t, operator.token, order.id);
    await deliverOk(t, customer.token, order.id);
    expect(await pointsOf(customer.id)).toBe(200);

    const ret = async (quantity: number) => {
      const r = await post(`/api/orders/${order.id}/refunds`, customer.token, { kind: 'return', reason: 'Broken', items: [{ order_item_id: order.items[0].id, quantity }] });
      expect(r.status).toBe(201);
      await post(`/api/merchant/refunds/${r.body.id}/approve`, operator.token);
      await post(`/api/refunds/${r.body.id}/ship-back`, customer.token, { company_code: 'sf', tracking_number: `R${r.body.id}` });
      expect((await post(`/api/merchant/refunds/${r.body.id}/receive`, operator.token)).body.status).toBe('completed');
    };
    await ret(1);
    expect(await pointsOf(customer.id)).toBe(100);
    // The customer spends points meanwhile: the second return takes back only what is left.
    await t.em().transactional((em) => import('../src/services/accounts/ledger.service.js').then(({ debitPoints }) =>
      debitPoints(em, { userId: customer.id, amount: 60, reason: 'redemption' })));
    await ret(1);
    expect(await pointsOf(customer.id)).toBe(0);
    await expectLedgerReplays(t);
  });
});
