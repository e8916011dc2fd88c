import type { ServiceContext } from '../../../shared/context.js';
import { parseInput, z } from '../../../shared/validate.js';
import { pageFields } from '../../../shared/pagination.js';
import { queryRows } from '../../../db/prepared-statements.js';
import { facetsAt, hasFacets, rememberFacets } from './facets-cache.js';
import type { Database } from '../../../db/typed-sql.js';
import {
  checkListingOrder, checkPriceRange, filterParts, firstMatching, listingFilter, listingFilterFields, listingOrderFields, type FacetName, type FilterParts,
} from '../listing-filter.js';
import { refusals } from '../../../error-codes.js';

/**
 * The listing's own parameters: sort, order and page are taken (a client sends what it lists with)
 * and checked as the listing checks them, but do not change the counts.
 */
export const FacetsInput = z
  .strictObject({ ...listingFilterFields, ...listingOrderFields, ...pageFields })
  .superRefine(checkPriceRange);

export interface CategoryFacet {
  id: number;
  parentId: number | null;
  name: string;
  depth: number;
  /** Matching products in this category's whole subtree. */
  count: number;
}

export interface BrandFacet {
  id: number;
  name: string;
  count: number;
}

export interface ShopFacet {
  id: number;
  slug: string;
  name: string;
  count: number;
}

/** Lowest SKU prices from `min` to `max`, both inclusive, in minor units (`max` null: no upper end). */
export interface PriceBucket {
  min: number;
  max: number | null;
  count: number;
}

export interface ProductFacets {
  /** Products the listing with these parameters counts. */
  total: number;
  /** In tree order (depth, position); only categories with matches. */
  categories: CategoryFacet[];
  /** Most matches first. */
  brands: BrandFacet[];
  shops: ShopFacet[];
  /** Ascending; about five, split at quantiles of the matching prices, rounded to whole yuan. */
  prices: PriceBucket[];
}

/** Price buckets: quantiles of the matching prices, at whole units of the currency (100 minor units). */
const QUANTILES = [0.2, 0.4, 0.6, 0.8];
const WHOLE_UNIT = 100;

type Row = {
  catalog_version: string;
  total: number;
  categories: (Pick<Database['Category'], 'id' | 'name' | 'depth'> & { parent_id: number | null; count: number })[] | null;
  brands: BrandFacet[] | null;
  shops: ShopFacet[] | null;
  price_floor: number | null;
  price_bounds: number[] | null;
  price_counts: { bucket: number; count: number }[] | null;
};

export const productFacetsRefusals = refusals('SORT_UNSUPPORTED');

/**
 * Facet counts for the listing's parameters, in one statement. Each facet ignores its own filter (a
 * shopper picking a brand still sees the other brands' counts, so they can widen as well as narrow);
 * the keyword and the other filters apply. The keyword's matches are read once with one flag per
 * filter, and each facet counts the rows whose other flags hold. Categories are rolled up the tree:
 * a category counts its whole subtree. When the keyword's words match nothing under these filters,
 * names similar to it count instead, as in the listing. Counts are remembered per filters at the
 * catalog version (src/services/catalog/search/facets-cache.ts): a repeated search costs one look at the version.
 */
export async function productFacets(ctx: ServiceContext, input: unknown = {}): Promise<ProductFacets> {
  checkListingOrder(input);
  const f = parseInput(FacetsInput, input);
  return firstMatching(f.q, (match) => facetsOf(ctx, filterParts(f, match), match !== undefined));
}

const FACETS: FacetName[] = ['category', 'brand', 'shop', 'price'];

async function facetsOf(ctx: ServiceContext, parts: FilterParts, replan: boolean): Promise<ProductFacets> {
  const key = JSON.stringify(parts);
  if (hasFacets(ctx.em, key)) {
    const [{ n }] = await queryRows<{ n: string }>(ctx.em, 'select n::text as n from catalog_version where id = 1');
    const remembered = facetsAt<ProductFacets>(ctx.em, key, n);
    if (remembered) return remembered;
  }
  // Only the keyword narrows `m`; without one, every published product is a candidate.
  const base = listingFilter({ keyword: parts.keyword });
  const flags = FACETS.map((name) => ({ sql: `${parts[name]?.sql ?? 'true'} as in_${name}`, params: parts[name]?.params ?? [] }));
  /** The rows every filter but `facet` admits. */
  const others = (facet: FacetName | null) => FACETS.filter((name) => name !== facet).map((name) => `in_${name}`).join(' and ');
  const [row] = await queryRows<Row>(
    ctx.em,
    `with m as materialized (
       select p.category_id, p.brand_id, p.shop_id, p.price_from, ${flags.map((flag) => flag.sql).join(', ')}
         from product p where ${base.sql}
     ),
     by_category as (select category_id, count(*)::int n from m where ${others('category')} group by category_id),
     prices as (select price_from from m where ${others('price')}),
     bounds as (
       select floor(min(price_from)::numeric / ${WHOLE_UNIT})::int * ${WHOLE_UNIT} as floor,
              array(select distinct b from unnest(percentile_disc(array[${QUANTILES.join(', ')}]) within group (order by price_from)) q,
                                      lateral (select (round(q::numeric / ${WHOLE_UNIT}) * ${WHOLE_UNIT})::int b) r
                     where b > min(price_from) and b <= max(price_from) order by b) as b
         from prices
     )
     select (select n from catalog_version where id = 1)::text as catalog_version,
            (select count(*)::int from m where ${others(null)}) as total,
            (select json_agg(t order by t.depth, t.position, t.id) from (
               select c.id, c.parent_id, c.name, c.depth, c.position, sum(bc.n)::int as count
                 from by_category bc join category own on own.id = bc.category_id
                 join category c on c.id = any(string_to_array(trim(both '/' from own.path), '/')::int[])
                group by c.id) t) as categories,
            (select json_agg(t order by t.count desc, t.name, t.id) from (
               select b.id, b.name, count(*)::int as count from m join brand b on b.id = m.brand_id where ${others('brand')} group by b.id) t) as brands,
            (select json_agg(t order by t.count desc, t.name, t.id) from (
               select s.id, s.slug, s.name, count(*)::int as count from m join shop s on s.id = m.shop_id where ${others('shop')} group by s.id) t) as shops,
            (select floor from bounds) as price_floor,
            (select b from bounds) as price_bounds,
            (select json_agg(t order by t.bucket) from (
               select width_bucket(price_from, (select b from bounds)) as bucket, count(*)::int as count from prices group by 1) t) as price_counts`,
    [...flags.flatMap((flag) => flag.params), ...base.params],
    { replan },
  );
  const facets: ProductFacets = {
    total: row.total,
    categories: (row.categories ?? []).map((c) => ({ id: c.id, parentId: c.parent_id, name: c.name, depth: c.depth, count: c.count })),
    brands: row.brands ?? [],
    shops: row.shops ?? [],
    prices: priceBuckets(row.price_floor, row.price_bounds ?? [], row.price_counts ?? []),
  };
  rememberFacets(ctx.em, key, row.catalog_version, facets);
  return facets;
}

/** Bucket `i` (width_bucket) runs from bound i-1 (the floor for the first) to just below bound i (open for the last). */
function priceBuckets(floor: number | null, bounds: number[], counts: { bucket: number; count: number }[]): PriceBucket[] {
  if (floor === null) return [];
  return counts.map(({ bucket, count }) => ({
    min: bucket === 0 ? floor : bounds[bucket - 1],
    max: bucket < bounds.length ? bounds[bucket] - 1 : null,
    count,
  }));
}
