import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newBrand, newCategory, newCustomer, newFreightTemplate, newOperator, newProduct, newShop, type TestUser } from './support/fixtures.js';

let t: TestApp;
let shop: { id: number; slug: string };
let operator: TestUser;
let category: { id: number; path: string; depth: number };
beforeAll(async () => {
  t = await startTestApp();
  shop = await newShop(t);
  operator = await newOperator(t, shop.id);
  category = await newCategory(t);
});
afterAll(() => t.close());

const upsert = (body: unknown, token = operator.token) => t.api('PUT', '/api/merchant/products', { token, body });
const productRow = async (id: number) => (await t.sql('select * from product where id = ?', [id]))[0];
const skuRows = (productId: number) => t.sql('select id, name, price, stock from sku where product_id = ? order by id', [productId]);

function draftBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Trail Shoe',
    description: 'Light and tough',
    image_url: 'https://img.test/shoe.jpg',
    category_id: category.id,
    skus: [{ name: 'EU 42', price: 45900, stock: 5 }, { name: 'EU 43', price: 42900, stock: 2 }],
    ...overrides,
  };
}

describe('merchant product upsert', () => {
  it('adjusts stock of existing SKUs by a guarded delta that concurrent sales cannot undo', async () => {
    const created = await upsert(draftBody());
    const [a, b] = created.body.skus;
    // A sale takes 3 units after the merchant read the product.
    await t.sql('update sku set stock = stock - 3 where id = ?', [a.id]);
    const res = await upsert(draftBody({ id: created.body.id, skus: [{ id: a.id, name: a.name, price: a.price, stock_delta: 10 }, { id: b.id, name: b.name, price: b.price }] }));
    expect(res.status).toBe(200);
    expect((await skuRows(created.body.id)).map((r: any) => r.stock)).toEqual([12, 2]);
    // Removing more than there is refuses the whole edit and changes nothing.
    const short = await upsert(draftBody({ id: created.body.id, name: 'Renamed', skus: [{ id: a.id, name: a.name, price: a.price, stock_delta: -13 }, { id: b.id, name: b.name, price: b.price }] }));
    expect([short.status, short.body.error.code, short.body.error.details.sku_id]).toEqual([422, 'INSUFFICIENT_STOCK', a.id]);
    expect((await skuRows(created.body.id)).map((r: any) => r.stock)).toEqual([12, 2]);
    expect((await productRow(created.body.id)).name).toBe('Trail Shoe');
    for (const sku of [{ name: 'New', price: 1, stock_delta: 1 }, { id: a.id, name: a.name, price: a.price, stock: 1, stock_delta: 1 }]) {
      expect((await upsert(draftBody({ id: created.body.id, skus: [sku] }))).status).toBe(400);
    }
  });

  it('creates a draft product with its SKUs and price_from the lowest SKU price (201)', async () => {
    const brand = await newBrand(t, 100);
    const res = await upsert(draftBody({ brand_id: brand.id }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Trail Shoe', status: 'draft', price_from: 42900, brand_id: brand.id, category_id: category.id,
      shop: { id: shop.id, slug: shop.slug },
      skus: [{ name: 'EU 42', price: 45900, stock: 5 }, { name: 'EU 43', price: 42900, stock: 2 }],
    });
    expect((await productRow(res.body.id)).price_from).toBe(42900);
    expect((await t.api('GET', `/api/products/${res.body.id}`)).status).toBe(404);
  });

  it('updates a product: edits, adds and removes SKUs, keeps stock left out, and recomputes price_from (200)', async () => {
    const created = (await upsert(draftBody())).body;
    const [first, second] = created.skus;
    await t.sql('update sku set stock = 1 where id = ?', [first.id]); // sold meanwhile
    const res = await upsert({
      id: created.id, name: 'Trail Shoe II', category_id: category.id, brand_id: null,
      skus: [{ id: first.id, name: 'EU 42 (new)', price: 50000 }, { name: 'EU 44', price: 48000, stock: 9 }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: 'Trail Shoe II', status: 'draft', price_from: 48000, brand_id: null });
    expect(res.body).not.toHaveProperty('description');
    const skus = await skuRows(created.id);
    expect(skus).toEqual([
      { id: first.id, name: 'EU 42 (new)', price: 50000, stock: 1 },
      { id: expect.any(Number), name: 'EU 44', price: 48000, stock: 9 },
    ]);
    expect(skus.map((s: any) => s.id)).not.toContain(second.id);
    expect(res.body.skus).toEqual(skus);
  });

  it('sets stock when it is sent', async () => {
    const created = (await upsert(draftBody())).body;
    const res = await upsert({ id: created.id, name: 'X', category_id: category.id, skus: created.skus.map((s: any) => ({ id: s.id, name: s.name, price: s.price, stock: 0 })) });
    expect(res.body.skus.map((s: any) => s.stock)).toEqual([0, 0]);
  });

  it('keeps the state of a published product when it is edited', async () => {
    const created = (await upsert(draftBody())).body;
    await t.api('POST', `/api/merchant/products/${created.id}/publish`, { token: operator.token });
    const res = await upsert({ ...draftBody({ name: 'Renamed' }), id: created.id, skus: created.skus.map((s: any) => ({ id: s.id, name: s.name, price: s.price })) });
    expect(res.body).toMatchObject({ status: 'published', name: 'Renamed' });
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const created = (await upsert(draftBody())).body;
    const other = await newProduct(t, { shopId: shop.id, categoryId: category.id });
    const before = { product: await productRow(created.id), skus: await skuRows(created.id), count: await t.sql('select count(*)::int as n from product') };
    const cases: [unknown, string][] = [
      [draftBody({ category_id: 999999 }), 'category_id'],
      [draftBody({ brand_id: 999999 }), 'brand_id'],
      [draftBody({ skus: [] }), 'skus'],
      [draftBody({ skus: [{ name: 'A', price: -1, stock: 1 }] }), 'skus.0.price'],
      [draftBody({ skus: [{ name: 'A', price: 10, stock: -1 }] }), 'skus.0.stock'],
      [draftBody({ skus: [{ name: 'A', price: 10.5, stock: 1 }] }), 'skus.0.price'],
      [draftBody({ skus: [{ name: 'A', price: 10 }] }), 'skus.0.stock'],
      [draftBody({ name: '' }), 'name'],
      [draftBody({ status: 'published' }), ''],
      [{ ...draftBody(), id: created.id, skus: [{ id: other.skuIds[0], name: 'Stolen', price: 1 }] }, 'skus.0.id'],
      [{ ...draftBody(), id: created.id, skus: [{ id: created.skus[0].id, name: 'A', price: 1 }, { id: created.skus[0].id, name: 'B', price: 1 }] }, 'skus.1.id'],
    ];
    for (const [body, field] of cases) {
      const res = await upsert(body);
      expect([field, res.status]).toEqual([field, 400]);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      if (field) expect(res.body.error.details.problems.map((p: any) => p.field)).toContain(field);
    }
    expect(await productRow(created.id)).toEqual(before.product);
    expect(await skuRows(created.id)).toEqual(before.skus);
    expect(await t.sql('select count(*)::int as n from product')).toEqual(before.count);
  });

  it('answers SKU_IN_USE (409) and changes nothing when a SKU left out is still referenced', async () => {
    const created = (await upsert(draftBody())).body;
    await t.sql('create table if not exists test_sku_ref (sku_id int not null references sku (id))');
    await t.sql('insert into test_sku_ref values (?)', [created.skus[1].id]);
    const before = await skuRows(created.id);
    const res = await upsert({ ...draftBody({ name: 'Changed' }), id: created.id, skus: [{ id: created.skus[0].id, name: 'Only', price: 1 }] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('SKU_IN_USE');
    expect(await skuRows(created.id)).toEqual(before);
    expect((await productRow(created.id)).name).toBe('Trail Shoe');
  });

  it("answers 404 for another shop's product, and leaves it alone", async () => {
    const otherShop = await newShop(t);
    const foreign = await newProduct(t, { shopId: otherShop.id, categoryId: category.id, status: 'draft' });
    const before = await productRow(foreign.id);
    const res = await upsert({ ...draftBody(), id: foreign.id });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
    for (const action of ['publish', 'unpublish']) {
      const r = await t.api('POST', `/api/merchant/products/${foreign.id}/${action}`, { token: operator.token });
      expect(r.status).toBe(404);
    }
    expect(await productRow(foreign.id)).toEqual(before);
    const list = await t.api('GET', '/api/merchant/products?page_size=100', { token: operator.token });
    expect(list.body.items.map((p: any) => p.id)).not.toContain(foreign.id);
  });

  it('keeps price_from equal to the lowest SKU price under concurrent edits of one product', async () => {
    const created = (await upsert(draftBody())).body;
    const [a, b] = created.skus;
    const edits = Array.from({ length: 10 }, (_, i) =>
      upsert({ id: created.id, name: `Edit ${i}`, category_id: category.id, skus: [{ id: a.id, name: 'A', price: 1000 + i }, { id: b.id, name: 'B', price: 5000 - i * 300 }] }),
    );
    for (const r of await Promise.all(edits)) expect(r.status).toBe(200);
    const [row] = await t.sql('select p.price_from, (select min(price) from sku where product_id = p.id) as lowest from product p where id = ?', [created.id]);
    expect(row.price_from).toBe(row.lowest);
  });
});

describe('merchant lifecycle', () => {
  it('publishes a draft, unpublishes it, and publishes it again', async () => {
    const created = (await upsert(draftBody())).body;
    const published = await t.api('POST', `/api/merchant/products/${created.id}/publish`, { token: operator.token });
    expect(published.status).toBe(200);
    expect(published.body.status).toBe('published');
    expect((await t.api('GET', `/api/products/${created.id}`)).status).toBe(200);

    const withdrawn = await t.api('POST', `/api/merchant/products/${created.id}/unpublish`, { token: operator.token });
    expect(withdrawn.body.status).toBe('unpublished');
    expect((await t.api('GET', `/api/products/${created.id}`)).status).toBe(404);
    expect((await t.api('GET', `/api/products?shop_id=${shop.id}`)).body.items.map((p: any) => p.id)).not.toContain(created.id);

    const again = await t.api('POST', `/api/merchant/products/${created.id}/publish`, { token: operator.token });
    expect(again.body.status).toBe('published');
  });

  it('treats publishing a published product and unpublishing an unpublished one as no-ops', async () => {
    const created = (await upsert(draftBody())).body;
    await t.api('POST', `/api/merchant/products/${created.id}/publish`, { token: operator.token });
    const twice = await t.api('POST', `/api/merchant/products/${created.id}/publish`, { token: operator.token });
    expect([twice.status, twice.body.status]).toEqual([200, 'published']);
    await t.api('POST', `/api/merchant/products/${created.id}/unpublish`, { token: operator.token });
    const again = await t.api('POST', `/api/merchant/products/${created.id}/unpublish`, { token: operator.token });
    expect([again.status, again.body.status]).toEqual([200, 'unpublished']);
  });

  it('refuses to unpublish a draft with 409 PRODUCT_STATE_CONFLICT', async () => {
    const created = (await upsert(draftBody())).body;
    const res = await t.api('POST', `/api/merchant/products/${created.id}/unpublish`, { token: operator.token });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'PRODUCT_STATE_CONFLICT', details: { status: 'draft' } });
    expect((await productRow(created.id)).status).toBe('draft');
  });

  it('answers unknown and malformed ids with 404 and 400', async () => {
    expect((await t.api('POST', '/api/merchant/products/999999/publish', { token: operator.token })).status).toBe(404);
    expect((await t.api('POST', '/api/merchant/products/abc/publish', { token: operator.token })).status).toBe(400);
  });
});

describe('merchant listing', () => {
  it("lists the own shop's products in every state, newest first, with SKUs and a status filter", async () => {
    const myShop = await newShop(t);
    const me = await newOperator(t, myShop.id);
    const draft = await newProduct(t, { shopId: myShop.id, categoryId: category.id, status: 'draft' });
    const live = await newProduct(t, { shopId: myShop.id, categoryId: category.id, status: 'published', skus: [{ price: 10, stock: 3 }] });
    const gone = await newProduct(t, { shopId: myShop.id, categoryId: category.id, status: 'unpublished' });
    await newProduct(t, { shopId: shop.id, categoryId: category.id });

    const res = await t.api('GET', '/api/merchant/products', { token: me.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ page: 1, page_size: 20, total: 3 });
    expect(res.body.items.map((p: any) => [p.id, p.status])).toEqual([[gone.id, 'unpublished'], [live.id, 'published'], [draft.id, 'draft']]);
    expect(res.body.items[1].skus).toEqual([{ id: live.skuIds[0], name: 'Variant 1', price: 10, stock: 3 }]);

    const drafts = await t.api('GET', '/api/merchant/products?status=draft', { token: me.token });
    expect(drafts.body.items.map((p: any) => p.id)).toEqual([draft.id]);
    expect((await t.api('GET', '/api/merchant/products?status=gone', { token: me.token })).status).toBe(400);
  });

  it('finds products by id, by words of the name and by low stock, over both doors, and refuses bad filters', async () => {
    const myShop = await newShop(t);
    const me = await newOperator(t, myShop.id);
    const threshold = t.config.stockLowThreshold;
    // Two SKUs below the threshold: the product is listed (and counted) once.
    const kettle = await newProduct(t, { shopId: myShop.id, categoryId: category.id, name: 'Harbor 100% Kettle', status: 'draft', skus: [{ price: 10, stock: 0 }, { price: 20, stock: threshold - 1 }] });
    const mug = await newProduct(t, { shopId: myShop.id, categoryId: category.id, name: 'Harbor Mug', skus: [{ price: 10, stock: threshold }] });
    const lamp = await newProduct(t, { shopId: myShop.id, categoryId: category.id, name: 'Desk lamp', skus: [{ price: 10, stock: 1 }, { price: 10, stock: 100 }] });
    const freight = await newFreightTemplate(t, myShop.id, { firstUnitFee: 500, additionalUnitFee: 100 }, [lamp.id]);
    // Another shop's product matches every filter and never shows.
    const foreign = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: 'Harbor Kettle', skus: [{ price: 10, stock: 0 }] });
    const ids = (res: { body: { items: { id: number }[] } }) => res.body.items.map((p) => p.id);
    const rest = (query: string) => t.api('GET', `/api/merchant/products?${query}`, { token: me.token });

    expect(ids(await rest('q=harbor'))).toEqual([mug.id, kettle.id]);
    // `%` and `_` are literal characters, not wildcards.
    expect(ids(await rest(`q=${encodeURIComponent('100%')}`))).toEqual([kettle.id]);
    expect(ids(await rest(`q=${encodeURIComponent('r_M')}`))).toEqual([]);
    const low = await rest('low_stock=true');
    expect(low.body).toMatchObject({ total: 2 });
    expect(ids(low)).toEqual([lamp.id, kettle.id]);
    expect(low.body.items[1].skus).toHaveLength(2);
    // Merchant reads say which freight template a product has (null: it ships free).
    expect(low.body.items.map((p: { freight_template_id: number | null }) => p.freight_template_id)).toEqual([freight.id, null]);
    expect(ids(await rest('low_stock=true&q=harbor&status=draft'))).toEqual([kettle.id]);
    expect(ids(await rest(`id=${kettle.id}`))).toEqual([kettle.id]);
    expect((await rest(`id=${foreign.id}`)).body).toMatchObject({ total: 0, items: [] });

    const gql = await t.gql(
      'query($q: String, $lowStock: Boolean, $id: Int) { merchantProducts(q: $q, lowStock: $lowStock, id: $id) { total items { id } } }',
      { q: 'HARBOR', lowStock: true },
      me.token,
    );
    expect(gql.data.merchantProducts).toEqual({ total: 1, items: [{ id: kettle.id }] });
    const one = await t.gql('query($id: Int) { merchantProducts(id: $id) { total items { id status freightTemplateId } } }', { id: lamp.id }, me.token);
    expect(one.data.merchantProducts).toEqual({ total: 1, items: [{ id: lamp.id, status: 'PUBLISHED', freightTemplateId: freight.id }] });

    for (const bad of ['low_stock=maybe', `q=${'x'.repeat(201)}`, 'id=0', 'id=abc']) {
      const res = await rest(bad);
      expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
    }
    const badGql = await t.gql('query($q: String) { merchantProducts(q: $q) { total } }', { q: 'x'.repeat(201) }, me.token);
    expect(badGql.errors?.[0]?.extensions?.code).toBe('VALIDATION_FAILED');
  });
});

describe('merchant authorisation', () => {
  it('answers 401 to anonymous callers and 403 to customers and admins', async () => {
    const customer = await newCustomer(t);
    const admin = await newAdmin(t);
    const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'draft' });
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/merchant/products'],
      ['PUT', '/api/merchant/products', draftBody()],
      ['POST', `/api/merchant/products/${product.id}/publish`],
      ['POST', `/api/merchant/products/${product.id}/unpublish`],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.api(method, path, { body })).status).toBe(401);
      for (const user of [customer, admin]) {
        const res = await t.api(method, path, { body, token: user.token });
        expect([method, path, res.status]).toEqual([method, path, 403]);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
    expect((await productRow(product.id)).status).toBe('draft');
  });
});
