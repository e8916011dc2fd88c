import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { CouponTemplateStatus, DiscountKind } from '../../entities/coupon-template.entity.js';
import { CouponTemplateView, CouponView, type CouponState } from '../../services/promotions/coupon.service.js';
// The shop's summary type is made from the same schema by order.types.ts, which must load first.
import './order.types.js';
import { objectType } from './object-type.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { DiscountKindEnum, CouponTemplateStatusEnum, CouponStateEnum } from './enums.js';
import { claimCouponRefusals, deleteTemplateRefusals, disableTemplateRefusals, updateTemplateRefusals } from '../../services/promotions/coupon.service.js';


// Made from the coupon service's view schemas (object-type.ts).
export const CouponTemplate = objectType('CouponTemplate', CouponTemplateView);
export type CouponTemplate = CouponTemplateView;

@ObjectType()
export class CouponTemplatePage extends PageType(CouponTemplate) {}

export const Coupon = objectType('Coupon', CouponView);
export type Coupon = CouponView;

@ObjectType()
export class CouponPage extends PageType(Coupon) {}

/** Create: the service validates the terms (kind-specific fields, one window scheme). */
@InputType()
export class CreateCouponTemplateInput {
  @Field() name!: string;
  @Field(() => DiscountKindEnum) discountKind!: DiscountKind;
  @Field(() => Int, { nullable: true }) amountOff?: number;
  @Field(() => Int, { nullable: true }) percentOff?: number;
  @Field(() => Int, { nullable: true }) maxDiscount?: number;
  @Field(() => Int, { nullable: true, description: 'Default 0 (no threshold)' }) minOrderAmount?: number;
  @Field({ nullable: true }) validFrom?: Date;
  @Field({ nullable: true }) validUntil?: Date;
  @Field(() => Int, { nullable: true }) validDays?: number;
  @Field(() => Int) claimStock!: number;
  @Field(() => CouponTemplateStatusEnum, { nullable: true, description: 'Default ACTIVE' }) status?: CouponTemplateStatus;
}

/** Edit: only the fields given change; the merged terms are validated as a whole. */
@InputType()
export class UpdateCouponTemplateInput {
  @Field(() => Int) templateId!: number;
  @Field({ nullable: true }) name?: string;
  @Field(() => DiscountKindEnum, { nullable: true }) discountKind?: DiscountKind;
  @Field(() => Int, { nullable: true }) amountOff?: number;
  @Field(() => Int, { nullable: true }) percentOff?: number;
  @Field(() => Int, { nullable: true, description: 'null removes the cap' }) maxDiscount?: number;
  @Field(() => Int, { nullable: true }) minOrderAmount?: number;
  @Field({ nullable: true }) validFrom?: Date;
  @Field({ nullable: true }) validUntil?: Date;
  @Field(() => Int, { nullable: true }) validDays?: number;
  @Field(() => Int, { nullable: true }) claimStock?: number;
  @Field(() => CouponTemplateStatusEnum, { nullable: true }) status?: CouponTemplateStatus;
}

@InputType()
export class ClaimCouponInput {
  @Field(() => Int) templateId!: number;
}

@InputType()
export class DisableCouponTemplateInput {
  @Field(() => Int) templateId!: number;
}

@InputType()
export class DeleteCouponTemplateInput {
  @Field(() => Int) templateId!: number;
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
  @Field(() => CouponStateEnum, { nullable: true }) status?: CouponState | null;
}

@ArgsType()
export class CouponTemplateListArgs extends PageArgs {
  @Field(() => CouponTemplateStatusEnum, { nullable: true }) status?: CouponTemplateStatus | null;
}

export const ClaimCouponPayload = PayloadType('ClaimCoupon', 'coupon', () => Coupon, 'The claimed coupon, with its own copy of the terms', claimCouponRefusals);
export const CreateCouponTemplatePayload = PayloadType('CreateCouponTemplate', 'template', () => CouponTemplate, 'The new template');
export const UpdateCouponTemplatePayload = PayloadType('UpdateCouponTemplate', 'template', () => CouponTemplate, 'The template as changed', updateTemplateRefusals);
export const DisableCouponTemplatePayload = PayloadType('DisableCouponTemplate', 'template', () => CouponTemplate, 'The template, disabled', disableTemplateRefusals);
export const DeleteCouponTemplatePayload = PayloadType('DeleteCouponTemplate', 'deletedTemplateId', () => Int, 'The id of the deleted template', deleteTemplateRefusals);
