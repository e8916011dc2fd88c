import type { Router } from 'express';
import * as adminOrders from '../services/platform/admin-orders.service.js';
import { route } from './route.js';
import { AdminOrder, AdminOrderPage } from './responses/platform.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Platform orders';

/** Orders across every shop for the platform, with their payments, shipments and refunds. */
export function adminOrderRoutes(router: Router) {
  route(router, '/admin/orders', {
    get: {
      doc: {
        tag, summary: "Every shop's orders, newest first: by order id, customer (id or email), shop and status, each with its payments, shipments and refunds",
        permission: Permission.PlatformOrdersRead, query: adminOrders.AdminOrderListInput, response: AdminOrderPage, errors: adminOrders.listAdminOrdersRefusals,
      },
      handle: ({ ctx, query }) => adminOrders.listAdminOrders(ctx, query),
    },
  });
  route(router, '/admin/orders/:orderId', {
    get: {
      doc: { tag, summary: 'One order of any shop, with its payments, shipments and refunds', permission: Permission.PlatformOrdersRead, response: AdminOrder, errors: adminOrders.getAdminOrderRefusals },
      handle: ({ ctx, params }) => adminOrders.getAdminOrder(ctx, params),
    },
  });
}
