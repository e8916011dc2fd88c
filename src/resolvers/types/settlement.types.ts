import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { BalanceKind } from '../../entities/balance.entity.js';
import { PayoutStatus } from '../../entities/settlement.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { PayoutStatusEnum, ShopAccountEnum } from './enums.js';
import { createPayoutBatchRefusals, PayoutBatchSummaryView, PayoutBatchView, PayoutView, settlePayoutRefusals } from '../../services/settlement/payouts.js';
import { KindTotalView, ProviderDayView, ReconciliationDayView, ReconciliationView } from '../../services/settlement/reconciliation-view.js';
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

// The reconciliation's types, made from its view schemas (services/settlement/reconciliation-view.ts);
// a type is made before the types whose fields hold it.
export const KindTotal = objectType('KindTotal', KindTotalView);
export const ProviderDay = objectType('ProviderDay', ProviderDayView);
export const ReconciliationDay = objectType('ReconciliationDay', ReconciliationDayView);
export const Reconciliation = objectType('Reconciliation', ReconciliationView);
export type Reconciliation = ReconciliationView;

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
