import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newProduct, newShop } from './support/fixtures.js';

/** `GET /api/skus` and `skuSummaries`: what a guest cart shows of its lines (issue 44). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

it('answers the SKUs of published products among the ids, in their order, the same over both doors; others are left out', async () => {
  const shop = await newShop(t, { name: 'Harbor Tech' });
  const category = await newCategory(t);
  const lantern = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Trail Lantern', skus: [{ price: 12900, stock: 8, name: 'Graphite' }, { price: 13900, stock: 3, name: 'Sand' }] });
  const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Draft Mug', status: 'draft', skus: [{ price: 100, stock: 1 }] });
  const ids = [lantern.skuIds[1], draft.skuIds[0], 999_999, lantern.skuIds[0]];
  const rest = await t.api('GET', `/api/skus?ids=${ids.join(',')}`);
  expect(rest.status).toBe(200);
  expect(rest.body.items).toEqual([
    { sku_id: lantern.skuIds[1], name: 'Sand', price: 13900, stock: 3, product_id: lantern.id, product_name: 'Trail Lantern', image_url: null, shop_id: shop.id, shop_name: 'Harbor Tech' },
    { sku_id: lantern.skuIds[0], name: 'Graphite', price: 12900, stock: 8, product_id: lantern.id, product_name: 'Trail Lantern', image_url: null, shop_id: shop.id, shop_name: 'Harbor Tech' },
  ]);
  const gql = await t.gql('query($ids: [Int!]!) { skuSummaries(ids: $ids) { skuId name price stock productId productName imageUrl shopId shopName } }', { ids });
  expect(gql.data.skuSummaries.map((s: { skuId: number }) => s.skuId)).toEqual([lantern.skuIds[1], lantern.skuIds[0]]);
  expect(gql.data.skuSummaries[0]).toMatchObject({ name: 'Sand', price: 13900, productName: 'Trail Lantern', shopName: 'Harbor Tech' });
});

it('refuses a missing, empty, malformed or too long list with VALIDATION_FAILED on both doors', async () => {
  for (const query of ['', '?ids=', '?ids=abc', '?ids=0', `?ids=${Array.from({ length: 101 }, (_, i) => i + 1).join(',')}`]) {
    const res = await t.api('GET', `/api/skus${query}`);
    expect([query, res.status, res.body.error.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
  }
  const gql = await t.gql('query { skuSummaries(ids: []) { skuId } }');
  expect(gql.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
});
