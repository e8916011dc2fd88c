import type { Router } from 'express';
import * as points from '../points/points-mall.service.js';
import { route, Reply } from './route.js';

export function pointsRoutes(router: Router) {
  route(router, '/points/products', { get: ({ ctx, query }) => points.listPointsProducts(ctx, query) });
  route(router, '/points/products/:id/redeem', {
    post: async ({ ctx, params, body }) => new Reply(201, await points.redeemPointsProduct(ctx, params.id, body)),
  });
  route(router, '/me/redemptions', { get: ({ ctx, query }) => points.myRedemptions(ctx, query) });

  route(router, '/admin/points/products', {
    get: ({ ctx, query }) => points.adminListPointsProducts(ctx, query),
    post: async ({ ctx, body }) => new Reply(201, await points.createPointsProduct(ctx, body)),
  });
  route(router, '/admin/points/products/:id', { put: ({ ctx, params, body }) => points.updatePointsProduct(ctx, params.id, body) });
  route(router, '/admin/redemptions', { get: ({ ctx, query }) => points.adminListRedemptions(ctx, query) });
  route(router, '/admin/redemptions/:id/fulfil', { post: ({ ctx, params }) => points.fulfilRedemption(ctx, params.id) });
}
