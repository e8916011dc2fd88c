import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { RedemptionStatus } from '../../entities/redemption.entity.js';
import { PointsProductView, RedemptionView } from '../../services/points/points-mall.service.js';
import { objectType } from './object-type.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
// The shipping address's type is made from the same schema by order.types.ts, which loads first.
import { ShippingAddressInput } from './order.types.js';
import { RedemptionStatusEnum } from './enums.js';
import { fulfilRedemptionRefusals, redeemPointsProductRefusals, updatePointsProductRefusals } from '../../services/points/points-mall.service.js';


// Made from the points mall's view schemas (object-type.ts).
export const PointsProductType = objectType('PointsProduct', PointsProductView);
export type PointsProductType = PointsProductView;

@ObjectType('PointsProductPage')
export class PointsProductPage extends PageType(PointsProductType) {}

export const RedemptionType = objectType('Redemption', RedemptionView);
export type RedemptionType = RedemptionView;

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
