import { ProductFacetsView, SuggestionView } from '../../services/catalog/search/search-views.js';
import { itemsOf, named } from './common.js';

export const ProductFacets = named('ProductFacets', ProductFacetsView);

export const SearchSuggestion = named('SearchSuggestion', SuggestionView);
export const SearchSuggestionList = named('SearchSuggestionList', itemsOf(SearchSuggestion));
