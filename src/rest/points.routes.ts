import type { Router } from 'express';
import * as points from '../services/points/points-mall.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { PointsProduct, PointsProductPage, Redemption, RedemptionPage } from './responses/points-shipping.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Points mall';

export function pointsRoutes(router: Router) {
  route(router, '/points/products', {
    get: { doc: { tag, summary: 'Published points products', permission: Permission.Public, query: PageQuery, response: PointsProductPage }, handle: ({ ctx, query }) => points.listPointsProducts(ctx, query) },
  });
  route(router, '/points/products/:id/redeem', {
    post: {
      doc: {
        tag, summary: 'Redeem points for a product', permission: Permission.Customer, body: points.RedeemInput, response: Redemption, status: 201,
        errors: points.redeemPointsProductRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await points.redeemPointsProduct(ctx, params.id, body)),
    },
  });
  route(router, '/me/redemptions', {
    get: { doc: { tag, summary: "The customer's redemptions", permission: Permission.Customer, query: points.RedemptionListQuery, response: RedemptionPage }, handle: ({ ctx, query }) => points.myRedemptions(ctx, query) },
  });

  route(router, '/admin/points/products', {
    get: { doc: { tag, summary: 'Every points product', permission: Permission.PlatformPointsManage, query: PageQuery, response: PointsProductPage }, handle: ({ ctx, query }) => points.adminListPointsProducts(ctx, query) },
    post: {
      doc: { tag, summary: 'Create a points product', permission: Permission.PlatformPointsManage, body: points.CreateProductInput, response: PointsProduct, status: 201 },
      handle: async ({ ctx, body }) => new Reply(201, await points.createPointsProduct(ctx, body)),
    },
  });
  route(router, '/admin/points/products/:id', {
    put: {
      doc: { tag, summary: 'Change a points product', permission: Permission.PlatformPointsManage, body: points.UpdateProductInput, response: PointsProduct, errors: points.updatePointsProductRefusals },
      handle: ({ ctx, params, body }) => points.updatePointsProduct(ctx, params.id, body),
    },
  });
  route(router, '/admin/redemptions', {
    get: { doc: { tag, summary: 'Every redemption', permission: Permission.PlatformRedemptionsManage, query: points.RedemptionListQuery, response: RedemptionPage }, handle: ({ ctx, query }) => points.adminListRedemptions(ctx, query) },
  });
  route(router, '/admin/redemptions/:id/fulfil', {
    post: {
      doc: { tag, summary: 'Mark a redemption fulfilled', permission: Permission.PlatformRedemptionsManage, response: Redemption, errors: points.fulfilRedemptionRefusals },
      handle: ({ ctx, params }) => points.fulfilRedemption(ctx, params.id),
    },
  });
}
