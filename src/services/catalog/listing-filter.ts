import { AppError } from '../../errors.js';
import { z, idParam, wholeNumber } from '../../shared/validate.js';
import { inSubtree } from './category.service.js';
import { keywordOf, keywordParam } from './search/keyword.js';
import { postgresProductSearch, type KeywordMatch, type SqlPart } from './search/product-search.js';

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

/** The filters as SQL on `product p`, by name. */
export type FilterParts = Partial<Record<FacetName | 'keyword', SqlPart>>;

/**
 * Every filter of the listing, in one place: the page, its count, the sales ranking and the facets all
 * read the result. `category` covers its whole subtree (materialized path), `brandId` and `shopId`
 * filter, the price bounds apply to the lowest SKU price, the keyword as `match` says.
 */
export function filterParts(f: ListingFilterInput, match?: KeywordMatch): FilterParts {
  const parts: FilterParts = {};
  if (match) parts.keyword = match.where;
  if (f.category !== undefined) {
    parts.category = { sql: `p.category_id in (select c.id from category root join category c on ${inSubtree('c', 'root')} where root.id = ?)`, params: [f.category] };
  }
  if (f.brandId !== undefined) parts.brand = { sql: 'p.brand_id = ?', params: [f.brandId] };
  if (f.shopId !== undefined) parts.shop = { sql: 'p.shop_id = ?', params: [f.shopId] };
  if (f.priceMin !== undefined && f.priceMax !== undefined) parts.price = { sql: 'p.price_from between ? and ?', params: [f.priceMin, f.priceMax] };
  else if (f.priceMin !== undefined) parts.price = { sql: 'p.price_from >= ?', params: [f.priceMin] };
  else if (f.priceMax !== undefined) parts.price = { sql: 'p.price_from <= ?', params: [f.priceMax] };
  return parts;
}

/** Which published products a listing shows: SQL on `p` (product) with `?` placeholders for `params`. */
export interface ListingFilter extends SqlPart {
  /** Keys the remembered totals and rankings: the condition and its values, whatever filters there are. */
  key: string;
}

/** Published products meeting every part. */
export function listingFilter(parts: FilterParts): ListingFilter {
  const used = Object.values(parts).filter((part) => part !== undefined);
  const sql = [`p.status = 'published'`, ...used.map((part) => part.sql)].join(' and ');
  const params = used.flatMap((part) => part.params);
  return { sql, params, key: `${sql} ${JSON.stringify(params)}` };
}

/** How a keyword selects and ranks products (see product-search.ts). */
const productSearch = postgresProductSearch;

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
