import { Args, Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as coupons from '../services/promotions/coupon.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  ClaimCouponInput, ClaimCouponPayload, CouponListArgs, CouponPage, CouponTemplateListArgs, CouponTemplatePage, CreateCouponTemplateInput,
  CreateCouponTemplatePayload, DeleteCouponTemplateInput, DeleteCouponTemplatePayload, DisableCouponTemplateInput, DisableCouponTemplatePayload,
  ShopCouponTemplateListArgs, UpdateCouponTemplateInput, UpdateCouponTemplatePayload,
} from './types/coupon.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class CouponResolver {
  @Allow(Permission.Public)
  @Query(() => CouponTemplatePage, { nullable: true, description: "A shop's claimable coupon templates (public); null for an unknown shop" })
  shopCouponTemplates(@Args(() => ShopCouponTemplateListArgs) args: ShopCouponTemplateListArgs, @Ctx() { ctx }: GraphQLContext) {
    return coupons.listShopTemplates(ctx, withoutNulls(args));
  }

  @Allow(Permission.Customer)
  @Mutation(() => ClaimCouponPayload, { description: 'Claim a coupon from a template (once per customer and template)' })
  claimCoupon(@Arg('input', () => ClaimCouponInput) input: ClaimCouponInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ClaimCouponPayload, () => coupons.claimCoupon(ctx, { ...input }));
  }

  @Allow(Permission.Customer)
  @Query(() => CouponPage, { description: "The customer's coupons, newest first" })
  myCoupons(@Args(() => CouponListArgs) args: CouponListArgs, @Ctx() { ctx }: GraphQLContext) {
    return coupons.listMyCoupons(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Query(() => CouponTemplatePage, { description: "The operator's shop coupon templates, newest first" })
  merchantCouponTemplates(@Args(() => CouponTemplateListArgs) args: CouponTemplateListArgs, @Ctx() { ctx }: GraphQLContext) {
    return coupons.listMerchantTemplates(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => CreateCouponTemplatePayload, { description: 'Create a template of the own shop' })
  createCouponTemplate(@Arg('input', () => CreateCouponTemplateInput) input: CreateCouponTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreateCouponTemplatePayload, () => coupons.createTemplate(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => UpdateCouponTemplatePayload, { description: 'Edit a template (only the fields sent; null maxDiscount removes the cap); coupons already claimed keep their terms' })
  updateCouponTemplate(@Arg('input', () => UpdateCouponTemplateInput) input: UpdateCouponTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpdateCouponTemplatePayload, () => coupons.updateTemplate(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => DisableCouponTemplatePayload, { description: 'Stop claims of a template; coupons already claimed stay usable' })
  disableCouponTemplate(@Arg('input', () => DisableCouponTemplateInput) input: DisableCouponTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DisableCouponTemplatePayload, () => coupons.disableTemplate(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => DeleteCouponTemplatePayload, { description: 'Delete a template; claimed coupons stay, with templateId null' })
  deleteCouponTemplate(@Arg('input', () => DeleteCouponTemplateInput) input: DeleteCouponTemplateInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DeleteCouponTemplatePayload, async () => {
      await coupons.deleteTemplate(ctx, { ...input });
      return input.templateId;
    });
  }
}
