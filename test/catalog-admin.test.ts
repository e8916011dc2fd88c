import { startTestApp, type TestApp } from './support/harness.js';
import {
  homeContentWritten, newAdmin, newBrand, newCategory, newCustomer, newOperator, newProduct, newShop, setContent, type TestUser,
} from './support/fixtures.js';

let t: TestApp;
let admin: TestUser;
let customer: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await newAdmin(t);
  customer = await newCustomer(t);
});
afterAll(() => t.close());

const brandRows = () => t.sql('select id, name, logo_url, position from brand order by position');
const contentRows = (kind: string) => t.sql('select * from home_content_item where kind = ? order by position', [kind]);

describe('admin brand replace', () => {
  beforeEach(() => t.sql('delete from brand'));

  it('replaces the ordered list: keeps, renames, reorders, creates and deletes in one go', async () => {
    const a = await newBrand(t, 0);
    const b = await newBrand(t, 1);
    const gone = await newBrand(t, 2);
    const res = await t.api('PUT', '/api/admin/brands', {
      token: admin.token,
      body: { items: [{ id: b.id, name: 'Bee' }, { name: 'New One', logo_url: 'https://img.test/new.png' }, { id: a.id, name: 'Ay' }] },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((x: any) => [x.name, x.position])).toEqual([['Bee', 0], ['New One', 1], ['Ay', 2]]);
    expect(res.body.items[0].id).toBe(b.id);
    expect(res.body.items[2].id).toBe(a.id);
    expect(res.body.items[1].logo_url).toBe('https://img.test/new.png');
    expect((await brandRows()).map((r: any) => r.id)).not.toContain(gone.id);
    expect((await t.api('GET', '/api/brands')).body).toEqual(res.body);
  });

  it("sets a deleted brand's products to no brand and keeps the products", async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const kept = await newBrand(t, 0);
    const gone = await newBrand(t, 1);
    const p = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: gone.id });
    const q = await newProduct(t, { shopId: shop.id, categoryId: category.id, brandId: kept.id });
    const res = await t.api('PUT', '/api/admin/brands', { token: admin.token, body: { items: [{ id: kept.id, name: 'Kept' }] } });
    expect(res.status).toBe(200);
    const rows = await t.sql('select id, brand_id from product where id = any(?::int[]) order by id', [`{${p.id},${q.id}}`]);
    expect(rows).toEqual([{ id: p.id, brand_id: null }, { id: q.id, brand_id: kept.id }]);
    expect((await t.api('GET', `/api/products/${p.id}`)).body.brand_id).toBeNull();
  });

  it('rejects the whole list when one item is bad, and changes nothing', async () => {
    await newBrand(t, 0);
    const before = await brandRows();
    for (const items of [
      [{ name: 'Fine' }, { id: 999999, name: 'Unknown id' }],
      [{ name: 'Twice' }, { name: 'twice' }],
      [{ name: 'Fine' }, { name: '' }],
      [{ name: 'Fine', logo_url: 'not a url' }],
      [{ name: 'Fine', colour: 'red' }],
    ]) {
      const res = await t.api('PUT', '/api/admin/brands', { token: admin.token, body: { items } });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(await brandRows()).toEqual(before);
    }
  });

  it('accepts an empty list (no brands)', async () => {
    await newBrand(t, 0);
    const res = await t.api('PUT', '/api/admin/brands', { token: admin.token, body: { items: [] } });
    expect(res.body.items).toEqual([]);
    expect(await brandRows()).toEqual([]);
  });

  it('serializes concurrent replaces: the result is exactly one of the submitted lists', async () => {
    const lists = Array.from({ length: 8 }, (_, i) => Array.from({ length: 5 }, (_, j) => ({ name: `L${i}-B${j}` })));
    const results = await Promise.all(lists.map((items) => t.api('PUT', '/api/admin/brands', { token: admin.token, body: { items } })));
    for (const r of results) expect(r.status).toBe(200);
    const names = (await brandRows()).map((r: any) => r.name);
    expect(lists.map((l) => l.map((b) => b.name))).toContainEqual(names);
    expect((await brandRows()).map((r: any) => r.position)).toEqual([0, 1, 2, 3, 4]);
  });

  it('is for platform admins only', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const body = { items: [{ name: 'X' }] };
    expect((await t.api('PUT', '/api/admin/brands', { body })).status).toBe(401);
    for (const user of [customer, operator]) {
      const res = await t.api('PUT', '/api/admin/brands', { token: user.token, body });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('FORBIDDEN');
    }
  });
});

describe('admin shop profile', () => {
  it('creates a profile, then replaces it as a whole, and returns the stored profile', async () => {
    const shop = await newShop(t);
    const created = await t.api('PUT', `/api/admin/shops/${shop.id}/profile`, {
      token: admin.token,
      body: { logo_url: 'https://img.test/logo.png', description: 'Hello', contact_phone: '123' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ shop_id: shop.id, logo_url: 'https://img.test/logo.png', description: 'Hello', contact_phone: '123' });
    expect((await t.api('GET', `/api/shops/${shop.slug}`)).body.profile).toEqual(created.body);

    const replaced = await t.api('PUT', `/api/admin/shops/${shop.id}/profile`, {
      token: admin.token,
      body: { logo_url: 'https://img.test/logo2.png', banner_url: 'https://img.test/banner.png' },
    });
    expect(replaced.body).toMatchObject({ logo_url: 'https://img.test/logo2.png', banner_url: 'https://img.test/banner.png' });
    expect(replaced.body).not.toHaveProperty('description');
    expect(replaced.body).not.toHaveProperty('contact_phone');
    expect(await t.sql('select count(*)::int as n from shop_profile where shop_id = ?', [shop.id])).toEqual([{ n: 1 }]);
  });

  it('answers an unknown shop with 404, bad input with 400, and a non-admin with 403; nothing is stored', async () => {
    const shop = await newShop(t);
    expect((await t.api('PUT', '/api/admin/shops/999999/profile', { token: admin.token, body: { logo_url: 'https://img.test/l.png' } })).status).toBe(404);
    for (const body of [{}, { logo_url: 'ftp://x' }, { logo_url: 'https://img.test/l.png', description: 'x'.repeat(2001) }, { logo_url: 'https://img.test/l.png', extra: 1 }]) {
      const res = await t.api('PUT', `/api/admin/shops/${shop.id}/profile`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    const operator = await newOperator(t, shop.id);
    const res = await t.api('PUT', `/api/admin/shops/${shop.id}/profile`, { token: operator.token, body: { logo_url: 'https://img.test/l.png' } });
    expect(res.status).toBe(403);
    expect(await t.sql('select count(*)::int as n from shop_profile where shop_id = ?', [shop.id])).toEqual([{ n: 0 }]);
  });
});

describe('home content', () => {
  it('serves the four keys, each present even when empty', async () => {
    await t.sql('delete from home_content_item');
    homeContentWritten(t);
    const res = await t.api('GET', '/api/content/home');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ banners: [], promos: [], quick_links: [], floor_adverts: [] });
  });

  it('leaves inactive items out of the home but lists them for admins', async () => {
    await setContent(t, 'promos', [
      { title: 'On', destination: '/coupons' },
      { title: 'Off', destination: '/points', active: false },
      { title: 'Also on', destination: '/' },
    ]);
    const home = await t.api('GET', '/api/content/home');
    expect(home.body.promos.map((i: any) => i.title)).toEqual(['On', 'Also on']);
    const all = await t.api('GET', '/api/admin/content', { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.promos.map((i: any) => [i.title, i.active])).toEqual([['On', true], ['Off', false], ['Also on', true]]);
    expect(Object.keys(all.body).sort()).toEqual(['banners', 'floor_adverts', 'promos', 'quick_links']);
  });

  it('reindexes positions from the submitted order, whatever positions the client sent', async () => {
    const res = await t.api('PUT', '/api/admin/content/banners', {
      token: admin.token,
      body: {
        items: [
          { title: 'Third sent first', destination: '/flash-sales', position: 7 },
          { title: 'Second', destination: '/group-buys', position: 7 },
          { title: 'Last', destination: '/', position: -3, active: false },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('banners');
    expect(res.body.items.map((i: any) => [i.title, i.position, i.active])).toEqual([
      ['Third sent first', 0, true], ['Second', 1, true], ['Last', 2, false],
    ]);
    expect((await contentRows('banners')).map((r: any) => [r.title, r.position])).toEqual([
      ['Third sent first', 0], ['Second', 1], ['Last', 2],
    ]);
    expect((await t.api('GET', '/api/content/home')).body.banners.map((i: any) => i.title)).toEqual(['Third sent first', 'Second']);
  });

  it('accepts every kind of storefront route that exists', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const brand = await newBrand(t, 500);
    const product = await newProduct(t, { shopId: shop.id, categoryId: category.id });
    const destinations = ['/', `/products/${product.id}`, `/shops/${shop.slug}`, `/categories/${category.id}`, `/brands/${brand.id}`,
      '/flash-sales', '/group-buys', '/points', '/coupons'];
    const res = await t.api('PUT', '/api/admin/content/quick_links', {
      token: admin.token,
      body: { items: destinations.map((destination, i) => ({ title: `Link ${i}`, destination })) },
    });
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: any) => i.destination)).toEqual(destinations);
  });

  it('rejects the whole list when one destination is bad, and changes nothing', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'draft' });
    await setContent(t, 'floor_adverts', [{ title: 'Keep me', destination: '/' }]);
    const before = await contentRows('floor_adverts');
    for (const bad of ['/products/999999', `/products/${draft.id}`, '/shops/no-such-shop', '/categories/999999', '/brands/999999',
      '/nowhere', 'https://evil.test/', '/products/abc', '/products/1/extra', '/points?x=1', '']) {
      const res = await t.api('PUT', '/api/admin/content/floor_adverts', {
        token: admin.token,
        body: { items: [{ title: 'Fine', destination: '/coupons' }, { title: 'Bad', destination: bad }] },
      });
      expect([bad, res.status]).toEqual([bad, 400]);
      expect(res.body.error.code).toBe('DESTINATION_INVALID');
      expect(res.body.error.details.problems).toEqual([{ field: 'items.1.destination', message: expect.any(String) }]);
      expect(await contentRows('floor_adverts')).toEqual(before);
    }
  });

  it('lists every bad destination of a rejected list', async () => {
    const res = await t.api('PUT', '/api/admin/content/promos', {
      token: admin.token,
      body: { items: [{ title: 'A', destination: '/nope' }, { title: 'B', destination: '/' }, { title: 'C', destination: '/brands/999999' }] },
    });
    expect(res.body.error.details.problems.map((p: any) => p.field)).toEqual(['items.0.destination', 'items.2.destination']);
  });

  it('rejects malformed items with 400 VALIDATION_FAILED and changes nothing', async () => {
    await setContent(t, 'promos', [{ title: 'Keep', destination: '/' }]);
    const before = await contentRows('promos');
    for (const body of [{ items: [{ destination: '/' }] }, { items: [{ title: 'x', destination: '/', active: 'yes' }] }, { list: [] }, [{ title: 'x', destination: '/' }]]) {
      const res = await t.api('PUT', '/api/admin/content/promos', { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await contentRows('promos')).toEqual(before);
  });

  it('answers an unknown kind with 404', async () => {
    const res = await t.api('PUT', '/api/admin/content/popups', { token: admin.token, body: { items: [] } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('replaces only the submitted kind', async () => {
    await setContent(t, 'banners', [{ title: 'Banner stays', destination: '/' }]);
    await t.api('PUT', '/api/admin/content/promos', { token: admin.token, body: { items: [] } });
    expect((await contentRows('banners')).map((r: any) => r.title)).toEqual(['Banner stays']);
    expect(await contentRows('promos')).toEqual([]);
  });

  it('serializes concurrent replaces of one kind: the result is exactly one submitted list', async () => {
    const lists = Array.from({ length: 8 }, (_, i) => Array.from({ length: 4 }, (_, j) => ({ title: `L${i}-${j}`, destination: '/' })));
    const results = await Promise.all(lists.map((items) => t.api('PUT', '/api/admin/content/quick_links', { token: admin.token, body: { items } })));
    for (const r of results) expect(r.status).toBe(200);
    const titles = (await contentRows('quick_links')).map((r: any) => r.title);
    expect(lists.map((l) => l.map((i) => i.title))).toContainEqual(titles);
  });

  it('is for platform admins only', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    expect((await t.api('GET', '/api/admin/content')).status).toBe(401);
    for (const user of [customer, operator]) {
      expect((await t.api('GET', '/api/admin/content', { token: user.token })).status).toBe(403);
      expect((await t.api('PUT', '/api/admin/content/banners', { token: user.token, body: { items: [] } })).status).toBe(403);
    }
  });
});
