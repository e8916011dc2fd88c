import type { Router } from 'express';
import * as applications from '../services/shops/shop-application.service.js';
import { route, Reply } from './route.js';
import { ShopApplication, ShopApplicationPage } from './responses/shops.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Shop onboarding';

/** Shop onboarding: a customer applies, reads and may withdraw; a platform admin approves or rejects. */
export function shopApplicationRoutes(router: Router) {
  route(router, '/me/shop-applications', {
    post: {
      doc: {
        tag, summary: 'Apply to open a shop', permission: Permission.Customer, body: applications.ApplyInput, response: ShopApplication, status: 201,
        errors: applications.applyForShopRefusals,
      },
      handle: async ({ ctx, body }) => new Reply(201, await applications.applyForShop(ctx, body)),
    },
    get: {
      doc: { tag, summary: "The caller's shop applications, newest first", permission: Permission.SignedIn, query: applications.ApplicationListInput, response: ShopApplicationPage },
      handle: ({ ctx, query }) => applications.listMyShopApplications(ctx, query),
    },
  });
  route(router, '/me/shop-applications/:applicationId', {
    get: {
      doc: { tag, summary: "One of the caller's shop applications (with a rejection's reason)", permission: Permission.SignedIn, response: ShopApplication, errors: applications.getMyShopApplicationRefusals },
      handle: ({ ctx, params }) => applications.getMyShopApplication(ctx, params),
    },
  });
  route(router, '/me/shop-applications/:applicationId/withdraw', {
    post: {
      doc: { tag, summary: 'Withdraw a submitted application', permission: Permission.SignedIn, response: ShopApplication, errors: applications.withdrawShopApplicationRefusals },
      handle: ({ ctx, params }) => applications.withdrawShopApplication(ctx, params),
    },
  });

  route(router, '/admin/shop-applications', {
    get: {
      doc: { tag, summary: "Every shop application, newest first, by status and by the shop's, the contact's or the applicant's name or email", permission: Permission.PlatformShopsManage, query: applications.AdminApplicationListInput, response: ShopApplicationPage },
      handle: ({ ctx, query }) => applications.listShopApplications(ctx, query),
    },
  });
  route(router, '/admin/shop-applications/:applicationId', {
    get: {
      doc: { tag, summary: 'One shop application', permission: Permission.PlatformShopsManage, response: ShopApplication, errors: applications.getShopApplicationRefusals },
      handle: ({ ctx, params }) => applications.getShopApplication(ctx, params),
    },
  });
  route(router, '/admin/shop-applications/:applicationId/approve', {
    post: {
      doc: {
        tag, summary: 'Approve: the shop is created and the applicant becomes its operator', permission: Permission.PlatformShopsManage, response: ShopApplication,
        errors: applications.approveShopApplicationRefusals,
      },
      handle: ({ ctx, params }) => applications.approveShopApplication(ctx, params),
    },
  });
  route(router, '/admin/shop-applications/:applicationId/reject', {
    post: {
      doc: {
        tag, summary: 'Reject, with the reason the applicant reads', permission: Permission.PlatformShopsManage, body: applications.RejectApplicationInput, response: ShopApplication,
        errors: applications.rejectShopApplicationRefusals,
      },
      handle: ({ ctx, params, body }) => applications.rejectShopApplication(ctx, { ...(body as object), ...params }),
    },
  });
}
