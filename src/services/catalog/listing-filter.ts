import { AppError } from '../../errors.js';
import { expressionBuilder, sql, type AliasableExpression, type Expression, type SqlBool } from 'kysely';
import type { StandIns } from '../../db/prepared-queries.js';
import type { Database } from '../../db/typed-sql.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { z, idParam, wholeNumber } from '../../shared/validate.js';
import { inSubtree } from './category.service.js';
import { keywordOf, keywordParam } from './search/keyword.js';
import { postgresProductSearch, type KeywordMatch, type MatchKind } from './search/product-search.js';

/** A price bound of the listing: the lowest SKU price, in minor units (`priceMin` and `priceMax` both inclusive). */
const priceParam = wholeNumber(z.number().int().min(0).max(2_000_000_000));

/** The filters of the product listing, shared by its facets (spread into their zod objects). */
export const listingFilterFields = {
  q: keywordParam.optional(),
  category: idParam.optional(),
  brandId: idParam.optional(),
  shopId: idParam.optional(),
  priceMin: priceParam.optional(),
  priceMax: priceParam.optional(),
};

/** Sort keys of the listing (`sort=price`: lowest SKU price; `sort=sales`: sold_count) and directions. */
export const LISTING_SORTS = ['price', 'sales'] as const;
export const LISTING_ORDERS = ['asc', 'desc'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];
export type ListingOrder = (typeof LISTING_ORDERS)[number];

/** `sort` and `order` of the listing, also taken by its facets (which a client calls with the same parameters). */
export const listingOrderFields = { sort: z.enum(LISTING_SORTS).optional(), order: z.enum(LISTING_ORDERS).optional() };

/**
 * An unsupported `sort` or `order` is SORT_UNSUPPORTED (400, naming the parameter and what it takes),
 * checked before the rest of the input so it wins whatever else is wrong.
 */
/** A refused parameter's value as the error repeats it (a repeated query parameter arrives as a list). */
const asText = (value: unknown) => (typeof value === 'string' ? value : JSON.stringify(value));

export function checkListingOrder(input: unknown): { sort?: ListingSort; order?: ListingOrder } {
  const { sort, order } = (input ?? {}) as { sort?: unknown; order?: unknown };
  if (sort !== undefined && !LISTING_SORTS.includes(sort as ListingSort)) {
    throw new AppError('SORT_UNSUPPORTED', 400, `sort must be one of: ${LISTING_SORTS.join(', ')}`, { parameter: 'sort', value: asText(sort), allowed: LISTING_SORTS });
  }
  if (order !== undefined && !LISTING_ORDERS.includes(order as ListingOrder)) {
    throw new AppError('SORT_UNSUPPORTED', 400, 'order must be asc or desc', { parameter: 'order', value: asText(order), allowed: LISTING_ORDERS });
  }
  return { sort: sort as ListingSort | undefined, order: order as ListingOrder | undefined };
}

export type ListingFilterInput = z.output<z.ZodObject<typeof listingFilterFields>>;

/** `priceMin` above `priceMax` is VALIDATION_FAILED on `priceMax` (zod `superRefine` of the input object). */
export function checkPriceRange(input: { priceMin?: number; priceMax?: number }, ctx: z.RefinementCtx): void {
  if (input.priceMin !== undefined && input.priceMax !== undefined && input.priceMin > input.priceMax) {
    ctx.addIssue({ code: 'custom', path: ['priceMax'], message: 'must not be below the minimum price' });
  }
}

/** The filters a facet can ignore: each facet counts as if its own filter were not set. */
export type FacetName = 'category' | 'brand' | 'shop' | 'price';

/**
 * Which filters a listing applies: the shape of its statement (which conditions it has), not their
 * values. With `ListingValues`, every filter of the listing, in one place: the page, its count, the
 * sales ranking and the facets all read them.
 */
export interface ListingShape {
  keyword: MatchKind | null;
  category: boolean;
  brand: boolean;
  shop: boolean;
  price: 'min' | 'max' | 'range' | null;
}

/**
 * Whether a listing's best plan depends on its filters' values: how many products a keyword, a
 * category (a top-level one holds a sixth of the catalog, a leaf a handful), a brand, a shop or a
 * price range selects varies by orders of magnitude, and a generic plan fitted to one ruins another
 * (it sorted a whole top-level category for one page by price; docs/performance.md). Such a listing's statements
 * are planned with their values at each call; only the unfiltered listing keeps one plan per connection.
 */
export function plansVaryByValue(shape: ListingShape): boolean {
  return shape.keyword !== null || shape.category || shape.brand || shape.shop || shape.price !== null;
}

/** The values of a listing's filters (bound to the statement, never part of its text). */
export interface ListingValues {
  keyword: string;
  category: number;
  brandId: number;
  shopId: number;
  priceMin: number;
  priceMax: number;
}

/** A listing: its shape and values, and the key its remembered totals and rankings are kept under. */
export interface Listing {
  shape: ListingShape;
  values: ListingValues;
  key: string;
}

/** The listing of these filters (and keyword match, if any). */
export function listingOf(f: ListingFilterInput, match?: KeywordMatch): Listing {
  const price = f.priceMin !== undefined && f.priceMax !== undefined ? 'range' : f.priceMin !== undefined ? 'min' : f.priceMax !== undefined ? 'max' : null;
  const shape: ListingShape = { keyword: match?.by ?? null, category: f.category !== undefined, brand: f.brandId !== undefined, shop: f.shopId !== undefined, price };
  // Absent filters take a value that no statement reads (their condition is not in its text).
  const values: ListingValues = {
    keyword: match?.text ?? '',
    category: f.category ?? 0,
    brandId: f.brandId ?? 0,
    shopId: f.shopId ?? 0,
    priceMin: f.priceMin ?? 0,
    priceMax: f.priceMax ?? 0,
  };
  return { shape, values, key: JSON.stringify([shape, values]) };
}

/** The published products of a product row `p` (name, search document, category, brand, shop, lowest price) meeting the listing's filters. */
export interface ListedProduct {
  name: Expression<string>;
  searchDocument: Expression<string | null>;
  category: Expression<number>;
  brand: Expression<number | null>;
  shop: Expression<number>;
  priceFrom: Expression<number>;
  status: Expression<ProductStatus>;
}

/** Each filter of the shape as SQL on the product `p`, by name (`keyword` too); the values are the statement's. */
export function filterConditions(p: ListedProduct, shape: ListingShape, v: StandIns<ListingValues>): Partial<Record<FacetName | 'keyword', AliasableExpression<SqlBool>>> {
  const eb = expressionBuilder<Database, never>();
  const parts: Partial<Record<FacetName | 'keyword', AliasableExpression<SqlBool>>> = {};
  if (shape.keyword) parts.keyword = productSearch.sqlOf(shape.keyword, p, eb.val(v.keyword)).where;
  if (shape.category) {
    const subtree = eb
      .selectFrom('Category as root')
      .innerJoin('Category as c', (join) => join.on((j) => inSubtree(j.ref('c.path'), j.ref('root.path'))))
      .select('c.id as id')
      .where('root.id', '=', v.category);
    parts.category = eb(p.category, 'in', subtree);
  }
  if (shape.brand) parts.brand = eb(p.brand, '=', v.brandId);
  if (shape.shop) parts.shop = eb(p.shop, '=', v.shopId);
  if (shape.price === 'range') parts.price = eb.between(p.priceFrom, v.priceMin, v.priceMax);
  else if (shape.price === 'min') parts.price = eb(p.priceFrom, '>=', v.priceMin);
  else if (shape.price === 'max') parts.price = eb(p.priceFrom, '<=', v.priceMax);
  return parts;
}

/** Published products meeting every filter of the listing. */
export function listingWhere(p: ListedProduct, shape: ListingShape, v: StandIns<ListingValues>): Expression<SqlBool> {
  const eb = expressionBuilder<Database, never>();
  return eb.and([eb(p.status, '=', sql.lit(ProductStatus.Published)), ...Object.values(filterConditions(p, shape, v))]);
}

/** How a keyword selects and ranks products (see product-search.ts). */
export const productSearch = postgresProductSearch;

/**
 * Reads with each way the keyword `q` matches, in order, until one finds something (similar names
 * only when the words match nothing under the same filters); without a keyword, once with no match.
 * The listing and its facets fall back the same way, so they always count the same products.
 */
export async function firstMatching<T extends { total: number }>(q: string | undefined, read: (match: KeywordMatch | undefined) => Promise<T>): Promise<T> {
  const matches = q === undefined ? [undefined] : productSearch.matchesOf(keywordOf(q));
  let result: T | undefined;
  for (const match of matches) {
    result = await read(match);
    if (result.total > 0) break;
  }
  return result!;
}
