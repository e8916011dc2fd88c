import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newProduct, newShop, type TestUser } from './support/fixtures.js';
import { favoritedProductIds, favoritedShopIds } from '../src/services/accounts/favorites.service.js';
import { createLoaders } from '../src/graphql/loaders.js';
import { Role } from '../src/entities/user.entity.js';
import type { ServiceContext } from '../src/shared/context.js';

let t: TestApp;
let category: { id: number };
beforeAll(async () => {
  t = await startTestApp();
  category = await newCategory(t);
});
afterAll(() => t.close());

const product = async (shopId: number, status: 'draft' | 'published' | 'unpublished' = 'published') =>
  newProduct(t, { shopId, categoryId: category.id, status, skus: [{ price: 2_500, stock: 3 }, { price: 1_990, stock: 1 }] });

const favoriteRows = async (table: 'favorite_product' | 'favorite_shop', userId: number) =>
  (await t.sql(`select count(*)::int as n from ${table} where user_id = ?`, [userId]))[0].n as number;

const put = (user: TestUser, kind: 'products' | 'shops', id: number | string) => t.api('PUT', `/api/me/favorites/${kind}/${id}`, { token: user.token });
const del = (user: TestUser, kind: 'products' | 'shops', id: number | string) => t.api('DELETE', `/api/me/favorites/${kind}/${id}`, { token: user.token });

describe('favorite products', () => {
  it('favorites a product and answers its summary with the shop summary', async () => {
    const customer = await newCustomer(t);
    const shop = await newShop(t, { withProfile: true, name: 'Green Grocer' });
    const p = await product(shop.id);
    const res = await put(customer, 'products', p.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      product: {
        id: p.id,
        name: expect.any(String),
        price_from: 1_990,
        available: true,
        shop: { id: shop.id, slug: shop.slug, name: 'Green Grocer' },
      },
      favorited_at: expect.any(String),
    });
  });

  it('is idempotent: favoriting twice keeps one row and the first time, removing twice is fine', async () => {
    const customer = await newCustomer(t);
    const p = await product((await newShop(t)).id);
    const first = await put(customer, 'products', p.id);
    const second = await put(customer, 'products', p.id);
    expect(second.status).toBe(200);
    expect(second.body.favorited_at).toBe(first.body.favorited_at);
    expect(await favoriteRows('favorite_product', customer.id)).toBe(1);

    expect((await del(customer, 'products', p.id)).status).toBe(204);
    expect((await del(customer, 'products', p.id)).status).toBe(204);
    expect(await favoriteRows('favorite_product', customer.id)).toBe(0);
  });

  it('keeps one row when the same product is favorited 10 times concurrently', async () => {
    const customer = await newCustomer(t);
    const p = await product((await newShop(t)).id);
    const results = await Promise.all(Array.from({ length: 10 }, () => put(customer, 'products', p.id)));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(results.map((r) => r.body.favorited_at)).size).toBe(1);
    expect(await favoriteRows('favorite_product', customer.id)).toBe(1);
  });

  it('refuses a second row for the same pair in the database itself', async () => {
    const customer = await newCustomer(t);
    const p = await product((await newShop(t)).id);
    await put(customer, 'products', p.id);
    await expect(t.sql('insert into favorite_product (user_id, product_id, created_at) values (?, ?, now())', [customer.id, p.id])).rejects.toThrow(/duplicate|unique/i);
  });

  it('answers 404 for an unknown or unpublished product, 400 for a malformed id, and stores nothing', async () => {
    const customer = await newCustomer(t);
    const draft = await product((await newShop(t)).id, 'draft');
    for (const id of [999_999, draft.id]) {
      const res = await put(customer, 'products', id);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await del(customer, 'products', 999_999)).status).toBe(404);
    expect((await put(customer, 'products', 'abc')).status).toBe(400);
    expect(await favoriteRows('favorite_product', customer.id)).toBe(0);
  });

  it('keeps a withdrawn product listed, marked unavailable, and lets the customer remove it', async () => {
    const customer = await newCustomer(t);
    const p = await product((await newShop(t)).id);
    await put(customer, 'products', p.id);
    await t.sql(`update product set status = 'unpublished' where id = ?`, [p.id]);
    const list = await t.api('GET', '/api/me/favorites', { token: customer.token });
    expect(list.body.products.items[0].product).toMatchObject({ id: p.id, available: false });
    expect((await del(customer, 'products', p.id)).status).toBe(204);
    expect(await favoriteRows('favorite_product', customer.id)).toBe(0);
  });
});

describe('favorite shops', () => {
  it('favorites a shop idempotently; a shop without a profile has no logo', async () => {
    const customer = await newCustomer(t);
    const shop = await newShop(t, { name: 'Bare Shop' });
    const res = await put(customer, 'shops', shop.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ shop: { id: shop.id, slug: shop.slug, name: 'Bare Shop' }, favorited_at: expect.any(String) });
    expect((await put(customer, 'shops', shop.id)).status).toBe(200);
    expect(await favoriteRows('favorite_shop', customer.id)).toBe(1);
    expect((await del(customer, 'shops', shop.id)).status).toBe(204);
    expect((await del(customer, 'shops', shop.id)).status).toBe(204);
    expect(await favoriteRows('favorite_shop', customer.id)).toBe(0);
  });

  it('answers 404 for an unknown shop', async () => {
    const customer = await newCustomer(t);
    expect((await put(customer, 'shops', 999_999)).status).toBe(404);
    expect((await del(customer, 'shops', 999_999)).status).toBe(404);
  });
});

describe('the favorites list', () => {
  it('returns both lists newest first, each with its summary, and only the caller’s', async () => {
    const alice = await newCustomer(t);
    const bob = await newCustomer(t);
    const shopA = await newShop(t, { withProfile: true });
    const shopB = await newShop(t);
    const p1 = await product(shopA.id);
    const p2 = await product(shopB.id);
    await put(alice, 'products', p1.id);
    await put(alice, 'products', p2.id);
    await put(alice, 'shops', shopB.id);
    await put(alice, 'shops', shopA.id);
    await put(bob, 'products', p1.id);

    const list = await t.api('GET', '/api/me/favorites', { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.body.products).toMatchObject({ page: 1, page_size: 20, total: 2 });
    expect(list.body.products.items.map((f: any) => [f.product.id, f.product.shop.id])).toEqual([[p2.id, shopB.id], [p1.id, shopA.id]]);
    expect(list.body.shops.items.map((f: any) => f.shop.id)).toEqual([shopA.id, shopB.id]);
    expect(list.body.shops.items.map((f: any) => f.shop.logo_url)).toEqual([`https://img.test/${shopA.slug}.png`, undefined]);
    expect(list.body.shops.total).toBe(2);

    // Bob removing his favorite leaves Alice's alone, and he sees only his own.
    await del(bob, 'products', p1.id);
    const bobList = await t.api('GET', '/api/me/favorites', { token: bob.token });
    expect(bobList.body.products).toEqual({ items: [], page: 1, page_size: 20, total: 0 });
    expect(bobList.body.shops.total).toBe(0);
    expect(await favoriteRows('favorite_product', alice.id)).toBe(2);
  });

  it('pages each list with the same page arguments', async () => {
    const customer = await newCustomer(t);
    const shop = await newShop(t);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await product(shop.id)).id);
    for (const id of ids) await put(customer, 'products', id);
    await put(customer, 'shops', shop.id);
    const second = await t.api('GET', '/api/me/favorites?page=2&page_size=2', { token: customer.token });
    expect(second.body.products).toMatchObject({ page: 2, page_size: 2, total: 3 });
    expect(second.body.products.items.map((f: any) => f.product.id)).toEqual([ids[0]]);
    expect(second.body.shops).toEqual({ items: [], page: 2, page_size: 2, total: 1 });
    expect((await t.api('GET', '/api/me/favorites?page_size=500', { token: customer.token })).status).toBe(400);
  });

  it('is for customers: anonymous 401, operator and admin 403', async () => {
    const shop = await newShop(t);
    const p = await product(shop.id);
    const operator = await newOperator(t, shop.id);
    const admin = await newAdmin(t);
    const calls: [string, string][] = [
      ['GET', '/api/me/favorites'],
      ['PUT', `/api/me/favorites/products/${p.id}`],
      ['DELETE', `/api/me/favorites/products/${p.id}`],
      ['PUT', `/api/me/favorites/shops/${shop.id}`],
      ['DELETE', `/api/me/favorites/shops/${shop.id}`],
    ];
    for (const [method, path] of calls) {
      const anonymous = await t.api(method, path);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
      for (const user of [operator, admin]) expect((await t.api(method, path, { token: user.token })).status).toBe(403);
    }
    expect((await t.sql('select count(*)::int as n from favorite_product where product_id = ?', [p.id]))[0].n).toBe(0);
  });

  it('works the same over GraphQL', async () => {
    const customer = await newCustomer(t);
    const shop = await newShop(t, { withProfile: true });
    const p = await product(shop.id);
    const fav = await mutate(t, 'favoriteProduct', { productId: p.id }, 'favorite { product { id priceFrom available shop { id slug } } }', customer.token);
    expect(fav.errors).toBeUndefined();
    expect(fav.payload.favorite.product).toEqual({ id: p.id, priceFrom: 1_990, available: true, shop: { id: shop.id, slug: shop.slug } });
    const favShop = await mutate(t, 'favoriteShop', { shopId: shop.id }, 'favorite { shop { id logoUrl } }', customer.token);
    expect(favShop.payload.favorite.shop).toEqual({ id: shop.id, logoUrl: `https://img.test/${shop.slug}.png` });

    const list = await t.gql(`{ myFavorites { products { total items { product { id } } } shops { total items { shop { slug } } } } }`, {}, customer.token);
    expect(list.data.myFavorites).toEqual({ products: { total: 1, items: [{ product: { id: p.id } }] }, shops: { total: 1, items: [{ shop: { slug: shop.slug } }] } });

    expect((await mutate(t, 'unfavoriteShop', { shopId: shop.id }, 'shopId', customer.token)).payload).toEqual({ shopId: shop.id, userErrors: [] });
    const missing = await mutate(t, 'favoriteProduct', { productId: 999999 }, 'favorite { favoritedAt }', customer.token);
    expect(missing.payload.favorite).toBeNull();
    expect(missing.userErrors.map((e) => e.code)).toEqual(['NOT_FOUND']);
    expect((await t.gql(`{ myFavorites { shops { total } } }`)).errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});

describe('"did the caller favorite this?" for product and shop reads', () => {
  it('answers for a batch of products and of shops in one query each, for that customer only', async () => {
    const customer = await newCustomer(t);
    const other = await newCustomer(t);
    const shops = [await newShop(t), await newShop(t), await newShop(t)];
    const products = [await product(shops[0].id), await product(shops[1].id), await product(shops[2].id)];
    await put(customer, 'products', products[0].id);
    await put(customer, 'products', products[2].id);
    await put(customer, 'shops', shops[1].id);
    await put(other, 'products', products[1].id);

    const em = t.em();
    t.resetQueryLog();
    const productIds = await favoritedProductIds(em, customer.id, products.map((p) => p.id));
    expect(t.queries).toHaveLength(1);
    expect(productIds).toEqual(new Set([products[0].id, products[2].id]));
    t.resetQueryLog();
    expect(await favoritedShopIds(em, customer.id, shops.map((s) => s.id))).toEqual(new Set([shops[1].id]));
    expect(t.queries).toHaveLength(1);
    t.resetQueryLog();
    expect(await favoritedProductIds(em, customer.id, [])).toEqual(new Set());
    expect(t.queries).toHaveLength(0);
  });

  it('batches every load of one request into one query, and asks nothing for a non-customer', async () => {
    const customer = await newCustomer(t);
    const shop = await newShop(t);
    const products = [await product(shop.id), await product(shop.id), await product(shop.id)];
    await put(customer, 'products', products[1].id);
    await put(customer, 'shops', shop.id);

    const ctxFor = (actor: ServiceContext['actor']) => ({ em: t.em(), actor }) as ServiceContext;
    const loaders = createLoaders(ctxFor({ userId: customer.id, role: Role.Customer, shopId: null, shopRole: null, platformRole: null, memberships: [], shopProblem: null, tokenHash: '' }));
    t.resetQueryLog();
    const answers = await Promise.all([...products.map((p) => loaders.favoritedProducts.load(p.id)), loaders.favoritedShops.load(shop.id)]);
    expect(answers).toEqual([false, true, false, true]);
    expect(t.queries).toHaveLength(2);

    const anonymous = createLoaders(ctxFor(null));
    t.resetQueryLog();
    expect(await anonymous.favoritedProducts.loadMany(products.map((p) => p.id))).toEqual([false, false, false]);
    expect(t.queries).toHaveLength(0);
  });

  it('product and shop reads say whether the calling customer favorited them, over REST', async () => {
    const customer = await newCustomer(t);
    const other = await newCustomer(t);
    const operator = await newOperator(t, (await newShop(t)).id);
    const shop = await newShop(t);
    const [liked, plain] = [await product(shop.id), await product(shop.id)];
    await put(customer, 'products', liked.id);
    await put(customer, 'shops', shop.id);

    const listing = `/api/products?shop_id=${shop.id}`;
    const mine = await t.api('GET', listing, { token: customer.token });
    expect(Object.fromEntries(mine.body.items.map((p: any) => [p.id, p.favorited]))).toEqual({ [liked.id]: true, [plain.id]: false });
    expect((await t.api('GET', listing, { token: other.token })).body.items.map((p: any) => p.favorited)).toEqual([false, false]);
    // Anyone but a customer has no favorites: the field is left out.
    for (const token of [operator.token, undefined]) {
      for (const p of (await t.api('GET', listing, { token })).body.items) expect(p).not.toHaveProperty('favorited');
    }
    expect((await t.api('GET', `/api/products/${liked.id}`, { token: customer.token })).body.favorited).toBe(true);
    expect((await t.api('GET', `/api/products/${liked.id}`)).body).not.toHaveProperty('favorited');

    expect((await t.api('GET', `/api/shops/${shop.slug}`, { token: customer.token })).body.favorited).toBe(true);
    expect((await t.api('GET', `/api/shops/${shop.slug}`, { token: other.token })).body.favorited).toBe(false);
    const shops = await t.api('GET', '/api/shops?page_size=100', { token: customer.token });
    expect(shops.body.items.filter((s: any) => s.favorited).map((s: any) => s.id)).toEqual([shop.id]);

    // One statement more than the same read by a non-customer (who is asked nothing).
    t.resetQueryLog();
    await t.api('GET', listing, { token: operator.token });
    const asOperator = t.queries.length;
    t.resetQueryLog();
    await t.api('GET', listing, { token: customer.token });
    expect(t.queries.length).toBe(asOperator + 1);
  });

  it('product and shop reads say it over GraphQL, one query per kind for a whole page', async () => {
    const customer = await newCustomer(t);
    const shops = [await newShop(t), await newShop(t), await newShop(t)];
    const products: { id: number }[] = [];
    for (const s of shops) products.push(await product(s.id), await product(s.id));
    await put(customer, 'products', products[1].id);
    await put(customer, 'shops', shops[2].id);
    const favoriteQueries = () => t.queries.filter((q) => /from "?favorite_(product|shop)/.test(q));

    t.resetQueryLog();
    const res = await t.gql(`{ products(pageSize: 100) { items { id favorited shop { id favorited } } } }`, {}, customer.token);
    expect(res.errors).toBeUndefined();
    const mineOnly = res.data.products.items.filter((p: any) => products.some((x) => x.id === p.id));
    expect(mineOnly.filter((p: any) => p.favorited).map((p: any) => p.id)).toEqual([products[1].id]);
    expect([...new Set(mineOnly.filter((p: any) => p.shop.favorited).map((p: any) => p.shop.id))]).toEqual([shops[2].id]);
    expect(favoriteQueries()).toHaveLength(2);

    const one = await t.gql(`query($id: Int!) { product(id: $id) { favorited shop { favorited } } }`, { id: products[5].id }, customer.token);
    expect(one.data.product).toEqual({ favorited: false, shop: { favorited: true } });
    const anonymous = await t.gql(`query($id: Int!) { product(id: $id) { favorited } }`, { id: products[1].id });
    expect(anonymous.data.product.favorited).toBe(false);
    const shop = await t.gql(`query($slug: String!) { shop(slug: $slug) { favorited } }`, { slug: shops[2].slug }, customer.token);
    expect(shop.data.shop.favorited).toBe(true);
  });
});
