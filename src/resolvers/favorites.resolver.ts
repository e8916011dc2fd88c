import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as favorites from '../services/accounts/favorites.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PageArgs } from './types/page.types.js';
import {
  FavoriteProductInput, FavoriteProductPayload, FavoriteShopInput, FavoriteShopPayload, FavoritesType, UnfavoriteProductInput, UnfavoriteProductPayload,
  UnfavoriteShopInput, UnfavoriteShopPayload,
} from './types/favorites.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class FavoritesResolver {
  @Allow(Permission.Customer)
  @Query(() => FavoritesType, { description: "The caller's favorite products and shops (customer)" })
  myFavorites(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return favorites.myFavorites(ctx, withoutNulls(args));
  }

  @Allow(Permission.Customer)
  @Mutation(() => FavoriteProductPayload, { description: 'Favorite a product; idempotent' })
  favoriteProduct(@Arg('input', () => FavoriteProductInput) input: FavoriteProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, FavoriteProductPayload, () => favorites.favoriteProduct(ctx, input.productId));
  }

  @Allow(Permission.Customer)
  @Mutation(() => UnfavoriteProductPayload, { description: 'Remove a product from favorites; idempotent' })
  unfavoriteProduct(@Arg('input', () => UnfavoriteProductInput) input: UnfavoriteProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UnfavoriteProductPayload, async () => {
      await favorites.unfavoriteProduct(ctx, input.productId);
      return input.productId;
    });
  }

  @Allow(Permission.Customer)
  @Mutation(() => FavoriteShopPayload, { description: 'Favorite a shop; idempotent' })
  favoriteShop(@Arg('input', () => FavoriteShopInput) input: FavoriteShopInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, FavoriteShopPayload, () => favorites.favoriteShop(ctx, input.shopId));
  }

  @Allow(Permission.Customer)
  @Mutation(() => UnfavoriteShopPayload, { description: 'Remove a shop from favorites; idempotent' })
  unfavoriteShop(@Arg('input', () => UnfavoriteShopInput) input: UnfavoriteShopInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UnfavoriteShopPayload, async () => {
      await favorites.unfavoriteShop(ctx, input.shopId);
      return input.shopId;
    });
  }
}
