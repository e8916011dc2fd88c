import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newProduct, newShop } from './support/fixtures.js';
import { payOk, placeOrder } from './support/shopping.js';

let t: TestApp;
let top: { id: number; path: string; depth: number };
const ids: Record<string, number> = {};

/** Three products in one subtree: best (5 sold), middle (2 sold, 9 pending, 4 cancelled), none (0). */
beforeAll(async () => {
  t = await startTestApp();
  const shop = await newShop(t);
  top = await newCategory(t);
  const leaf = await newCategory(t, await newCategory(t, top));
  const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
  for (const name of ['best', 'middle', 'none']) {
    const p = await newProduct(t, { shopId: shop.id, categoryId: leaf.id, skus: [{ price: 100, stock: 100 }] });
    ids[name] = p.id;
    ids[`${name}Sku`] = p.skuIds[0];
  }
  const paid = async (sku: number, n: number) => payOk(t, customer.token, (await placeOrder(t, customer.token, sku, n)).id);
  await paid(ids.bestSku, 3);
  await paid(ids.bestSku, 2);
  await paid(ids.middleSku, 2);
  await placeOrder(t, customer.token, ids.middleSku, 9);
  const cancelled = await placeOrder(t, customer.token, ids.middleSku, 4);
  await t.api('POST', `/api/orders/${cancelled.id}/cancel`, { token: customer.token });
});
afterAll(() => t.close());

describe('sold_count on product reads', () => {
  it('is on every listed product and on the detail, counting paid orders only', async () => {
    const list = await t.api('GET', `/api/products?category=${top.id}`);
    const sold = Object.fromEntries(list.body.items.map((p: any) => [p.id, p.sold_count]));
    expect(sold).toEqual({ [ids.best]: 5, [ids.middle]: 2, [ids.none]: 0 });
    expect((await t.api('GET', `/api/products/${ids.middle}`)).body.sold_count).toBe(2);
  });

  it('sort=sales lists best sellers first, and order=asc reverses it', async () => {
    const desc = await t.api('GET', `/api/products?category=${top.id}&sort=sales`);
    expect(desc.body.items.map((p: any) => p.id)).toEqual([ids.best, ids.middle, ids.none]);
    const asc = await t.api('GET', `/api/products?category=${top.id}&sort=sales&order=asc`);
    expect(asc.body.items.map((p: any) => p.id)).toEqual([ids.none, ids.middle, ids.best]);
  });

  it('is served over GraphQL with the same numbers and sort', async () => {
    const res = await t.gql(`query($c: Int!) { products(category: $c, sort: SALES) { items { id soldCount } } }`, { c: top.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.products.items).toEqual([
      { id: ids.best, soldCount: 5 }, { id: ids.middle, soldCount: 2 }, { id: ids.none, soldCount: 0 },
    ]);
  });
});
