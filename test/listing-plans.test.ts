import { startTestApp, type TestApp } from './support/harness.js';
import { newBrand, newCategory, newProduct, newShop } from './support/fixtures.js';

/**
 * A listing whose filters select more or fewer products by their values (a keyword, a category, a
 * brand, a shop, a price range) is planned with its values at each call; only the unfiltered listing
 * keeps a prepared plan per connection (listing-filter.ts `plansVaryByValue`). A generic plan fitted
 * to a leaf category sorted a whole top-level category for one page (docs/performance.md).
 * One pool connection, so the server's prepared statements are the ones this session sees.
 */
let t: TestApp;
let category: { id: number };
let brand: { id: number };
let shop: { id: number };

beforeAll(async () => {
  t = await startTestApp({ dbPoolSize: 1 });
  shop = await newShop(t);
  category = await newCategory(t);
  brand = await newBrand(t);
  for (let i = 0; i < 3; i++) await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: brand.id, name: `plain lamp ${i}`, skus: [{ price: 100 + i, stock: 5 }] });
});
afterAll(() => t.close());

/** The listing statements prepared on the one connection (a page read by a ranking's ids plans the same for any filter: left out). */
const preparedListings = async () =>
  (await t.sql<{ statement: string }>(`select statement from pg_prepared_statements where statement like '%"page"%' and statement like '%"product"%' and statement not like '%unnest(%'`)).map((r) => r.statement);

it('keeps a prepared plan for the unfiltered listing and plans every filtered one with its values', async () => {
  const filtered = [
    `category=${category.id}`, `category=${category.id}&sort=price`, `brand_id=${brand.id}`, `shop_id=${shop.id}&order=asc`,
    'price_min=100&price_max=101', 'q=lamp', `category=${category.id}&sort=sales`, `brand_id=${brand.id}&sort=sales`,
  ];
  for (const query of filtered) {
    const res = await t.api('GET', `/api/products?${query}`);
    expect({ query, status: res.status }).toEqual({ query, status: 200 });
    expect((res.body as { total: number }).total).toBeGreaterThan(0);
  }
  expect(await preparedListings()).toEqual([]);
  expect((await t.api('GET', '/api/products?sort=price')).status).toBe(200);
  const kept = await preparedListings();
  expect(kept).toHaveLength(1);
  expect(kept[0]).toContain(`where "p"."status" = 'published' order by "sortKey" asc`); // no filter in it
});
