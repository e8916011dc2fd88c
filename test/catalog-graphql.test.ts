import { startTestApp, type TestApp } from './support/harness.js';
import { mutate } from './support/graphql.js';
import {
  newAdmin, newBrand, newCategory, newCategoryBranch, newCustomer, newOperator, newProduct, newShop, setContent, type TestUser,
} from './support/fixtures.js';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await newAdmin(t);
});
afterAll(() => t.close());

const LISTING = `query($category: Int, $brandId: Int, $shopId: Int, $sort: ProductSort, $order: SortOrder, $page: Int, $pageSize: Int) {
  products(category: $category, brandId: $brandId, shopId: $shopId, sort: $sort, order: $order, page: $page, pageSize: $pageSize) {
    total page pageSize
    items { id name priceFrom soldCount status shop { id slug name profile { logoUrl description } } skus { id price stock } brand { id name } }
  }
}`;

/** Statements the server ran for one operation (the harness logs every SQL statement). */
async function statementsFor(run: () => Promise<unknown>): Promise<number> {
  t.resetQueryLog();
  await run();
  return t.queries.length;
}

describe('GraphQL catalog', () => {
  it('lists 20 products with shop, profile, SKUs and brand in a constant number of statements', async () => {
    const category = await newCategory(t);
    const brands = [await newBrand(t, 300), await newBrand(t, 301)];
    const make = async (n: number, categoryId: number) => {
      for (let i = 0; i < n; i++) {
        const shop = await newShop(t, { withProfile: i % 2 === 0 });
        await newProduct(t, { shopId: shop.id, categoryId, brandId: brands[i % 2].id, skus: [{ price: 100 + i, stock: 1 }, { price: 200 + i, stock: 2 }] });
      }
    };
    await make(20, category.id);
    const small = await newCategory(t);
    await make(2, small.id);

    let twenty: any;
    const forTwenty = await statementsFor(async () => {
      twenty = await t.gql(LISTING, { category: category.id, pageSize: 20 });
    });
    expect(twenty.errors).toBeUndefined();
    expect(twenty.data.products.items).toHaveLength(20);
    for (const item of twenty.data.products.items) expect(item.skus).toHaveLength(2);
    expect(twenty.data.products.items.filter((p: any) => p.shop.profile === null)).toHaveLength(10);

    let two: any;
    const forTwo = await statementsFor(async () => {
      two = await t.gql(LISTING, { category: small.id });
    });
    expect(two.data.products.items).toHaveLength(2);
    // The listing (page, count, sold_count, SKUs, profiles) in one statement, then one batch for brands.
    expect(forTwenty).toBe(forTwo);
    expect(forTwenty).toBeLessThanOrEqual(6);
  });

  it('reads the SKUs and shop profiles a listing selects (fragments included) in the listing statement itself', async () => {
    const category = await newCategory(t);
    const withProfile = await newShop(t, { withProfile: true });
    const without = await newShop(t);
    const a = await newProduct(t, { shopId: withProfile.id, categoryId: category.id, skus: [{ price: 300, stock: 3 }, { price: 200, stock: 0 }] });
    const b = await newProduct(t, { shopId: without.id, categoryId: category.id, skus: [{ price: 100, stock: 1 }] });
    const query = `query($category: Int) { products(category: $category) { items { id ...Parts shop { ... on Shop { id profile { logoUrl } } } } } }
      fragment Parts on Product { skus { id price stock } }`;
    let res: any;
    const statements = await statementsFor(async () => {
      res = await t.gql(query, { category: category.id });
    });
    expect(res.errors).toBeUndefined();
    expect(res.data.products.items).toEqual([
      { id: b.id, skus: [{ id: b.skuIds[0], price: 100, stock: 1 }], shop: { id: without.id, profile: null } },
      {
        id: a.id,
        skus: [{ id: a.skuIds[0], price: 300, stock: 3 }, { id: a.skuIds[1], price: 200, stock: 0 }],
        shop: { id: withProfile.id, profile: { logoUrl: expect.any(String) } },
      },
    ]);
    expect(statements).toBe(1);
    // The same answer through the loaders (a product's own SKUs and shop profile) when read one by one.
    const one = await t.gql(`query($id: Int!) { product(id: $id) { skus { id price stock } shop { id profile { logoUrl } } } }`, { id: a.id });
    expect(one.data.product).toEqual({ skus: res.data.products.items[1].skus, shop: res.data.products.items[1].shop });
  });

  it('gives the same listing as REST for the same question', async () => {
    const shop = await newShop(t, { withProfile: true });
    const { top, grandchild } = await newCategoryBranch(t);
    for (const price of [300, 100, 200]) await newProduct(t, { shopId: shop.id, categoryId: grandchild.id, skus: [{ price, stock: 1 }] });
    const gql = await t.gql(LISTING, { category: top.id, sort: 'PRICE', order: 'DESC' });
    const rest = await t.api('GET', `/api/products?category=${top.id}&sort=price&order=desc`);
    expect(gql.data.products.items.map((p: any) => [p.id, p.priceFrom])).toEqual(rest.body.items.map((p: any) => [p.id, p.price_from]));
    expect(gql.data.products.items.map((p: any) => p.priceFrom)).toEqual([300, 200, 100]);
  });

  it('reports service errors with the REST codes', async () => {
    const bad = await t.gql(LISTING, { page: 0 });
    expect(bad.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
    const missing = await t.gql('{ product(id: 999999) { id } }');
    expect(missing.errors?.[0].extensions.code).toBe('NOT_FOUND');
    const unknownSort = await t.gql('{ products(sort: Sales) { total } }');
    expect(unknownSort.errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('serves product detail with category path, brand and SKUs', async () => {
    const shop = await newShop(t);
    const { top, child, grandchild } = await newCategoryBranch(t);
    const brand = await newBrand(t, 400);
    const p = await newProduct(t, { shopId: shop.id, categoryId: grandchild.id, brandId: brand.id, skus: [{ price: 5, stock: 6 }] });
    const res = await t.gql(`query($id: Int!) { product(id: $id) { id brandId createdAt brand { id } category { id children { id } }
      categoryPath { id } skus { price stock } shop { slug profile { logoUrl } } } }`, { id: p.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.product).toEqual({
      id: p.id, brandId: brand.id, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/), brand: { id: brand.id }, category: { id: grandchild.id, children: [] },
      categoryPath: [{ id: top.id }, { id: child.id }, { id: grandchild.id }], skus: [{ price: 5, stock: 6 }],
      shop: { slug: shop.slug, profile: null },
    });
  });

  it('serves shops, categories, brands, currency and home content', async () => {
    const bare = await newShop(t);
    const { top, child, grandchild } = await newCategoryBranch(t);
    await setContent(t, 'banners', [{ title: 'On', destination: '/' }, { title: 'Off', destination: '/', active: false }]);
    const res = await t.gql(`query($slug: String!, $id: Int!) {
      shop(slug: $slug) { id profile { logoUrl } }
      shops(pageSize: 100) { total items { id } }
      category(id: $id) { id children { id children { id } } }
      categories { id }
      brands { id position }
      currency { code symbol minorUnitDigits }
      homeContent { banners { title position } promos { title } quickLinks { title } floorAdverts { title } }
    }`, { slug: bare.slug, id: top.id });
    expect(res.errors).toBeUndefined();
    expect(res.data.shop).toEqual({ id: bare.id, profile: null });
    expect(res.data.shops.items.map((s: any) => s.id)).toContain(bare.id);
    expect(res.data.category).toEqual({ id: top.id, children: [{ id: child.id, children: [{ id: grandchild.id }] }] });
    expect(res.data.categories.map((c: any) => c.id)).toContain(top.id);
    expect(res.data.currency).toEqual({ code: 'CNY', symbol: '¥', minorUnitDigits: 2 });
    expect(res.data.homeContent.banners).toEqual([{ title: 'On', position: 0 }]);
    expect(res.data.homeContent.promos).toEqual([]);
  });

  it('runs the admin writes: brands, shop profile, home content', async () => {
    const shop = await newShop(t);
    const res = await t.gql(`mutation($shopId: Int!) {
      replaceBrands(input: { items: [{ name: "Gql Brand" }] }) { brands { name position } userErrors { code } }
      putShopProfile(input: { shopId: $shopId, logoUrl: "https://img.test/g.png" }) { profile { shopId logoUrl description } userErrors { code } }
      replaceHomeContent(input: { kind: PROMOS, items: [{ title: "P", destination: "/points" }, { title: "Q", destination: "/coupons", active: false }] }) {
        items { title position active } userErrors { code }
      }
    }`, { shopId: shop.id }, admin.token);
    expect(res.errors).toBeUndefined();
    expect(res.data.replaceBrands).toEqual({ brands: [{ name: 'Gql Brand', position: 0 }], userErrors: [] });
    expect(res.data.putShopProfile).toEqual({ profile: { shopId: shop.id, logoUrl: 'https://img.test/g.png', description: null }, userErrors: [] });
    expect(res.data.replaceHomeContent.items).toEqual([{ title: 'P', position: 0, active: true }, { title: 'Q', position: 1, active: false }]);
    const all = await t.gql('{ adminContent { promos { title } } }', {}, admin.token);
    expect(all.data.adminContent.promos.map((i: any) => i.title)).toEqual(['P', 'Q']);

    // One user error per bad item, at its path under the mutation's input; nothing changed.
    const bad = await mutate(t, 'replaceHomeContent', { kind: 'PROMOS', items: [{ title: 'Fine', destination: '/' }, { title: 'X', destination: '/nowhere' }] }, 'items { id }', admin.token);
    expect(bad.errors).toBeUndefined();
    expect(bad.payload.items).toBeNull();
    expect(bad.userErrors).toEqual([
      { code: 'DESTINATION_INVALID', message: expect.any(String), field: ['input', 'items', '1', 'destination'], details: null },
    ]);
    expect((await t.gql('{ adminContent { promos { title } } }', {}, admin.token)).data.adminContent.promos).toHaveLength(2);
    const customer = await newCustomer(t);
    const denied = await t.gql('{ adminContent { promos { id } } }', {}, customer.token);
    expect(denied.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });

  it('runs the merchant flow: upsert, publish, list, unpublish; another shop is not found', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const category = await newCategory(t);
    const created = await mutate(t, 'upsertProduct', {
      name: 'Gql Lamp', categoryId: category.id, skus: [{ name: 'Warm', price: 900, stock: 3 }, { name: 'Cold', price: 800, stock: 1 }],
    }, 'product { id status priceFrom skus { id name price stock } }', operator.token);
    expect(created.errors).toBeUndefined();
    expect(created.userErrors).toEqual([]);
    const id = created.payload.product.id;
    expect(created.payload.product).toMatchObject({ status: 'DRAFT', priceFrom: 800 });

    const published = await mutate(t, 'publishProduct', { productId: id }, 'product { status }', operator.token);
    expect(published.payload.product.status).toBe('PUBLISHED');
    const mine = await t.gql('{ merchantProducts(status: PUBLISHED) { total items { id skus { name } } } }', {}, operator.token);
    expect(mine.data.merchantProducts).toEqual({ total: 1, items: [{ id, skus: [{ name: 'Warm' }, { name: 'Cold' }] }] });
    const withdrawn = await mutate(t, 'unpublishProduct', { productId: id }, 'product { status }', operator.token);
    expect(withdrawn.payload.product.status).toBe('UNPUBLISHED');
    const draftAgain = await mutate(t, 'unpublishProduct', { productId: id }, 'product { status }', operator.token);
    expect(draftAgain.userErrors).toEqual([]);

    // Another shop's product is a user error NOT_FOUND, the same answer as a product that does not exist.
    const stranger = await newOperator(t, (await newShop(t)).id);
    const foreign = await mutate(t, 'publishProduct', { productId: id }, 'product { status }', stranger.token);
    const missing = await mutate(t, 'publishProduct', { productId: 999_999 }, 'product { status }', stranger.token);
    expect(foreign.errors).toBeUndefined();
    expect(foreign.payload.product).toBeNull();
    expect(foreign.userErrors).toEqual([{ code: 'NOT_FOUND', message: 'Product not found', field: null, details: expect.objectContaining({ id }) }]);
    expect(missing.userErrors.map((e) => [e.code, e.message])).toEqual([['NOT_FOUND', 'Product not found']]);
    const customer = await newCustomer(t);
    const denied = await t.gql('{ merchantProducts { total } }', {}, customer.token);
    expect(denied.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
