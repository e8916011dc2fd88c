import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { DisputeStatus } from '../../entities/dispute.entity.js';
import type { RefundKind } from '../../entities/refund.entity.js';
import { escalateRefundRefusals, refundDisputeRefusals, upholdDisputeRefusals } from '../../services/after-sale/dispute.service.js';
import { ShopSummary } from './order.types.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { DisputeStatusEnum, RefundKindEnum } from './enums.js';

@ObjectType({ description: "A rejected refund escalated to the platform, as the customer, the shop and the platform's admins read it" })
export class Dispute {
  @Field(() => Int) id!: number;
  @Field(() => Int, { description: 'The rejected refund or return escalated' }) refundId!: number;
  @Field(() => Int) orderId!: number;
  @Field(() => Int) customerId!: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field(() => DisputeStatusEnum) status!: DisputeStatus;
  @Field({ description: "The customer's reason for escalating" }) reason!: string;
  @Field(() => RefundKindEnum) refundKind!: RefundKind;
  @Field(() => Int, { description: 'What the rejected request asked for' }) requestedAmount!: number;
  @Field({ nullable: true, description: "The shop's reason for rejecting" }) shopRejectReason?: string;
  @Field() currency!: string;
  @Field({ nullable: true, description: "The platform's ruling, read by both sides" }) ruling?: string;
  @Field(() => Int, { description: 'What the ruling refunded (0 unless REFUNDED)' }) refundedAmount!: number;
  @Field(() => Int, { nullable: true, description: 'The completed refund the ruling created' }) ruledRefundId?: number;
  @Field() createdAt!: Date;
  @Field({ nullable: true }) ruledAt?: Date;
}

@ObjectType()
export class DisputePage extends PageType(Dispute) {}

@ArgsType()
export class DisputeListArgs extends PageArgs {
  @Field(() => DisputeStatusEnum, { nullable: true }) status?: DisputeStatus | null;
}

@InputType()
export class EscalateRefundInput {
  @Field(() => Int, { description: 'A refund or return of yours that the shop rejected' }) refundId!: number;
  @Field({ description: 'Why the platform should rule otherwise (1 to 500 characters)' }) reason!: string;
}

@InputType()
export class RefundDisputeInput {
  @Field(() => Int) disputeId!: number;
  @Field(() => Int, { description: "Minor units: at most the rejected request's amount and what the order has left after its refunds" }) amount!: number;
  @Field({ description: 'The ruling, read by the customer and the shop' }) reason!: string;
}

@InputType()
export class UpholdDisputeInput {
  @Field(() => Int) disputeId!: number;
  @Field({ description: 'The ruling, read by the customer and the shop' }) reason!: string;
}

export const EscalateRefundPayload = PayloadType('EscalateRefund', 'dispute', () => Dispute, 'The open dispute', escalateRefundRefusals);
export const RefundDisputePayload = PayloadType('RefundDispute', 'dispute', () => Dispute, 'The dispute, refunded', refundDisputeRefusals);
export const UpholdDisputePayload = PayloadType('UpholdDispute', 'dispute', () => Dispute, 'The dispute, upheld', upholdDisputeRefusals);
