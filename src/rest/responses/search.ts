import { z } from 'zod';
import { SuggestionKind } from '../../entities/search-suggestion.entity.js';
import { count, id, itemsOf, money, named } from './common.js';

export const ProductFacets = named(
  'ProductFacets',
  z.strictObject({
    total: count,
    categories: z.array(
      z.strictObject({ id, parentId: id.nullable(), name: z.string(), depth: z.number().int().min(0), count }),
    ),
    brands: z.array(z.strictObject({ id, name: z.string(), count })),
    shops: z.array(z.strictObject({ id, slug: z.string(), name: z.string(), count })),
    prices: z.array(z.strictObject({ min: money, max: money.nullable(), count })),
  }),
);

export const SearchSuggestion = named(
  'SearchSuggestion',
  z.strictObject({ kind: z.enum(SuggestionKind), id, text: z.string(), path: z.string() }),
);
export const SearchSuggestionList = named('SearchSuggestionList', itemsOf(SearchSuggestion));
