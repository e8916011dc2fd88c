import DataLoader from 'dataloader';
import { ratingSummaries, type RatingSummary } from '../services/catalog/rating-summary.js';
import type { ServiceContext } from '../shared/context.js';
import { myUsableCouponsByShop, type CouponView } from '../services/promotions/coupon.service.js';
import { favoritedProductIds, favoritedShopIds, favoritingCustomer } from '../services/accounts/favorites.service.js';
import { brandsByIds, categoriesByIds, categoriesByParentIds, productsByIds, profilesByShopIds, skusByProductIds } from '../services/catalog/catalog-lookups.js';
import type { BrandView, CategoryView, ProductView, ShopProfileView, SkuView } from '../services/catalog/catalog-views.js';

/**
 * Per-request DataLoaders: every relation a GraphQL list touches is fetched with one query per
 * relation for the whole list, never one per row. They wrap the batched lookups the REST services
 * use, and are created afresh for each operation so nothing is cached across requests or users.
 */
export interface Loaders {
  /** Keyed by shop id; null when the shop has no profile. */
  shopProfiles: DataLoader<number, ShopProfileView | null>;
  brands: DataLoader<number, BrandView | null>;
  categories: DataLoader<number, CategoryView | null>;
  /** Keyed by parent category id. */
  categoryChildren: DataLoader<number, CategoryView[]>;
  /** Keyed by product id. */
  skus: DataLoader<number, SkuView[]>;
  /** Rating summary of each product (visible reviews only). */
  ratings: DataLoader<number, RatingSummary>;
  /** Products in any state, with sold_count; null when the id is unknown. */
  products: DataLoader<number, ProductView | null>;
  /** Whether the calling customer favorited the product (false, without a query, for anyone else). */
  favoritedProducts: DataLoader<number, boolean>;
  /** The calling customer's usable coupons of each shop (empty for anyone else). */
  myCoupons: DataLoader<number, CouponView[]>;
  /** Whether the calling customer favorited the shop. */
  favoritedShops: DataLoader<number, boolean>;
}

function loader<V>(lookup: (ids: readonly number[]) => Promise<Map<number, V>>, missing: V): DataLoader<number, V> {
  return new DataLoader(async (ids) => {
    const found = await lookup(ids);
    return ids.map((id) => found.get(id) ?? missing);
  });
}

function favoritedLoader(ctx: ServiceContext, lookup: typeof favoritedProductIds): DataLoader<number, boolean> {
  const customerId = favoritingCustomer(ctx);
  return new DataLoader(async (ids) => {
    if (customerId === null) return ids.map(() => false);
    const favorited = await lookup(ctx.em, customerId, ids);
    return ids.map((id) => favorited.has(id));
  });
}

export function createLoaders(ctx: ServiceContext): Loaders {
  // `ctx.em` at each load, not now: a mutation is known as one only once parsed, and its reads go to
  // the primary while a query's may go to a replica (src/db/read-routing.ts).
  return {
    shopProfiles: loader<ShopProfileView | null>((ids) => profilesByShopIds(ctx.em, ids), null),
    brands: loader<BrandView | null>((ids) => brandsByIds(ctx.em, ids), null),
    categories: loader<CategoryView | null>((ids) => categoriesByIds(ctx.em, ids), null),
    categoryChildren: loader((ids) => categoriesByParentIds(ctx.em, ids), []),
    skus: loader((ids) => skusByProductIds(ctx.em, ids), []),
    products: loader<ProductView | null>((ids) => productsByIds(ctx.em, ids), null),
    ratings: new DataLoader((ids) => ratingSummaries(ctx.em, ids)),
    favoritedProducts: favoritedLoader(ctx, favoritedProductIds),
    favoritedShops: favoritedLoader(ctx, favoritedShopIds),
    myCoupons: loader((ids) => myUsableCouponsByShop(ctx, ids), []),
  };
}
