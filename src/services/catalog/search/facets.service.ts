import type { ServiceContext } from '../../../shared/context.js';
import { parseInput, z } from '../../../shared/validate.js';
import { pageFields } from '../../../shared/pagination.js';
import { facetsAt, hasFacets, rememberFacets } from './facets-cache.js';
import { catalogVersionText, facets } from './search.repository.js';
import { checkListingOrder, checkPriceRange, firstMatching, listingFilterFields, listingOf, listingOrderFields, type Listing } from '../listing-filter.js';
import { refusals } from '../../../error-codes.js';
import type { PriceBucketView, ProductFacetsView } from './search-views.js';

/**
 * The listing's own parameters: sort, order and page are taken (a client sends what it lists with)
 * and checked as the listing checks them, but do not change the counts.
 */
export const FacetsInput = z
  .strictObject({ ...listingFilterFields, ...listingOrderFields, ...pageFields })
  .superRefine(checkPriceRange);

export const productFacetsRefusals = refusals('SORT_UNSUPPORTED');

/**
 * Facet counts for the listing's parameters, in one statement (search.repository.ts `facets`). Each
 * facet ignores its own filter (a shopper picking a brand still sees the other brands' counts, so
 * they can widen as well as narrow); the keyword and the other filters apply. When the keyword's words
 * match nothing under these filters, names similar to it count instead, as in the listing. Counts are
 * remembered per filters at the catalog version (src/services/catalog/search/facets-cache.ts): a
 * repeated search costs one look at the version.
 */
export async function productFacets(ctx: ServiceContext, input: unknown = {}): Promise<ProductFacetsView> {
  checkListingOrder(input);
  const f = parseInput(FacetsInput, input);
  return firstMatching(f.q, (match) => facetsOf(ctx, listingOf(f, match), match !== undefined));
}

async function facetsOf(ctx: ServiceContext, listing: Listing, replan: boolean): Promise<ProductFacetsView> {
  if (hasFacets(ctx.em, listing.key)) {
    const [{ n }] = await catalogVersionText.run(ctx.em, {}, {});
    const remembered = facetsAt<ProductFacetsView>(ctx.em, listing.key, n);
    if (remembered) return remembered;
  }
  const [row] = await facets.run(ctx.em, { filter: listing.shape }, listing.values, { replan });
  const counted: ProductFacetsView = {
    total: row.total,
    categories: row.categories,
    brands: row.brands,
    shops: row.shops,
    prices: priceBuckets(row.priceFloor, row.priceBounds ?? [], row.priceCounts),
  };
  rememberFacets(ctx.em, listing.key, row.catalogVersion, counted, ctx.config.memoryBounds.facetFilters);
  return counted;
}

/** Bucket `i` (width_bucket) runs from bound i-1 (the floor for the first) to just below bound i (open for the last). */
function priceBuckets(floor: number | null, bounds: number[], counts: { bucket: number; count: number }[]): PriceBucketView[] {
  if (floor === null) return [];
  return counts.map(({ bucket, count }) => ({
    min: bucket === 0 ? floor : bounds[bucket - 1],
    max: bucket < bounds.length ? bounds[bucket] - 1 : null,
    count,
  }));
}
