import { SuggestionKind } from '../../../entities/search-suggestion.entity.js';
import { z } from '../../../shared/validate.js';
import { count, id, money } from '../../../shared/view-fields.js';

/**
 * The search's views: REST publishes these schemas and GraphQL's types are made from them. Facets and
 * suggestions carry their names, read in the facets' own statement (no field resolvers, no N+1).
 */

export const CategoryFacetView = z.strictObject({
  id,
  parentId: id.nullable(),
  name: z.string(),
  depth: z.number().int().min(0),
  count: count.describe("Matching products in the category's whole subtree"),
});
export type CategoryFacetView = z.infer<typeof CategoryFacetView>;

export const BrandFacetView = z.strictObject({ id, name: z.string(), count });
export type BrandFacetView = z.infer<typeof BrandFacetView>;

export const ShopFacetView = z.strictObject({ id, slug: z.string(), name: z.string(), count });
export type ShopFacetView = z.infer<typeof ShopFacetView>;

export const PriceBucketView = z
  .strictObject({ min: money, max: money.nullable().describe('Null: no upper end'), count })
  .describe('Lowest SKU prices from min to max, both inclusive (minor units); pass them as priceMin and priceMax');
export type PriceBucketView = z.infer<typeof PriceBucketView>;

export const ProductFacetsView = z
  .strictObject({
    total: count.describe('Products the listing with these parameters counts'),
    // Categories with matches only.
    categories: z.array(CategoryFacetView).describe('Rolled up the tree, in tree order'),
    brands: z.array(BrandFacetView).describe('Most matches first'),
    shops: z.array(ShopFacetView).describe('Most matches first'),
    // Split at quantiles of the matching prices.
    prices: z.array(PriceBucketView).describe('About five, ascending, at whole units of the currency'),
  })
  .describe("Counts for the listing's parameters; each facet ignores its own filter");
export type ProductFacetsView = z.infer<typeof ProductFacetsView>;

export const SuggestionView = z.strictObject({
  kind: z.enum(SuggestionKind),
  id: id.describe('The brand, category or product id'),
  text: z.string(),
  path: z.string().describe('The storefront route it leads to, e.g. `/products/12`'),
});
export type SuggestionView = z.infer<typeof SuggestionView>;
