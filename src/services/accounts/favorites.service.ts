import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { notFound } from '../../errors.js';
import { Product, ProductStatus } from '../../entities/product.entity.js';
import { Shop } from '../../entities/shop.entity.js';
import { FavoriteProduct, FavoriteShop } from '../../entities/favorite.entity.js';
import { Role } from '../../entities/user.entity.js';
import { typedSql } from '../../db/typed-sql.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { PageQuery, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { idParam, parseInput } from '../../shared/validate.js';
import { refusals } from '../../error-codes.js';
import type { FavoriteProductView, FavoriteShopSummaryView, FavoriteShopView, ProductSummaryView } from './favorites-view.js';

/**
 * Customer-scoped favorites of products and shops. One row per (customer, object), kept unique by the
 * primary key, so favoriting is idempotent in the database and not only here.
 */
export interface FavoritesView {
  products: Page<FavoriteProductView>;
  shops: Page<FavoriteShopView>;
}

const toShopSummary = (shop: Shop, logoUrl?: string): FavoriteShopSummaryView => ({ id: shop.id, slug: shop.slug, name: shop.name, logoUrl });

/** Takes the status as the plain enum: the entity's `Opt` type hides it from the comparison rule. */
const isPublished = (status: ProductStatus) => status === ProductStatus.Published;

const toProductSummary = (product: Product): ProductSummaryView => ({
  id: product.id,
  name: product.name,
  imageUrl: product.imageUrl ?? undefined,
  priceFrom: product.priceFrom,
  available: isPublished(product.status),
  shop: toShopSummary(product.shop),
});

const toFavoriteProductView = (product: Product, favoritedAt: Date): FavoriteProductView => ({
  product: toProductSummary(product),
  favoritedAt,
});

const toFavoriteShopView = (shop: Shop, favoritedAt: Date): FavoriteShopView => ({
  shop: toShopSummary(shop, shop.profile?.logoUrl),
  favoritedAt,
});


/** Both lists of the calling customer, newest first; `page`/`pageSize` apply to each list. */
export async function myFavorites(ctx: ServiceContext, query: unknown): Promise<FavoritesView> {
  const actor = requireCustomer(ctx);
  const page = parseInput(PageQuery, query);
  const [products, productTotal] = await ctx.em.findAndCount(
    FavoriteProduct,
    { user: actor.userId },
    { populate: ['product.shop'], orderBy: { createdAt: 'desc', product: 'desc' }, ...pageWindow(page) },
  );
  const [shops, shopTotal] = await ctx.em.findAndCount(
    FavoriteShop,
    { user: actor.userId },
    { populate: ['shop.profile'], orderBy: { createdAt: 'desc', shop: 'desc' }, ...pageWindow(page) },
  );
  return {
    products: pageOf(products.map((f) => toFavoriteProductView(f.product, f.createdAt)), page, productTotal),
    shops: pageOf(shops.map((f) => toFavoriteShopView(f.shop, f.createdAt)), page, shopTotal),
  };
}

/*
 * Adding is idempotent in one statement: the upsert's no-op update returns the existing row (even
 * one a concurrent call has just written), so favoriting again answers the same, first
 * `favoritedAt` included. The target is read first for the answer (and a 404).
 */

export const favoriteProductRefusals = refusals('NOT_FOUND');

/** Favorites a published product (a draft or withdrawn one is 404); idempotent. */
export async function favoriteProduct(ctx: ServiceContext, productId: unknown): Promise<FavoriteProductView> {
  const actor = requireCustomer(ctx);
  const id = parseInput(idParam, productId);
  const product = await ctx.em.findOne(Product, { id, status: ProductStatus.Published }, { populate: ['shop'] });
  if (!product) throw notFound('Product', { id });
  // Inserted from the product row under the same condition, so a product withdrawn meanwhile is not favorited.
  const row = await typedSql(ctx.em)
    .insertInto('FavoriteProduct')
    .columns(['user', 'product', 'createdAt'])
    .expression((eb) =>
      eb
        .selectFrom('Product')
        .select([eb.cast<number>(eb.val(actor.userId), 'integer').as('user'), 'id', sql<Date>`now()`.as('createdAt')])
        .where('id', '=', id)
        .where('status', '=', ProductStatus.Published),
    )
    .onConflict((oc) => oc.columns(['user', 'product']).doUpdateSet({ createdAt: (eb) => eb.ref('FavoriteProduct.createdAt') }))
    .returning('createdAt')
    .executeTakeFirst();
  if (!row) throw notFound('Product', { id });
  return toFavoriteProductView(product, row.createdAt);
}

export const favoriteShopRefusals = refusals('NOT_FOUND');

/** Favorites a shop; idempotent. */
export async function favoriteShop(ctx: ServiceContext, shopId: unknown): Promise<FavoriteShopView> {
  const actor = requireCustomer(ctx);
  const id = parseInput(idParam, shopId);
  const shop = await ctx.em.findOne(Shop, id, { populate: ['profile'] });
  if (!shop) throw notFound('Shop', { id });
  // Shops are never deleted: the one read above is guard enough.
  const row = await typedSql(ctx.em)
    .insertInto('FavoriteShop')
    .values({ user: actor.userId, shop: id, createdAt: sql<Date>`now()` })
    .onConflict((oc) => oc.columns(['user', 'shop']).doUpdateSet({ createdAt: (eb) => eb.ref('FavoriteShop.createdAt') }))
    .returning('createdAt')
    .executeTakeFirstOrThrow();
  return toFavoriteShopView(shop, row.createdAt);
}

/** Removing what is not a favorite is fine; only an unknown object is 404 (asked only when nothing was removed). */
async function removeFavorite(ctx: ServiceContext, target: 'Product' | 'Shop', rawId: unknown): Promise<boolean> {
  const actor = requireCustomer(ctx);
  const id = parseInput(idParam, rawId);
  const removed =
    target === 'Product'
      ? await ctx.em.nativeDelete(FavoriteProduct, { user: actor.userId, product: id })
      : await ctx.em.nativeDelete(FavoriteShop, { user: actor.userId, shop: id });
  if (removed === 0 && !(await typedSql(ctx.em).selectFrom(target).select('id').where('id', '=', id).executeTakeFirst())) {
    throw notFound(target, { id });
  }
  return true;
}

export const unfavoriteProductRefusals = refusals('NOT_FOUND');

/** Removes a product from the caller's favorites (any product, withdrawn ones too); idempotent. */
export const unfavoriteProduct = (ctx: ServiceContext, productId: unknown) => removeFavorite(ctx, 'Product', productId);
export const unfavoriteShopRefusals = refusals('NOT_FOUND');

/** Removes a shop from the caller's favorites; idempotent. */
export const unfavoriteShop = (ctx: ServiceContext, shopId: unknown) => removeFavorite(ctx, 'Shop', shopId);

/*
 * Which of these products (shops) the customer favorited, in one query served by the primary key, for
 * product and shop reads and the GraphQL `favorited` loaders. Keys only: no entity is wanted. An
 * empty list asks nothing.
 */

export async function favoritedProductIds(em: EntityManager, userId: number, productIds: readonly number[]): Promise<Set<number>> {
  if (productIds.length === 0) return new Set();
  const rows = await typedSql(em).selectFrom('FavoriteProduct').select('product').where('user', '=', userId).where('product', 'in', productIds).execute();
  return new Set(rows.map((r) => r.product));
}

export async function favoritedShopIds(em: EntityManager, userId: number, shopIds: readonly number[]): Promise<Set<number>> {
  if (shopIds.length === 0) return new Set();
  const rows = await typedSql(em).selectFrom('FavoriteShop').select('shop').where('user', '=', userId).where('shop', 'in', shopIds).execute();
  return new Set(rows.map((r) => r.shop));
}

/** The caller's id when a customer calls; anyone else has no favorites. */
export const favoritingCustomer = (ctx: ServiceContext): number | null =>
  ctx.actor?.role === Role.Customer ? ctx.actor.userId : null;

type FavoritedIds = typeof favoritedProductIds;

/** Adds `favorited` when a customer calls (one query for the whole list); other callers' reads stay as they are. */
async function withFavorited<T extends { id: number }>(ctx: ServiceContext, favoritedIds: FavoritedIds, items: T[]): Promise<(T & { favorited?: boolean })[]> {
  const userId = favoritingCustomer(ctx);
  if (userId === null) return items;
  const favorited = await favoritedIds(ctx.em, userId, items.map((i) => i.id));
  return items.map((item) => ({ ...item, favorited: favorited.has(item.id) }));
}

/** Product reads: `favorited` for the calling customer, one query for the whole list. */
export const withFavoritedProducts = <T extends { id: number }>(ctx: ServiceContext, items: T[]) => withFavorited(ctx, favoritedProductIds, items);

/** Shop reads: `favorited` for the calling customer, one query for the whole list. */
export const withFavoritedShops = <T extends { id: number }>(ctx: ServiceContext, items: T[]) => withFavorited(ctx, favoritedShopIds, items);
