import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { preparedQuery } from '../../../db/prepared-queries.js';
import type { Database } from '../../../db/typed-sql.js';
import { SuggestionKind } from '../../../entities/search-suggestion.entity.js';
import { filterConditions, listingWhere, type FacetName, type ListingShape, type ListingValues } from '../listing-filter.js';

/**
 * Search's hot statements (docs/performance.md): the facets of a listing and the suggestions of a
 * prefix, built with Kysely and prepared once per shape (src/db/prepared-queries.ts).
 */

/** The catalog version, as text: remembered facets hold at it. */
export const catalogVersionText = preparedQuery({
  name: 'catalog_version',
  examples: [{}],
  build: (db) => db.selectFrom('CatalogVersion as cv').select(sql<string>`${sql.ref('cv.n')}::text`.as('n')).where('cv.id', '=', sql.lit(1)),
});

const FACETS: FacetName[] = ['category', 'brand', 'shop', 'price'];

/** Price buckets: quantiles of the matching prices, at whole units of the currency (100 minor units). */
export const QUANTILES = [0.2, 0.4, 0.6, 0.8];
export const WHOLE_UNIT = 100;

type Matches = Database & {
  m: { categoryId: number; brandId: number | null; shopId: number; price: number; inCategory: boolean; inBrand: boolean; inShop: boolean; inPrice: boolean };
};

const FLAG = { category: 'm.inCategory', brand: 'm.inBrand', shop: 'm.inShop', price: 'm.inPrice' } as const;

/** The matches every filter but `facet` admits (every filter with null). */
const others = (facet: FacetName | null) => (eb: ExpressionBuilder<Matches, 'm'>) =>
  eb.and(FACETS.filter((name) => name !== facet).map((name) => eb.ref(FLAG[name]) as Expression<SqlBool>));

/**
 * A listing's facet counts in one statement. (A CTE's column is referenced by its own name: the ORM's
 * naming of the builders reads a CTE column named like a property of its source table as that
 * property, so `m`'s lowest price is `price`, not `priceFrom`.)
 * The keyword's matches are read once with one flag per
 * filter, and each facet counts the rows whose other flags hold: a facet ignores its own filter.
 * Categories roll up along the materialized path; price buckets split at quantiles of the matching
 * prices, rounded to whole units.
 */
export const facets = preparedQuery({
  name: 'facets',
  examples: [
    { filter: { keyword: 'words', category: false, brand: false, shop: false, price: null } },
    { filter: { keyword: 'words', category: true, brand: true, shop: false, price: 'range' } },
  ] satisfies { filter: ListingShape }[],
  build: (db, shape: { filter: ListingShape }, v: ListingValues) => {
    const matches = (eb: ExpressionBuilder<Database & { p: Database['Product'] }, 'p'>) => {
      const p = {
        name: eb.ref('p.name'), searchDocument: eb.ref('p.searchDocument'), category: eb.ref('p.category'), brand: eb.ref('p.brand'),
        shop: eb.ref('p.shop'), priceFrom: eb.ref('p.priceFrom'), status: eb.ref('p.status'),
      };
      // Only the keyword narrows `m`; without one, every published product is a candidate.
      const conditions = filterConditions(p, shape.filter, v);
      const flag = (name: FacetName) => conditions[name] ?? sql<SqlBool>`true`;
      return { where: listingWhere(p, { ...shape.filter, category: false, brand: false, shop: false, price: null }, v), flag };
    };
    return db
      .with(
        (cte) => cte('m').materialized(),
        (qb) =>
          qb
            .selectFrom('Product as p')
            .select((eb) => {
              const { flag } = matches(eb);
              return [
                'p.category as categoryId', 'p.brand as brandId', 'p.shop as shopId', 'p.priceFrom as price',
                flag('category').as('inCategory'), flag('brand').as('inBrand'), flag('shop').as('inShop'), flag('price').as('inPrice'),
              ];
            })
            .where((eb) => matches(eb).where),
      )
      .with('byCategory', (qb) =>
        qb
          .selectFrom('m')
          .select((eb) => ['m.categoryId', eb.cast<number>(eb.fn.countAll(), 'integer').as('n')])
          .where(others('category'))
          .groupBy('m.categoryId'),
      )
      .with('prices', (qb) => qb.selectFrom('m').select('m.price').where(others('price')))
      .with('bounds', (qb) =>
        qb
          .selectFrom('prices')
          .select(() => [
            sql<number | null>`floor(min(${sql.ref('prices.price')})::numeric / ${sql.lit(WHOLE_UNIT)})::int * ${sql.lit(WHOLE_UNIT)}`.as('floor'),
            sql<number[]>`array(
              select distinct b from unnest(percentile_disc(array[${sql.join(QUANTILES.map((q) => sql.lit(q)))}]) within group (order by ${sql.ref('prices.price')})) q,
                                     lateral (select (round(q::numeric / ${sql.lit(WHOLE_UNIT)}) * ${sql.lit(WHOLE_UNIT)})::int b) r
               where b > min(${sql.ref('prices.price')}) and b <= max(${sql.ref('prices.price')}) order by b)`.as('b'),
          ]),
      )
      .selectNoFrom((eb) => [
        sql<string>`${eb.selectFrom('CatalogVersion as cv').select('cv.n').where('cv.id', '=', sql.lit(1))}::text`.as('catalogVersion'),
        eb.selectFrom('m').select((e) => e.cast<number>(e.fn.countAll(), 'integer').as('n')).where(others(null)).$asScalar().$notNull().as('total'),
        jsonArrayFrom(
          eb
            .selectFrom('byCategory as bc')
            .innerJoin('Category as own', 'own.id', 'bc.categoryId')
            .innerJoin('Category as c', (join) => join.on((j) => j('c.id', '=', j.fn.any(sql<number[]>`string_to_array(trim(both '/' from ${j.ref('own.path')}), '/')::int[]`))))
            .select((e) => ['c.id as id', 'c.parent as parentId', 'c.name as name', 'c.depth as depth', e.cast<number>(e.fn.sum('bc.n'), 'integer').as('count')])
            .groupBy('c.id')
            .orderBy('c.depth')
            .orderBy('c.position')
            .orderBy('c.id'),
        ).as('categories'),
        jsonArrayFrom(
          eb
            .selectFrom('m')
            .innerJoin('Brand as b', 'b.id', 'm.brandId')
            .select((e) => ['b.id as id', 'b.name as name', e.cast<number>(e.fn.countAll(), 'integer').as('count')])
            .where(others('brand'))
            .groupBy('b.id')
            .orderBy('count', 'desc')
            .orderBy('b.name')
            .orderBy('b.id'),
        ).as('brands'),
        jsonArrayFrom(
          eb
            .selectFrom('m')
            .innerJoin('Shop as s', 's.id', 'm.shopId')
            .select((e) => ['s.id as id', 's.slug as slug', 's.name as name', e.cast<number>(e.fn.countAll(), 'integer').as('count')])
            .where(others('shop'))
            .groupBy('s.id')
            .orderBy('count', 'desc')
            .orderBy('s.name')
            .orderBy('s.id'),
        ).as('shops'),
        eb.selectFrom('bounds').select('bounds.floor').$asScalar().as('priceFloor'),
        eb.selectFrom('bounds').select('bounds.b').$asScalar().as('priceBounds'),
        jsonArrayFrom(
          eb
            .selectFrom('prices')
            .select((e) => [
              sql<number>`width_bucket(${e.ref('prices.price')}, (select b from bounds))`.as('bucket'),
              e.cast<number>(e.fn.countAll(), 'integer').as('count'),
            ])
            .groupBy(sql.lit(1))
            .orderBy('bucket'),
        ).as('priceCounts'),
      ]);
  },
});

/** The largest code point: every text that starts with a prefix sorts (byte-wise) below prefix + this. */
export const LAST_CHARACTER = '\u{10FFFF}';

export const SUGGESTIONS_MAX = 8;

/**
 * Names starting with a prefix: up to 8 brands, 8 categories and 32 products (names repeat across
 * shops; one per name is kept). `using ~<~`: the prefix index's own (byte-wise) order, so each branch
 * reads the index in order and stops at its limit.
 */
export const suggestions = preparedQuery({
  name: 'suggestions',
  examples: [{}],
  build: (db, _shape: object, v: { prefix: string; end: string }) => {
    const branch = (kind: SuggestionKind, limit: number) =>
      db
        .selectFrom('SearchSuggestion as g')
        .select(['g.kind as kind', 'g.refId as refId', 'g.text as text', 'g.norm as norm'])
        .where('g.kind', '=', sql.lit(kind))
        .where((eb) => sql<SqlBool>`${eb.ref('g.norm')} ~>=~ ${v.prefix} and ${eb.ref('g.norm')} ~<~ ${v.end}`)
        .orderBy(sql`${sql.ref('g.norm')} using ~<~`)
        .limit(sql.lit(limit));
    return db
      .selectFrom(branch(SuggestionKind.Brand, SUGGESTIONS_MAX).as('brands'))
      .selectAll('brands')
      .unionAll(db.selectFrom(branch(SuggestionKind.Category, SUGGESTIONS_MAX).as('categories')).selectAll('categories'))
      .unionAll(db.selectFrom(branch(SuggestionKind.Product, 4 * SUGGESTIONS_MAX).as('products')).selectAll('products'));
  },
});
