import { Arg, Args, Ctx, Int, Query, Resolver } from 'type-graphql';
import * as operations from '../services/orders/operations.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { AwaitingShipmentListArgs, OperationsTodayType } from './types/operations.types.js';
import { OrderPage } from './types/order.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class OperationsResolver {
  @Allow(Permission.OpsRead)
  @Query(() => OperationsTodayType, { description: "Today's counters: the operator's shop, or every shop (or shopId) for a platform admin" })
  operationsToday(
    @Arg('timeZone', () => String, { nullable: true, description: 'IANA time zone of "today" (default UTC)' }) timeZone: string | null | undefined,
    @Arg('shopId', () => Int, { nullable: true, description: 'Platform admin: one shop only' }) shopId: number | null | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return operations.operationsToday(ctx, withoutNulls({ timeZone, shopId }));
  }

  @Allow(Permission.OpsRead)
  @Query(() => OrderPage, { description: 'Paid orders not yet fully shipped, oldest first: the own shop (operator), every shop or shopId (platform admin)' })
  ordersAwaitingShipment(@Args(() => AwaitingShipmentListArgs) args: AwaitingShipmentListArgs, @Ctx() { ctx }: GraphQLContext) {
    return operations.ordersAwaitingShipment(ctx, withoutNulls(args));
  }
}
