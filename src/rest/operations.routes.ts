import type { Router } from 'express';
import * as operations from '../orders/operations.service.js';
import { route } from './route.js';

/** The live operations page's reads, for shop operators (own shop) and platform admins (every shop). */
export function operationsRoutes(router: Router) {
  route(router, '/ops/today', { get: ({ ctx, query }) => operations.operationsToday(ctx, query) });
  route(router, '/ops/awaiting-shipment', { get: ({ ctx, query }) => operations.ordersAwaitingShipment(ctx, query) });
}
