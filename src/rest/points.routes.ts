import type { Router } from 'express';
import * as points from '../services/points/points-mall.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { PointsProduct, PointsProductPage, Redemption, RedemptionPage } from './responses/points-shipping.js';

const tag = 'Points mall';

export function pointsRoutes(router: Router) {
  route(router, '/points/products', {
    get: { doc: { tag, summary: 'Published points products', access: 'public', query: PageQuery, response: PointsProductPage }, handle: ({ ctx, query }) => points.listPointsProducts(ctx, query) },
  });
  route(router, '/points/products/:id/redeem', {
    post: {
      doc: {
        tag, summary: 'Redeem points for a product', access: 'customer', body: points.RedeemInput, response: Redemption, status: 201,
        errors: points.redeemPointsProductRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await points.redeemPointsProduct(ctx, params.id, body)),
    },
  });
  route(router, '/me/redemptions', {
    get: { doc: { tag, summary: "The customer's redemptions", access: 'customer', query: points.RedemptionListQuery, response: RedemptionPage }, handle: ({ ctx, query }) => points.myRedemptions(ctx, query) },
  });

  route(router, '/admin/points/products', {
    get: { doc: { tag, summary: 'Every points product', access: 'platform_admin', query: PageQuery, response: PointsProductPage }, handle: ({ ctx, query }) => points.adminListPointsProducts(ctx, query) },
    post: {
      doc: { tag, summary: 'Create a points product', access: 'platform_admin', body: points.CreateProductInput, response: PointsProduct, status: 201 },
      handle: async ({ ctx, body }) => new Reply(201, await points.createPointsProduct(ctx, body)),
    },
  });
  route(router, '/admin/points/products/:id', {
    put: {
      doc: { tag, summary: 'Change a points product', access: 'platform_admin', body: points.UpdateProductInput, response: PointsProduct, errors: points.updatePointsProductRefusals },
      handle: ({ ctx, params, body }) => points.updatePointsProduct(ctx, params.id, body),
    },
  });
  route(router, '/admin/redemptions', {
    get: { doc: { tag, summary: 'Every redemption', access: 'platform_admin', query: points.RedemptionListQuery, response: RedemptionPage }, handle: ({ ctx, query }) => points.adminListRedemptions(ctx, query) },
  });
  route(router, '/admin/redemptions/:id/fulfil', {
    post: {
      doc: { tag, summary: 'Mark a redemption fulfilled', access: 'platform_admin', response: Redemption, errors: points.fulfilRedemptionRefusals },
      handle: ({ ctx, params }) => points.fulfilRedemption(ctx, params.id),
    },
  });
}
