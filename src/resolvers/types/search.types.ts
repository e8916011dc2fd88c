import { BrandFacetView, CategoryFacetView, PriceBucketView, ProductFacetsView, ShopFacetView, SuggestionView } from '../../services/catalog/search/search-views.js';
import { objectType } from './object-type.js';
// The SuggestionKind enum is registered there.
import './enums.js';

// Made from the search's view schemas (object-type.ts); the facets' types first, so ProductFacets names them.
export const CategoryFacetType = objectType('CategoryFacet', CategoryFacetView);
export const BrandFacetType = objectType('BrandFacet', BrandFacetView);
export const ShopFacetType = objectType('ShopFacet', ShopFacetView);
export const PriceBucketType = objectType('PriceBucket', PriceBucketView);
export const ProductFacetsType = objectType('ProductFacets', ProductFacetsView);

export const SearchSuggestionType = objectType('SearchSuggestion', SuggestionView);
