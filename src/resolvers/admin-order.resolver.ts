import { Arg, Args, Ctx, Int, Query, Resolver } from 'type-graphql';
import * as adminOrders from '../services/platform/admin-orders.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { AdminOrder, AdminOrderListArgs, AdminOrderPage } from './types/admin-order.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class AdminOrderResolver {
  @Allow(Permission.PlatformOrdersRead)
  @Query(() => AdminOrderPage, { description: "Platform admin: every shop's orders, newest first, by order id, customer, shop and status" })
  adminOrders(@Args(() => AdminOrderListArgs) args: AdminOrderListArgs, @Ctx() { ctx }: GraphQLContext) {
    return adminOrders.listAdminOrders(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformOrdersRead)
  @Query(() => AdminOrder, { nullable: true, description: 'Platform admin: one order of any shop, with its payments and refunds' })
  adminOrder(@Arg('id', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return adminOrders.getAdminOrder(ctx, { orderId });
  }
}
