import type { Router } from 'express';
import * as coupons from '../promotions/coupon.service.js';
import { route, Reply } from './route.js';

/** Coupon templates of shops, customers' claims and coupons, and the merchant's template management. */
export function couponRoutes(router: Router) {
  route(router, '/shops/:slug/coupon-templates', { get: ({ ctx, params, query }) => coupons.listShopTemplates(ctx, { ...query, slug: params.slug }) });
  route(router, '/coupon-templates/:templateId/claim', {
    post: async ({ ctx, params }) => new Reply(201, await coupons.claimCoupon(ctx, { templateId: params.templateId })),
  });
  route(router, '/me/coupons', { get: ({ ctx, query }) => coupons.listMyCoupons(ctx, query) });

  route(router, '/merchant/coupon-templates', {
    get: ({ ctx, query }) => coupons.listMerchantTemplates(ctx, query),
    post: async ({ ctx, body }) => new Reply(201, await coupons.createTemplate(ctx, body)),
  });
  route(router, '/merchant/coupon-templates/:templateId', {
    patch: ({ ctx, params, body }) => coupons.updateTemplate(ctx, { ...(body as object), templateId: params.templateId }),
    delete: async ({ ctx, params }) => {
      await coupons.deleteTemplate(ctx, { templateId: params.templateId });
      return new Reply(204, undefined);
    },
  });
  route(router, '/merchant/coupon-templates/:templateId/disable', { post: ({ ctx, params }) => coupons.disableTemplate(ctx, { templateId: params.templateId }) });
}
