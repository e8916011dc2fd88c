import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { BalanceKind } from '../../entities/balance.entity.js';
import { PayoutStatus } from '../../entities/settlement.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { PayoutStatusEnum, ShopAccountEnum, BalanceKindEnum, LedgerReasonEnum } from './enums.js';
import type { LedgerReason } from '../../entities/ledger-entry.entity.js';
import { createPayoutBatchRefusals, settlePayoutRefusals } from '../../services/settlement/payouts.js';
import { addCommissionRateRefusals } from '../../services/settlement/commissions.js';

@ObjectType({ description: "A shop's balances, in minor units of `currency`" })
export class ShopBalances {
  @Field() currency!: string;
  @Field(() => Int, { description: 'Earned on orders not completed yet' }) pending!: number;
  @Field(() => Int, { description: 'Payable in the next payout batch' }) available!: number;
  @Field(() => Int, { description: 'In payouts sent to the bank, not yet answered' }) inTransit!: number;
  @Field(() => Int, { description: 'What refunds took beyond the available balance (zero or negative), netted from the next earnings' }) debt!: number;
}

@ObjectType({ description: "One entry of a shop's accounts" })
export class StatementEntry {
  @Field(() => Int) id!: number;
  @Field(() => ShopAccountEnum) account!: BalanceKind;
  @Field(() => Int) delta!: number;
  @Field(() => Int) balanceAfter!: number;
  @Field(() => LedgerReasonEnum) reason!: LedgerReason;
  @Field(() => Int, { nullable: true }) orderId!: number | null;
  @Field(() => Int, { nullable: true }) refundId!: number | null;
  @Field(() => Int, { nullable: true }) payoutId!: number | null;
  @Field() createdAt!: Date;
}

@ObjectType('StatementPage')
export class StatementPage extends PageType(StatementEntry) {}

@ArgsType()
export class StatementArgs extends PageArgs {
  @Field(() => ShopAccountEnum, { nullable: true, description: 'One account only' }) account?: BalanceKind | null;
}

@ObjectType()
export class Payout {
  @Field(() => Int) id!: number;
  @Field(() => Int) batchId!: number;
  @Field(() => Int) shopId!: number;
  @Field({ description: "The shop's name now" }) shopName!: string;
  @Field(() => Int) amount!: number;
  @Field(() => PayoutStatusEnum) status!: PayoutStatus;
  @Field(() => String, { nullable: true }) failureReason!: string | null;
  @Field({ description: 'The bank reported it paid, then returned it' }) failedAfterPaid!: boolean;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) settledAt!: Date | null;
}

@ObjectType('PayoutPage')
export class PayoutPage extends PageType(Payout) {}

@ObjectType()
export class PayoutBatch {
  @Field(() => Int) id!: number;
  @Field(() => Int) threshold!: number;
  @Field() createdAt!: Date;
  @Field(() => Int) total!: number;
  @Field(() => [Payout]) payouts!: Payout[];
}

@ObjectType()
export class PayoutBatchSummary {
  @Field(() => Int) id!: number;
  @Field(() => Int) threshold!: number;
  @Field() createdAt!: Date;
  @Field(() => Int) payoutCount!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class CommissionRate {
  @Field(() => Int) id!: number;
  @Field(() => Int) shopId!: number;
  @Field(() => Int, { nullable: true }) categoryId!: number | null;
  @Field(() => Int, { description: 'Basis points of what the customer paid (100 = 1%)' }) rateBp!: number;
  @Field() validFrom!: Date;
  @Field(() => Date, { nullable: true }) validUntil!: Date | null;
}

@ObjectType()
export class KindTotal {
  @Field(() => BalanceKindEnum) kind!: BalanceKind;
  @Field(() => Int) total!: number;
}

@ObjectType({ description: "A payment gateway's day: captured, confirmed refunded, and what of the day's payments and refunds still waits on it" })
export class ProviderDay {
  @Field({ description: 'sandbox, stripe, alipay' }) provider!: string;
  @Field(() => Int) captured!: number;
  @Field(() => Int) refunded!: number;
  @Field(() => Int) waiting!: number;
}

@ObjectType()
export class ReconciliationDay {
  @Field({ description: 'UTC day, YYYY-MM-DD' }) day!: string;
  @Field(() => [KindTotal], { description: "Sum of the day's entries per account kind" }) movements!: KindTotal[];
  @Field(() => Int) ordersPaid!: number;
  @Field(() => Int) amountPaid!: number;
  @Field(() => Int) refundsCompleted!: number;
  @Field(() => Int) amountRefunded!: number;
  @Field(() => Int) commissionEarned!: number;
  @Field(() => Int) payoutsCreated!: number;
  @Field(() => Int) amountPaidOut!: number;
  @Field(() => [ProviderDay], { description: 'Per payment gateway (not the wallet)' }) providers!: ProviderDay[];
}

@ObjectType()
export class Reconciliation {
  @Field(() => Int, { description: 'Sum over every money account: zero when the books balance' }) booksSum!: number;
  @Field() booksBalance!: boolean;
  @Field(() => Int) unbalancedTransfers!: number;
  @Field(() => [KindTotal]) balances!: KindTotal[];
  @Field(() => [ReconciliationDay]) days!: ReconciliationDay[];
}

@InputType()
export class CreatePayoutBatchInput {
  @Field(() => Int, { description: 'Shops whose available balance is at least this are paid out' }) threshold!: number;
}

@InputType()
export class SettlePayoutInput {
  @Field(() => Int) payoutId!: number;
  @Field(() => PayoutStatusEnum, { description: 'PAID or FAILED' }) status!: PayoutStatus;
  @Field({ nullable: true }) failureReason?: string;
}

@InputType()
export class AddCommissionRateInput {
  @Field(() => Int) shopId!: number;
  @Field(() => Int, { nullable: true, description: 'A category (and its subcategories); none: every other product' }) categoryId?: number;
  @Field(() => Int) rateBp!: number;
  @Field({ nullable: true, description: 'Default now' }) validFrom?: Date;
  @Field({ nullable: true, description: 'Open-ended when absent' }) validUntil?: Date;
}

export const CreatePayoutBatchPayload = PayloadType('CreatePayoutBatch', 'batch', () => PayoutBatch, 'The batch with its payouts', createPayoutBatchRefusals);
export const SettlePayoutPayload = PayloadType('SettlePayout', 'payout', () => Payout, 'The payout, settled', settlePayoutRefusals);
export const AddCommissionRatePayload = PayloadType('AddCommissionRate', 'rate', () => CommissionRate, 'The new rate', addCommissionRateRefusals);
