import { randomBytes } from 'node:crypto';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCategoryBranch, newCustomer, newProduct, newShop } from './support/fixtures.js';
import { payOk, placeOrder } from './support/shopping.js';

/**
 * Keyword search, facets and suggestions (issue 21). Every test searches for words of its own (a
 * random suffix), so the products of other tests never match.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A word no other test uses: letters only, so it is one word to the text parser. */
const word = (stem: string) => `${stem}${randomBytes(4).toString('hex').replace(/\d/g, (d) => 'ghijklmnop'[Number(d)])}`;
const ids = (body: { items: { id: number }[] }) => body.items.map((p) => p.id);
const search = async (params: Record<string, string | number>) => {
  const res = await t.api('GET', `/api/products?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}`);
  expect(res.status).toBe(200);
  return res.body as { items: { id: number; price_from: number; sold_count: number }[]; total: number };
};
const named = async (name: string) => {
  const [row] = await t.sql<{ id: number; slug: string }>(`insert into brand (name, position) values (?, (select coalesce(max(position), 0) + 1 from brand)) returning id`, [name]);
  return row;
};
const describe_ = (id: number, description: string) => t.sql('update product set description = ? where id = ?', [description, id]);

describe('keyword search on the product listing', () => {
  it('ranks a product whose name holds the word above one whose description does, over both doors', async () => {
    const w = word('zephyr');
    const shop = await newShop(t);
    const category = await newCategory(t);
    const inDescription = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Table light' });
    await describe_(inDescription.id, `A soft ${w} glow`);
    const inName = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} lamp` });
    await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Unrelated thing' });

    const rest = await search({ q: w });
    expect(ids(rest)).toEqual([inName.id, inDescription.id]);
    expect(rest.total).toBe(2);
    const gql = await t.gql(`query ($q: String) { products(q: $q) { total items { id } } }`, { q: w });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.products.items.map((p: { id: number }) => p.id)).toEqual(ids(rest));
    expect(gql.data.products.total).toBe(2);
    // A word prefix matches; upper case is the same word.
    expect(ids(await search({ q: w.slice(0, -2).toUpperCase() }))).toEqual([inName.id, inDescription.id]);
  });

  it('matches the brand, shop and category names, the category path included', async () => {
    const [b, s, c] = [word('brandword'), word('shopword'), word('topword')];
    const brand = await named(`${b} Co`);
    const shop = await newShop(t, { name: `${s} Store` });
    const { top, child } = await newCategoryBranch(t);
    await t.sql('update category set name = ? where id = ?', [`${c} things`, top.id]);
    const p = await newProduct(t, { shopId: shop.id, categoryId: child.id, brandId: brand.id });
    for (const q of [b, s, c]) expect(ids(await search({ q }))).toEqual([p.id]);
  });

  it('finds a Chinese name by a part of it: bigrams, and single characters', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const tag = word('cjk');
    const earbuds = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `无线蓝牙耳机 ${tag}` });
    const speaker = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `蓝牙音箱 ${tag}` });
    await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `有线耳机 ${tag}` });
    const within = async (q: string) => ids(await search({ q: `${q} ${tag}` })).sort((a, b) => a - b);
    expect(await within('蓝牙')).toEqual([earbuds.id, speaker.id].sort((a, b) => a - b));
    expect(await within('蓝牙耳机')).toEqual([earbuds.id]);
    expect(await within('无线蓝牙耳机')).toEqual([earbuds.id]);
    expect(await within('箱')).toEqual([speaker.id]);
    // Characters that are not next to each other in the name are not a match.
    expect(ids(await search({ q: '蓝耳' }))).toEqual([]);
    // Without the tag too (no space: a CJK run inside a word).
    expect(ids(await search({ q: '线蓝牙耳' }))).toContain(earbuds.id);
  });

  it('falls back to similar names when the words match nothing (a typo)', async () => {
    const w = word('lanternx');
    const shop = await newShop(t);
    const category = await newCategory(t);
    const p = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `Paper ${w}` });
    // One letter swapped in the middle: no prefix of the word, but most of its trigrams.
    const typo = w.slice(0, 3) + w[4] + w[3] + w.slice(5);
    expect(ids(await search({ q: typo }))).toEqual([p.id]);
    expect(ids(await search({ q: 'qqqqzzzzxxxx' }))).toEqual([]);
  });

  it('combines with every filter: category subtree, brand, shop, price bounds, and sort', async () => {
    const w = word('combo');
    const [shopA, shopB] = [await newShop(t), await newShop(t)];
    const { top, child } = await newCategoryBranch(t);
    const elsewhere = await newCategory(t);
    const brand = await named(word('Brand'));
    const a = await newProduct(t, { shopId: shopA.id, categoryId: top.id, brandId: brand.id, name: `${w} a`, skus: [{ price: 1000, stock: 50 }] });
    const b = await newProduct(t, { shopId: shopA.id, categoryId: child.id, name: `${w} b`, skus: [{ price: 3000, stock: 50 }] });
    const c = await newProduct(t, { shopId: shopB.id, categoryId: child.id, brandId: brand.id, name: `${w} c`, skus: [{ price: 2000, stock: 50 }] });
    const d = await newProduct(t, { shopId: shopB.id, categoryId: elsewhere.id, name: `${w} d`, skus: [{ price: 5000, stock: 50 }] });
    const sorted = (list: number[]) => [...list].sort((x, y) => x - y);

    expect(sorted(ids(await search({ q: w, category: top.id })))).toEqual(sorted([a.id, b.id, c.id]));
    expect(sorted(ids(await search({ q: w, category: child.id })))).toEqual(sorted([b.id, c.id]));
    expect(sorted(ids(await search({ q: w, brand_id: brand.id })))).toEqual(sorted([a.id, c.id]));
    expect(sorted(ids(await search({ q: w, shop_id: shopB.id })))).toEqual(sorted([c.id, d.id]));
    expect(sorted(ids(await search({ q: w, price_min: 2000 })))).toEqual(sorted([b.id, c.id, d.id]));
    expect(sorted(ids(await search({ q: w, price_max: 2000 })))).toEqual(sorted([a.id, c.id]));
    expect(sorted(ids(await search({ q: w, price_min: 2000, price_max: 3000 })))).toEqual(sorted([b.id, c.id]));
    const all = await search({ q: w, category: top.id, brand_id: brand.id, shop_id: shopB.id, price_min: 1500, price_max: 2500 });
    expect(ids(all)).toEqual([c.id]);
    expect(all.total).toBe(1);

    expect(ids(await search({ q: w, sort: 'price' }))).toEqual([a.id, c.id, b.id, d.id]);
    expect(ids(await search({ q: w, sort: 'price', order: 'desc', page_size: 2 }))).toEqual([d.id, b.id]);
    expect(ids(await search({ q: w, sort: 'price', page: 2, page_size: 2 }))).toEqual([b.id, d.id]);

    // Sales: c sells 3, b sells 1; the rest tie at 0 (higher id first).
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const [cSku] = (await t.sql<{ id: number }>('select id from sku where product_id = ?', [c.id])).map((r) => r.id);
    const [bSku] = (await t.sql<{ id: number }>('select id from sku where product_id = ?', [b.id])).map((r) => r.id);
    await payOk(t, customer.token, (await placeOrder(t, customer.token, cSku, 3)).id);
    await payOk(t, customer.token, (await placeOrder(t, customer.token, bSku, 1)).id);
    const bySales = await search({ q: w, sort: 'sales' });
    expect(ids(bySales)).toEqual([c.id, b.id, d.id, a.id]);
    expect(bySales.items.map((p) => p.sold_count)).toEqual([3, 1, 0, 0]);
    // Equal relevance (one name word each, same length): best sellers first, then higher id.
    expect(ids(await search({ q: w }))).toEqual([c.id, b.id, d.id, a.id]);
    // Pages of the relevance order are slices of it.
    expect(ids(await search({ q: w, page: 2, page_size: 3 }))).toEqual([a.id]);
    expect(ids(await search({ q: w, page: 1, page_size: 3 }))).toEqual([c.id, b.id, d.id]);
  });

  it('never lists, counts or suggests an unpublished product', async () => {
    const w = word('hidden');
    const shop = await newShop(t);
    const category = await newCategory(t);
    const shown = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} shown` });
    const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} draft`, status: 'draft' });
    const withdrawn = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} withdrawn` });
    await t.sql(`update product set status = 'unpublished' where id = ?`, [withdrawn.id]);

    const page = await search({ q: w });
    expect(ids(page)).toEqual([shown.id]);
    expect(page.total).toBe(1);
    // Its own words match nothing published (the similar-name fallback may list the shown one).
    expect(ids(await search({ q: `${w} draft` }))).not.toContain(draft.id);
    expect(ids(await search({ q: `${w} withdrawn` }))).not.toContain(withdrawn.id);
    const facets = await t.api('GET', `/api/products/facets?q=${w}`);
    expect(facets.body.total).toBe(1);
    expect(facets.body.shops).toEqual([expect.objectContaining({ id: shop.id, count: 1 })]);
    const suggest = await t.api('GET', `/api/search/suggest?q=${w}`);
    expect(suggest.body.items.map((s: { id: number }) => s.id)).toEqual([shown.id]);
  });

  it('follows renames of a brand at once (search document and remembered totals)', async () => {
    const [before, after] = [word('oldname'), word('newname')];
    const brand = await named(before);
    const shop = await newShop(t);
    const category = await newCategory(t);
    const p = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: brand.id });
    expect((await search({ q: before, sort: 'price' })).total).toBe(1);
    await t.sql('update brand set name = ? where id = ?', [after, brand.id]);
    expect((await search({ q: before, sort: 'price' })).total).toBe(0);
    expect(ids(await search({ q: after, sort: 'price' }))).toEqual([p.id]);
    const suggest = await t.api('GET', `/api/search/suggest?q=${after}`);
    expect(suggest.body.items).toEqual([{ kind: 'brand', id: brand.id, text: after, path: `/brands/${brand.id}` }]);
  });

  it('treats a blank keyword as none', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    await newProduct(t, { shopId: shop.id, categoryId: category.id });
    const none = await search({ shop_id: shop.id });
    expect(await search({ shop_id: shop.id, q: '   ' })).toEqual(none);
  });

  it('counts facets without a keyword too (the storefront\'s "All products"), over both doors', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 4200, stock: 1 }] });
    const everything = (await search({})).total;
    for (const [query, total] of [['', everything], ['?q=%20%20', everything], [`?shop_id=${shop.id}`, 1]] as const) {
      const res = await t.api('GET', `/api/products/facets${query}`);
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(total);
    }
    const gql = await t.gql(`query ($shopId: Int) { productFacets(shopId: $shopId) { total shops { id count } } }`, { shopId: shop.id });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.productFacets.total).toBe(1);
    expect(gql.data.productFacets.shops).toContainEqual({ id: shop.id, count: 1 });
  });
});

describe('hostile keywords', () => {
  let w: string;
  let target: { id: number };
  beforeAll(async () => {
    w = word('hostile');
    const shop = await newShop(t);
    const category = await newCategory(t);
    target = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} 100% cotton_blend` });
  });

  const SPECIALS = ['%', '_', '\\', "'", '"', '&', '|', '!', ':', '*', '(', ')', '<->', ':*', '!(', '\\\\'];

  it.each(SPECIALS)('reads %s as a plain character beside a word, over both doors', async (special) => {
    for (const q of [`${w}${special}`, `${special}${w}`, `${special} ${w} ${special}`]) {
      const rest = await search({ q });
      expect(ids(rest)).toEqual([target.id]);
      const gql = await t.gql(`query ($q: String) { products(q: $q) { items { id } } }`, { q });
      expect(gql.errors).toBeUndefined();
      expect(gql.data.products.items).toEqual([{ id: target.id }]);
    }
    expect((await t.sql(`select count(*)::int n from product where id = ?`, [target.id]))[0].n).toBe(1);
  });

  it.each(SPECIALS)('refuses %s alone (only punctuation) with VALIDATION_FAILED on q, through every door', async (special) => {
    for (const path of ['/api/products', '/api/products/facets', '/api/search/suggest']) {
      const res = await t.api('GET', `${path}?q=${encodeURIComponent(special)}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.problems).toEqual([expect.objectContaining({ field: 'q' })]);
    }
    const gql = await t.gql(`query ($q: String) { products(q: $q) { total } }`, { q: special });
    expect(gql.errors?.[0].extensions.code).toBe('VALIDATION_FAILED');
  });

  it('binds a keyword that looks like SQL as a value', async () => {
    const q = `${w}'; drop table product; --`;
    const rest = await search({ q });
    expect(rest.total).toBe(0); // "drop", "table" and "product" are words the name does not hold
    expect((await t.api('GET', `/api/products/facets?q=${encodeURIComponent(q)}`)).status).toBe(200);
    expect((await t.api('GET', `/api/search/suggest?q=${encodeURIComponent(q)}`)).body.items).toEqual([]);
    expect(ids(await search({ q: `${w}'; --` }))).toEqual([target.id]);
    expect((await t.sql(`select count(*)::int n from product where id = ?`, [target.id]))[0].n).toBe(1);
  });

  it('does not read % or _ as wildcards (the name holds them literally)', async () => {
    expect(ids(await search({ q: '100%' }))).toContain(target.id);
    expect(ids(await search({ q: `${w} cotton_blend` }))).toEqual([target.id]);
    const suggest = async (q: string) => (await t.api('GET', `/api/search/suggest?q=${encodeURIComponent(q)}`)).body.items;
    expect(await suggest(`${w} 100%`)).toEqual([expect.objectContaining({ id: target.id })]);
    expect(await suggest(`${w} 10_%`)).toEqual([]);
    expect(await suggest(`${w.slice(0, 3)}%`)).toEqual([]);
    expect(await suggest('%')).toBeUndefined(); // 400: only punctuation
  });

  it('refuses a keyword over 200 characters and takes one of 200', async () => {
    const long = await t.api('GET', `/api/products?q=${'a'.repeat(201)}`);
    expect(long.status).toBe(400);
    expect(long.body.error.details.problems).toEqual([expect.objectContaining({ field: 'q' })]);
    expect((await t.api('GET', `/api/products?q=${'蓝'.repeat(200)}`)).status).toBe(200);
    expect((await t.api('GET', `/api/products/facets?q=${'a'.repeat(201)}`)).status).toBe(400);
    expect((await t.api('GET', `/api/search/suggest?q=${'a'.repeat(201)}`)).status).toBe(400);
  });

  it('refuses a repeated q, and price_min above price_max', async () => {
    expect((await t.api('GET', `/api/products?q=a&q=b`)).status).toBe(400);
    const res = await t.api('GET', `/api/products?price_min=500&price_max=100`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.problems).toEqual([expect.objectContaining({ field: 'price_max' })]);
  });
});

describe('facets', () => {
  interface Item {
    id: number;
    categoryId: number;
    brandId: number | null;
    shopId: number;
    price: number;
    matches: boolean;
  }
  let w: string;
  let items: Item[];
  let categories: { id: number; path: string; parentId: number | null }[];
  let brands: { id: number }[];
  let shops: { id: number }[];

  beforeAll(async () => {
    w = word('facet');
    shops = [await newShop(t), await newShop(t), await newShop(t)];
    brands = [await named(word('FacetBrand')), await named(word('FacetBrand'))];
    const { top, child, grandchild } = await newCategoryBranch(t);
    const sibling = await newCategory(t, top);
    const other = await newCategory(t);
    categories = [
      { id: top.id, path: top.path, parentId: null },
      { id: child.id, path: child.path, parentId: top.id },
      { id: grandchild.id, path: grandchild.path, parentId: child.id },
      { id: sibling.id, path: sibling.path, parentId: top.id },
      { id: other.id, path: other.path, parentId: null },
    ];
    items = [];
    // A fixed pseudo-random spread: every combination of category, brand (or none), shop and price.
    let seed = 7;
    const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
    for (let i = 0; i < 60; i++) {
      const categoryId = categories[next(categories.length)].id;
      const brandPick = next(3);
      const brandId = brandPick === 2 ? null : brands[brandPick].id;
      const shopId = shops[next(shops.length)].id;
      const price = 100 * (1 + next(500)) + next(100);
      const matches = next(4) !== 0;
      const p = await newProduct(t, { shopId, categoryId, brandId, name: matches ? `${w} item ${i}` : `Other item ${i}`, skus: [{ price, stock: 1 }] });
      items.push({ id: p.id, categoryId, brandId, shopId, price, matches });
    }
  });

  interface Params {
    category?: number;
    brand_id?: number;
    shop_id?: number;
    price_min?: number;
    price_max?: number;
  }
  const inSubtree = (categoryId: number, rootId: number) =>
    categories.find((c) => c.id === categoryId)!.path.startsWith(categories.find((c) => c.id === rootId)!.path);
  /** Brute force: the products the listing would show, but for the `except` filter. */
  const admitted = (params: Params, except?: 'category' | 'brand' | 'shop' | 'price') =>
    items.filter(
      (p) =>
        p.matches &&
        (except === 'category' || params.category === undefined || inSubtree(p.categoryId, params.category)) &&
        (except === 'brand' || params.brand_id === undefined || p.brandId === params.brand_id) &&
        (except === 'shop' || params.shop_id === undefined || p.shopId === params.shop_id) &&
        (except === 'price' || ((params.price_min === undefined || p.price >= params.price_min) && (params.price_max === undefined || p.price <= params.price_max))),
    );
  const countBy = <K>(list: Item[], key: (p: Item) => K[]) => {
    const counts = new Map<K, number>();
    for (const p of list) for (const k of key(p)) counts.set(k, (counts.get(k) ?? 0) + 1);
    return counts;
  };
  const ancestors = (categoryId: number) => categories.filter((c) => inSubtree(categoryId, c.id)).map((c) => c.id);
  const asMap = (list: { id: number; count: number }[]) => new Map(list.map((x) => [x.id, x.count]));

  const CASES: Params[] = [{}, { category: 0 }, { brand_id: 0 }, { shop_id: 1 }, { price_min: 10000, price_max: 30000 }, { category: 1, brand_id: 1, shop_id: 0, price_min: 5000 }];

  it.each(CASES.map((c, i) => [i, c] as const))('counts each facet without its own filter, as a brute-force count does (case %i)', async (_i, template) => {
    // Templates name categories, brands and shops by index; real ids here.
    const params: Params = { ...template };
    if (template.category !== undefined) params.category = categories[template.category].id;
    if (template.brand_id !== undefined) params.brand_id = brands[template.brand_id].id;
    if (template.shop_id !== undefined) params.shop_id = shops[template.shop_id].id;
    const query = new URLSearchParams({ q: w, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])) });
    const res = await t.api('GET', `/api/products/facets?${query}`);
    expect(res.status).toBe(200);
    const facets = res.body;

    expect(facets.total).toBe(admitted(params).length);
    expect((await search({ q: w, ...params })).total).toBe(facets.total);
    expect(asMap(facets.categories)).toEqual(countBy(admitted(params, 'category'), (p) => ancestors(p.categoryId)));
    expect(asMap(facets.brands)).toEqual(countBy(admitted(params, 'brand'), (p) => (p.brandId === null ? [] : [p.brandId])));
    expect(asMap(facets.shops)).toEqual(countBy(admitted(params, 'shop'), (p) => [p.shopId]));
    for (const c of facets.categories) expect(c.parent_id).toBe(categories.find((x) => x.id === c.id)!.parentId);

    // Price buckets: ascending whole-yuan ranges that cover every admitted price once.
    const prices = admitted(params, 'price').map((p) => p.price);
    const buckets: { min: number; max: number | null; count: number }[] = facets.prices;
    expect(buckets.length).toBeGreaterThanOrEqual(Math.min(prices.length, 3));
    expect(buckets.length).toBeLessThanOrEqual(5);
    for (const b of buckets) {
      expect(b.min % 100).toBe(0);
      if (b.max !== null) expect((b.max + 1) % 100).toBe(0);
      expect(b.count).toBe(prices.filter((p) => p >= b.min && (b.max === null || p <= b.max)).length);
    }
    expect(buckets.reduce((n, b) => n + b.count, 0)).toBe(prices.length);
    expect(buckets.at(-1)?.max ?? null).toBeNull();

    // The other door: the same counts.
    const gql = await t.gql(
      `query ($q: String, $category: Int, $brandId: Int, $shopId: Int, $priceMin: Int, $priceMax: Int) {
         productFacets(q: $q, category: $category, brandId: $brandId, shopId: $shopId, priceMin: $priceMin, priceMax: $priceMax) {
           total categories { id parentId name depth count } brands { id name count } shops { id slug name count } prices { min max count }
         }
       }`,
      { q: w, category: params.category, brandId: params.brand_id, shopId: params.shop_id, priceMin: params.price_min, priceMax: params.price_max },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.productFacets.total).toBe(facets.total);
    expect(gql.data.productFacets.categories.map((c: { id: number; count: number }) => [c.id, c.count])).toEqual(facets.categories.map((c: { id: number; count: number }) => [c.id, c.count]));
    expect(gql.data.productFacets.brands).toEqual(facets.brands);
    expect(gql.data.productFacets.prices).toEqual(facets.prices);
  });

  it('counts without a keyword too (every published product under the filters)', async () => {
    const category = categories[0].id;
    const res = await t.api('GET', `/api/products/facets?category=${category}`);
    expect(res.status).toBe(200);
    const inTree = items.filter((p) => inSubtree(p.categoryId, category)).length;
    expect(res.body.total).toBe(inTree);
    expect(res.body.categories.find((c: { id: number }) => c.id === category).count).toBe(inTree);
    expect((await search({ category })).total).toBe(inTree);
  });

  it('selecting a price bucket lists exactly its count', async () => {
    const facets = (await t.api('GET', `/api/products/facets?q=${w}`)).body;
    for (const b of facets.prices as { min: number; max: number | null; count: number }[]) {
      const page = await search({ q: w, price_min: b.min, ...(b.max === null ? {} : { price_max: b.max }) });
      expect(page.total).toBe(b.count);
    }
  });
});

describe('remembered rankings and facets', () => {
  it('follow every change that moves a result: a new product, a sale, a price, a rename, an unpublish', async () => {
    const w = word('fresh');
    const shop = await newShop(t);
    const category = await newCategory(t);
    const brand = await named(word('FreshBrand'));
    const a = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: brand.id, name: `${w} a`, skus: [{ price: 1000, stock: 50 }] });
    const b = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} b`, skus: [{ price: 2000, stock: 50 }] });
    const facets = async () => (await t.api('GET', `/api/products/facets?q=${w}`)).body;
    // Twice each, so the second read is served by what the first remembered.
    for (let i = 0; i < 2; i++) expect(ids(await search({ q: w }))).toEqual([b.id, a.id]);
    for (let i = 0; i < 2; i++) expect((await facets()).total).toBe(2);

    const c = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${w} c`, skus: [{ price: 3000, stock: 50 }] });
    expect(ids(await search({ q: w }))).toEqual([c.id, b.id, a.id]);
    expect((await facets()).total).toBe(3);

    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const [aSku] = (await t.sql<{ id: number }>('select id from sku where product_id = ?', [a.id])).map((r) => r.id);
    await payOk(t, customer.token, (await placeOrder(t, customer.token, aSku, 2)).id);
    expect(ids(await search({ q: w }))).toEqual([a.id, c.id, b.id]);

    await t.sql('update product set price_from = 99900 where id = ?', [c.id]);
    expect((await facets()).prices.at(-1)).toEqual(expect.objectContaining({ max: null, count: 1 }));
    expect((await facets()).prices.some((p: { min: number }) => p.min >= 99000)).toBe(true);

    await t.sql('update brand set name = ? where id = ?', [`${w} renamed`, brand.id]);
    expect((await facets()).brands).toEqual([{ id: brand.id, name: `${w} renamed`, count: 1 }]);
    // The brand name is now a word of a's document, ranked in the B weight.
    expect(ids(await search({ q: w }))[0]).toBe(a.id);

    await t.sql(`update product set status = 'unpublished' where id = ?`, [a.id]);
    expect(ids(await search({ q: w }))).toEqual([c.id, b.id]);
    expect((await facets()).total).toBe(2);
  });
});

describe('suggestions', () => {
  it('suggests brands, then categories, then products whose names start with the prefix, at most 8, each with its path', async () => {
    const stem = word('quokka');
    const brand = await named(`${stem} Brand`);
    const category = await newCategory(t);
    await t.sql('update category set name = ? where id = ?', [`${stem} Corner`, category.id]);
    const shop = await newShop(t);
    const products = [];
    for (let i = 0; i < 10; i++) products.push(await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${stem} toy ${i}` }));
    // A second product of the same name is one suggestion.
    await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${stem} toy 0` });

    const res = await t.api('GET', `/api/search/suggest?q=${stem.slice(0, 8).toUpperCase()}`);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { kind: 'brand', id: brand.id, text: `${stem} Brand`, path: `/brands/${brand.id}` },
      { kind: 'category', id: category.id, text: `${stem} Corner`, path: `/categories/${category.id}` },
      ...products.slice(0, 6).map((p, i) => ({ kind: 'product', id: p.id, text: `${stem} toy ${i}`, path: `/products/${p.id}` })),
    ]);
    const gql = await t.gql(`query ($q: String!) { searchSuggestions(q: $q) { kind id text path } }`, { q: stem.slice(0, 8) });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.searchSuggestions.map((s: { kind: string }) => s.kind)).toEqual(['BRAND', 'CATEGORY', ...Array(6).fill('PRODUCT')]);
    expect(gql.data.searchSuggestions.map((s: { path: string }) => s.path)).toEqual(res.body.items.map((s: { path: string }) => s.path));

    // Spaces collapse; only names that start with the prefix.
    const spaced = await t.api('GET', `/api/search/suggest?q=${encodeURIComponent(`${stem}   toy 1`)}`);
    expect(spaced.body.items.map((s: { id: number }) => s.id)).toEqual([products[1].id]);
    expect((await t.api('GET', `/api/search/suggest?q=toy`)).body.items.filter((s: { text: string }) => s.text.startsWith(stem))).toEqual([]);
    expect((await t.api('GET', `/api/search/suggest?q=`)).body.items).toEqual([]);
  });
});
