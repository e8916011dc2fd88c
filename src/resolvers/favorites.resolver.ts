import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as favorites from '../services/accounts/favorites.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { PageArgs } from './types/page.types.js';
import { FavoriteProductType, FavoriteShopType, FavoritesType } from './types/favorites.types.js';

@Resolver()
export class FavoritesResolver {
  @Query(() => FavoritesType, { description: "The caller's favorite products and shops (customer)" })
  myFavorites(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return favorites.myFavorites(ctx, withoutNulls(args));
  }

  @Mutation(() => FavoriteProductType, { description: 'Favorite a product; idempotent' })
  favoriteProduct(@Arg('productId', () => Int) productId: number, @Ctx() { ctx }: GraphQLContext) {
    return favorites.favoriteProduct(ctx, productId);
  }

  @Mutation(() => Boolean, { description: 'Remove a product from favorites; idempotent' })
  unfavoriteProduct(@Arg('productId', () => Int) productId: number, @Ctx() { ctx }: GraphQLContext) {
    return favorites.unfavoriteProduct(ctx, productId);
  }

  @Mutation(() => FavoriteShopType, { description: 'Favorite a shop; idempotent' })
  favoriteShop(@Arg('shopId', () => Int) shopId: number, @Ctx() { ctx }: GraphQLContext) {
    return favorites.favoriteShop(ctx, shopId);
  }

  @Mutation(() => Boolean, { description: 'Remove a shop from favorites; idempotent' })
  unfavoriteShop(@Arg('shopId', () => Int) shopId: number, @Ctx() { ctx }: GraphQLContext) {
    return favorites.unfavoriteShop(ctx, shopId);
  }
}
