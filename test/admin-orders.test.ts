import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, type TestUser } from './support/fixtures.js';
import { payOk, placeOrder, shipOk, shopWithProduct } from './support/shopping.js';

/**
 * Orders across every shop for the platform (issue 41, item 4): search by order id, customer (id or
 * email), shop and status, paged, each with the views the customer and the shop read: the order with
 * its shipments, its payments, its refunds.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await newAdmin(t);
});
afterAll(() => t.close());

const FUNDS = { available: 1_000_000, points: 0 };
const search = (query: string, token = admin.token) => t.api('GET', `/api/admin/orders?${query}`, { token });
const ids = (res: { body: { items: { order: { id: number } }[] } }) => res.body.items.map((i) => i.order.id);

/** Two shops; one customer with a paid, shipped and partly refunded order in the first and a pending one in the second. */
async function scene() {
  const first = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
  const second = await shopWithProduct(t, [{ price: 500, stock: 20 }]);
  const operator = await newOperator(t, first.shop.id);
  const customer = await newCustomer(t, FUNDS);
  const shipped = await placeOrder(t, customer.token, first.product.skuIds[0], 3);
  await payOk(t, customer.token, shipped.id);
  const refund = await t.api('POST', `/api/orders/${shipped.id}/refunds`, {
    token: customer.token, body: { kind: 'refund', reason: 'One too many', items: [{ order_item_id: shipped.items[0].id, quantity: 1 }] },
  });
  await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: operator.token, body: {} });
  await shipOk(t, operator.token, shipped.id);
  const pending = await placeOrder(t, customer.token, second.product.skuIds[0], 1);
  return { first, second, customer, shipped, pending, refundId: refund.body.id as number };
}

it("an order of any shop comes with its shipments, its payments and its refunds, as its customer's and shop's views show them", async () => {
  const s = await scene();
  const one = await t.api('GET', `/api/admin/orders/${s.shipped.id}`, { token: admin.token });
  expect(one.status).toBe(200);
  expect(one.body.order).toEqual((await t.api('GET', `/api/orders/${s.shipped.id}`, { token: s.customer.token })).body);
  expect(one.body.order.shipments).toHaveLength(1);
  expect(one.body.payments).toEqual((await t.api('GET', `/api/orders/${s.shipped.id}/payments`, { token: s.customer.token })).body.items);
  expect(one.body.payments).toMatchObject([{ method: 'wallet', status: 'captured', paid_this_order: true, refunds: [{ refund_id: s.refundId, amount: 1000 }] }]);
  expect(one.body.refunds).toMatchObject([{ id: s.refundId, status: 'completed', amount: 1000 }]);
  // Who placed it, by name and email (the platform finds customers by them).
  const [customer] = await t.sql<{ email: string; display_name: string }>('select email, display_name from app_user where id = ?', [s.customer.id]);
  expect(one.body.customer).toEqual({ id: s.customer.id, email: customer.email, display_name: customer.display_name });
  const gql = await t.gql('query($id: Int!) { adminOrder(id: $id) { customer { id email displayName } } }', { id: s.shipped.id }, admin.token);
  expect(gql.data.adminOrder.customer).toEqual({ id: s.customer.id, email: customer.email, displayName: customer.display_name });
  const pending = (await t.api('GET', `/api/admin/orders/${s.pending.id}`, { token: admin.token })).body;
  expect(pending).toMatchObject({ order: { id: s.pending.id, status: 'pending_payment', shipments: [] }, payments: [], refunds: [] });
});

it('searches by order id, customer id or email, shop and status, newest first and paged', async () => {
  const s = await scene();
  const other = await newCustomer(t, FUNDS);
  const theirs = await placeOrder(t, other.token, s.first.product.skuIds[0], 1);

  expect(ids(await search(`order_id=${s.shipped.id}`))).toEqual([s.shipped.id]);
  expect(ids(await search(`customer_id=${s.customer.id}`))).toEqual([s.pending.id, s.shipped.id]);
  expect(ids(await search(`customer_email=${encodeURIComponent(s.customer.email.toUpperCase())}`))).toEqual([s.pending.id, s.shipped.id]);
  expect(ids(await search(`shop_id=${s.first.shop.id}`))).toEqual([theirs.id, s.shipped.id]);
  expect(ids(await search(`shop_id=${s.first.shop.id}&status=pending_payment`))).toEqual([theirs.id]);
  expect(ids(await search(`customer_id=${s.customer.id}&status=shipped`))).toEqual([s.shipped.id]);
  expect(ids(await search(`customer_id=${s.customer.id}&shop_id=${s.second.shop.id}`))).toEqual([s.pending.id]);
  expect(ids(await search('customer_email=nobody%40example.test'))).toEqual([]);
  const paged = await search(`shop_id=${s.first.shop.id}&page_size=1&page=2`);
  expect(paged.body).toMatchObject({ total: 2, page: 2, page_size: 1 });
  expect(ids(paged)).toEqual([s.shipped.id]);
  const all = await search('page_size=100');
  expect(ids(all).slice(0, 2)).toEqual([theirs.id, s.pending.id]);
});

it('sorts by total both ways, or oldest first, the same over both doors', async () => {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
  const customer = await newCustomer(t, FUNDS);
  // Placed out of total order: 2,000, then 1,000, then 3,000.
  const [two, one, three] = [await placeOrder(t, customer.token, product.skuIds[0], 2), await placeOrder(t, customer.token, product.skuIds[0], 1), await placeOrder(t, customer.token, product.skuIds[0], 3)];
  const sorted = async (sort: string) => ids(await search(`customer_id=${customer.id}${sort ? `&sort=${sort}` : ''}`));
  expect(await sorted('')).toEqual([three.id, one.id, two.id]);
  expect(await sorted('oldest')).toEqual([two.id, one.id, three.id]);
  expect(await sorted('total_asc')).toEqual([one.id, two.id, three.id]);
  expect(await sorted('total_desc')).toEqual([three.id, two.id, one.id]);
  // With the shop's own filter too (its index within one shop).
  expect(ids(await search(`shop_id=${shop.id}&sort=total_asc`))).toEqual([one.id, two.id, three.id]);
  const res = await t.gql(`query($c: Int) { adminOrders(customerId: $c, sort: TOTAL_ASC) { items { order { id total } } } }`, { c: customer.id }, admin.token);
  expect(res.data.adminOrders.items.map((i: { order: { id: number } }) => i.order.id)).toEqual([one.id, two.id, three.id]);
});

it('answers bad input and wrong callers clearly, never a 500', async () => {
  const customer = await newCustomer(t);
  for (const query of ['status=lost', 'order_id=abc', 'customer_id=0', 'customer_email=not-an-email', 'page_size=101', 'sort=cheapest', 'sort=name_asc']) {
    const res = await search(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  }
  expect((await search('', customer.token)).status).toBe(403);
  expect((await t.api('GET', '/api/admin/orders')).status).toBe(401);
  expect((await t.api('GET', '/api/admin/orders/2000000000', { token: admin.token })).body.error).toMatchObject({ code: 'NOT_FOUND', details: { order_id: 2_000_000_000 } });
});

it('answers the same over GraphQL', async () => {
  const s = await scene();
  const res = await t.gql(
    `query($c: Int) { adminOrders(customerId: $c, status: SHIPPED) { total items { order { id status shipments { id } } payments { method refunds { refundId } } refunds { id status } } } }`,
    { c: s.customer.id },
    admin.token,
  );
  expect(res.data.adminOrders.total).toBe(1);
  expect(res.data.adminOrders.items[0]).toMatchObject({
    order: { id: s.shipped.id, status: 'SHIPPED' }, payments: [{ method: 'WALLET', refunds: [{ refundId: s.refundId }] }], refunds: [{ id: s.refundId, status: 'COMPLETED' }],
  });
  const one = await t.gql(`query($id: Int!) { adminOrder(id: $id) { order { id } } }`, { id: s.pending.id }, admin.token);
  expect(one.data.adminOrder).toEqual({ order: { id: s.pending.id } });
  const denied = await t.gql(`{ adminOrders { total } }`, undefined, s.customer.token);
  expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});
