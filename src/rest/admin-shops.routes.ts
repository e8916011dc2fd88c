import type { Router } from 'express';
import * as adminShops from '../services/platform/admin-shops.service.js';
import { route } from './route.js';
import { AdminShopPage } from './responses/platform.js';
import { Permission } from '../shared/permissions.js';

/** Shops for the platform: every shop with its state, sales, balances and commission. */
export function adminShopRoutes(router: Router) {
  route(router, '/admin/shops', {
    get: {
      doc: {
        tag: 'Shop states', summary: 'Every shop, newest first, by part of its name or slug and by state, with its sales, balances and the commission on it',
        permission: Permission.PlatformShopsRead, query: adminShops.AdminShopListInput, response: AdminShopPage,
      },
      handle: ({ ctx, query }) => adminShops.listAdminShops(ctx, query),
    },
  });
}
