import { startTestApp, type TestApp } from './support/harness.js';
import { newBrand, newCategory, newCategoryBranch, newOperator, newProduct, newShop } from './support/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const ids = (body: any) => body.items.map((p: any) => p.id);

describe('product listing', () => {
  it('includes the products of a top-level category, its children and its grandchildren', async () => {
    const shop = await newShop(t);
    const { top, child, grandchild } = await newCategoryBranch(t);
    const sibling = await newCategory(t, top);
    const elsewhere = await newCategory(t);
    const inTop = await newProduct(t, { shopId: shop.id, categoryId: top.id });
    const inChild = await newProduct(t, { shopId: shop.id, categoryId: child.id });
    const inGrandchild = await newProduct(t, { shopId: shop.id, categoryId: grandchild.id });
    const inSibling = await newProduct(t, { shopId: shop.id, categoryId: sibling.id });
    await newProduct(t, { shopId: shop.id, categoryId: elsewhere.id });

    const res = await t.api('GET', `/api/products?category=${top.id}`);
    expect(res.status).toBe(200);
    expect(ids(res.body).sort()).toEqual([inTop.id, inChild.id, inGrandchild.id, inSibling.id].sort());
    expect(res.body.total).toBe(4);

    const fromChild = await t.api('GET', `/api/products?category=${child.id}`);
    expect(ids(fromChild.body).sort()).toEqual([inChild.id, inGrandchild.id].sort());
  });

  it('does not mix up categories whose ids share a prefix (/1/ and /10/)', async () => {
    const shop = await newShop(t);
    const first = await newCategory(t);
    // A category whose id starts with the digits of the first one's id (far above the sequence).
    const otherId = first.id * 1000 + 1;
    await t.sql(`insert into category (id, name, slug, depth, path, position) values (?, 'Other', ?, 0, ?, 0)`, [otherId, `other-${otherId}`, `/${otherId}/`]);
    const other = { id: otherId };
    const a = await newProduct(t, { shopId: shop.id, categoryId: first.id });
    await newProduct(t, { shopId: shop.id, categoryId: other.id });
    const res = await t.api('GET', `/api/products?category=${first.id}`);
    expect(ids(res.body)).toEqual([a.id]);
  });

  it('filters by brand', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const brand = await newBrand(t, 1000);
    const other = await newBrand(t, 1001);
    const branded = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: brand.id });
    await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: other.id });
    await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: null });
    const res = await t.api('GET', `/api/products?brand_id=${brand.id}`);
    expect(ids(res.body)).toEqual([branded.id]);
    expect(res.body.items[0].brand_id).toBe(brand.id);
  });

  it('sorts by the lowest SKU price, ascending by default and descending on request', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const mid = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 5000, stock: 1 }, { price: 2000, stock: 1 }] });
    const cheap = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 1500, stock: 1 }, { price: 9000, stock: 1 }] });
    const dear = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 3000, stock: 1 }] });

    const asc = await t.api('GET', `/api/products?category=${category.id}&sort=price`);
    expect(ids(asc.body)).toEqual([cheap.id, mid.id, dear.id]);
    expect(asc.body.items.map((p: any) => p.price_from)).toEqual([1500, 2000, 3000]);
    const ascExplicit = await t.api('GET', `/api/products?category=${category.id}&sort=price&order=asc`);
    expect(ids(ascExplicit.body)).toEqual([cheap.id, mid.id, dear.id]);
    const desc = await t.api('GET', `/api/products?category=${category.id}&sort=price&order=desc`);
    expect(ids(desc.body)).toEqual([dear.id, mid.id, cheap.id]);
  });

  it('lists newest first by default, and `order=asc` alone lists oldest first', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await newProduct(t, { shopId: shop.id, categoryId: category.id })).id);
    expect(ids((await t.api('GET', `/api/products?shop_id=${shop.id}`)).body)).toEqual([...made].reverse());
    expect(ids((await t.api('GET', `/api/products?shop_id=${shop.id}&order=asc`)).body)).toEqual(made);
  });

  it('paginates with page and page_size and reports the total', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await newProduct(t, { shopId: shop.id, categoryId: category.id })).id);
    const second = await t.api('GET', `/api/products?shop_id=${shop.id}&page=2&page_size=2`);
    expect(second.body).toMatchObject({ page: 2, page_size: 2, total: 5 });
    expect(ids(second.body)).toEqual([made[2], made[1]]);
    const beyond = await t.api('GET', `/api/products?shop_id=${shop.id}&page=9&page_size=2`);
    expect(beyond.body).toMatchObject({ items: [], total: 5 });
    const first = await t.api('GET', `/api/products?shop_id=${shop.id}`);
    expect(first.body).toMatchObject({ page: 1, page_size: 20, total: 5 });
  });

  it('keeps every total exact as products are published, unpublished, moved, created and deleted', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const { top, child } = await newCategoryBranch(t);
    const other = await newCategory(t);
    const brand = await newBrand(t, 1100);
    await newProduct(t, { shopId: shop.id, categoryId: child.id, brandId: brand.id });
    const totals = async () => {
      const queries = [`category=${top.id}`, `category=${other.id}`, `brand_id=${brand.id}`, `shop_id=${shop.id}`];
      const bodies = await Promise.all(queries.map((q) => t.api('GET', `/api/products?${q}`).then((r) => r.body)));
      for (const body of bodies) expect(body.total).toBe(body.items.length);
      return bodies.map((body) => body.total);
    };
    // Each list is read twice so that a remembered total is what answers the second time.
    expect(await totals()).toEqual([1, 0, 1, 1]);
    expect(await totals()).toEqual([1, 0, 1, 1]);

    const created = await t.api('PUT', '/api/merchant/products', {
      token: operator.token,
      body: { name: 'Lamp', category_id: child.id, brand_id: brand.id, skus: [{ name: 'One', price: 900, stock: 3 }] },
    });
    expect(created.status).toBe(201);
    expect(await totals()).toEqual([1, 0, 1, 1]);
    await t.api('POST', `/api/merchant/products/${created.body.id}/publish`, { token: operator.token });
    expect(await totals()).toEqual([2, 0, 2, 2]);
    await t.api('PUT', '/api/merchant/products', {
      token: operator.token,
      body: { id: created.body.id, name: 'Lamp', category_id: other.id, brand_id: null, skus: [{ name: 'One', price: 900, stock: 3 }] },
    });
    expect(await totals()).toEqual([1, 1, 1, 2]);
    await t.api('POST', `/api/merchant/products/${created.body.id}/unpublish`, { token: operator.token });
    expect(await totals()).toEqual([1, 0, 1, 1]);

    // Writes that bypass the services (a bulk insert, a move to another shop, a delete) count too.
    const elsewhere = await newShop(t);
    await t.sql(`insert into product (shop_id, category_id, brand_id, name, status, price_from, created_at, updated_at)
                 select ?, ?, ?, 'Bulk ' || g, 'published', 100, now(), now() from generate_series(1, 3) g`, [shop.id, top.id, brand.id]);
    expect(await totals()).toEqual([4, 0, 4, 4]);
    await t.sql(`update product set shop_id = ? where shop_id = ? and name = 'Bulk 1'`, [elsewhere.id, shop.id]);
    expect(await totals()).toEqual([4, 0, 4, 3]);
    await t.sql(`delete from product where name like 'Bulk %' and shop_id = ?`, [shop.id]);
    expect(await totals()).toEqual([2, 0, 2, 1]);
  });

  it('answers an unsupported sort with 400 SORT_UNSUPPORTED in the error shape', async () => {
    for (const sort of ['name', 'PRICE', '', 'distance']) {
      const res = await t.api('GET', `/api/products?sort=${sort}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'SORT_UNSUPPORTED', details: { parameter: 'sort', allowed: ['price', 'sales'] } });
      expect(res.body.error.message).toEqual(expect.any(String));
    }
    const twice = await t.api('GET', '/api/products?sort=price&sort=price');
    expect(twice.body.error.code).toBe('SORT_UNSUPPORTED');
  });

  it('answers an unsupported order with 400 SORT_UNSUPPORTED in the error shape', async () => {
    for (const query of ['order=up', 'sort=price&order=DESC', 'order=']) {
      const res = await t.api('GET', `/api/products?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'SORT_UNSUPPORTED', details: { parameter: 'order', allowed: ['asc', 'desc'] } });
    }
  });

  it('answers malformed numbers and unknown parameters with 400 VALIDATION_FAILED', async () => {
    for (const query of ['category=abc', 'category=1.5', 'category=-3', 'category=', 'brand_id=1e3', 'page=0', 'page_size=101', 'page_size=x', 'shop_id=0x10', 'colour=red']) {
      const res = await t.api('GET', `/api/products?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.problems.length).toBeGreaterThan(0);
    }
  });

  it('lists an unknown category as empty', async () => {
    const res = await t.api('GET', '/api/products?category=999999');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ items: [], total: 0 });
  });

  it('leaves draft and unpublished products out of the listing and the detail', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const published = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'published' });
    const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'draft' });
    const withdrawn = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'unpublished' });
    const res = await t.api('GET', `/api/products?category=${category.id}`);
    expect(ids(res.body)).toEqual([published.id]);
    expect(res.body.total).toBe(1);
    for (const hidden of [draft, withdrawn]) {
      const detail = await t.api('GET', `/api/products/${hidden.id}`);
      expect(detail.status).toBe(404);
      expect(detail.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('shows each item with its shop, brand id and lowest price, and no invented fields', async () => {
    const shop = await newShop(t, { name: 'Listing Shop' });
    const category = await newCategory(t);
    const p = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: null, skus: [{ price: 700, stock: 3 }] });
    const res = await t.api('GET', `/api/products?shop_id=${shop.id}`);
    const item = res.body.items[0];
    expect(item).toMatchObject({
      id: p.id, status: 'published', price_from: 700, category_id: category.id, brand_id: null,
      shop: { id: shop.id, slug: shop.slug, name: 'Listing Shop' },
    });
    expect(item).not.toHaveProperty('description');
    expect(item).not.toHaveProperty('image_url');
    expect(item.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(item.updated_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
  });
});

describe('product detail', () => {
  it('shows a published product with SKUs (price, stock), shop with profile, brand and category path', async () => {
    const shop = await newShop(t, { withProfile: true });
    const { top, child, grandchild } = await newCategoryBranch(t);
    const brand = await newBrand(t, 2000);
    const p = await newProduct(t, {
      shopId: shop.id, categoryId: grandchild.id, brandId: brand.id,
      skus: [{ price: 1200, stock: 4, name: 'Red' }, { price: 999, stock: 0, name: 'Blue' }],
    });
    const res = await t.api('GET', `/api/products/${p.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: p.id, price_from: 999, brand_id: brand.id,
      shop: { id: shop.id, slug: shop.slug, profile: { logo_url: `https://img.test/${shop.slug}.png`, description: 'A test shop' } },
      brand: { id: brand.id, position: 2000 },
      skus: [
        { id: p.skuIds[0], name: 'Red', price: 1200, stock: 4 },
        { id: p.skuIds[1], name: 'Blue', price: 999, stock: 0 },
      ],
    });
    expect(res.body.category_path.map((c: any) => c.id)).toEqual([top.id, child.id, grandchild.id]);
  });

  it('leaves brand and shop profile out when the product has none', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const p = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: null });
    const res = await t.api('GET', `/api/products/${p.id}`);
    expect(res.body.brand_id).toBeNull();
    expect(res.body).not.toHaveProperty('brand');
    expect(res.body.shop).not.toHaveProperty('profile');
  });

  it('answers an unknown id with 404 and a malformed one with 400', async () => {
    expect((await t.api('GET', '/api/products/987654')).status).toBe(404);
    const bad = await t.api('GET', '/api/products/12abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
  });
});

describe('categories', () => {
  it('serves the tree with nested children, and one node with its subtree', async () => {
    const { top, child, grandchild } = await newCategoryBranch(t);
    const tree = await t.api('GET', '/api/categories');
    expect(tree.status).toBe(200);
    const root = tree.body.items.find((c: any) => c.id === top.id);
    expect(root).toMatchObject({ id: top.id, parent_id: null, depth: 0, path: top.path });
    expect(root.children).toHaveLength(1);
    expect(root.children[0]).toMatchObject({ id: child.id, parent_id: top.id, depth: 1 });
    expect(root.children[0].children[0]).toMatchObject({ id: grandchild.id, children: [] });
    for (const node of tree.body.items) expect(node.depth).toBe(0);

    const sub = await t.api('GET', `/api/categories/${child.id}`);
    expect(sub.status).toBe(200);
    expect(sub.body).toMatchObject({ id: child.id, children: [{ id: grandchild.id, children: [] }] });
  });

  it('answers an unknown category with 404', async () => {
    const res = await t.api('GET', '/api/categories/999999');
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });
});

describe('brands, shops and currency', () => {
  it('lists brands in their position order', async () => {
    const later = await newBrand(t, 51);
    const earlier = await newBrand(t, 50);
    const res = await t.api('GET', '/api/brands');
    const order = res.body.items.map((b: any) => b.id);
    expect(order.indexOf(earlier.id)).toBeLessThan(order.indexOf(later.id));
    expect(res.body.items.map((b: any) => b.position)).toEqual([...res.body.items.map((b: any) => b.position)].sort((a: number, b: number) => a - b));
  });

  it('lists a shop without a profile with its profile keys absent', async () => {
    const bare = await newShop(t, { name: 'AAA Bare Shop' });
    const dressed = await newShop(t, { name: 'AAA Dressed Shop', withProfile: true });
    const res = await t.api('GET', '/api/shops?page_size=100');
    expect(res.status).toBe(200);
    const bareItem = res.body.items.find((s: any) => s.id === bare.id);
    expect(bareItem).toEqual({ id: bare.id, slug: bare.slug, name: 'AAA Bare Shop' });
    const dressedItem = res.body.items.find((s: any) => s.id === dressed.id);
    expect(dressedItem.profile).toMatchObject({ logo_url: expect.any(String), description: 'A test shop' });
    expect(dressedItem.profile).not.toHaveProperty('banner_url');
    expect(res.body.total).toBeGreaterThanOrEqual(2);
  });

  it('shows one shop by slug with its profile when present, 404 for an unknown slug', async () => {
    const shop = await newShop(t, { withProfile: true });
    const res = await t.api('GET', `/api/shops/${shop.slug}`);
    expect(res.body).toMatchObject({ id: shop.id, slug: shop.slug, profile: { shop_id: shop.id } });
    expect(res.body.profile.updated_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    const bare = await newShop(t);
    expect((await t.api('GET', `/api/shops/${bare.slug}`)).body).not.toHaveProperty('profile');
    const missing = await t.api('GET', '/api/shops/no-such-shop');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('serves the base currency', async () => {
    const res = await t.api('GET', '/api/currency');
    expect(res.body).toEqual({ code: 'CNY', symbol: '¥', minor_unit_digits: 2 });
  });
});
