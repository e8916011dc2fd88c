import type { Router } from 'express';
import * as flashSales from '../services/promotions/flash-sale.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { FlashSale, FlashSalePage } from './responses/promotions.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Flash sales';

/** Flash-sale discovery and the shop operator's session management. */
export function flashSaleRoutes(router: Router) {
  route(router, '/flash-sales', {
    get: {
      doc: { tag, summary: 'Running flash sales (and upcoming ones with `include_upcoming`)', permission: Permission.Public, query: flashSales.DiscoverInput, response: FlashSalePage },
      handle: ({ ctx, query }) => flashSales.listFlashSales(ctx, query),
    },
  });

  route(router, '/merchant/flash-sales', {
    get: { doc: { tag, summary: "The shop's flash sales", permission: Permission.ShopPromotionsManage, query: PageQuery, response: FlashSalePage }, handle: ({ ctx, query }) => flashSales.listShopFlashSales(ctx, query) },
    post: {
      doc: { tag, summary: 'Create a flash sale', permission: Permission.ShopPromotionsManage, body: flashSales.SessionInput, response: FlashSale, status: 201, errors: flashSales.createFlashSaleRefusals },
      handle: async ({ ctx, body }) => new Reply(201, await flashSales.createFlashSale(ctx, body)),
    },
  });
  route(router, '/merchant/flash-sales/:flashSaleId', {
    get: {
      doc: { tag, summary: 'One of the shop\'s flash sales', permission: Permission.ShopPromotionsManage, response: FlashSale, errors: flashSales.getShopFlashSaleRefusals },
      handle: ({ ctx, params }) => flashSales.getShopFlashSale(ctx, params),
    },
    put: {
      doc: { tag, summary: 'Replace a flash sale\'s window and items', permission: Permission.ShopPromotionsManage, body: flashSales.UpdateInput, response: FlashSale, errors: flashSales.updateFlashSaleRefusals },
      handle: ({ ctx, params, body }) => flashSales.updateFlashSale(ctx, { ...(body as object), flashSaleId: params.flashSaleId }),
    },
    delete: {
      doc: { tag, summary: 'Delete a flash sale no order used', permission: Permission.ShopPromotionsManage, response: null, errors: flashSales.deleteFlashSaleRefusals },
      handle: async ({ ctx, params }) => {
        await flashSales.deleteFlashSale(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
  route(router, '/merchant/flash-sales/:flashSaleId/enable', {
    post: {
      doc: { tag, summary: 'Enable a flash sale', permission: Permission.ShopPromotionsManage, response: FlashSale, errors: flashSales.enableFlashSaleRefusals },
      handle: ({ ctx, params }) => flashSales.enableFlashSale(ctx, params),
    },
  });
  route(router, '/merchant/flash-sales/:flashSaleId/disable', {
    post: {
      doc: { tag, summary: 'Disable a flash sale', permission: Permission.ShopPromotionsManage, response: FlashSale, errors: flashSales.disableFlashSaleRefusals },
      handle: ({ ctx, params }) => flashSales.disableFlashSale(ctx, params),
    },
  });
}
