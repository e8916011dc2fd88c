import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
// The shop's summary type (made by order.types.ts from the same schema) must exist before the refund's.
import { OrderItemQuantityInput } from './order.types.js';
import { PageArgs, PageType } from './page.types.js';
import { objectType } from './object-type.js';
import { RefundItemView, RefundView, ReturnShipmentView } from '../../services/after-sale/refund-view.js';
import { ReviewReplyView, ReviewView } from '../../services/after-sale/review-view.js';
import { RatingSummary as RatingSummaryView, StarCount as StarCountView } from '../../services/catalog/rating-summary.js';
import { ShippingCompanyView } from '../../services/shipping/shipping-company.service.js';
import { FreightAssignmentView } from '../../services/shipping/freight-views.js';
import { PayloadType } from './payload.types.js';
import { RefundKindEnum, RefundStatusEnum, RegionCodeEnum } from './enums.js';
import type { RegionCode } from '../../services/shipping/regions.js';
import { assignFreightTemplateRefusals, deleteFreightTemplateRefusals, updateFreightTemplateRefusals } from '../../services/shipping/freight-template.service.js';
import { replyToReviewRefusals, reviewOrderItemRefusals, setReviewHiddenRefusals } from '../../services/after-sale/review.service.js';
import { approveRefundRefusals, cancelRefundRefusals, receiveRefundRefusals, rejectRefundRefusals, requestRefundRefusals, shipBackRefundRefusals } from '../../services/after-sale/refund.service.js';


// Reviews

// Made from the after-sale service's view schemas (object-type.ts).
export const ReviewReply = objectType('ReviewReply', ReviewReplyView);
export type ReviewReply = ReviewReplyView;
export const Review = objectType('Review', ReviewView);
export type Review = ReviewView;

export const StarCount = objectType('StarCount', StarCountView);
export type StarCount = StarCountView;
export const RatingSummary = objectType('RatingSummary', RatingSummaryView);
export type RatingSummary = RatingSummaryView;

@ObjectType()
export class ReviewPage extends PageType(Review) {}

@ObjectType()
export class ProductReviewPage extends ReviewPage {
  @Field(() => RatingSummary) summary!: RatingSummary;
}

@InputType()
export class ReviewOrderItemInput {
  @Field(() => Int) orderId!: number;
  @Field(() => Int) orderItemId!: number;
  @Field(() => Int, { description: '1 to 5' }) rating!: number;
  @Field() text!: string;
  @Field(() => [String], { nullable: true, description: 'Up to 9 http(s) URLs' }) imageUrls?: string[];
}

@InputType()
export class ReplyToReviewInput {
  @Field(() => Int) reviewId!: number;
  @Field() text!: string;
}

@InputType()
export class HideReviewInput {
  @Field(() => Int) reviewId!: number;
}

@InputType()
export class ShowReviewInput {
  @Field(() => Int) reviewId!: number;
}

// Freight

export const ShippingCompany = objectType('ShippingCompany', ShippingCompanyView);
export type ShippingCompany = ShippingCompanyView;

// Written here rather than made from services/shipping/freight-views.ts (REST lists the terms first,
// GraphQL the region and the template's names first), and held to those schemas by test/one-description.test.ts.
@ObjectType()
export class FreightRegion {
  @Field(() => RegionCodeEnum) region!: RegionCode;
  @Field(() => Int) firstUnitFee!: number;
  @Field(() => Int) additionalUnitFee!: number;
  @Field(() => Int, { nullable: true, description: 'Null: never free in this region' }) freeThreshold!: number | null;
}

@ObjectType()
export class FreightTemplate {
  @Field(() => Int) id!: number;
  @Field(() => Int) shopId!: number;
  @Field() name!: string;
  @Field(() => Int) firstUnitFee!: number;
  @Field(() => Int) additionalUnitFee!: number;
  @Field(() => Int, { nullable: true, description: 'Free shipping when the shop order amount after discount reaches it; null: never' }) freeThreshold!: number | null;
  @Field(() => [FreightRegion], { description: 'Overrides of all three terms for a region' }) regions!: FreightRegion[];
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType()
export class FreightTemplatePage extends PageType(FreightTemplate) {}

export const ProductFreightTemplate = objectType('ProductFreightTemplate', FreightAssignmentView);

@InputType()
export class FreightRegionInput {
  @Field(() => RegionCodeEnum) region!: RegionCode;
  @Field(() => Int) firstUnitFee!: number;
  @Field(() => Int) additionalUnitFee!: number;
  @Field(() => Int, { nullable: true }) freeThreshold?: number | null;
}

@InputType()
export class CreateFreightTemplateInput {
  @Field() name!: string;
  @Field(() => Int) firstUnitFee!: number;
  @Field(() => Int) additionalUnitFee!: number;
  @Field(() => Int, { nullable: true }) freeThreshold?: number | null;
  @Field(() => [FreightRegionInput], { nullable: true }) regions?: FreightRegionInput[];
}

@InputType({ description: 'Replaces the terms and regions as a whole' })
export class UpdateFreightTemplateInput extends CreateFreightTemplateInput {
  @Field(() => Int) templateId!: number;
}

@InputType()
export class DeleteFreightTemplateInput {
  @Field(() => Int) templateId!: number;
}

@InputType()
export class AssignFreightTemplateInput {
  @Field(() => Int) productId!: number;
  @Field(() => Int, { nullable: true, description: 'Null or left out: the product ships free' }) freightTemplateId?: number | null;
}

// After-sale

// Made from the after-sale service's view schemas (object-type.ts).
export const RefundItem = objectType('RefundItem', RefundItemView);
export type RefundItem = RefundItemView;
export const ReturnShipment = objectType('ReturnShipment', ReturnShipmentView);
export type ReturnShipment = ReturnShipmentView;
export const Refund = objectType('Refund', RefundView);
export type Refund = RefundView;

@ObjectType()
export class RefundPage extends PageType(Refund) {}

@InputType()
export class RequestRefundInput {
  @Field(() => Int) orderId!: number;
  @Field(() => RefundKindEnum) kind!: RefundKind;
  @Field() reason!: string;
  @Field(() => [OrderItemQuantityInput]) items!: OrderItemQuantityInput[];
}

@InputType()
export class ShipBackRefundInput {
  @Field(() => Int) refundId!: number;
  @Field({ description: 'Code of an active shipping company' }) companyCode!: string;
  @Field() trackingNumber!: string;
}

@InputType()
export class CancelRefundInput {
  @Field(() => Int) refundId!: number;
}

@InputType()
export class ApproveRefundInput {
  @Field(() => Int) refundId!: number;
}

@InputType()
export class RejectRefundInput {
  @Field(() => Int) refundId!: number;
  @Field({ description: 'Told to the customer' }) reason!: string;
}

@InputType()
export class ReceiveRefundInput {
  @Field(() => Int) refundId!: number;
}

@ArgsType()
export class ProductReviewListArgs extends PageArgs {
  @Field(() => Int) productId!: number;
  @Field(() => Int, { nullable: true }) rating?: number | null;
}

@ArgsType()
export class ShopReviewListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true }) replied?: boolean | null;
}

@ArgsType()
export class AdminReviewListArgs extends PageArgs {
  @Field(() => Boolean, { nullable: true }) hidden?: boolean | null;
  @Field(() => Int, { nullable: true }) productId?: number | null;
  @Field(() => String, { nullable: true, description: "Part of the review's text, or of its product's or shop's name" }) q?: string | null;
  @Field(() => Int, { nullable: true, description: 'Only reviews of this many stars (1-5)' }) rating?: number | null;
}

@ArgsType()
export class RefundListArgs extends PageArgs {
  @Field(() => RefundStatusEnum, { nullable: true }) status?: RefundStatus | null;
  @Field(() => RefundKindEnum, { nullable: true }) kind?: RefundKind | null;
}

export const ReviewOrderItemPayload = PayloadType('ReviewOrderItem', 'review', () => Review, 'The new review', reviewOrderItemRefusals);
export const ReplyToReviewPayload = PayloadType('ReplyToReview', 'review', () => Review, 'The review with its reply', replyToReviewRefusals);
export const HideReviewPayload = PayloadType('HideReview', 'review', () => Review, 'The review, hidden from public reads', setReviewHiddenRefusals);
export const ShowReviewPayload = PayloadType('ShowReview', 'review', () => Review, 'The review, shown again', setReviewHiddenRefusals);
export const CreateFreightTemplatePayload = PayloadType('CreateFreightTemplate', 'template', () => FreightTemplate, 'The new template');
export const UpdateFreightTemplatePayload = PayloadType('UpdateFreightTemplate', 'template', () => FreightTemplate, 'The template as replaced', updateFreightTemplateRefusals);
export const DeleteFreightTemplatePayload = PayloadType('DeleteFreightTemplate', 'deletedTemplateId', () => Int, 'The id of the deleted template', deleteFreightTemplateRefusals);
export const AssignFreightTemplatePayload = PayloadType('AssignFreightTemplate', 'assignment', () => ProductFreightTemplate, "The product's template now", assignFreightTemplateRefusals);
export const RequestRefundPayload = PayloadType('RequestRefund', 'refund', () => Refund, 'The new request', requestRefundRefusals);
export const ShipBackRefundPayload = PayloadType('ShipBackRefund', 'refund', () => Refund, 'The return, shipped back', shipBackRefundRefusals);
export const CancelRefundPayload = PayloadType('CancelRefund', 'refund', () => Refund, 'The request, cancelled', cancelRefundRefusals);
export const ApproveRefundPayload = PayloadType('ApproveRefund', 'refund', () => Refund, 'The refund completed, or the return approved', approveRefundRefusals);
export const RejectRefundPayload = PayloadType('RejectRefund', 'refund', () => Refund, 'The request, rejected', rejectRefundRefusals);
export const ReceiveRefundPayload = PayloadType('ReceiveRefund', 'refund', () => Refund, 'The return, completed', receiveRefundRefusals);
