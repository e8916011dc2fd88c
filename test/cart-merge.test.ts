import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { addToCart, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const cartRows = async (userId: number) =>
  (await t.sql('select sku_id, quantity from cart_item where customer_id = ? order by sku_id', [userId])).map((r: { sku_id: number; quantity: number }) => [r.sku_id, r.quantity]);

describe('guest cart merge at sign-in', () => {
  it('adds quantities up to the stock, across shops, and answers every guest line', async () => {
    const customer = await newCustomer(t);
    const a = await shopWithProduct(t, [{ price: 1000, stock: 5 }, { price: 900, stock: 0 }]);
    const b = await shopWithProduct(t, [{ price: 500, stock: 10 }]);
    const withdrawn = await shopWithProduct(t, [{ price: 300, stock: 10 }]);
    const [skuA, skuEmpty] = a.product.skuIds;
    const [skuB] = b.product.skuIds;
    const [skuW] = withdrawn.product.skuIds;
    await addToCart(t, customer.token, skuA, 3);
    await t.sql(`update product set status = 'unpublished' where id = ?`, [withdrawn.product.id]);

    const res = await t.api('POST', '/api/cart/merge', {
      token: customer.token,
      body: { items: [{ sku_id: skuA, quantity: 4 }, { sku_id: skuB, quantity: 2 }, { sku_id: skuEmpty, quantity: 2 }, { sku_id: skuW, quantity: 1 }, { sku_id: 999_999, quantity: 1 }] },
    });
    expect(res.status).toBe(200);
    const bySku = Object.fromEntries(res.body.lines.map((l: { sku_id: number }) => [l.sku_id, l]));
    expect(bySku[skuA]).toEqual({ sku_id: skuA, requested: 4, in_cart: 5, outcome: 'capped' });
    expect(bySku[skuB]).toEqual({ sku_id: skuB, requested: 2, in_cart: 2, outcome: 'merged' });
    expect(bySku[skuEmpty]).toEqual({ sku_id: skuEmpty, requested: 2, in_cart: 1, outcome: 'capped' });
    expect(bySku[skuW]).toEqual({ sku_id: skuW, requested: 1, in_cart: 0, outcome: 'unavailable' });
    expect(bySku[999_999]).toEqual({ sku_id: 999_999, requested: 1, in_cart: 0, outcome: 'not_found' });
    expect(res.body.cart.item_count).toBe(8);
    expect(await cartRows(customer.id)).toEqual([[skuA, 5], [skuEmpty, 1], [skuB, 2]].sort((x, y) => x[0] - y[0]));
  });

  it('never lowers a line the cart already held above the stock', async () => {
    const customer = await newCustomer(t);
    const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const [sku] = a.product.skuIds;
    await addToCart(t, customer.token, sku, 8);
    await t.sql('update sku set stock = 2 where id = ?', [sku]);
    const res = await t.api('POST', '/api/cart/merge', { token: customer.token, body: { items: [{ sku_id: sku, quantity: 3 }] } });
    expect(res.body.lines).toEqual([{ sku_id: sku, requested: 3, in_cart: 8, outcome: 'capped' }]);
  });

  it('counts every merge when two sign-ins merge at once (no lost update), and a key merges once', async () => {
    const customer = await newCustomer(t);
    const a = await shopWithProduct(t, [{ price: 1000, stock: 100 }, { price: 10, stock: 100 }]);
    const items = a.product.skuIds.map((sku_id) => ({ sku_id, quantity: 3 }));
    const results = await Promise.all(Array.from({ length: 6 }, () => t.api('POST', '/api/cart/merge', { token: customer.token, body: { items } })));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(await cartRows(customer.id)).toEqual(a.product.skuIds.map((sku) => [sku, 18]));

    const keyed = await newCustomer(t);
    const headers = { 'Idempotency-Key': 'merge-once' };
    const once = await Promise.all(Array.from({ length: 4 }, () => t.api('POST', '/api/cart/merge', { token: keyed.token, body: { items }, headers })));
    expect(once.map((r) => r.status)).toEqual(Array(4).fill(200));
    expect(await cartRows(keyed.id)).toEqual(a.product.skuIds.map((sku) => [sku, 3]));
  });

  it('refuses bad input and changes nothing', async () => {
    const customer = await newCustomer(t);
    const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const [sku] = a.product.skuIds;
    for (const body of [{}, { items: [] }, { items: [{ sku_id: sku, quantity: 0 }] }, { items: [{ sku_id: sku, quantity: 1 }, { sku_id: sku, quantity: 2 }] }, { items: [{ sku_id: sku, quantity: 1000 }] }]) {
      const res = await t.api('POST', '/api/cart/merge', { token: customer.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await cartRows(customer.id)).toEqual([]);
    expect((await t.api('POST', '/api/cart/merge', { body: { items: [{ sku_id: sku, quantity: 1 }] } })).status).toBe(401);
  });

  it('works over GraphQL', async () => {
    const customer = await newCustomer(t);
    const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const [sku] = a.product.skuIds;
    const res = await mutate(t, 'mergeCart', { items: [{ skuId: sku, quantity: 2 }] }, 'merged { cart { itemCount } lines { skuId requested inCart outcome } }', customer.token);
    expect(res.userErrors).toEqual([]);
    expect(res.payload.merged).toEqual({ cart: { itemCount: 2 }, lines: [{ skuId: sku, requested: 2, inCart: 2, outcome: 'MERGED' }] });
  });
});
