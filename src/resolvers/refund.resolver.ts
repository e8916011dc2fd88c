import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as refunds from '../services/after-sale/refund.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { Refund, RefundInput, RefundListArgs, RefundPage, ShipBackInput } from './types/after-sale.types.js';

@Resolver()
export class RefundResolver {
  @Mutation(() => Refund, { description: 'Ask for a refund (units not shipped) or a return (delivered units) of lines of an order' })
  requestRefund(@Arg('orderId', () => Int) orderId: number, @Arg('input', () => RefundInput) input: RefundInput, @Ctx() { ctx }: GraphQLContext) {
    return refunds.requestRefund(ctx, { ...input, items: input.items.map((i) => ({ ...i })), orderId });
  }

  @Query(() => RefundPage, { description: "The customer's refunds and returns, newest first" })
  myRefunds(@Args(() => RefundListArgs) args: RefundListArgs, @Ctx() { ctx }: GraphQLContext) {
    return refunds.listMyRefunds(ctx, withoutNulls(args));
  }

  @Query(() => Refund)
  refund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.getMyRefund(ctx, { refundId });
  }

  @Mutation(() => Refund, { description: 'Send the goods of an approved return back' })
  shipBackRefund(@Arg('id', () => Int) refundId: number, @Arg('input', () => ShipBackInput) input: ShipBackInput, @Ctx() { ctx }: GraphQLContext) {
    return refunds.shipBackRefund(ctx, { ...input, refundId });
  }

  @Mutation(() => Refund, { description: 'Withdraw a request not yet decided, or an approved return not yet sent' })
  cancelRefund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.cancelRefund(ctx, { refundId });
  }

  @Query(() => RefundPage, { description: "The operator's shop's refunds and returns, newest first" })
  merchantRefunds(@Args(() => RefundListArgs) args: RefundListArgs, @Ctx() { ctx }: GraphQLContext) {
    return refunds.listShopRefunds(ctx, withoutNulls(args));
  }

  @Query(() => Refund)
  merchantRefund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.getShopRefund(ctx, { refundId });
  }

  @Mutation(() => Refund, { description: 'A refund completes at once (money back, stock restored); a return waits for the goods' })
  approveRefund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.approveRefund(ctx, { refundId });
  }

  @Mutation(() => Refund)
  rejectRefund(@Arg('id', () => Int) refundId: number, @Arg('reason') reason: string, @Ctx() { ctx }: GraphQLContext) {
    return refunds.rejectRefund(ctx, { refundId, reason });
  }

  @Mutation(() => Refund, { description: 'Confirm the returned goods arrived: the money goes back' })
  receiveRefund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.receiveRefund(ctx, { refundId });
  }
}
