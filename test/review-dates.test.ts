import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator } from './support/fixtures.js';
import { deliveredOrder, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** Found by the storefront: a product page asking for reviews' dates got INTERNAL_SERVER_ERROR. */
describe('review dates over GraphQL', () => {
  it('serializes createdAt and the reply date of public reviews', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const operator = await newOperator(t, shop.id);
    const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
    const review = await t.api('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, { token: customer.token, body: { rating: 4, text: 'Good' } });
    expect(review.status).toBe(201);
    expect((await t.api('POST', `/api/merchant/reviews/${review.body.id}/reply`, { token: operator.token, body: { text: 'Thanks' } })).status).toBe(200);
    const res = await t.gql(`query($id: Int!) { productReviews(productId: $id) { items { createdAt reply { repliedAt } } } }`, { id: product.id });
    expect(res.errors).toBeUndefined();
    const [item] = res.data.productReviews.items;
    expect(Date.parse(item.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect(item.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect(Date.parse(item.reply.repliedAt)).toBeGreaterThan(Date.now() - 60_000);
  });
});
