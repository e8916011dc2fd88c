import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as disputes from '../services/after-sale/dispute.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  AdminDisputeListArgs, Dispute, DisputeListArgs, DisputePage, EscalateRefundInput, EscalateRefundPayload, RefundDisputeInput, RefundDisputePayload, UpholdDisputeInput, UpholdDisputePayload,
} from './types/dispute.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class DisputeResolver {
  @Allow(Permission.Customer)
  @Mutation(() => EscalateRefundPayload, { description: 'Escalate a refund or return the shop rejected to the platform (once)' })
  escalateRefund(@Arg('input', () => EscalateRefundInput) input: EscalateRefundInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, EscalateRefundPayload, () => disputes.escalateRefund(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Query(() => DisputePage, { description: "The customer's disputes, newest first, with the ruling" })
  myDisputes(@Args(() => DisputeListArgs) args: DisputeListArgs, @Ctx() { ctx }: GraphQLContext) {
    return disputes.listMyDisputes(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Query(() => DisputePage, { description: "The operator's shop's disputes, newest first, with the customer's reason and the ruling" })
  merchantDisputes(@Args(() => DisputeListArgs) args: DisputeListArgs, @Ctx() { ctx }: GraphQLContext) {
    return disputes.listShopDisputes(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformDisputesRule)
  @Query(() => DisputePage, { description: 'Platform admin: every dispute, newest first' })
  disputes(@Args(() => AdminDisputeListArgs) args: AdminDisputeListArgs, @Ctx() { ctx }: GraphQLContext) {
    return disputes.listDisputesForAdmin(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformDisputesRule)
  @Query(() => Dispute, { nullable: true, description: 'Platform admin: one dispute' })
  dispute(@Arg('id', () => Int) disputeId: number, @Ctx() { ctx }: GraphQLContext) {
    return disputes.getDispute(ctx, { disputeId });
  }

  @Allow(Permission.PlatformDisputesRule)
  @Mutation(() => RefundDisputePayload, { description: "Platform admin: rule for the customer, refunding all or part of the rejected request from the shop's share" })
  refundDispute(@Arg('input', () => RefundDisputeInput) input: RefundDisputeInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RefundDisputePayload, () => disputes.refundDispute(ctx, { ...input }));
  }

  @Allow(Permission.PlatformDisputesRule)
  @Mutation(() => UpholdDisputePayload, { description: "Platform admin: uphold the shop's rejection" })
  upholdDispute(@Arg('input', () => UpholdDisputeInput) input: UpholdDisputeInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpholdDisputePayload, () => disputes.upholdDispute(ctx, { ...input }));
  }
}
