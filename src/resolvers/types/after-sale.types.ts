import { ArgsType, Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import { ShopSummary } from './order.types.js';
import { PageArgs } from './page.types.js';

registerEnumType(RefundKind, { name: 'RefundKind', description: 'refund: money only, for units not shipped; return: delivered goods come back, then money' });
registerEnumType(RefundStatus, {
  name: 'RefundStatus',
  description: 'refund: requested -> completed | rejected | cancelled; return: requested -> approved -> shipped_back -> completed, requested -> rejected, requested | approved -> cancelled',
});

// Reviews

@ObjectType()
export class ReviewReply {
  @Field() text!: string;
  @Field() repliedAt!: Date;
}

@ObjectType()
export class Review {
  @Field(() => Int) id!: number;
  @Field(() => Int) productId!: number;
  @Field(() => Int) shopId!: number;
  @Field(() => Int) orderItemId!: number;
  @Field() skuName!: string;
  @Field({ description: "The reviewer's display name masked to its first character" }) author!: string;
  @Field(() => Int) rating!: number;
  @Field() text!: string;
  @Field(() => [String]) imageUrls!: string[];
  @Field({ description: 'Always false in public reads, which leave hidden reviews out' }) hidden!: boolean;
  @Field(() => ReviewReply, { nullable: true }) reply?: ReviewReply;
  @Field() createdAt!: Date;
}

@ObjectType()
export class StarCount {
  @Field(() => Int) rating!: number;
  @Field(() => Int) count!: number;
}

@ObjectType()
export class RatingSummary {
  @Field(() => Int) productId!: number;
  @Field(() => Int, { description: 'Visible reviews only' }) count!: number;
  @Field(() => Float, { nullable: true, description: 'Mean rating, 2 decimals; null without reviews' }) average!: number | null;
  @Field(() => [StarCount], { description: 'Counts for ratings 1 to 5' }) perStar!: StarCount[];
}

@ObjectType()
export class ReviewPage {
  @Field(() => [Review]) items!: Review[];
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class ProductReviewPage extends ReviewPage {
  @Field(() => RatingSummary) summary!: RatingSummary;
}

@InputType()
export class ReviewInput {
  @Field(() => Int, { description: '1 to 5' }) rating!: number;
  @Field() text!: string;
  @Field(() => [String], { nullable: true, description: 'Up to 9 http(s) URLs' }) imageUrls?: string[];
}

// Freight

@ObjectType()
export class ShippingCompany {
  @Field() code!: string;
  @Field() name!: string;
}

@ObjectType()
export class FreightRegion {
  @Field({ description: 'Region code such as CN-XZ' }) region!: string;
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
export class FreightTemplatePage {
  @Field(() => [FreightTemplate]) items!: FreightTemplate[];
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class ProductFreightTemplate {
  @Field(() => Int) productId!: number;
  @Field(() => Int, { nullable: true, description: 'Null: the product ships free' }) freightTemplateId!: number | null;
}

@InputType()
export class FreightRegionInput {
  @Field() region!: string;
  @Field(() => Int) firstUnitFee!: number;
  @Field(() => Int) additionalUnitFee!: number;
  @Field(() => Int, { nullable: true }) freeThreshold?: number | null;
}

@InputType()
export class FreightTemplateInput {
  @Field() name!: string;
  @Field(() => Int) firstUnitFee!: number;
  @Field(() => Int) additionalUnitFee!: number;
  @Field(() => Int, { nullable: true }) freeThreshold?: number | null;
  @Field(() => [FreightRegionInput], { nullable: true }) regions?: FreightRegionInput[];
}

// After-sale

@ObjectType()
export class RefundItem {
  @Field(() => Int) orderItemId!: number;
  @Field(() => Int) productId!: number;
  @Field() productName!: string;
  @Field() skuName!: string;
  @Field(() => Int) quantity!: number;
  @Field(() => Int) amount!: number;
}

@ObjectType()
export class ReturnShipment {
  @Field() companyCode!: string;
  @Field() carrier!: string;
  @Field() trackingNumber!: string;
  @Field() shippedAt!: Date;
}

@ObjectType()
export class Refund {
  @Field(() => Int) id!: number;
  @Field(() => Int) orderId!: number;
  @Field(() => Int) customerId!: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field(() => RefundKind) kind!: RefundKind;
  @Field(() => RefundStatus) status!: RefundStatus;
  @Field() reason!: string;
  @Field() currency!: string;
  @Field(() => Int, { description: "What completion credits: the items' amounts plus freightAmount" }) amount!: number;
  @Field(() => Int) freightAmount!: number;
  @Field(() => [RefundItem]) items!: RefundItem[];
  @Field({ nullable: true }) rejectReason?: string;
  @Field(() => ReturnShipment, { nullable: true }) returnShipment?: ReturnShipment;
  @Field() createdAt!: Date;
  @Field({ nullable: true }) decidedAt?: Date;
  @Field({ nullable: true }) completedAt?: Date;
  @Field({ nullable: true }) cancelledAt?: Date;
}

@ObjectType()
export class RefundPage {
  @Field(() => [Refund]) items!: Refund[];
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Int) total!: number;
}

@InputType()
export class RefundItemInput {
  @Field(() => Int) orderItemId!: number;
  @Field(() => Int) quantity!: number;
}

@InputType()
export class RefundInput {
  @Field(() => RefundKind) kind!: RefundKind;
  @Field() reason!: string;
  @Field(() => [RefundItemInput]) items!: RefundItemInput[];
}

@InputType()
export class ShipBackInput {
  @Field({ description: 'Code of an active shipping company' }) companyCode!: string;
  @Field() trackingNumber!: string;
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
}

@ArgsType()
export class RefundListArgs extends PageArgs {
  @Field(() => RefundStatus, { nullable: true }) status?: RefundStatus | null;
  @Field(() => RefundKind, { nullable: true }) kind?: RefundKind | null;
}
