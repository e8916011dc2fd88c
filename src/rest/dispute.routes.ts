import type { Router } from 'express';
import * as disputes from '../services/after-sale/dispute.service.js';
import { route, Reply } from './route.js';
import { Dispute, DisputePage } from './responses/after-sale.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Disputes';

/** Disputes: the customer escalates a rejected refund, both sides read, a platform admin rules. */
export function disputeRoutes(router: Router) {
  route(router, '/refunds/:refundId/dispute', {
    post: {
      doc: {
        tag, summary: 'Escalate a refund or return the shop rejected to the platform (once)', permission: Permission.Customer, body: disputes.EscalateInput, response: Dispute, status: 201,
        errors: disputes.escalateRefundRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await disputes.escalateRefund(ctx, { ...(body as object), ...params })),
    },
  });
  route(router, '/me/disputes', {
    get: {
      doc: { tag, summary: "The customer's disputes, newest first, with the ruling", permission: Permission.Customer, query: disputes.DisputeListInput, response: DisputePage },
      handle: ({ ctx, query }) => disputes.listMyDisputes(ctx, query),
    },
  });
  route(router, '/merchant/disputes', {
    get: {
      doc: { tag, summary: "The shop's disputes, newest first, with the customer's reason and the ruling", permission: Permission.ShopAfterSaleManage, query: disputes.DisputeListInput, response: DisputePage },
      handle: ({ ctx, query }) => disputes.listShopDisputes(ctx, query),
    },
  });
  route(router, '/admin/disputes', {
    get: {
      doc: { tag, summary: "Every dispute, newest first, by status and by the customer's or shop's name, the reason or the order's number", permission: Permission.PlatformDisputesRule, query: disputes.AdminDisputeListInput, response: DisputePage },
      handle: ({ ctx, query }) => disputes.listDisputesForAdmin(ctx, query),
    },
  });
  route(router, '/admin/disputes/:disputeId', {
    get: {
      doc: { tag, summary: 'One dispute', permission: Permission.PlatformDisputesRule, response: Dispute, errors: disputes.getDisputeRefusals },
      handle: ({ ctx, params }) => disputes.getDispute(ctx, params),
    },
  });
  route(router, '/admin/disputes/:disputeId/refund', {
    post: {
      doc: {
        tag, summary: "Rule for the customer: refund all or part of the rejected request from the shop's share", permission: Permission.PlatformDisputesRule, body: disputes.RefundDisputeInput,
        response: Dispute, errors: disputes.refundDisputeRefusals,
      },
      handle: ({ ctx, params, body }) => disputes.refundDispute(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/admin/disputes/:disputeId/uphold', {
    post: {
      doc: { tag, summary: "Uphold the shop's rejection, with the ruling both sides read", permission: Permission.PlatformDisputesRule, body: disputes.UpholdDisputeInput, response: Dispute, errors: disputes.upholdDisputeRefusals },
      handle: ({ ctx, params, body }) => disputes.upholdDispute(ctx, { ...(body as object), ...params }),
    },
  });
}
