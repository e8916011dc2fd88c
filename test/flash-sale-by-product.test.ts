import { startTestApp, type TestApp } from './support/harness.js';
import { newProduct } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';
import { newFlashSale } from './support/flash-sales.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('flash sales of one product (a product page reads its live price in the same request)', () => {
  it('keeps only the active sessions with an item of that product, over REST and GraphQL', async () => {
    const { shop, category, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const other = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 500, stock: 10 }] });
    const mine = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: product.skuIds[0], activityPrice: 800, reservedStock: 5 }] });
    await newFlashSale(t, { shopId: shop.id, items: [{ skuId: other.skuIds[0], activityPrice: 400, reservedStock: 5 }] });

    const rest = await t.api('GET', `/api/flash-sales?product_id=${product.id}`);
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((s: any) => s.id)).toEqual([mine.id]);
    expect((await t.api('GET', '/api/flash-sales')).body.total).toBe(2);
    expect((await t.api('GET', '/api/flash-sales?product_id=abc')).status).toBe(400);

    const gql = await t.gql(`query($p: Int) { flashSales(productId: $p) { total items { id items { productId activityPrice } } } }`, { p: other.id });
    expect(gql.data.flashSales.items).toEqual([{ id: expect.any(Number), items: [{ productId: other.id, activityPrice: 400 }] }]);
  });
});
