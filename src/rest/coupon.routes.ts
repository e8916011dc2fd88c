import type { Router } from 'express';
import * as coupons from '../services/promotions/coupon.service.js';
import { Slug } from '../services/catalog/shop.service.js';
import { route, Reply } from './route.js';
import { Coupon, CouponPage, CouponTemplate, CouponTemplatePage } from './responses/promotions.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Coupons';

/** Coupon templates of shops, customers' claims and coupons, and the merchant's template management. */
export function couponRoutes(router: Router) {
  route(router, '/shops/:slug/coupon-templates', {
    get: {
      doc: { tag, summary: "A shop's claimable coupon templates", permission: Permission.Public, params: { slug: Slug }, query: coupons.ShopListInput, response: CouponTemplatePage, errors: coupons.listShopTemplatesRefusals },
      handle: ({ ctx, params, query }) => coupons.listShopTemplates(ctx, { ...query, slug: params.slug }),
    },
  });
  route(router, '/coupon-templates/:templateId/claim', {
    post: {
      doc: {
        tag, summary: 'Claim a coupon from a template', permission: Permission.Customer, response: Coupon, status: 201,
        errors: coupons.claimCouponRefusals,
        links: {
          checkout: {
            method: 'post', path: '/checkout',
            description: 'Redeem the coupon at checkout: send `coupons` as `{"<shop.id>": <id>}` of this answer (or the list `[{shop_id, coupon_id}]`).',
          },
        },
      },
      handle: async ({ ctx, params }) => new Reply(201, await coupons.claimCoupon(ctx, { templateId: params.templateId })),
    },
  });
  route(router, '/me/coupons', {
    get: { doc: { tag, summary: "The customer's coupons", permission: Permission.Customer, query: coupons.MyListInput, response: CouponPage }, handle: ({ ctx, query }) => coupons.listMyCoupons(ctx, query) },
  });

  route(router, '/merchant/coupon-templates', {
    get: {
      doc: { tag, summary: "The shop's coupon templates", permission: Permission.ShopPromotionsManage, query: coupons.MerchantListInput, response: CouponTemplatePage },
      handle: ({ ctx, query }) => coupons.listMerchantTemplates(ctx, query),
    },
    post: {
      doc: { tag, summary: 'Create a coupon template', permission: Permission.ShopPromotionsManage, body: coupons.Terms, response: CouponTemplate, status: 201 },
      handle: async ({ ctx, body }) => new Reply(201, await coupons.createTemplate(ctx, body)),
    },
  });
  route(router, '/merchant/coupon-templates/:templateId', {
    patch: {
      doc: { tag, summary: 'Change some terms of a coupon template', permission: Permission.ShopPromotionsManage, body: coupons.Patch, response: CouponTemplate, errors: coupons.updateTemplateRefusals },
      handle: ({ ctx, params, body }) => coupons.updateTemplate(ctx, { ...(body as object), templateId: params.templateId }),
    },
    delete: {
      doc: { tag, summary: 'Delete a coupon template (claimed coupons stay)', permission: Permission.ShopPromotionsManage, response: null, errors: coupons.deleteTemplateRefusals },
      handle: async ({ ctx, params }) => {
        await coupons.deleteTemplate(ctx, { templateId: params.templateId });
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/merchant/coupon-templates/:templateId/disable', {
    post: {
      doc: { tag, summary: 'Stop a coupon template from being claimed', permission: Permission.ShopPromotionsManage, response: CouponTemplate, errors: coupons.disableTemplateRefusals },
      handle: ({ ctx, params }) => coupons.disableTemplate(ctx, { templateId: params.templateId }),
    },
  });
}
