import type { Router } from 'express';
import * as groupBuys from '../services/promotions/group-buy.service.js';
import { PageQuery } from '../shared/pagination.js';
import { route, Reply } from './route.js';
import { GroupBuyDetail, GroupBuyPage, MerchantGroupBuy, MerchantGroupBuyPage } from './responses/promotions.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Group buys';

/** Group-buying activities: public reads and the shop's management. */
export function groupBuyRoutes(router: Router) {
  route(router, '/group-buys', {
    get: { doc: { tag, summary: 'Group-buying activities', permission: Permission.Public, query: groupBuys.PublicList, response: GroupBuyPage }, handle: ({ ctx, query }) => groupBuys.listGroupBuys(ctx, query) },
  });
  route(router, '/group-buys/:activityId', {
    get: {
      doc: { tag, summary: 'One activity with its open groups', permission: Permission.Public, response: GroupBuyDetail, errors: groupBuys.getGroupBuyRefusals },
      handle: ({ ctx, params }) => groupBuys.getGroupBuy(ctx, params),
    },
  });

  route(router, '/merchant/group-buys', {
    get: {
      doc: { tag, summary: "The shop's activities with their group counts", permission: Permission.ShopPromotionsManage, query: PageQuery, response: MerchantGroupBuyPage },
      handle: ({ ctx, query }) => groupBuys.listShopGroupBuys(ctx, query),
    },
    post: {
      doc: { tag, summary: 'Create an activity', permission: Permission.ShopPromotionsManage, body: groupBuys.ActivityInput, response: MerchantGroupBuy, status: 201, errors: groupBuys.createGroupBuyRefusals },
      handle: async ({ ctx, body }) => new Reply(201, await groupBuys.createGroupBuy(ctx, body)),
    },
  });
  route(router, '/merchant/group-buys/:activityId', {
    put: {
      doc: {
        tag, summary: 'Replace an activity\'s terms', permission: Permission.ShopPromotionsManage, body: groupBuys.ActivityInput, response: MerchantGroupBuy, errors: groupBuys.updateGroupBuyRefusals,
      },
      handle: ({ ctx, params, body }) => groupBuys.updateGroupBuy(ctx, { ...(body as object), activityId: params.activityId }),
    },
    delete: {
      doc: { tag, summary: 'Delete an activity that has no groups', permission: Permission.ShopPromotionsManage, response: null, errors: groupBuys.deleteGroupBuyRefusals },
      handle: async ({ ctx, params }) => {
        await groupBuys.deleteGroupBuy(ctx, params);
        return new Reply(204, undefined);
      },
    },
  });
}
