import { Args, Ctx, Query, Resolver } from 'type-graphql';
import * as adminShops from '../services/platform/admin-shops.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { AdminShopListArgs, AdminShopPage } from './types/admin-shop.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class AdminShopResolver {
  @Allow(Permission.PlatformShopsRead)
  @Query(() => AdminShopPage, { description: 'Platform admin: every shop, newest first, with its state, sales, balances and commission' })
  adminShops(@Args(() => AdminShopListArgs) args: AdminShopListArgs, @Ctx() { ctx }: GraphQLContext) {
    return adminShops.listAdminShops(ctx, withoutNulls(args));
  }
}
