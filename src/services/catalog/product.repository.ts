import { expressionBuilder, sql, type Expression, type ExpressionBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { asText, preparedQuery, type QueryBuilder, type StandIns } from '../../db/prepared-queries.js';
import type { Database } from '../../db/typed-sql.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { PRODUCT_COLUMNS, PROFILE_COLUMNS, ratingCountsOf, soldCountOf } from './catalog.repository.js';
import { listingWhere, productSearch, type ListedProduct, type ListingShape, type ListingValues } from './listing-filter.js';
import { movedProducts, resetSince, salesChangesSince, salesVector } from './sales-changes.repository.js';

/**
 * The storefront's product statements (docs/performance.md): the listing in each of its orders, its
 * count, the rankings it remembers, and the product page. Built with Kysely and prepared once per
 * shape (src/db/prepared-queries.ts); the row types are what the builders select.
 */

type Direction = 'asc' | 'desc';

/** What a listing brings along with each product (GraphQL asks for what its query selects). */
export interface ListingIncludes {
  skus: boolean;
  shopProfiles: boolean;
}

/** The references a listing filter reads on the product row `p`. */
const productOf = (eb: ExpressionBuilder<Database & { p: Database['Product'] }, 'p'>): ListedProduct => ({
  name: eb.ref('p.name'),
  searchDocument: eb.ref('p.searchDocument'),
  category: eb.ref('p.category'),
  brand: eb.ref('p.brand'),
  shop: eb.ref('p.shop'),
  priceFrom: eb.ref('p.priceFrom'),
  status: eb.ref('p.status'),
});

/** The published products of `product p` meeting the listing's filters. */
const listed = (shape: ListingShape, v: StandIns<ListingValues>) => (eb: ExpressionBuilder<Database & { p: Database['Product'] }, 'p'>) =>
  listingWhere(productOf(eb), shape, v);

/** The filter's products counted (an index-only count on the matching partial index). */
const countOf = (shape: ListingShape, v: StandIns<ListingValues>) =>
  expressionBuilder<Database, never>()
    .selectFrom('Product as p')
    .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('n'))
    .where(listed(shape, v))
    .$asScalar()
    .$notNull()
    ;

/** A product's SKUs in creation order, as a JSON list, for statements that read them with the product. */
const skusOf = (productId: Expression<number | null>) =>
  jsonArrayFrom(
    expressionBuilder<Database, never>()
      .selectFrom('Sku as k')
      .select(['k.id as id', 'k.name as name', 'k.price as price', 'k.stock as stock'])
      .where('k.product', '=', productId)
      .orderBy('k.id'),
  );

const catalogVersion = () => expressionBuilder<Database, never>().selectFrom('CatalogVersion as cv').select('cv.n as n').where('cv.id', '=', sql.lit(1));

export interface PageShape {
  filter: ListingShape;
  /** `sales`: only while no ranking of the filter can be remembered (see product.service.ts `rankedPage`). */
  order: 'id' | 'price' | 'sales';
  direction: Direction;
  include: ListingIncludes;
  /** Count the filter's products in the same statement (a filter's first listing). */
  withCount: boolean;
}

export type PageValues = ListingValues & { size: number; offset: number };

const EXAMPLE_LISTING: ListingShape = { keyword: null, category: false, brand: false, shop: false, price: null };
const NO_INCLUDES: ListingIncludes = { skus: false, shopProfiles: false };

/**
 * A page of the listing ordered in SQL, with the catalog version read in the same statement (the
 * remembered totals hold at it) and, for a filter's first listing, its count. The page stops at its
 * limit on the matching index. `sales` ranks the candidates by id first (one index-only lookup of
 * sold_count each) and reads only the page's products.
 */
export const listingPage = preparedQuery({
  name: 'listing_page',
  examples: [
    { filter: EXAMPLE_LISTING, order: 'id', direction: 'desc', include: NO_INCLUDES, withCount: true },
    { filter: { ...EXAMPLE_LISTING, category: true, price: 'range' }, order: 'price', direction: 'asc', include: { skus: true, shopProfiles: true }, withCount: false },
    { filter: { ...EXAMPLE_LISTING, brand: true }, order: 'sales', direction: 'desc', include: NO_INCLUDES, withCount: false },
  ] satisfies PageShape[],
  build: (db, shape: PageShape, v: PageValues) => {
    const { direction } = shape;
    const page = db.with('page', (cte) => {
      if (shape.order === 'sales') {
        const ranked = cte
          .selectFrom('Product as p')
          .select((eb) => ['p.id as id', soldCountOf(eb.ref('p.id')).as('sortKey')])
          .where(listed(shape.filter, v))
          .orderBy('sortKey', direction)
          .orderBy('p.id', direction)
          .limit(v.size)
          .offset(v.offset)
          .as('r');
        return cte
          .selectFrom(ranked)
          .innerJoin('Product as p', 'p.id', 'r.id')
          .innerJoin('Shop as s', 's.id', 'p.shop')
          .select(PRODUCT_COLUMNS)
          .select((eb) => [asText(eb.ref('p.createdAt')).as('createdAt'), asText(eb.ref('p.updatedAt')).as('updatedAt'), 'r.sortKey']);
      }
      return cte
        .selectFrom('Product as p')
        .innerJoin('Shop as s', 's.id', 'p.shop')
        .select(PRODUCT_COLUMNS)
        .select((eb) => [
          asText(eb.ref('p.createdAt')).as('createdAt'),
          asText(eb.ref('p.updatedAt')).as('updatedAt'),
          (shape.order === 'price' ? eb.ref('p.priceFrom') : eb.ref('p.id')).as('sortKey'),
        ])
        .where(listed(shape.filter, v))
        .orderBy('sortKey', direction)
        .orderBy('p.id', direction)
        .limit(v.size)
        .offset(v.offset);
    });
    return page
      .selectFrom(catalogVersion().as('v'))
      .leftJoin('page', (join) => join.onTrue())
      .select('v.n as catalogVersion')
      .$if(shape.withCount, (qb) => qb.select(countOf(shape.filter, v).as('total')))
      .selectAll('page')
      .select((eb) => (shape.order === 'sales' ? eb.ref('page.sortKey') : soldCountOf(eb.ref('page.id'))).as('soldCount'))
      .$if(shape.include.skus, (qb) => qb.select((eb) => skusOf(eb.ref('page.id')).as('skus')))
      .$if(shape.include.shopProfiles, (qb) =>
        qb
          .leftJoin('ShopProfile as pr', 'pr.shop', 'page.shopId')
          .select(PROFILE_COLUMNS)
          .select((eb) => asText(eb.ref('pr.updatedAt')).as('profileUpdatedAt')),
      )
      .orderBy('page.sortKey', direction)
      .orderBy('page.id', direction);
  },
});

/** A filter's products counted, with the catalog version the count holds at (after a catalog change). */
export const listingCount = preparedQuery({
  name: 'listing_count',
  examples: [{ filter: EXAMPLE_LISTING }],
  build: (db, shape: { filter: ListingShape }, v: ListingValues) =>
    db
      .selectFrom('CatalogVersion as cv')
      .select((eb) => [countOf(shape.filter, v).as('total'), eb.ref('cv.n').as('catalogVersion')])
      .where('cv.id', '=', sql.lit(1)),
});

export interface RelevanceShape {
  filter: ListingShape & { keyword: NonNullable<ListingShape['keyword']> };
  direction: Direction;
  include: ListingIncludes;
}

/**
 * A page of keyword matches by relevance, then sold_count, then id, with the number of matches.
 * Every match is ranked (relevance follows no index order); sold_count is looked up only for the
 * matches that rank at least as well as the page's last one, the only ones whose order it decides.
 */
export const relevancePage = preparedQuery({
  name: 'relevance_page',
  examples: [{ filter: { ...EXAMPLE_LISTING, keyword: 'words' }, direction: 'desc', include: NO_INCLUDES }] satisfies RelevanceShape[],
  build: (db, shape: RelevanceShape, v: ListingValues & { edge: number; size: number; offset: number }) => {
    const { direction } = shape;
    const worst = direction === 'desc' ? sql<number>`'-infinity'::real` : sql<number>`'infinity'::real`;
    return db
      .with(
        (cte) => cte('matched').materialized(),
        (qb) =>
          qb
            .selectFrom('Product as p')
            .select((eb) => ['p.id as id', productSearch.sqlOf(shape.filter.keyword, productOf(eb), eb.val(v.keyword)).rank.as('rank')])
            .where(listed(shape.filter, v)),
      )
      .with('edge', (qb) => qb.selectFrom('matched').select('matched.rank').orderBy('matched.rank', direction).offset(v.edge).limit(sql.lit(1)))
      .with('top', (qb) =>
        qb
          .selectFrom('matched as m')
          .select((eb) => ['m.id', 'm.rank', soldCountOf(eb.ref('m.id')).as('soldCount')])
          .where((eb) => eb('m.rank', direction === 'desc' ? '>=' : '<=', eb.fn.coalesce(eb.selectFrom('edge').select('edge.rank').$asScalar(), worst)))
          .orderBy('m.rank', direction)
          .orderBy('soldCount', direction)
          .orderBy('m.id', direction)
          .limit(v.size)
          .offset(v.offset),
      )
      .with('page', (qb) =>
        qb
          .selectFrom('top')
          .innerJoin('Product as p', 'p.id', 'top.id')
          .innerJoin('Shop as s', 's.id', 'p.shop')
          .select(PRODUCT_COLUMNS)
          .select((eb) => [asText(eb.ref('p.createdAt')).as('createdAt'), asText(eb.ref('p.updatedAt')).as('updatedAt'), 'top.rank', 'top.soldCount']),
      )
      .selectFrom(sql<{ one: number }>`(select 1)`.as('one'))
      .leftJoin('page', (join) => join.onTrue())
      .select((eb) => eb.selectFrom('matched').select((e) => e.cast<number>(e.fn.countAll(), 'integer').as('n')).$asScalar().$notNull().as('total'))
      .selectAll('page')
      .$if(shape.include.skus, (qb) => qb.select((eb) => skusOf(eb.ref('page.id')).as('skus')))
      .$if(shape.include.shopProfiles, (qb) =>
        qb
          .leftJoin('ShopProfile as pr', 'pr.shop', 'page.shopId')
          .select(PROFILE_COLUMNS)
          .select((eb) => asText(eb.ref('pr.updatedAt')).as('profileUpdatedAt')),
      )
      .orderBy('page.rank', direction)
      .orderBy('page.soldCount', direction)
      .orderBy('page.id', direction);
  },
});

/**
 * A page read by id from a remembered ranking (`unnest(ids, sold) with ordinality`), with the versions
 * the ranking must hold at, in one statement. When the sales counters moved since the ranking's
 * (`since`), the same statement returns the changes logged since, summed per product (`changedIds`,
 * `changedBy`, on the first row only), or `resetSince` when they cannot tell: a bulk statement's
 * change (no product), or a shard pruned past the ranking's counter. Only the shards that moved are
 * read from the log, each along its primary key from the ranking's counter on.
 */
export const rankedPage = preparedQuery({
  name: 'ranked_page',
  examples: [{ include: NO_INCLUDES }, { include: { skus: true, shopProfiles: true } }],
  build: (db, shape: { include: ListingIncludes }, v: { ids: number[]; sold: number[]; since: string }) =>
    db
      .with('changes', (qb) => salesChangesSince(qb, v.since))
      .with('page', (qb) =>
        qb
          .selectFrom(sql<{ id: number; soldCount: number; position: string }>`unnest(${v.ids}::int[], ${v.sold}::int[]) with ordinality`.as<'r'>(sql`r(id, "soldCount", position)`))
          .innerJoin('Product as p', 'p.id', 'r.id')
          .innerJoin('Shop as s', 's.id', 'p.shop')
          .select(PRODUCT_COLUMNS)
          .select((eb) => [asText(eb.ref('p.createdAt')).as('createdAt'), asText(eb.ref('p.updatedAt')).as('updatedAt'), 'r.soldCount', 'r.position']),
      )
      .selectFrom(catalogVersion().as('v'))
      .leftJoin('page', (join) => join.onTrue())
      .select((eb) => {
        const first = sql<boolean>`coalesce(${eb.ref('page.position')}, 1) = 1`;
        const moved = movedProducts();
        return [
          sql<string>`${eb.ref('v.n')}::text`.as('catalogVersion'),
          salesVector().as('salesVector'),
          resetSince(v.since).as('resetSince'),
          sql<number[] | null>`case when ${first} then ${moved.ids} end`.as('changedIds'),
          sql<number[] | null>`case when ${first} then ${moved.deltas} end`.as('changedBy'),
        ];
      })
      .selectAll('page')
      .$if(shape.include.skus, (qb) => qb.select((eb) => skusOf(eb.ref('page.id')).as('skus')))
      .$if(shape.include.shopProfiles, (qb) =>
        qb
          .leftJoin('ShopProfile as pr', 'pr.shop', 'page.shopId')
          .select(PROFILE_COLUMNS)
          .select((eb) => asText(eb.ref('pr.updatedAt')).as('profileUpdatedAt')),
      )
      .orderBy('page.position'),
});

/** A ranking's statement: its filter, and whether a keyword's relevance comes first. */
interface RankingShape {
  filter: ListingShape;
  relevance: boolean;
}

const RANKING_EXAMPLES: RankingShape[] = [
  { filter: EXAMPLE_LISTING, relevance: false },
  { filter: { ...EXAMPLE_LISTING, keyword: 'words' }, relevance: true },
];

/**
 * A ranking's candidates: the filter's published products, with a keyword each one's relevance (as
 * float8, the type a ranking keeps it in; widening `real` keeps its order).
 */
const candidatesOf = (db: QueryBuilder, shape: RankingShape, v: StandIns<ListingValues>) => {
  const keyword = shape.relevance ? shape.filter.keyword : null;
  return db
    .selectFrom('Product as p')
    .select((eb) => ['p.id as id', ...(keyword ? [sql<number>`${productSearch.sqlOf(keyword, productOf(eb), eb.val(v.keyword)).rank}::float8`.as('rank')] : [])])
    .where(listed(shape.filter, v));
};

/**
 * Every candidate of the filter by sold_count, best first (ties: higher id first), or with a keyword
 * by relevance first (with each one's relevance, to place a product again when its sales move), with
 * the versions it holds at. `offset 0` keeps the candidates a subquery: flattened, its sold_count
 * lookup ran once per use of `r.sold`.
 */
export const ranking = preparedQuery({
  name: 'ranking',
  examples: RANKING_EXAMPLES,
  build: (db, shape: RankingShape, v: ListingValues) => {
    const keyword = shape.relevance ? shape.filter.keyword : null;
    const candidates = candidatesOf(db, shape, v)
      .select((eb) => soldCountOf(eb.ref('p.id')).as('sold'))
      .offset(sql.lit(0))
      .as('r');
    const order = (column: Expression<number>) =>
      keyword
        ? sql`${column} order by ${sql.ref('r.rank')} desc, ${sql.ref('r.sold')} desc, ${sql.ref('r.id')} desc`
        : sql`${column} order by ${sql.ref('r.sold')} desc, ${sql.ref('r.id')} desc`;
    return db
      .selectFrom(candidates)
      .select((eb) => [
        sql<string>`${catalogVersion()}::text`.as('catalogVersion'),
        salesVector().as('salesVector'),
        sql<number[]>`coalesce(array_agg(${order(eb.ref('r.id'))}), '{}')`.as('ids'),
        sql<number[]>`coalesce(array_agg(${order(eb.ref('r.sold'))}), '{}')`.as('sold'),
        ...(keyword ? [sql<number[]>`coalesce(array_agg(${order(sql.ref('r.rank'))}), '{}')`.as('rank')] : []),
      ]);
  },
});

/**
 * Every candidate of the filter, unordered, with a keyword its relevance, and the catalog version they
 * hold at: what a ranking needs besides sold_count, which the sales tally holds
 * (src/services/catalog/sales-tally.ts). Reads no sold line.
 */
export const rankingCandidates = preparedQuery({
  name: 'ranking_candidates',
  examples: RANKING_EXAMPLES,
  build: (db, shape: RankingShape, v: ListingValues) =>
    db
      .selectFrom(candidatesOf(db, shape, v).as('r'))
      .select([
        sql<string>`${catalogVersion()}::text`.as('catalogVersion'),
        sql<number[]>`coalesce(array_agg(${sql.ref('r.id')}), '{}')`.as('ids'),
        ...(shape.relevance && shape.filter.keyword ? [sql<number[]>`coalesce(array_agg(${sql.ref('r.rank')}), '{}')`.as('rank')] : []),
      ]),
});

/**
 * One published product with its SKUs, shop and profile, brand, category path, sold_count and rating
 * counts, in one statement (SKUs and the path as JSON lists).
 */
export const productDetail = preparedQuery({
  name: 'product_detail',
  examples: [{}],
  build: (db, _shape: object, v: { id: number }) =>
    db
      .selectFrom('Product as p')
      .innerJoin('Shop as s', 's.id', 'p.shop')
      .leftJoin('ShopProfile as pr', 'pr.shop', 's.id')
      .innerJoin('Category as own', 'own.id', 'p.category')
      .leftJoin('Brand as b', 'b.id', 'p.brand')
      .select(PRODUCT_COLUMNS)
      .select(PROFILE_COLUMNS)
      .select(['b.name as brandName', 'b.logoUrl as brandLogoUrl', 'b.position as brandPosition'])
      .select((eb) => [
        asText(eb.ref('p.createdAt')).as('createdAt'),
        asText(eb.ref('p.updatedAt')).as('updatedAt'),
        asText(eb.ref('pr.updatedAt')).as('profileUpdatedAt'),
        soldCountOf(eb.ref('p.id')).as('soldCount'),
        skusOf(eb.ref('p.id')).as('skus'),
        ratingCountsOf(eb.ref('p.id')).as('ratingCounts'),
        jsonArrayFrom(
          eb
            .selectFrom('Category as c')
            .select(['c.id as id', 'c.parent as parent', 'c.name as name', 'c.slug as slug', 'c.depth as depth', 'c.path as path', 'c.position as position'])
            .where((e) => e('c.id', '=', e.fn.any(sql<number[]>`string_to_array(trim(both '/' from ${e.ref('own.path')}), '/')::int[]`)))
            .orderBy('c.depth'),
        ).as('categoryPath'),
      ])
      .where('p.id', '=', v.id)
      .where('p.status', '=', sql.lit(ProductStatus.Published)),
});
