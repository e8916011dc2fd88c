import type { Router } from 'express';
import * as flashSales from '../promotions/flash-sale.service.js';
import { route, Reply } from './route.js';

/** Flash-sale discovery and the shop operator's session management. */
export function flashSaleRoutes(router: Router) {
  route(router, '/flash-sales', { get: ({ ctx, query }) => flashSales.listFlashSales(ctx, query) });

  route(router, '/merchant/flash-sales', {
    get: ({ ctx, query }) => flashSales.listShopFlashSales(ctx, query),
    post: async ({ ctx, body }) => new Reply(201, await flashSales.createFlashSale(ctx, body)),
  });
  route(router, '/merchant/flash-sales/:flashSaleId', {
    get: ({ ctx, params }) => flashSales.getShopFlashSale(ctx, params),
    put: ({ ctx, params, body }) => flashSales.updateFlashSale(ctx, { ...(body as object), flashSaleId: params.flashSaleId }),
    delete: async ({ ctx, params }) => {
      await flashSales.deleteFlashSale(ctx, params);
      return new Reply(204, undefined);
    },
  });
  route(router, '/merchant/flash-sales/:flashSaleId/enable', { post: ({ ctx, params }) => flashSales.enableFlashSale(ctx, params) });
  route(router, '/merchant/flash-sales/:flashSaleId/disable', { post: ({ ctx, params }) => flashSales.disableFlashSale(ctx, params) });
}
