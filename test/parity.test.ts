import type { GraphQLObjectType } from 'graphql';
import { graphqlSchema } from '../src/resolvers/schema.js';
import { normalizeRoute as normalize, servedRoutes } from './support/served-routes.js';

/**
 * Both doors: every REST route has a GraphQL counterpart calling the same service function. This
 * table is the map (docs/api.md points here); the tests check it against the routes Express really
 * serves and the fields the schema really has.
 */
const GRAPHQL_TWIN: Record<string, string> = {
  'POST /api/auth/register': 'Mutation.register',
  'POST /api/auth/login': 'Mutation.login',
  'POST /api/auth/logout': 'Mutation.logout',
  'GET /api/me': 'Query.me',
  'GET /api/currency': 'Query.currency',
  'GET /api/categories': 'Query.categories',
  'GET /api/categories/{id}': 'Query.category',
  'GET /api/brands': 'Query.brands',
  'PUT /api/admin/brands': 'Mutation.replaceBrands',
  'GET /api/shops': 'Query.shops',
  'GET /api/shops/{slug}': 'Query.shop',
  'PUT /api/admin/shops/{id}/profile': 'Mutation.putShopProfile',
  'GET /api/content/home': 'Query.homeContent',
  'GET /api/admin/content': 'Query.adminContent',
  'PUT /api/admin/content/{kind}': 'Mutation.replaceHomeContent',
  'GET /api/products': 'Query.products',
  'GET /api/products/{id}': 'Query.product',
  'GET /api/skus': 'Query.skuSummaries',
  'GET /api/products/facets': 'Query.productFacets',
  'GET /api/search/suggest': 'Query.searchSuggestions',
  'GET /api/merchant/products': 'Query.merchantProducts',
  'PUT /api/merchant/products': 'Mutation.upsertProduct',
  'POST /api/merchant/products/{id}/publish': 'Mutation.publishProduct',
  'POST /api/merchant/products/{id}/unpublish': 'Mutation.unpublishProduct',
  'GET /api/cart': 'Query.cart',
  'PUT /api/cart/items/{sku_id}': 'Mutation.setCartItem',
  'DELETE /api/cart/items/{sku_id}': 'Mutation.removeCartItem',
  'POST /api/checkout': 'Mutation.checkout',
  'POST /api/checkout/pay': 'Mutation.payCheckout',
  'POST /api/cart/merge': 'Mutation.mergeCart',
  'POST /api/checkout/preview': 'Query.checkoutPreview',
  'GET /api/orders': 'Query.orders',
  'GET /api/orders/{id}': 'Query.order',
  'POST /api/orders/{id}/pay': 'Mutation.payOrder',
  'POST /api/orders/{id}/cancel': 'Mutation.cancelOrder',
  'POST /api/orders/{id}/confirm-delivery': 'Mutation.confirmDelivery',
  'GET /api/orders/{id}/invoice': 'Query.orderInvoice',
  'GET /api/merchant/orders': 'Query.merchantOrders',
  'GET /api/merchant/orders/{id}': 'Query.merchantOrder',
  'POST /api/merchant/orders/{id}/shipments': 'Mutation.createShipment',
  'POST /api/merchant/orders/{id}/invoice': 'Mutation.issueInvoice',
  'GET /api/me/stats': 'Query.myStats',
  'GET /api/ops/today': 'Query.operationsToday',
  'GET /api/ops/awaiting-shipment': 'Query.ordersAwaitingShipment',
  'GET /api/merchant/balances': 'Query.merchantBalances',
  'GET /api/merchant/statement': 'Query.merchantStatement',
  'GET /api/merchant/payouts': 'Query.merchantPayouts',
  'GET /api/admin/payout-batches': 'Query.adminPayoutBatches',
  'GET /api/admin/payout-batches/{id}': 'Query.payoutBatch',
  'GET /api/admin/payout-batches/{id}/export': 'Query.payoutBatchCsv',
  'POST /api/admin/payout-batches': 'Mutation.createPayoutBatch',
  'POST /api/admin/payouts/{id}/settle': 'Mutation.settlePayout',
  'GET /api/admin/shops/{id}/commission-rates': 'Query.commissionRates',
  'POST /api/admin/shops/{id}/commission-rates': 'Mutation.addCommissionRate',
  'GET /api/admin/reconciliation': 'Query.reconciliation',
  'GET /api/shops/{slug}/coupon-templates': 'Query.shopCouponTemplates',
  'POST /api/coupon-templates/{id}/claim': 'Mutation.claimCoupon',
  'GET /api/me/coupons': 'Query.myCoupons',
  'GET /api/merchant/coupon-templates': 'Query.merchantCouponTemplates',
  'POST /api/merchant/coupon-templates': 'Mutation.createCouponTemplate',
  'PATCH /api/merchant/coupon-templates/{id}': 'Mutation.updateCouponTemplate',
  'DELETE /api/merchant/coupon-templates/{id}': 'Mutation.deleteCouponTemplate',
  'POST /api/merchant/coupon-templates/{id}/disable': 'Mutation.disableCouponTemplate',
  'GET /api/group-buys': 'Query.groupBuys',
  'GET /api/group-buys/{id}': 'Query.groupBuy',
  'GET /api/merchant/group-buys': 'Query.merchantGroupBuys',
  'POST /api/merchant/group-buys': 'Mutation.createGroupBuy',
  'PUT /api/merchant/group-buys/{id}': 'Mutation.updateGroupBuy',
  'DELETE /api/merchant/group-buys/{id}': 'Mutation.deleteGroupBuy',
  'GET /api/flash-sales': 'Query.flashSales',
  'GET /api/merchant/flash-sales': 'Query.merchantFlashSales',
  'GET /api/merchant/flash-sales/{id}': 'Query.merchantFlashSale',
  'POST /api/merchant/flash-sales': 'Mutation.createFlashSale',
  'PUT /api/merchant/flash-sales/{id}': 'Mutation.updateFlashSale',
  'DELETE /api/merchant/flash-sales/{id}': 'Mutation.deleteFlashSale',
  'POST /api/merchant/flash-sales/{id}/enable': 'Mutation.enableFlashSale',
  'POST /api/merchant/flash-sales/{id}/disable': 'Mutation.disableFlashSale',
  'GET /api/shipping-companies': 'Query.shippingCompanies',
  'GET /api/merchant/freight-templates': 'Query.freightTemplates',
  'POST /api/merchant/freight-templates': 'Mutation.createFreightTemplate',
  'PUT /api/merchant/freight-templates/{id}': 'Mutation.updateFreightTemplate',
  'DELETE /api/merchant/freight-templates/{id}': 'Mutation.deleteFreightTemplate',
  'PUT /api/merchant/products/{id}/freight-template': 'Mutation.assignFreightTemplate',
  'POST /api/orders/{id}/items/{item_id}/review': 'Mutation.reviewOrderItem',
  'GET /api/products/{id}/reviews': 'Query.productReviews',
  'GET /api/merchant/reviews': 'Query.merchantReviews',
  'POST /api/merchant/reviews/{id}/reply': 'Mutation.replyToReview',
  'GET /api/admin/reviews': 'Query.adminReviews',
  'POST /api/admin/reviews/{id}/hide': 'Mutation.hideReview',
  'POST /api/admin/reviews/{id}/show': 'Mutation.showReview',
  'POST /api/orders/{id}/refunds': 'Mutation.requestRefund',
  'GET /api/me/refunds': 'Query.myRefunds',
  'GET /api/refunds/{id}': 'Query.refund',
  'POST /api/refunds/{id}/ship-back': 'Mutation.shipBackRefund',
  'POST /api/refunds/{id}/cancel': 'Mutation.cancelRefund',
  'GET /api/merchant/refunds': 'Query.merchantRefunds',
  'GET /api/merchant/refunds/{id}': 'Query.merchantRefund',
  'POST /api/merchant/refunds/{id}/approve': 'Mutation.approveRefund',
  'POST /api/merchant/refunds/{id}/reject': 'Mutation.rejectRefund',
  'POST /api/merchant/refunds/{id}/receive': 'Mutation.receiveRefund',
  'POST /api/refunds/{id}/dispute': 'Mutation.escalateRefund',
  'GET /api/me/disputes': 'Query.myDisputes',
  'GET /api/merchant/disputes': 'Query.merchantDisputes',
  'GET /api/admin/disputes': 'Query.disputes',
  'GET /api/admin/disputes/{id}': 'Query.dispute',
  'POST /api/admin/disputes/{id}/refund': 'Mutation.refundDispute',
  'POST /api/admin/disputes/{id}/uphold': 'Mutation.upholdDispute',
  'GET /api/admin/orders': 'Query.adminOrders',
  'GET /api/admin/shops': 'Query.adminShops',
  'GET /api/admin/orders/{id}': 'Query.adminOrder',
  'GET /api/admin/customers': 'Query.customers',
  'GET /api/admin/customers/{id}': 'Query.customer',
  'POST /api/admin/customers/{id}/disable': 'Mutation.disableCustomer',
  'POST /api/admin/customers/{id}/enable': 'Mutation.enableCustomer',
  'POST /api/me/shop-applications': 'Mutation.applyForShop',
  'GET /api/me/shop-applications': 'Query.myShopApplications',
  'GET /api/me/shop-applications/{id}': 'Query.myShopApplication',
  'POST /api/me/shop-applications/{id}/withdraw': 'Mutation.withdrawShopApplication',
  'GET /api/admin/shop-applications': 'Query.shopApplications',
  'GET /api/admin/shop-applications/{id}': 'Query.shopApplication',
  'POST /api/admin/shop-applications/{id}/approve': 'Mutation.approveShopApplication',
  'POST /api/admin/shop-applications/{id}/reject': 'Mutation.rejectShopApplication',
  'POST /api/admin/shops/{id}/suspend': 'Mutation.suspendShop',
  'POST /api/admin/shops/{id}/reinstate': 'Mutation.reinstateShop',
  'POST /api/admin/shops/{id}/close': 'Mutation.closeShop',
  'GET /api/merchant/members': 'Query.shopMembers',
  'PUT /api/merchant/members/{id}/role': 'Mutation.changeMemberRole',
  'DELETE /api/merchant/members/{id}': 'Mutation.removeMember',
  'GET /api/merchant/invitations': 'Query.memberInvitations',
  'POST /api/merchant/invitations': 'Mutation.inviteMember',
  'DELETE /api/merchant/invitations/{id}': 'Mutation.revokeInvitation',
  'POST /api/me/invitations/accept': 'Mutation.acceptInvitation',
  'GET /api/merchant/media': 'Query.shopMedia',
  'POST /api/merchant/media': 'Mutation.uploadShopMedia',
  'POST /api/merchant/invitations/{id}/resend': 'Mutation.resendInvitation',
  'POST /api/admin/staff-invitations/{id}/resend': 'Mutation.resendStaffInvitation',
  'GET /api/admin/media': 'Query.platformMedia',
  'POST /api/admin/media': 'Mutation.uploadPlatformMedia',
  'GET /api/admin/staff': 'Query.platformStaff',
  'PUT /api/admin/staff/{id}/role': 'Mutation.changeStaffRole',
  'DELETE /api/admin/staff/{id}': 'Mutation.removeStaff',
  'GET /api/admin/staff-invitations': 'Query.staffInvitations',
  'POST /api/admin/staff-invitations': 'Mutation.inviteStaff',
  'DELETE /api/admin/staff-invitations/{id}': 'Mutation.revokeStaffInvitation',
  'POST /api/me/staff-invitations/accept': 'Mutation.acceptStaffInvitation',
  'GET /api/points/products': 'Query.pointsProducts',
  'POST /api/points/products/{id}/redeem': 'Mutation.redeemPointsProduct',
  'GET /api/me/redemptions': 'Query.myRedemptions',
  'GET /api/admin/points/products': 'Query.adminPointsProducts',
  'POST /api/admin/points/products': 'Mutation.createPointsProduct',
  'PUT /api/admin/points/products/{id}': 'Mutation.updatePointsProduct',
  'GET /api/admin/redemptions': 'Query.adminRedemptions',
  'POST /api/admin/redemptions/{id}/fulfil': 'Mutation.fulfilRedemption',
  'GET /api/me/favorites': 'Query.myFavorites',
  'GET /api/regions': 'Query.regions',
  'GET /api/me/addresses': 'Query.myAddresses',
  'POST /api/me/addresses': 'Mutation.addAddress',
  'PATCH /api/me/addresses/{address_id}': 'Mutation.updateAddress',
  'DELETE /api/me/addresses/{address_id}': 'Mutation.deleteAddress',
  'PUT /api/me/addresses/{address_id}/default': 'Mutation.setDefaultAddress',
  'PUT /api/me/favorites/products/{id}': 'Mutation.favoriteProduct',
  'DELETE /api/me/favorites/products/{id}': 'Mutation.unfavoriteProduct',
  'PUT /api/me/favorites/shops/{id}': 'Mutation.favoriteShop',
  'DELETE /api/me/favorites/shops/{id}': 'Mutation.unfavoriteShop',
  'GET /api/events': 'Query.events',
  'GET /api/admin/webhooks': 'Query.webhookEndpoints',
  'POST /api/admin/webhooks': 'Mutation.createWebhookEndpoint',
  'PATCH /api/admin/webhooks/{id}': 'Mutation.updateWebhookEndpoint',
  'DELETE /api/admin/webhooks/{id}': 'Mutation.deleteWebhookEndpoint',
  'POST /api/admin/webhooks/{id}/rotate-secret': 'Mutation.rotateWebhookSecret',
  'GET /api/admin/webhooks/{id}/attempts': 'Query.webhookAttempts',
  'POST /api/admin/webhooks/{id}/redeliver': 'Mutation.redeliverWebhookEvent',
  'POST /api/admin/webhooks/{id}/ping': 'Mutation.pingWebhookEndpoint',
  // One GraphQL field for both scopes: the service takes it from the caller.
  'GET /api/merchant/webhooks': 'Query.webhookEndpoints',
  'POST /api/merchant/webhooks': 'Mutation.createWebhookEndpoint',
  'PATCH /api/merchant/webhooks/{id}': 'Mutation.updateWebhookEndpoint',
  'DELETE /api/merchant/webhooks/{id}': 'Mutation.deleteWebhookEndpoint',
  'POST /api/merchant/webhooks/{id}/rotate-secret': 'Mutation.rotateWebhookSecret',
  'GET /api/merchant/webhooks/{id}/attempts': 'Query.webhookAttempts',
  'POST /api/merchant/webhooks/{id}/redeliver': 'Mutation.redeliverWebhookEvent',
  'POST /api/merchant/webhooks/{id}/ping': 'Mutation.pingWebhookEndpoint',
  'GET /api/payments/methods': 'Query.paymentMethods',
  'POST /api/payments': 'Mutation.startPayment',
  'GET /api/payments/{id}': 'Query.payment',
  'GET /api/payments/{id}/events': 'Query.paymentEvents',
  'GET /api/admin/payments/by-reference': 'Query.paymentByReference',
  'GET /api/admin/payments/late-money': 'Query.lateMoney',
  'GET /api/orders/{id}/payments': 'Query.orderPayments',
  // One GraphQL field for both scopes: the service takes the shop from the caller.
  'GET /api/admin/audit-entries': 'Query.auditEntries',
  'GET /api/merchant/audit-entries': 'Query.auditEntries',
};

/**
 * Routes only a payment provider calls (its signed notifications, in its own wire format): no client
 * operation, so no GraphQL twin (docs/api.md says so).
 */
/**
 * Deprecated GraphQL fields kept for the clients typed against them, each beside the field that
 * replaced it: its REST twin is the replacement's route (REST changed in place, without a break).
 */
const DEPRECATED_FOR: Record<string, string> = {
  // A list's type cannot become a page without breaking its clients (docs/decisions.md, 2026-12-04).
  'Query.payoutBatches': 'Query.adminPayoutBatches',
};

const PROVIDER_CALLBACKS = ['POST /api/payments/notifications/{method}'];

describe('REST and GraphQL parity', () => {
  it('maps exactly the routes Express serves, each to a GraphQL field', () => {
    const callbacks = PROVIDER_CALLBACKS.map(normalize);
    expect(Object.keys(GRAPHQL_TWIN).map(normalize).sort()).toEqual(servedRoutes().map(normalize).filter((route) => !callbacks.includes(route)).sort());
  });

  it('points every mapping at a field the schema has', async () => {
    const schema = await graphqlSchema();
    const absent = Object.entries(GRAPHQL_TWIN).filter(([, field]) => {
      const [type, name] = field.split('.');
      const root = (type === 'Query' ? schema.getQueryType() : schema.getMutationType()) as GraphQLObjectType;
      return !root.getFields()[name];
    });
    expect(absent).toEqual([]);
  });

  it('gives every query and mutation of the schema a REST twin', async () => {
    const schema = await graphqlSchema();
    const fields = [schema.getQueryType(), schema.getMutationType()].flatMap((root) => Object.keys(root!.getFields()).map((name) => `${root!.name}.${name}`));
    const twinned = new Set(Object.values(GRAPHQL_TWIN));
    expect(fields.filter((field) => !twinned.has(field) && !twinned.has(DEPRECATED_FOR[field]))).toEqual([]);
  });

  it('lets a field go without a REST twin of its own only while it is deprecated, for a twinned replacement', async () => {
    const schema = await graphqlSchema();
    const twinned = new Set(Object.values(GRAPHQL_TWIN));
    const wrong = Object.entries(DEPRECATED_FOR).filter(([field, replacement]) => {
      const [type, name] = field.split('.');
      const root = (type === 'Query' ? schema.getQueryType() : schema.getMutationType()) as GraphQLObjectType;
      return !root.getFields()[name]?.deprecationReason || twinned.has(field) || !twinned.has(replacement);
    });
    expect(wrong).toEqual([]);
  });

  it('pairs REST reads with queries and REST writes with mutations (checkout preview: a read sent as POST)', () => {
    const crossed = Object.entries(GRAPHQL_TWIN).filter(([route, field]) => {
      const read = route.startsWith('GET ') || route === 'POST /api/checkout/preview';
      return read !== field.startsWith('Query.');
    });
    expect(crossed).toEqual([]);
  });
});
