import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../errors.js';
import { ProductStatus } from '../entities/product.entity.js';
import { intArray } from '../db/sql.js';
import type { ServiceContext } from './context.js';
import { requireCustomer } from './guards.js';
import { offsetOf, pageFrom, PageQuery, type Page, type PageRequest } from './pagination.js';
import { parseId, parseInput } from './validate.js';

/**
 * Customer-scoped favorites of products and shops. One row per (customer, object), kept unique by the
 * primary key, so favoriting is idempotent in the database and not only here.
 */
export interface ShopSummary {
  id: number;
  slug: string;
  name: string;
  /** From the shop's profile; absent when the shop has none. */
  logoUrl?: string;
}

export interface ProductSummary {
  id: number;
  name: string;
  imageUrl?: string;
  /** Lowest SKU price, in minor units of the base currency. */
  priceFrom: number;
  /** A favorite stays listed after its product is withdrawn; this says whether it is on sale. */
  published: boolean;
  shop: ShopSummary;
}

export interface FavoriteProductView {
  product: ProductSummary;
  favoritedAt: Date;
}

export interface FavoriteShopView {
  shop: ShopSummary;
  favoritedAt: Date;
}

export interface FavoritesView {
  products: Page<FavoriteProductView>;
  shops: Page<FavoriteShopView>;
}

const SHOP_COLUMNS = 's.id as shop_id, s.slug as shop_slug, s.name as shop_name, sp.logo_url as shop_logo_url';
const PRODUCT_COLUMNS = `p.id as product_id, p.name as product_name, p.image_url as product_image_url, p.price_from, p.status = '${ProductStatus.Published}' as published, ${SHOP_COLUMNS}`;
const SHOP_JOINS = 'join shop s on s.id = {shop} left join shop_profile sp on sp.shop_id = s.id';
const PRODUCT_JOINS = `join product p on p.id = f.product_id ${SHOP_JOINS.replace('{shop}', 'p.shop_id')}`;

interface ShopRow {
  shop_id: number;
  shop_slug: string;
  shop_name: string;
  shop_logo_url: string | null;
  favorited_at: Date;
}

interface ProductRow extends ShopRow {
  product_id: number;
  product_name: string;
  product_image_url: string | null;
  price_from: number;
  published: boolean;
}

type Counted<R> = R & { total: string | number };

const toShopSummary = (r: ShopRow): ShopSummary => ({
  id: r.shop_id,
  slug: r.shop_slug,
  name: r.shop_name,
  logoUrl: r.shop_logo_url ?? undefined,
});

const toFavoriteShop = (r: ShopRow): FavoriteShopView => ({ shop: toShopSummary(r), favoritedAt: new Date(r.favorited_at) });

const toFavoriteProduct = (r: ProductRow): FavoriteProductView => ({
  product: {
    id: r.product_id,
    name: r.product_name,
    imageUrl: r.product_image_url ?? undefined,
    priceFrom: r.price_from,
    published: r.published,
    shop: toShopSummary(r),
  },
  favoritedAt: new Date(r.favorited_at),
});

async function countFavorites(em: EntityManager, table: 'favorite_product' | 'favorite_shop', userId: number): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from ${table} where user_id = ?`, [userId]);
  return Number(row.n);
}

async function favoriteProductsPage(em: EntityManager, userId: number, page: PageRequest): Promise<Page<FavoriteProductView>> {
  const rows = await em.execute<Counted<ProductRow>[]>(
    `select ${PRODUCT_COLUMNS}, f.created_at as favorited_at, count(*) over () as total
       from favorite_product f ${PRODUCT_JOINS}
      where f.user_id = ? order by f.created_at desc, f.product_id desc limit ? offset ?`,
    [userId, page.pageSize, offsetOf(page)],
  );
  return pageFrom(rows, page, toFavoriteProduct, () => countFavorites(em, 'favorite_product', userId));
}

async function favoriteShopsPage(em: EntityManager, userId: number, page: PageRequest): Promise<Page<FavoriteShopView>> {
  const rows = await em.execute<Counted<ShopRow>[]>(
    `select ${SHOP_COLUMNS}, f.created_at as favorited_at, count(*) over () as total
       from favorite_shop f ${SHOP_JOINS.replace('{shop}', 'f.shop_id')}
      where f.user_id = ? order by f.created_at desc, f.shop_id desc limit ? offset ?`,
    [userId, page.pageSize, offsetOf(page)],
  );
  return pageFrom(rows, page, toFavoriteShop, () => countFavorites(em, 'favorite_shop', userId));
}

/** Both lists of the calling customer, newest first; `page`/`pageSize` apply to each list. */
export async function myFavorites(ctx: ServiceContext, query: unknown): Promise<FavoritesView> {
  const actor = requireCustomer(ctx);
  const page = parseInput(PageQuery, query);
  const products = await favoriteProductsPage(ctx.em, actor.userId, page);
  const shops = await favoriteShopsPage(ctx.em, actor.userId, page);
  return { products, shops };
}

/**
 * Favorites a published product; favoriting it again changes nothing and answers the same. One
 * statement: the upsert's no-op update returns the existing row, even one a concurrent call just wrote.
 */
export async function favoriteProduct(ctx: ServiceContext, productId: unknown): Promise<FavoriteProductView> {
  const actor = requireCustomer(ctx);
  const id = parseId(productId);
  const [row] = await ctx.em.execute<ProductRow[]>(
    `with f as (
       insert into favorite_product (user_id, product_id, created_at)
       select ?, p.id, now() from product p where p.id = ? and p.status = ?
       on conflict (user_id, product_id) do update set created_at = favorite_product.created_at
       returning product_id, created_at)
     select ${PRODUCT_COLUMNS}, f.created_at as favorited_at from f ${PRODUCT_JOINS}`,
    [actor.userId, id, ProductStatus.Published],
  );
  if (!row) throw notFound('Product', { id });
  return toFavoriteProduct(row);
}

/** Favorites a shop; idempotent like products. */
export async function favoriteShop(ctx: ServiceContext, shopId: unknown): Promise<FavoriteShopView> {
  const actor = requireCustomer(ctx);
  const id = parseId(shopId);
  const [row] = await ctx.em.execute<ShopRow[]>(
    `with f as (
       insert into favorite_shop (user_id, shop_id, created_at)
       select ?, s.id, now() from shop s where s.id = ?
       on conflict (user_id, shop_id) do update set created_at = favorite_shop.created_at
       returning shop_id, created_at)
     select ${SHOP_COLUMNS}, f.created_at as favorited_at from f ${SHOP_JOINS.replace('{shop}', 'f.shop_id')}`,
    [actor.userId, id],
  );
  if (!row) throw notFound('Shop', { id });
  return toFavoriteShop(row);
}

/** Removes a product from the caller's favorites; removing one that is not there is fine (404 only for an unknown product). */
export async function unfavoriteProduct(ctx: ServiceContext, productId: unknown): Promise<boolean> {
  const actor = requireCustomer(ctx);
  const id = parseId(productId);
  const removed = await ctx.em.execute<{ product_id: number }[]>(
    'delete from favorite_product where user_id = ? and product_id = ? returning product_id',
    [actor.userId, id],
  );
  if (removed.length === 0 && (await ctx.em.execute('select 1 from product where id = ?', [id])).length === 0) {
    throw notFound('Product', { id });
  }
  return true;
}

/** Removes a shop from the caller's favorites; idempotent like products. */
export async function unfavoriteShop(ctx: ServiceContext, shopId: unknown): Promise<boolean> {
  const actor = requireCustomer(ctx);
  const id = parseId(shopId);
  const removed = await ctx.em.execute<{ shop_id: number }[]>(
    'delete from favorite_shop where user_id = ? and shop_id = ? returning shop_id',
    [actor.userId, id],
  );
  if (removed.length === 0 && (await ctx.em.execute('select 1 from shop where id = ?', [id])).length === 0) {
    throw notFound('Shop', { id });
  }
  return true;
}

/**
 * Which of these products the customer favorited, in one query (for product reads and the GraphQL
 * `favorited` field's dataloader). An empty list asks nothing.
 */
export async function favoritedProductIds(em: EntityManager, userId: number, productIds: readonly number[]): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const rows = await em.execute<{ product_id: number }[]>(
    'select product_id from favorite_product where user_id = ? and product_id = any(?::int[])',
    [userId, intArray(productIds)],
  );
  return new Set(rows.map((r) => r.product_id));
}

/** Which of these shops the customer favorited, in one query. */
export async function favoritedShopIds(em: EntityManager, userId: number, shopIds: readonly number[]): Promise<Set<number>> {
  if (shopIds.length === 0) return new Set();
  const rows = await em.execute<{ shop_id: number }[]>(
    'select shop_id from favorite_shop where user_id = ? and shop_id = any(?::int[])',
    [userId, intArray(shopIds)],
  );
  return new Set(rows.map((r) => r.shop_id));
}
