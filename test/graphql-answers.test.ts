import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator } from './support/fixtures.js';
import { ADDRESS, addToCart, GRAPHQL_ADDRESS, placeOrder, shopWithProduct } from './support/shopping.js';
import { mutate } from './support/graphql.js';

/**
 * How GraphQL answers as a whole (docs/api.md, GraphQL conventions): a missing object nulls its own
 * field only; a mutation's refusal of its input is typed in its payload with the code and details
 * REST gives; the caller's token and role stay top-level.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const PRODUCT_PAGE = `query($id: Int!) {
  currency { code }
  product(id: $id) { id name }
  productReviews(productId: $id) { total }
  products(pageSize: 2) { total hasNextPage items { id } }
}`;

describe('a page query with a missing object', () => {
  it('answers the rest: the missing product and its reviews are null, each with NOT_FOUND at its own path', async () => {
    await shopWithProduct(t);
    await shopWithProduct(t);
    await shopWithProduct(t);
    const res = await t.gql(PRODUCT_PAGE, { id: 999_999 });
    expect(res.status).toBe(200);
    expect(res.data.currency).toEqual({ code: 'CNY' });
    expect(res.data.product).toBeNull();
    expect(res.data.productReviews).toBeNull();
    expect(res.data.products).toEqual({ total: expect.any(Number), hasNextPage: true, items: [{ id: expect.any(Number) }, { id: expect.any(Number) }] });
    expect(res.errors?.map((e) => [e.path.join('.'), e.extensions.code]).sort()).toEqual([['product', 'NOT_FOUND'], ['productReviews', 'NOT_FOUND']]);
  });

  it("answers another customer's order exactly as a missing one, and the rest of the page", async () => {
    const { product } = await shopWithProduct(t);
    const owner = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, owner.token, product.skuIds[0]);
    const stranger = await newCustomer(t);
    const query = `query($id: Int!) { myStats { available } order(id: $id) { id } }`;
    const theirs = await t.gql(query, { id: order.id }, stranger.token);
    const none = await t.gql(query, { id: 999_999 }, stranger.token);
    expect(theirs.data).toEqual({ myStats: { available: 0 }, order: null });
    const strip = (errors: any[] | undefined) => errors?.map((e) => ({ message: e.message, path: e.path, code: e.extensions.code }));
    expect(strip(theirs.errors)).toEqual([{ message: 'Order not found', path: ['order'], code: 'NOT_FOUND' }]);
    expect(strip(none.errors)).toEqual(strip(theirs.errors));
  });

  it('says on every page whether a page follows', async () => {
    const res = await t.gql('{ first: products(pageSize: 1) { total page pageSize hasNextPage } all: products(pageSize: 100) { total hasNextPage } }');
    expect(res.data.first).toEqual({ total: res.data.all.total, page: 1, pageSize: 1, hasNextPage: res.data.all.total > 1 });
    expect(res.data.all.hasNextPage).toBe(false);
  });
});

describe('a mutation refused', () => {
  it('answers the refusal as a user error with the same code and details REST gives (camelCased, enums spelled as the schema spells them)', async () => {
    const { product } = await shopWithProduct(t, [{ price: 100, stock: 1 }]);
    const skuId = product.skuIds[0];
    const viaRest = await newCustomer(t);
    await addToCart(t, viaRest.token, skuId, 2);
    const rest = await t.api('POST', '/api/checkout', { token: viaRest.token, body: { shipping_address: ADDRESS } });
    const viaGraphql = await newCustomer(t);
    await addToCart(t, viaGraphql.token, skuId, 2);
    const gql = await mutate(t, 'checkout', { shippingAddress: GRAPHQL_ADDRESS }, 'orders { id }', viaGraphql.token);

    expect(rest.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { sku_id: skuId, requested: 2, available: 1 } });
    expect(gql.errors).toBeUndefined();
    expect(gql.payload.orders).toBeNull();
    expect(gql.userErrors).toEqual([{ code: 'INSUFFICIENT_STOCK', message: rest.body.error.message, field: null, details: expect.any(Object) }]);
    const details = Object.fromEntries(Object.entries(gql.userErrors[0].details!).filter(([, v]) => v !== null));
    expect(details).toEqual({ skuId, requested: 2, available: 1 });
  });

  it('names each bad field as a path from the argument, one user error per problem, as REST names them in details.problems', async () => {
    const customer = await newCustomer(t);
    const input = { shippingAddress: { ...GRAPHQL_ADDRESS, recipient: '', phone: '' }, coupons: [{ shopId: 1, couponId: 0 }] };
    const gql = await mutate(t, 'checkout', input, 'orders { id }', customer.token);
    const rest = await t.api('POST', '/api/checkout', {
      token: customer.token,
      body: { shipping_address: { ...ADDRESS, recipient: '', phone: '' }, coupons: { 1: 0 } },
    });
    expect(gql.userErrors.every((e) => e.code === 'VALIDATION_FAILED')).toBe(true);
    const fields = gql.userErrors.map((e) => e.field!.join('.')).sort();
    expect(fields).toEqual(expect.arrayContaining(['input.shippingAddress.phone', 'input.shippingAddress.recipient']));
    const restFields = rest.body.error.details.problems.map((p: { field: string }) => p.field);
    expect(restFields).toEqual(expect.arrayContaining(['shipping_address.phone', 'shipping_address.recipient']));
  });

  it('keeps a state conflict typed too, with the state in the schema\u2019s spelling', async () => {
    const { product } = await shopWithProduct(t);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0]);
    expect((await mutate(t, 'cancelOrder', { orderId: order.id }, 'order { status }', customer.token)).payload).toEqual({ order: { status: 'CANCELLED' }, userErrors: [] });
    const again = await mutate(t, 'payOrder', { orderId: order.id }, 'order { status }', customer.token);
    expect(again.payload.order).toBeNull();
    expect(again.userErrors).toEqual([{ code: 'ORDER_STATE_CONFLICT', message: expect.any(String), field: null, details: expect.objectContaining({ status: 'CANCELLED' }) }]);
  });
});

describe('a mutation refused for the caller', () => {
  it('answers a missing or bad token and a role that may not act as top-level errors, not user errors', async () => {
    const { shop, product } = await shopWithProduct(t);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, product.skuIds[0]);
    const anonymous = await mutate(t, 'payOrder', { orderId: order.id }, 'order { id }');
    expect(anonymous.payload).toBeNull();
    expect(anonymous.errors?.map((e) => [e.path, e.extensions.code])).toEqual([[['payOrder'], 'UNAUTHENTICATED']]);
    const badToken = await mutate(t, 'payOrder', { orderId: order.id }, 'order { id }', 'not-a-token');
    expect(badToken.errors?.[0].extensions.code).toBe('TOKEN_INVALID');
    const operator = await newOperator(t, shop.id);
    const wrongRole = await mutate(t, 'payOrder', { orderId: order.id }, 'order { id }', operator.token);
    expect(wrongRole.errors?.[0].extensions).toEqual({ code: 'FORBIDDEN', status: 403 });
  });
});
