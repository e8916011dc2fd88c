import { ArgsType, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { CouponTemplateStatus, DiscountKind } from '../../entities/coupon-template.entity.js';
import { CouponState } from '../../services/promotions/coupon.service.js';
import { ShopSummary } from './order.types.js';
import { PageArgs } from './page.types.js';

registerEnumType(DiscountKind, { name: 'DiscountKind', description: 'fixed: amountOff minor units off; percent: percentOff (1..100) rounded down, capped by maxDiscount' });
registerEnumType(CouponTemplateStatus, { name: 'CouponTemplateStatus' });
registerEnumType(CouponState, { name: 'CouponState', description: 'expired: now is past validUntil and the coupon was not used' });

@ObjectType()
export class CouponTemplate {
  @Field(() => Int) id!: number;
  @Field(() => Int) shopId!: number;
  @Field() name!: string;
  @Field(() => DiscountKind) discountKind!: DiscountKind;
  @Field(() => Int, { nullable: true }) amountOff?: number;
  @Field(() => Int, { nullable: true }) percentOff?: number;
  @Field(() => Int, { nullable: true }) maxDiscount?: number;
  @Field(() => Int, { description: "Threshold: the shop order's items total (base currency minor units) must reach it" }) minOrderAmount!: number;
  @Field({ nullable: true }) validFrom?: Date;
  @Field({ nullable: true }) validUntil?: Date;
  @Field(() => Int, { nullable: true, description: 'Window of validDays from the claim, instead of fixed dates' }) validDays?: number;
  @Field(() => Int, { description: 'Coupons still claimable' }) claimStock!: number;
  @Field(() => CouponTemplateStatus) status!: CouponTemplateStatus;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType()
export class CouponTemplatePage {
  @Field(() => [CouponTemplate]) items!: CouponTemplate[];
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Int) total!: number;
}

@ObjectType()
export class Coupon {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true, description: 'Null once the template was deleted' }) templateId?: number;
  @Field(() => ShopSummary) shop!: ShopSummary;
  @Field() name!: string;
  @Field(() => DiscountKind) discountKind!: DiscountKind;
  @Field(() => Int, { nullable: true }) amountOff?: number;
  @Field(() => Int, { nullable: true }) percentOff?: number;
  @Field(() => Int, { nullable: true }) maxDiscount?: number;
  @Field(() => Int) minOrderAmount!: number;
  @Field() validFrom!: Date;
  @Field() validUntil!: Date;
  @Field(() => CouponState) status!: CouponState;
  @Field() claimedAt!: Date;
  @Field({ nullable: true }) usedAt?: Date;
}

@ObjectType()
export class CouponPage {
  @Field(() => [Coupon]) items!: Coupon[];
  @Field(() => Int) page!: number;
  @Field(() => Int) pageSize!: number;
  @Field(() => Int) total!: number;
}

/** Create: the service validates the terms (kind-specific fields, one window scheme). */
@InputType()
export class CouponTemplateInput {
  @Field() name!: string;
  @Field(() => DiscountKind) discountKind!: DiscountKind;
  @Field(() => Int, { nullable: true }) amountOff?: number;
  @Field(() => Int, { nullable: true }) percentOff?: number;
  @Field(() => Int, { nullable: true }) maxDiscount?: number;
  @Field(() => Int, { nullable: true, description: 'Default 0 (no threshold)' }) minOrderAmount?: number;
  @Field({ nullable: true }) validFrom?: Date;
  @Field({ nullable: true }) validUntil?: Date;
  @Field(() => Int, { nullable: true }) validDays?: number;
  @Field(() => Int) claimStock!: number;
  @Field(() => CouponTemplateStatus, { nullable: true, description: 'Default active' }) status?: CouponTemplateStatus;
}

/** Edit: only the fields given change; the merged terms are validated as a whole. */
@InputType()
export class CouponTemplatePatch {
  @Field({ nullable: true }) name?: string;
  @Field(() => DiscountKind, { nullable: true }) discountKind?: DiscountKind;
  @Field(() => Int, { nullable: true }) amountOff?: number;
  @Field(() => Int, { nullable: true }) percentOff?: number;
  @Field(() => Int, { nullable: true, description: 'null removes the cap' }) maxDiscount?: number;
  @Field(() => Int, { nullable: true }) minOrderAmount?: number;
  @Field({ nullable: true }) validFrom?: Date;
  @Field({ nullable: true }) validUntil?: Date;
  @Field(() => Int, { nullable: true }) validDays?: number;
  @Field(() => Int, { nullable: true }) claimStock?: number;
  @Field(() => CouponTemplateStatus, { nullable: true }) status?: CouponTemplateStatus;
}

/** GraphQL has no maps: the checkout's coupons are a list of (shop, coupon) pairs, one per shop. */
@InputType()
export class CouponChoiceInput {
  @Field(() => Int) shopId!: number;
  @Field(() => Int) couponId!: number;
}

@ArgsType()
export class ShopCouponTemplateListArgs extends PageArgs {
  @Field() slug!: string;
}

@ArgsType()
export class CouponListArgs extends PageArgs {
  @Field(() => CouponState, { nullable: true }) status?: CouponState | null;
}

@ArgsType()
export class CouponTemplateListArgs extends PageArgs {
  @Field(() => CouponTemplateStatus, { nullable: true }) status?: CouponTemplateStatus | null;
}
