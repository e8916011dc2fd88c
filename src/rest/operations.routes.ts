import type { Router } from 'express';
import * as operations from '../services/orders/operations.service.js';
import { route } from './route.js';
import { OperationsToday, OrderPage } from './responses/purchase.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Operations';

/** The live operations page's reads, for shop operators (own shop) and platform admins (every shop). */
export function operationsRoutes(router: Router) {
  route(router, '/ops/today', {
    get: {
      doc: { tag, summary: "Today's figures", permission: Permission.OpsRead, query: operations.TodayInput, response: OperationsToday, errors: operations.operationsTodayRefusals },
      handle: ({ ctx, query }) => operations.operationsToday(ctx, query),
    },
  });
  route(router, '/ops/awaiting-shipment', {
    get: {
      doc: { tag, summary: 'Paid orders not yet fully shipped', permission: Permission.OpsRead, query: operations.AwaitingInput, response: OrderPage, errors: operations.ordersAwaitingShipmentRefusals },
      handle: ({ ctx, query }) => operations.ordersAwaitingShipment(ctx, query),
    },
  });
}
