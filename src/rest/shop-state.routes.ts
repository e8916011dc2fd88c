import type { Router } from 'express';
import * as shopStates from '../services/shops/shop-state.service.js';
import { route } from './route.js';
import { ShopState } from './responses/shops.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Shop states';

/** A platform admin suspends a shop (with a reason), reinstates it, or closes it. */
export function shopStateRoutes(router: Router) {
  route(router, '/admin/shops/:shopId/suspend', {
    post: {
      doc: {
        tag, summary: 'Suspend an active shop, with a reason: its products leave the storefront, its payouts are held', permission: Permission.PlatformShopsManage,
        body: shopStates.SuspendShopInput.omit({ shopId: true }), response: ShopState, errors: shopStates.suspendShopRefusals,
      },
      handle: ({ ctx, params, body }) => shopStates.suspendShop(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/admin/shops/:shopId/reinstate', {
    post: {
      doc: { tag, summary: 'Reinstate a suspended shop: the products it held are published again', permission: Permission.PlatformShopsManage, response: ShopState, errors: shopStates.reinstateShopRefusals },
      handle: ({ ctx, params }) => shopStates.reinstateShop(ctx, params),
    },
  });
  route(router, '/admin/shops/:shopId/close', {
    post: {
      doc: {
        tag, summary: 'Close a shop for good: refused while it has an open order or refund, or money on its balance', permission: Permission.PlatformShopsManage, response: ShopState,
        errors: shopStates.closeShopRefusals,
      },
      handle: ({ ctx, params }) => shopStates.closeShop(ctx, params),
    },
  });
}
