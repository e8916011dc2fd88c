import type { Router } from 'express';
import * as groupBuys from '../promotions/group-buy.service.js';
import { route, Reply } from './route.js';

/** Group-buying activities: public reads and the shop's management. */
export function groupBuyRoutes(router: Router) {
  route(router, '/group-buys', { get: ({ ctx, query }) => groupBuys.listGroupBuys(ctx, query) });
  route(router, '/group-buys/:activityId', { get: ({ ctx, params }) => groupBuys.getGroupBuy(ctx, params) });

  route(router, '/merchant/group-buys', {
    get: ({ ctx, query }) => groupBuys.listShopGroupBuys(ctx, query),
    post: async ({ ctx, body }) => new Reply(201, await groupBuys.createGroupBuy(ctx, body)),
  });
  route(router, '/merchant/group-buys/:activityId', {
    put: ({ ctx, params, body }) => groupBuys.updateGroupBuy(ctx, { ...(body as object), activityId: params.activityId }),
    delete: async ({ ctx, params }) => {
      await groupBuys.deleteGroupBuy(ctx, params);
      return new Reply(204, undefined);
    },
  });
}
