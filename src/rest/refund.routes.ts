import type { Router } from 'express';
import * as refunds from '../services/after-sale/refund.service.js';
import { route, Reply } from './route.js';
import { Refund, RefundPage } from './responses/after-sale.js';

const tag = 'Refunds';

/** After-sale: the customer asks, ships returns back and may withdraw; the shop decides and receives. */
export function refundRoutes(router: Router) {
  route(router, '/orders/:orderId/refunds', {
    post: {
      doc: {
        tag, summary: 'Ask for a refund or a return', access: 'customer', body: refunds.RequestInput, response: Refund, status: 201,
        errors: refunds.requestRefundRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await refunds.requestRefund(ctx, { ...(body as object), ...params })),
    },
  });
  route(router, '/me/refunds', {
    get: { doc: { tag, summary: "The customer's refunds", access: 'customer', query: refunds.ListInput, response: RefundPage }, handle: ({ ctx, query }) => refunds.listMyRefunds(ctx, query) },
  });
  route(router, '/refunds/:refundId', {
    get: { doc: { tag, summary: 'One of the customer\'s refunds', access: 'customer', response: Refund, errors: refunds.getMyRefundRefusals }, handle: ({ ctx, params }) => refunds.getMyRefund(ctx, params) },
  });
  route(router, '/refunds/:refundId/ship-back', {
    post: {
      doc: {
        tag, summary: 'Send an approved return back', access: 'customer', body: refunds.ShipBackInput, response: Refund,
        errors: refunds.shipBackRefundRefusals,
      },
      handle: ({ ctx, params, body }) => refunds.shipBackRefund(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/refunds/:refundId/cancel', {
    post: { doc: { tag, summary: 'Withdraw a refund request', access: 'customer', response: Refund, errors: refunds.cancelRefundRefusals }, handle: ({ ctx, params }) => refunds.cancelRefund(ctx, params) },
  });

  route(router, '/merchant/refunds', {
    get: { doc: { tag, summary: "The shop's refunds", access: 'shop_operator', query: refunds.ListInput, response: RefundPage }, handle: ({ ctx, query }) => refunds.listShopRefunds(ctx, query) },
  });
  route(router, '/merchant/refunds/:refundId', {
    get: { doc: { tag, summary: 'One of the shop\'s refunds', access: 'shop_operator', response: Refund, errors: refunds.getShopRefundRefusals }, handle: ({ ctx, params }) => refunds.getShopRefund(ctx, params) },
  });
  route(router, '/merchant/refunds/:refundId/approve', {
    post: { doc: { tag, summary: 'Approve (a refund completes at once)', access: 'shop_operator', response: Refund, errors: refunds.approveRefundRefusals }, handle: ({ ctx, params }) => refunds.approveRefund(ctx, params) },
  });
  route(router, '/merchant/refunds/:refundId/reject', {
    post: {
      doc: { tag, summary: 'Reject, with a reason', access: 'shop_operator', body: refunds.RejectInput, response: Refund, errors: refunds.rejectRefundRefusals },
      handle: ({ ctx, params, body }) => refunds.rejectRefund(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/merchant/refunds/:refundId/receive', {
    post: { doc: { tag, summary: 'Receive a returned parcel: the return completes', access: 'shop_operator', response: Refund, errors: refunds.receiveRefundRefusals }, handle: ({ ctx, params }) => refunds.receiveRefund(ctx, params) },
  });
}
