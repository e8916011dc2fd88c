import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { DisputeStatus } from '../../entities/dispute.entity.js';
import { escalateRefundRefusals, refundDisputeRefusals, upholdDisputeRefusals } from '../../services/after-sale/dispute.service.js';
// The shop's summary type is made from the same schema by order.types.ts, which must load first.
import './order.types.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { DisputeView } from '../../services/after-sale/dispute-view.js';
import { PayloadType } from './payload.types.js';
import { DisputeStatusEnum } from './enums.js';

// Made from the after-sale service's view schema (object-type.ts).
export const Dispute = objectType('Dispute', DisputeView);
export type Dispute = DisputeView;

@ObjectType()
export class DisputePage extends PageType(Dispute) {}

@ArgsType()
export class DisputeListArgs extends PageArgs {
  @Field(() => DisputeStatusEnum, { nullable: true }) status?: DisputeStatus | null;
}

@ArgsType()
export class AdminDisputeListArgs extends DisputeListArgs {
  @Field(() => String, { nullable: true, description: "Part of the customer's or the shop's name or of the customer's reason, or the order's number" }) q?: string | null;
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
