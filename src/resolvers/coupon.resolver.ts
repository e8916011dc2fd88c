import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as coupons from '../promotions/coupon.service.js';
import { CouponState } from '../promotions/coupon.service.js';
import { CouponTemplateStatus } from '../entities/coupon-template.entity.js';
import type { GraphQLContext } from './graphql-context.js';
import { Coupon, CouponPage, CouponTemplate, CouponTemplateInput, CouponTemplatePage, CouponTemplatePatch } from './types/coupon.types.js';

@Resolver()
export class CouponResolver {
  @Query(() => CouponTemplatePage, { description: "A shop's claimable coupon templates (public)" })
  shopCouponTemplates(
    @Arg('slug') slug: string,
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return coupons.listShopTemplates(ctx, { slug, page: page ?? undefined, pageSize: pageSize ?? undefined });
  }

  @Mutation(() => Coupon, { description: 'Claim a coupon from a template (once per customer and template)' })
  claimCoupon(@Arg('templateId', () => Int) templateId: number, @Ctx() { ctx }: GraphQLContext) {
    return coupons.claimCoupon(ctx, { templateId });
  }

  @Query(() => CouponPage, { description: "The customer's coupons, newest first" })
  myCoupons(
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Arg('status', () => CouponState, { nullable: true }) status: CouponState | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return coupons.listMyCoupons(ctx, { page: page ?? undefined, pageSize: pageSize ?? undefined, status: status ?? undefined });
  }

  @Query(() => CouponTemplatePage, { description: "The operator's shop coupon templates, newest first" })
  merchantCouponTemplates(
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Arg('status', () => CouponTemplateStatus, { nullable: true }) status: CouponTemplateStatus | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return coupons.listMerchantTemplates(ctx, { page: page ?? undefined, pageSize: pageSize ?? undefined, status: status ?? undefined });
  }

  @Mutation(() => CouponTemplate)
  createCouponTemplate(@Arg('input', () => CouponTemplateInput) input: CouponTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return coupons.createTemplate(ctx, { ...input });
  }

  @Mutation(() => CouponTemplate, { description: 'Edit a template; coupons already claimed keep their terms' })
  updateCouponTemplate(
    @Arg('id', () => Int) templateId: number,
    @Arg('input', () => CouponTemplatePatch) input: CouponTemplatePatch,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return coupons.updateTemplate(ctx, { ...input, templateId });
  }

  @Mutation(() => CouponTemplate, { description: 'Stop claims of a template; coupons already claimed stay usable' })
  disableCouponTemplate(@Arg('id', () => Int) templateId: number, @Ctx() { ctx }: GraphQLContext) {
    return coupons.disableTemplate(ctx, { templateId });
  }

  @Mutation(() => Boolean, { description: 'Delete a template; claimed coupons stay, with templateId null' })
  async deleteCouponTemplate(@Arg('id', () => Int) templateId: number, @Ctx() { ctx }: GraphQLContext) {
    await coupons.deleteTemplate(ctx, { templateId });
    return true;
  }
}
