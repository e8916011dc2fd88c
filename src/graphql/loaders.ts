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
  readonly shopProfiles: DataLoader<number, ShopProfileView | null>;
  readonly brands: DataLoader<number, BrandView | null>;
  readonly categories: DataLoader<number, CategoryView | null>;
  /** Keyed by parent category id. */
  readonly categoryChildren: DataLoader<number, CategoryView[]>;
  /** Keyed by product id. */
  readonly skus: DataLoader<number, SkuView[]>;
  /** Rating summary of each product (visible reviews only). */
  readonly ratings: DataLoader<number, RatingSummary>;
  /** Products in any state, with sold_count; null when the id is unknown. */
  readonly products: DataLoader<number, ProductView | null>;
  /** Whether the calling customer favorited the product (false, without a query, for anyone else). */
  readonly favoritedProducts: DataLoader<number, boolean>;
  /** The calling customer's usable coupons of each shop (empty for anyone else). */
  readonly myCoupons: DataLoader<number, CouponView[]>;
  /** Whether the calling customer favorited the shop. */
  readonly favoritedShops: DataLoader<number, boolean>;
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

/**
 * Each loader is made at its first use: an operation touches one or two of them (a listing none), and
 * making all ten for every operation was a visible share of its garbage (docs/performance.md).
 * `ctx.em` at each load, not now: a mutation is known as one only once parsed, and its reads go to
 * the primary while a query's may go to a replica (src/db/read-routing.ts).
 */
class RequestLoaders implements Loaders {
  #shopProfiles?: Loaders['shopProfiles'];
  #brands?: Loaders['brands'];
  #categories?: Loaders['categories'];
  #categoryChildren?: Loaders['categoryChildren'];
  #skus?: Loaders['skus'];
  #ratings?: Loaders['ratings'];
  #products?: Loaders['products'];
  #favoritedProducts?: Loaders['favoritedProducts'];
  #myCoupons?: Loaders['myCoupons'];
  #favoritedShops?: Loaders['favoritedShops'];

  constructor(private readonly ctx: ServiceContext) {}

  get shopProfiles() {
    return (this.#shopProfiles ??= loader<ShopProfileView | null>((ids) => profilesByShopIds(this.ctx.em, ids), null));
  }
  get brands() {
    return (this.#brands ??= loader<BrandView | null>((ids) => brandsByIds(this.ctx.em, ids), null));
  }
  get categories() {
    return (this.#categories ??= loader<CategoryView | null>((ids) => categoriesByIds(this.ctx.em, ids), null));
  }
  get categoryChildren() {
    return (this.#categoryChildren ??= loader((ids) => categoriesByParentIds(this.ctx.em, ids), []));
  }
  get skus() {
    return (this.#skus ??= loader((ids) => skusByProductIds(this.ctx.em, ids), []));
  }
  get products() {
    return (this.#products ??= loader<ProductView | null>((ids) => productsByIds(this.ctx.em, ids), null));
  }
  get ratings() {
    return (this.#ratings ??= new DataLoader((ids) => ratingSummaries(this.ctx.em, ids)));
  }
  get favoritedProducts() {
    return (this.#favoritedProducts ??= favoritedLoader(this.ctx, favoritedProductIds));
  }
  get favoritedShops() {
    return (this.#favoritedShops ??= favoritedLoader(this.ctx, favoritedShopIds));
  }
  get myCoupons() {
    return (this.#myCoupons ??= loader((ids) => myUsableCouponsByShop(this.ctx, ids), []));
  }
}

export function createLoaders(ctx: ServiceContext): Loaders {
  return new RequestLoaders(ctx);
}
