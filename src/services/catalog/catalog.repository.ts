import { expressionBuilder, sql, type Expression } from 'kysely';
import { asText, preparedQuery } from '../../db/prepared-queries.js';
import type { Database } from '../../db/typed-sql.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';

/**
 * The catalog's batched lookups and small hot reads (loaders of a page, sold counts, rating
 * summaries, home content), built with Kysely and prepared once (src/db/prepared-queries.ts). The
 * listing and the product page are in `product.repository.ts`.
 */

/** A batch's keys. */
interface Ids {
  ids: number[];
}

/** The product columns of `product p join shop s`, as `toProductView` reads them (timestamps: with `asText`, as the page reads `createdAt` and `updatedAt`). */
export const PRODUCT_COLUMNS = [
  'p.id as id', 'p.name as name', 'p.description as description', 'p.imageUrl as imageUrl', 'p.status as status', 'p.priceFrom as priceFrom',
  'p.category as categoryId', 'p.brand as brandId', 's.id as shopId', 's.slug as shopSlug', 's.name as shopName',
] as const;

/** The profile columns of a left-joined `shop_profile pr`, as `toProfileView` reads them (`profileUpdatedAt`: with `asText`). */
export const PROFILE_COLUMNS = [
  'pr.logoUrl as logoUrl', 'pr.description as profileDescription', 'pr.bannerUrl as bannerUrl', 'pr.contactPhone as contactPhone', 'pr.address as address',
] as const;

/** sold_count of a product, computed on read: one index-only lookup over the sold lines (`order_item_sold_product_idx`). */
export function soldCountOf(productId: Expression<number | null>) {
  return expressionBuilder<Database, never>()
    .selectFrom('OrderItem as oi')
    .select((e) => sql<number>`coalesce(sum(${e.ref('oi.quantity')}), 0)::int`.as('sold'))
    .where((e) => e.ref('oi.sold'))
    .where('oi.product', '=', productId)
    .$asScalar()
    .$notNull();
}

/** Batched lookups, one statement per relation and page (REST once per page, GraphQL through its loaders). */
export const profilesByShopIds = preparedQuery({
  name: 'profiles_by_shop_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('ShopProfile as pr')
      .select(['pr.shop as shopId', ...PROFILE_COLUMNS])
      .select((eb) => asText(eb.ref('pr.updatedAt')).as('profileUpdatedAt'))
      .where((eb) => eb('pr.shop', '=', eb.fn.any(eb.val(v.ids)))),
});

export const brandsByIds = preparedQuery({
  name: 'brands_by_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('Brand as b')
      .select(['b.id as id', 'b.name as name', 'b.logoUrl as logoUrl', 'b.position as position'])
      .where((eb) => eb('b.id', '=', eb.fn.any(eb.val(v.ids)))),
});

const CATEGORY_COLUMNS = ['c.id as id', 'c.parent as parent', 'c.name as name', 'c.slug as slug', 'c.depth as depth', 'c.path as path', 'c.position as position'] as const;

export const categoriesByIds = preparedQuery({
  name: 'categories_by_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('Category as c')
      .select(CATEGORY_COLUMNS)
      .where((eb) => eb('c.id', '=', eb.fn.any(eb.val(v.ids)))),
});

/** Children of each parent, in display order. */
export const categoriesByParentIds = preparedQuery({
  name: 'categories_by_parent_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('Category as c')
      .select(CATEGORY_COLUMNS)
      .where((eb) => eb('c.parent', '=', eb.fn.any(eb.val(v.ids))))
      .orderBy('c.parent')
      .orderBy('c.position')
      .orderBy('c.id'),
});

/** Products by id in any lifecycle state (an order line's product may have been withdrawn since), with sold_count. */
export const productsByIds = preparedQuery({
  name: 'products_by_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('Product as p')
      .innerJoin('Shop as s', 's.id', 'p.shop')
      .select(PRODUCT_COLUMNS)
      .select((eb) => [asText(eb.ref('p.createdAt')).as('createdAt'), asText(eb.ref('p.updatedAt')).as('updatedAt'), soldCountOf(eb.ref('p.id')).as('soldCount')])
      .where((eb) => eb('p.id', '=', eb.fn.any(eb.val(v.ids)))),
});

/** SKUs of each product, in creation order. */
export const skusByProductIds = preparedQuery({
  name: 'skus_by_product_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('Sku as k')
      .select(['k.id as id', 'k.product as product', 'k.name as name', 'k.price as price', 'k.stock as stock'])
      .where((eb) => eb('k.product', '=', eb.fn.any(eb.val(v.ids))))
      .orderBy('k.product')
      .orderBy('k.id'),
});

/** sold_count of a batch of products: one index-only scan over `order_item_sold_product_idx` for the whole batch. */
export const soldCountsByProductIds = preparedQuery({
  name: 'sold_counts_by_product_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('OrderItem as oi')
      .select((eb) => ['oi.product as productId', eb.cast<number>(eb.fn.sum('oi.quantity'), 'integer').as('sold')])
      .where((eb) => eb.ref('oi.sold'))
      .where((eb) => eb('oi.product', '=', eb.fn.any(eb.val(v.ids))))
      .groupBy('oi.product'),
});

/** Visible reviews per product and rating (an index-only scan of the visible reviews). */
export const ratingCountsByProductIds = preparedQuery({
  name: 'rating_counts_by_product_ids',
  examples: [{}],
  build: (db, _shape: object, v: Ids) =>
    db
      .selectFrom('Review as r')
      .select((eb) => ['r.product as productId', 'r.rating as rating', eb.cast<number>(eb.fn.countAll(), 'integer').as('n')])
      .where((eb) => eb('r.product', '=', eb.fn.any(eb.val(v.ids))))
      .where((eb) => eb.not(eb.ref('r.hidden')))
      .groupBy(['r.product', 'r.rating']),
});

/**
 * A product's visible reviews counted per star, as a JSON array of five counts (ratings 1 to 5), for
 * statements that read the summary with the product (one index-only scan of its reviews).
 */
export function ratingCountsOf(productId: Expression<number | null>) {
  return expressionBuilder<Database, never>()
    .selectFrom('Review as r')
    .select((e) => {
      const stars = [1, 2, 3, 4, 5].map((star) => sql`count(*) filter (where ${e.ref('r.rating')} = ${sql.lit(star)})`);
      return sql<number[]>`array_to_json(array[${sql.join(stars)}]::int[])`.as('counts');
    })
    .where('r.product', '=', productId)
    .where((e) => e.not(e.ref('r.hidden')))
    .$asScalar()
    .$notNull();
}

/**
 * The home page's items (all of them for the admin), in kind and position order: read on every visit
 * (docs/performance.md), kept by each process until a change is heard (home-content.service.ts).
 * The storefront's leaves out a link to a product its shop holds (suspended or closed: the product
 * is `held`) and to such a shop's page; each is one lookup by key, made only for such a link. The
 * admin's keeps them, so the list can be edited and sent back whole.
 */
export const homeContentItems = preparedQuery({
  name: 'home_content_items',
  examples: [{ activeOnly: true }, { activeOnly: false }],
  build: (db, shape: { activeOnly: boolean }) => {
    const items = db
      .selectFrom('HomeContentItem as h')
      .select(['h.id as id', 'h.kind as kind', 'h.position as position', 'h.active as active', 'h.title as title'])
      .select(['h.subtitle as subtitle', 'h.imageUrl as imageUrl', 'h.destination as destination'])
      .orderBy('h.kind')
      .orderBy('h.position');
    if (!shape.activeOnly) return items;
    // A CASE, not a WHERE beside the cast: the cast must only ever see a product route's id.
    const productId = sql<number | null>`case when h.destination ~ '^/products/[0-9]{1,10}$' then substring(h.destination from 11)::bigint end`;
    const shopSlug = sql<string | null>`case when h.destination like '/shops/%' then substring(h.destination from 8) end`;
    return items
      .where((eb) => eb.ref('h.active'))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('Product as p').select('p.id').where('p.id', '=', productId).where('p.status', '=', sql.lit(ProductStatus.Held)))))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('Shop as s').select('s.id').where('s.slug', '=', shopSlug).where('s.status', '<>', sql.lit(ShopStatus.Active)))));
  },
});
