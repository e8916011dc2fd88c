import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { BalanceKind } from '../../entities/balance.entity.js';
import { PayoutStatus } from '../../entities/settlement.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { PayoutStatusEnum, ShopAccountEnum, BalanceKindEnum } from './enums.js';
import { createPayoutBatchRefusals, PayoutBatchSummaryView, PayoutBatchView, PayoutView, settlePayoutRefusals } from '../../services/settlement/payouts.js';
import { ShopBalancesView, StatementEntryView } from '../../services/settlement/statements.js';
import { objectType } from './object-type.js';
import { addCommissionRateRefusals, CommissionRateView } from '../../services/settlement/commissions.js';

// Made from the settlement services' view schemas (object-type.ts).
export const ShopBalances = objectType('ShopBalances', ShopBalancesView);
export type ShopBalances = ShopBalancesView;
export const StatementEntry = objectType('StatementEntry', StatementEntryView);
export type StatementEntry = StatementEntryView;

@ObjectType('StatementPage')
export class StatementPage extends PageType(StatementEntry) {}

@ArgsType()
export class StatementArgs extends PageArgs {
  @Field(() => ShopAccountEnum, { nullable: true, description: 'One account only' }) account?: BalanceKind | null;
}

export const Payout = objectType('Payout', PayoutView);
export type Payout = PayoutView;

@ObjectType('PayoutPage')
export class PayoutPage extends PageType(Payout) {}

export const PayoutBatch = objectType('PayoutBatch', PayoutBatchView);
export type PayoutBatch = PayoutBatchView;

export const PayoutBatchSummary = objectType('PayoutBatchSummary', PayoutBatchSummaryView);
export type PayoutBatchSummary = PayoutBatchSummaryView;

@ObjectType('PayoutBatchSummaryPage')
export class PayoutBatchSummaryPage extends PageType(PayoutBatchSummary) {}

export const CommissionRate = objectType('CommissionRate', CommissionRateView);
export type CommissionRate = CommissionRateView;

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
