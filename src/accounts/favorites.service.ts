import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../errors.js';
import { ProductStatus } from '../entities/product.entity.js';
import { intArray } from '../db/sql.js';
import { Role } from '../entities/user.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireCustomer } from '../shared/guards.js';
import { pageOffset, pageFrom, pageFields, type Page, type PageRequest } from '../shared/pagination.js';
import { idParam, parseInput, z } from '../shared/validate.js';

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
  /** False once the product is withdrawn from sale (a favorite stays listed). */
  available: boolean;
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

const SHOP_COLUMNS = 's.id as shop_id, s.slug as shop_slug, s.name as shop_name';

interface ShopRow {
  shop_id: number;
  shop_slug: string;
  shop_name: string;
  shop_logo_url?: string | null;
  favorited_at: Date;
}

interface ProductRow extends ShopRow {
  product_id: number;
  product_name: string;
  product_image_url: string | null;
  price_from: number;
  available: boolean;
}

const toShopSummary = (r: ShopRow): ShopSummary => ({
  id: r.shop_id,
  slug: r.shop_slug,
  name: r.shop_name,
  logoUrl: r.shop_logo_url ?? undefined,
});

const PageQuery = z.object(pageFields);

/** One favorite table and the table it points at. */
interface FavoriteTable {
  table: string;
  column: string;
  target: string;
  label: string;
}

/** Which targets may be favorited, and how a row (table `f` joined to its summary) becomes the view. */
interface Kind<Row, View> extends FavoriteTable {
  /** Only these may be added (SQL on the target aliased `t`). */
  addable: string;
  summary: { columns: string; joins: string };
  toView: (row: Row) => View;
}

const PRODUCTS: Kind<ProductRow, FavoriteProductView> = {
  table: 'favorite_product',
  column: 'product_id',
  target: 'product',
  label: 'Product',
  addable: `t.status = '${ProductStatus.Published}'`,
  summary: {
    columns: `p.id as product_id, p.name as product_name, p.image_url as product_image_url, p.price_from,
              p.status = '${ProductStatus.Published}' as available, ${SHOP_COLUMNS}`,
    joins: 'join product p on p.id = f.product_id join shop s on s.id = p.shop_id',
  },
  toView: (r) => ({
    product: {
      id: r.product_id,
      name: r.product_name,
      imageUrl: r.product_image_url ?? undefined,
      priceFrom: r.price_from,
      available: r.available,
      shop: toShopSummary(r),
    },
    favoritedAt: new Date(r.favorited_at),
  }),
};

const SHOPS: Kind<ShopRow, FavoriteShopView> = {
  table: 'favorite_shop',
  column: 'shop_id',
  target: 'shop',
  label: 'Shop',
  addable: 'true',
  summary: {
    columns: `${SHOP_COLUMNS}, sp.logo_url as shop_logo_url`,
    joins: 'join shop s on s.id = f.shop_id left join shop_profile sp on sp.shop_id = s.id',
  },
  toView: (r) => ({ shop: toShopSummary(r), favoritedAt: new Date(r.favorited_at) }),
};

async function favoritesPage<Row, View>(em: EntityManager, kind: Kind<Row, View>, userId: number, page: PageRequest): Promise<Page<View>> {
  const rows = await em.execute<(Row & { total: string })[]>(
    `select ${kind.summary.columns}, f.created_at as favorited_at, count(*) over () as total
       from ${kind.table} f ${kind.summary.joins}
      where f.user_id = ? order by f.created_at desc, f.${kind.column} desc limit ? offset ?`,
    [userId, page.pageSize, pageOffset(page)],
  );
  return pageFrom(rows, page, kind.toView, async () => {
    const [row] = await em.execute<{ n: string }[]>(`select count(*) as n from ${kind.table} where user_id = ?`, [userId]);
    return Number(row.n);
  });
}

/** Both lists of the calling customer, newest first; `page`/`pageSize` apply to each list. */
export async function myFavorites(ctx: ServiceContext, query: unknown): Promise<FavoritesView> {
  const actor = requireCustomer(ctx);
  const page = parseInput(PageQuery, query);
  const products = await favoritesPage(ctx.em, PRODUCTS, actor.userId, page);
  const shops = await favoritesPage(ctx.em, SHOPS, actor.userId, page);
  return { products, shops };
}

/**
 * Idempotent add, in one statement: the upsert's no-op update returns the existing row (even one a
 * concurrent call has just written), so favoriting again answers the same, first `favoritedAt` included.
 */
async function addFavorite<Row, View>(ctx: ServiceContext, kind: Kind<Row, View>, rawId: unknown): Promise<View> {
  const actor = requireCustomer(ctx);
  const id = parseInput(idParam, rawId);
  const [row] = await ctx.em.execute<Row[]>(
    `with f as (
       insert into ${kind.table} (user_id, ${kind.column}, created_at)
       select ?, t.id, now() from ${kind.target} t where t.id = ? and ${kind.addable}
       on conflict (user_id, ${kind.column}) do update set created_at = ${kind.table}.created_at
       returning ${kind.column}, created_at)
     select ${kind.summary.columns}, f.created_at as favorited_at from f ${kind.summary.joins}`,
    [actor.userId, id],
  );
  if (!row) throw notFound(kind.label, { id });
  return kind.toView(row);
}

/** Removing what is not a favorite is fine; only an unknown object is 404 (asked only when nothing was removed). */
async function removeFavorite(ctx: ServiceContext, kind: FavoriteTable, rawId: unknown): Promise<boolean> {
  const actor = requireCustomer(ctx);
  const id = parseInput(idParam, rawId);
  const removed = await ctx.em.execute(`delete from ${kind.table} where user_id = ? and ${kind.column} = ? returning 1`, [actor.userId, id]);
  if (removed.length === 0 && (await ctx.em.execute(`select 1 from ${kind.target} where id = ?`, [id])).length === 0) {
    throw notFound(kind.label, { id });
  }
  return true;
}

async function favoritedIds(em: EntityManager, kind: FavoriteTable, userId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await em.execute<{ id: number }[]>(
    `select ${kind.column} as id from ${kind.table} where user_id = ? and ${kind.column} = any(?::int[])`,
    [userId, intArray(ids)],
  );
  return new Set(rows.map((r) => r.id));
}

/** Favorites a published product (a draft or withdrawn one is 404); idempotent. */
export const favoriteProduct = (ctx: ServiceContext, productId: unknown) => addFavorite(ctx, PRODUCTS, productId);
/** Removes a product from the caller's favorites (any product, withdrawn ones too); idempotent. */
export const unfavoriteProduct = (ctx: ServiceContext, productId: unknown) => removeFavorite(ctx, PRODUCTS, productId);
/** Favorites a shop; idempotent. */
export const favoriteShop = (ctx: ServiceContext, shopId: unknown) => addFavorite(ctx, SHOPS, shopId);
/** Removes a shop from the caller's favorites; idempotent. */
export const unfavoriteShop = (ctx: ServiceContext, shopId: unknown) => removeFavorite(ctx, SHOPS, shopId);

/**
 * Which of these products the customer favorited, in one query (for product reads and the GraphQL
 * `favorited` field's dataloader). An empty list asks nothing.
 */
export const favoritedProductIds = (em: EntityManager, userId: number, productIds: readonly number[]) =>
  favoritedIds(em, PRODUCTS, userId, productIds);

/** Which of these shops the customer favorited, in one query. */
export const favoritedShopIds = (em: EntityManager, userId: number, shopIds: readonly number[]) =>
  favoritedIds(em, SHOPS, userId, shopIds);

/** The caller's id when a customer calls; anyone else has no favorites. */
export const favoritingCustomer = (ctx: ServiceContext): number | null =>
  ctx.actor?.role === Role.Customer ? ctx.actor.userId : null;

/** Adds `favorited` when a customer calls (one query for the whole list); other callers' reads stay as they are. */
async function withFavorited<T extends { id: number }>(ctx: ServiceContext, kind: FavoriteTable, items: T[]): Promise<(T & { favorited?: boolean })[]> {
  const userId = favoritingCustomer(ctx);
  if (userId === null) return items;
  const favorited = await favoritedIds(ctx.em, kind, userId, items.map((i) => i.id));
  return items.map((item) => ({ ...item, favorited: favorited.has(item.id) }));
}

/** Product reads: `favorited` for the calling customer, one query for the whole list. */
export const withFavoritedProducts = <T extends { id: number }>(ctx: ServiceContext, items: T[]) => withFavorited(ctx, PRODUCTS, items);

/** Shop reads: `favorited` for the calling customer, one query for the whole list. */
export const withFavoritedShops = <T extends { id: number }>(ctx: ServiceContext, items: T[]) => withFavorited(ctx, SHOPS, items);
