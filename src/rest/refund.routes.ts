import type { Router } from 'express';
import * as refunds from '../services/after-sale/refund.service.js';
import { route, Reply } from './route.js';
import { Refund, RefundPage } from './responses/after-sale.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Refunds';

/** After-sale: the customer asks, ships returns back and may withdraw; the shop decides and receives. */
export function refundRoutes(router: Router) {
  route(router, '/orders/:orderId/refunds', {
    post: {
      doc: {
        tag, summary: 'Ask for a refund or a return', permission: Permission.Customer, body: refunds.RequestInput, response: Refund, status: 201,
        errors: refunds.requestRefundRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await refunds.requestRefund(ctx, { ...(body as object), ...params })),
    },
  });
  route(router, '/me/refunds', {
    get: { doc: { tag, summary: "The customer's refunds", permission: Permission.Customer, query: refunds.ListInput, response: RefundPage }, handle: ({ ctx, query }) => refunds.listMyRefunds(ctx, query) },
  });
  route(router, '/refunds/:refundId', {
    get: { doc: { tag, summary: 'One of the customer\'s refunds', permission: Permission.Customer, response: Refund, errors: refunds.getMyRefundRefusals }, handle: ({ ctx, params }) => refunds.getMyRefund(ctx, params) },
  });
  route(router, '/refunds/:refundId/ship-back', {
    post: {
      doc: {
        tag, summary: 'Send an approved return back', permission: Permission.Customer, body: refunds.ShipBackInput, response: Refund,
        errors: refunds.shipBackRefundRefusals,
      },
      handle: ({ ctx, params, body }) => refunds.shipBackRefund(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/refunds/:refundId/cancel', {
    post: { doc: { tag, summary: 'Withdraw a refund request', permission: Permission.Customer, response: Refund, errors: refunds.cancelRefundRefusals }, handle: ({ ctx, params }) => refunds.cancelRefund(ctx, params) },
  });

  route(router, '/merchant/refunds', {
    get: { doc: { tag, summary: "The shop's refunds", permission: Permission.ShopAfterSaleManage, query: refunds.ListInput, response: RefundPage }, handle: ({ ctx, query }) => refunds.listShopRefunds(ctx, query) },
  });
  route(router, '/merchant/refunds/:refundId', {
    get: { doc: { tag, summary: 'One of the shop\'s refunds', permission: Permission.ShopAfterSaleManage, response: Refund, errors: refunds.getShopRefundRefusals }, handle: ({ ctx, params }) => refunds.getShopRefund(ctx, params) },
  });
  route(router, '/merchant/refunds/:refundId/approve', {
    post: { doc: { tag, summary: 'Approve (a refund completes at once)', permission: Permission.ShopAfterSaleManage, response: Refund, errors: refunds.approveRefundRefusals }, handle: ({ ctx, params }) => refunds.approveRefund(ctx, params) },
  });
  route(router, '/merchant/refunds/:refundId/reject', {
    post: {
      doc: { tag, summary: 'Reject, with a reason', permission: Permission.ShopAfterSaleManage, body: refunds.RejectInput, response: Refund, errors: refunds.rejectRefundRefusals },
      handle: ({ ctx, params, body }) => refunds.rejectRefund(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/merchant/refunds/:refundId/receive', {
    post: { doc: { tag, summary: 'Receive a returned parcel: the return completes', permission: Permission.ShopAfterSaleManage, response: Refund, errors: refunds.receiveRefundRefusals }, handle: ({ ctx, params }) => refunds.receiveRefund(ctx, params) },
  });
}
