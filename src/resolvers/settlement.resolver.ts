import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as payouts from '../services/settlement/payouts.js';
import * as statements from '../services/settlement/statements.js';
import * as commissions from '../services/settlement/commissions.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  AddCommissionRateInput, AddCommissionRatePayload, CommissionRate, CreatePayoutBatchInput, CreatePayoutBatchPayload, PayoutBatch, PayoutBatchSummary, PayoutBatchSummaryPage,
  PayoutPage, Reconciliation, SettlePayoutInput, SettlePayoutPayload, ShopBalances, StatementArgs, StatementPage,
} from './types/settlement.types.js';
import { PageArgs } from './types/page.types.js';
import { PAGE_SIZE_MAX } from '../shared/pagination.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** The GraphQL door of settlement (the REST door: rest/settlement.routes.ts); one service call each. */
@Resolver()
export class SettlementResolver {
  @Allow(Permission.ShopMoneyRead)
  @Query(() => ShopBalances, { description: "The operator's shop's balances" })
  merchantBalances(@Ctx() { ctx }: GraphQLContext) {
    return statements.shopBalances(ctx);
  }

  @Allow(Permission.ShopMoneyRead)
  @Query(() => StatementPage, { description: "The operator's shop's statement: every entry of its accounts, newest first" })
  merchantStatement(@Args(() => StatementArgs) args: StatementArgs, @Ctx() { ctx }: GraphQLContext) {
    return statements.shopStatement(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopMoneyRead)
  @Query(() => PayoutPage, { description: "The operator's shop's payouts, newest first" })
  merchantPayouts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return statements.shopPayouts(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => PayoutBatchSummaryPage, { description: 'Platform admin: the payout batches, newest first' })
  adminPayoutBatches(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return payouts.listPayoutBatches(ctx, withoutNulls(args));
  }

  // Kept for the clients typed against it (a list's type cannot become a page without breaking them):
  // the first page of the same list, as large as its old answer.
  @Allow(Permission.PlatformMoneyManage)
  @Query(() => [PayoutBatchSummary], {
    description: 'Platform admin: the latest 100 payout batches',
    deprecationReason: 'Use adminPayoutBatches: the same batches a page at a time',
  })
  async payoutBatches(@Ctx() { ctx }: GraphQLContext) {
    return (await payouts.listPayoutBatches(ctx, { pageSize: PAGE_SIZE_MAX })).items;
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => PayoutBatch, { nullable: true, description: 'Platform admin: one payout batch with its payouts' })
  payoutBatch(@Arg('id', () => Int) batchId: number, @Ctx() { ctx }: GraphQLContext) {
    return payouts.getPayoutBatch(ctx, { batchId });
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => String, { nullable: true, description: "Platform admin: a batch's file for the bank (CSV)" })
  payoutBatchCsv(@Arg('id', () => Int) batchId: number, @Ctx() { ctx }: GraphQLContext) {
    return payouts.exportPayoutBatchCsv(ctx, { batchId });
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => [CommissionRate], { nullable: true, description: "Platform admin: a shop's commission rates (null: no such shop)" })
  commissionRates(@Arg('shopId', () => Int) shopId: number, @Ctx() { ctx }: GraphQLContext) {
    return commissions.listCommissionRates(ctx, { shopId });
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => Reconciliation, { description: 'Platform admin: daily totals (UTC days from..to) beside the check that the books balance' })
  reconciliation(@Arg('from', () => String, { description: 'YYYY-MM-DD' }) from: string, @Arg('to', () => String, { description: 'YYYY-MM-DD' }) to: string, @Ctx() { ctx }: GraphQLContext) {
    return statements.reconciliationReport(ctx, { from, to });
  }

  @Allow(Permission.PlatformMoneyManage)
  @Mutation(() => CreatePayoutBatchPayload, { description: 'Platform admin: pay out every shop whose available balance reached the threshold' })
  createPayoutBatch(@Arg('input', () => CreatePayoutBatchInput) input: CreatePayoutBatchInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreatePayoutBatchPayload, () => payouts.createPayoutBatch(ctx, { ...input }));
  }

  @Allow(Permission.PlatformMoneyManage)
  @Mutation(() => SettlePayoutPayload, { description: "Platform admin: the bank's answer for a payout" })
  settlePayout(@Arg('input', () => SettlePayoutInput) input: SettlePayoutInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, SettlePayoutPayload, () => payouts.settlePayout(ctx, withoutNulls({ ...input })));
  }

  @Allow(Permission.PlatformMoneyManage)
  @Mutation(() => AddCommissionRatePayload, { description: 'Platform admin: add a commission rate for a shop' })
  addCommissionRate(@Arg('input', () => AddCommissionRateInput) input: AddCommissionRateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, AddCommissionRatePayload, () => commissions.addCommissionRate(ctx, withoutNulls({ ...input })));
  }
}
