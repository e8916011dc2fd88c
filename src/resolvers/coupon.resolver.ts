import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as coupons from '../services/promotions/coupon.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import {
  Coupon, CouponListArgs, CouponPage, CouponTemplate, CouponTemplateInput, CouponTemplateListArgs, CouponTemplatePage, CouponTemplatePatch,
  ShopCouponTemplateListArgs,
} from './types/coupon.types.js';

@Resolver()
export class CouponResolver {
  @Query(() => CouponTemplatePage, { description: "A shop's claimable coupon templates (public)" })
  shopCouponTemplates(@Args(() => ShopCouponTemplateListArgs) args: ShopCouponTemplateListArgs, @Ctx() { ctx }: GraphQLContext) {
    return coupons.listShopTemplates(ctx, withoutNulls(args));
  }

  @Mutation(() => Coupon, { description: 'Claim a coupon from a template (once per customer and template)' })
  claimCoupon(@Arg('templateId', () => Int) templateId: number, @Ctx() { ctx }: GraphQLContext) {
    return coupons.claimCoupon(ctx, { templateId });
  }

  @Query(() => CouponPage, { description: "The customer's coupons, newest first" })
  myCoupons(@Args(() => CouponListArgs) args: CouponListArgs, @Ctx() { ctx }: GraphQLContext) {
    return coupons.listMyCoupons(ctx, withoutNulls(args));
  }

  @Query(() => CouponTemplatePage, { description: "The operator's shop coupon templates, newest first" })
  merchantCouponTemplates(@Args(() => CouponTemplateListArgs) args: CouponTemplateListArgs, @Ctx() { ctx }: GraphQLContext) {
    return coupons.listMerchantTemplates(ctx, withoutNulls(args));
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
