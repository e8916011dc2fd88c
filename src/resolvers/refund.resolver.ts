import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as refunds from '../services/after-sale/refund.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  ApproveRefundInput, ApproveRefundPayload, CancelRefundInput, CancelRefundPayload, ReceiveRefundInput, ReceiveRefundPayload, Refund, RefundListArgs,
  RefundPage, RejectRefundInput, RejectRefundPayload, RequestRefundInput, RequestRefundPayload, ShipBackRefundInput, ShipBackRefundPayload,
} from './types/after-sale.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class RefundResolver {
  @Allow(Permission.Customer)
  @Mutation(() => RequestRefundPayload, { description: 'Ask for a refund (units not shipped) or a return (delivered units) of lines of an order' })
  requestRefund(@Arg('input', () => RequestRefundInput) input: RequestRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RequestRefundPayload, () => refunds.requestRefund(ctx, { ...input, items: input.items.map((i) => ({ ...i })) }));
  }

  @Allow(Permission.Customer)
  @Query(() => RefundPage, { description: "The customer's refunds and returns, newest first" })
  myRefunds(@Args(() => RefundListArgs) args: RefundListArgs, @Ctx() { ctx }: GraphQLContext) {
    return refunds.listMyRefunds(ctx, withoutNulls(args));
  }

  @Allow(Permission.Customer)
  @Query(() => Refund, { nullable: true, description: "One of the customer's refunds or returns" })
  refund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.getMyRefund(ctx, { refundId });
  }

  @Allow(Permission.Customer)
  @Mutation(() => ShipBackRefundPayload, { description: 'Send the goods of an approved return back' })
  shipBackRefund(@Arg('input', () => ShipBackRefundInput) input: ShipBackRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ShipBackRefundPayload, () => refunds.shipBackRefund(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Mutation(() => CancelRefundPayload, { description: 'Withdraw a request not yet decided, or an approved return not yet sent' })
  cancelRefund(@Arg('input', () => CancelRefundInput) input: CancelRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CancelRefundPayload, () => refunds.cancelRefund(ctx, { ...input }));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Query(() => RefundPage, { description: "The operator's shop's refunds and returns, newest first" })
  merchantRefunds(@Args(() => RefundListArgs) args: RefundListArgs, @Ctx() { ctx }: GraphQLContext) {
    return refunds.listShopRefunds(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Query(() => Refund, { nullable: true, description: "One of the operator's shop's refunds or returns" })
  merchantRefund(@Arg('id', () => Int) refundId: number, @Ctx() { ctx }: GraphQLContext) {
    return refunds.getShopRefund(ctx, { refundId });
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Mutation(() => ApproveRefundPayload, { description: 'A refund completes at once (money back, stock restored); a return waits for the goods' })
  approveRefund(@Arg('input', () => ApproveRefundInput) input: ApproveRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ApproveRefundPayload, () => refunds.approveRefund(ctx, { ...input }));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Mutation(() => RejectRefundPayload, { description: 'Refuse a request, with the reason told to the customer' })
  rejectRefund(@Arg('input', () => RejectRefundInput) input: RejectRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RejectRefundPayload, () => refunds.rejectRefund(ctx, { ...input }));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Mutation(() => ReceiveRefundPayload, { description: 'Confirm the returned goods arrived: the money goes back' })
  receiveRefund(@Arg('input', () => ReceiveRefundInput) input: ReceiveRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ReceiveRefundPayload, () => refunds.receiveRefund(ctx, { ...input }));
  }
}
