import type { Router } from 'express';
import * as refunds from '../after-sale/refund.service.js';
import { route, Reply } from './route.js';

/** After-sale: the customer asks, ships returns back and may withdraw; the shop decides and receives. */
export function refundRoutes(router: Router) {
  route(router, '/orders/:orderId/refunds', {
    post: async ({ ctx, params, body }) => new Reply(201, await refunds.requestRefund(ctx, { ...(body as object), ...params })),
  });
  route(router, '/me/refunds', { get: ({ ctx, query }) => refunds.listMyRefunds(ctx, query) });
  route(router, '/refunds/:refundId', { get: ({ ctx, params }) => refunds.getMyRefund(ctx, params) });
  route(router, '/refunds/:refundId/ship-back', { post: ({ ctx, params, body }) => refunds.shipBackRefund(ctx, { ...(body as object), ...params }) });
  route(router, '/refunds/:refundId/cancel', { post: ({ ctx, params }) => refunds.cancelRefund(ctx, params) });

  route(router, '/merchant/refunds', { get: ({ ctx, query }) => refunds.listShopRefunds(ctx, query) });
  route(router, '/merchant/refunds/:refundId', { get: ({ ctx, params }) => refunds.getShopRefund(ctx, params) });
  route(router, '/merchant/refunds/:refundId/approve', { post: ({ ctx, params }) => refunds.approveRefund(ctx, params) });
  route(router, '/merchant/refunds/:refundId/reject', { post: ({ ctx, params, body }) => refunds.rejectRefund(ctx, { ...(body as object), ...params }) });
  route(router, '/merchant/refunds/:refundId/receive', { post: ({ ctx, params }) => refunds.receiveRefund(ctx, params) });
}
