import { Coupon } from './types/coupon.types.js';
import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import * as brands from '../services/catalog/brand.service.js';
import * as categories from '../services/catalog/category.service.js';
import * as shops from '../services/catalog/shop.service.js';
import type { CategoryView, ShopView } from '../services/catalog/catalog-views.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { PageArgs } from './types/page.types.js';
import { answer } from './answer.js';
import {
  BrandType, CategoryType, CurrencyType, PutShopProfileInput, PutShopProfilePayload, ReplaceBrandsInput, ReplaceBrandsPayload, ShopPageType,
  ShopProfileType, ShopType,
} from './types/catalog.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** Brands, categories, currency. */
@Resolver()
export class CatalogResolver {
  @Allow(Permission.Public)
  @Query(() => CurrencyType, { description: 'The platform base currency' })
  currency(@Ctx() { ctx }: GraphQLContext) {
    return categories.currency(ctx);
  }

  @Allow(Permission.Public)
  @Query(() => [BrandType], { description: 'The brands in their admin-defined order' })
  async brands(@Ctx() { ctx }: GraphQLContext) {
    return (await brands.listBrands(ctx)).items;
  }

  @Allow(Permission.PlatformContentManage)
  @Mutation(() => ReplaceBrandsPayload, { description: 'Platform admin: replace the ordered brand list as a whole' })
  replaceBrands(@Arg('input', () => ReplaceBrandsInput) input: ReplaceBrandsInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ReplaceBrandsPayload, async () => (await brands.replaceBrands(ctx, { items: input.items })).items);
  }

  @Allow(Permission.Public)
  @Query(() => [CategoryType], { description: 'The category tree: top-level categories with their children' })
  async categories(@Ctx() { ctx }: GraphQLContext) {
    return (await categories.categoryTree(ctx)).items;
  }

  @Allow(Permission.Public)
  @Query(() => CategoryType, { nullable: true, description: 'One category with its subtree' })
  category(@Arg('id', () => Int) id: number, @Ctx() { ctx }: GraphQLContext) {
    return categories.categorySubtree(ctx, id);
  }
}

@Resolver(() => CategoryType)
export class CategoryFieldsResolver {
  /** A tree read already carries the children; a category reached otherwise loads them in a batch. */
  @FieldResolver(() => [CategoryType])
  children(@Root() category: CategoryView & { children?: CategoryView[] }, @Ctx() { loaders }: GraphQLContext) {
    return category.children ?? loaders.categoryChildren.load(category.id);
  }
}

@Resolver(() => ShopType)
export class ShopResolver {
  @Allow(Permission.Public)
  @Query(() => ShopPageType, { description: 'Every shop by name, with its profile when it has one' })
  async shops(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx, loaders }: GraphQLContext) {
    const result = await shops.listShops(ctx, withoutNulls(args));
    primeProfiles(loaders, result.items);
    return result;
  }

  @Allow(Permission.Public)
  @Query(() => ShopType, { nullable: true })
  async shop(@Arg('slug') slug: string, @Ctx() { ctx, loaders }: GraphQLContext) {
    const shop = await shops.getShop(ctx, slug);
    primeProfiles(loaders, [shop]);
    return shop;
  }

  @Allow(Permission.PlatformContentManage)
  @Mutation(() => PutShopProfilePayload, { description: 'Platform admin: create or replace a shop profile' })
  putShopProfile(@Arg('input', () => PutShopProfileInput) input: PutShopProfileInput, @Ctx() { ctx }: GraphQLContext) {
    const { shopId, ...profile } = input;
    return answer(ctx, PutShopProfilePayload, () => shops.putShopProfile(ctx, shopId, profile));
  }

  @FieldResolver(() => ShopProfileType, { nullable: true })
  profile(@Root() shop: ShopView, @Ctx() { loaders }: GraphQLContext) {
    // Read with the shop (the key is there, even when the shop has none): no second look.
    if ('profile' in shop) return shop.profile ?? null;
    return loaders.shopProfiles.load(shop.id);
  }

  @FieldResolver(() => Boolean, { description: 'Whether the calling customer favorited it (false for anyone else)' })
  favorited(@Root() shop: ShopView, @Ctx() { loaders }: GraphQLContext) {
    return shop.favorited ?? loaders.favoritedShops.load(shop.id);
  }

  @FieldResolver(() => [Coupon], { description: "The calling customer's usable coupons of this shop (empty for anyone else)" })
  myCoupons(@Root() shop: ShopView, @Ctx() { loaders }: GraphQLContext) {
    return loaders.myCoupons.load(shop.id);
  }
}

/** Shops read with their profile need no second query for `profile`. */
function primeProfiles(loaders: GraphQLContext['loaders'], items: ShopView[]) {
  for (const shop of items) loaders.shopProfiles.prime(shop.id, shop.profile ?? null);
}
