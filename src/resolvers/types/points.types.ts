import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { RedemptionStatus } from '../../entities/redemption.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { ShippingAddress, ShippingAddressInput } from './order.types.js';
import { RedemptionStatusEnum } from './enums.js';
import { fulfilRedemptionRefusals, redeemPointsProductRefusals, updatePointsProductRefusals } from '../../services/points/points-mall.service.js';


@ObjectType('PointsProduct', { description: 'A platform-owned item of the points mall' })
export class PointsProductType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string;
  @Field(() => String, { nullable: true }) imageUrl?: string;
  @Field(() => Int, { description: 'Price of one unit, in points' }) pointsPrice!: number;
  @Field(() => Int, { description: 'Units left to redeem' }) stock!: number;
  @Field() published!: boolean;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('PointsProductPage')
export class PointsProductPage extends PageType(PointsProductType) {}

@ObjectType('Redemption', { description: 'A redemption order of the points mall, with a snapshot of the redeemed line' })
export class RedemptionType {
  @Field(() => Int) id!: number;
  @Field(() => Int) customerId!: number;
  @Field(() => String, { description: "The customer's display name" }) customerName!: string;
  @Field(() => Int) pointsProductId!: number;
  @Field(() => RedemptionStatusEnum) status!: RedemptionStatus;
  @Field({ description: 'Product name when redeemed' }) productName!: string;
  @Field(() => Int, { description: 'Unit price in points when redeemed' }) pointsPrice!: number;
  @Field(() => Int) quantity!: number;
  @Field(() => Int, { description: 'Points debited' }) pointsTotal!: number;
  @Field(() => ShippingAddress) shippingAddress!: ShippingAddress;
  @Field() createdAt!: Date;
  @Field(() => Date, { nullable: true }) fulfilledAt?: Date;
}

@ObjectType('RedemptionPage')
export class RedemptionPage extends PageType(RedemptionType) {}

@InputType()
export class CreatePointsProductInput {
  @Field() name!: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => Int) pointsPrice!: number;
  @Field(() => Int) stock!: number;
  @Field(() => Boolean, { nullable: true, description: 'Default false' }) published?: boolean;
}

@InputType({ description: 'Only the fields sent change; stock moves by `stockDelta` (never below zero)' })
export class UpdatePointsProductInput {
  @Field(() => Int) pointsProductId!: number;
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) description?: string | null;
  @Field(() => String, { nullable: true }) imageUrl?: string | null;
  @Field(() => Int, { nullable: true }) pointsPrice?: number;
  @Field(() => Int, { nullable: true }) stockDelta?: number;
  @Field(() => Boolean, { nullable: true }) published?: boolean;
}

@InputType()
export class RedeemPointsProductInput {
  @Field(() => Int) pointsProductId!: number;
  @Field(() => Int, { nullable: true, description: 'Default 1' }) quantity?: number;
  @Field(() => ShippingAddressInput) shippingAddress!: ShippingAddressInput;
}

@InputType()
export class FulfilRedemptionInput {
  @Field(() => Int) redemptionId!: number;
}

@ArgsType()
export class RedemptionListArgs extends PageArgs {
  @Field(() => RedemptionStatusEnum, { nullable: true }) status?: RedemptionStatus | null;
}

export const RedeemPointsProductPayload = PayloadType('RedeemPointsProduct', 'redemption', () => RedemptionType, 'The redemption order, pending fulfillment', redeemPointsProductRefusals);
export const CreatePointsProductPayload = PayloadType('CreatePointsProduct', 'pointsProduct', () => PointsProductType, 'The new points product');
export const UpdatePointsProductPayload = PayloadType('UpdatePointsProduct', 'pointsProduct', () => PointsProductType, 'The points product as changed', updatePointsProductRefusals);
export const FulfilRedemptionPayload = PayloadType('FulfilRedemption', 'redemption', () => RedemptionType, 'The redemption, fulfilled', fulfilRedemptionRefusals);
