import { Arg, Ctx, Int, Query, Resolver } from 'type-graphql';
import * as operations from '../orders/operations.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { OperationsTodayType } from './types/operations.types.js';
import { OrderPage } from './types/order.types.js';

@Resolver()
export class OperationsResolver {
  @Query(() => OperationsTodayType, { description: "Today's counters: the operator's shop, or every shop (or shopId) for a platform admin" })
  operationsToday(
    @Arg('timeZone', () => String, { nullable: true, description: 'IANA time zone of "today" (default UTC)' }) timeZone: string | undefined,
    @Arg('shopId', () => Int, { nullable: true, description: 'Platform admin: one shop only' }) shopId: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return operations.operationsToday(ctx, { timeZone: timeZone ?? undefined, shopId: shopId ?? undefined });
  }

  @Query(() => OrderPage, { description: 'Paid orders not yet fully shipped, oldest first: the own shop (operator), every shop or shopId (platform admin)' })
  ordersAwaitingShipment(
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Arg('shopId', () => Int, { nullable: true }) shopId: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return operations.ordersAwaitingShipment(ctx, { page: page ?? undefined, pageSize: pageSize ?? undefined, shopId: shopId ?? undefined });
  }
}
