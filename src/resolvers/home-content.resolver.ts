import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as content from '../services/catalog/home-content.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { answer } from './answer.js';
import { HomeContentType, ReplaceHomeContentInput, ReplaceHomeContentPayload } from './types/catalog.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class HomeContentResolver {
  @Allow(Permission.Public)
  @Query(() => HomeContentType, { description: 'The storefront home: active items of each list, in order' })
  homeContent(@Ctx() { ctx }: GraphQLContext) {
    return content.homeContent(ctx);
  }

  @Allow(Permission.PlatformContentManage)
  @Query(() => HomeContentType, { description: 'Platform admin: every item of every list, inactive ones included' })
  adminContent(@Ctx() { ctx }: GraphQLContext) {
    return content.adminContent(ctx);
  }

  @Allow(Permission.PlatformContentManage)
  @Mutation(() => ReplaceHomeContentPayload, {
    description: 'Platform admin: replace one list with the submitted ordered list (positions 0..n-1); one bad destination rejects it all',
  })
  replaceHomeContent(@Arg('input', () => ReplaceHomeContentInput) input: ReplaceHomeContentInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ReplaceHomeContentPayload, async () => (await content.replaceHomeContent(ctx, input.kind, { items: input.items })).items);
  }
}
