import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as content from '../services/catalog/home-content.service.js';
import { ContentKind } from '../entities/home-content-item.entity.js';
import type { GraphQLContext } from './graphql-context.js';
import { ContentItemInput, ContentItemType, HomeContentType } from './types/catalog.types.js';

@Resolver()
export class HomeContentResolver {
  @Query(() => HomeContentType, { description: 'The storefront home: active items of each list, in order' })
  homeContent(@Ctx() { ctx }: GraphQLContext) {
    return content.homeContent(ctx);
  }

  @Query(() => HomeContentType, { description: 'Platform admin: every item of every list, inactive ones included' })
  adminContent(@Ctx() { ctx }: GraphQLContext) {
    return content.adminContent(ctx);
  }

  @Mutation(() => [ContentItemType], {
    description: 'Platform admin: replace one list with the submitted ordered list (positions 0..n-1); one bad destination rejects it all',
  })
  async replaceHomeContent(
    @Arg('kind', () => ContentKind) kind: ContentKind,
    @Arg('items', () => [ContentItemInput]) items: ContentItemInput[],
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return (await content.replaceHomeContent(ctx, kind, { items })).items;
  }
}
