import { Arg, Args, Ctx, Query, Resolver } from 'type-graphql';
import { productFacets } from '../services/catalog/search/facets.service.js';
import { searchSuggestions } from '../services/catalog/search/suggestions.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { ProductListArgs } from './types/catalog.types.js';
import { ProductFacetsType, SearchSuggestionType } from './types/search.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** Facets of the product listing and search-box suggestions. */
@Resolver()
export class SearchResolver {
  @Allow(Permission.Public)
  @Query(() => ProductFacetsType, { description: 'Category, brand, shop and price counts for the same arguments as `products`' })
  productFacets(@Args(() => ProductListArgs) args: ProductListArgs, @Ctx() { ctx }: GraphQLContext) {
    return productFacets(ctx, withoutNulls(args));
  }

  @Allow(Permission.Public)
  @Query(() => [SearchSuggestionType], { description: 'Up to 8 brands, categories and products whose names start with `q`' })
  async searchSuggestions(@Arg('q') q: string, @Ctx() { ctx }: GraphQLContext) {
    return (await searchSuggestions(ctx, { q })).items;
  }
}
