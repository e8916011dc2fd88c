import { openApiPath, type Method } from './openapi/operation.js';

/**
 * The one name of each write operation, for both doors: its GraphQL field, by the REST route that
 * calls the same service function (docs/api.md, "Both doors"; test/parity.test.ts maps every route).
 * The audit log records a write by this name (src/shared/audit.ts), so an admin filtering by
 * `upsertProduct` finds the writes of either door. Paths as the OpenAPI document spells them;
 * parameter names do not matter (`{id}` and `{product_id}` are the same route).
 */
const NAMES: Record<string, string> = {
  'POST /api/auth/register': 'register',
  'POST /api/auth/login': 'login',
  'POST /api/auth/logout': 'logout',
  'PUT /api/admin/brands': 'replaceBrands',
  'PUT /api/admin/shops/{id}/profile': 'putShopProfile',
  'PUT /api/admin/content/{kind}': 'replaceHomeContent',
  'PUT /api/merchant/products': 'upsertProduct',
  'POST /api/merchant/products/{id}/publish': 'publishProduct',
  'POST /api/merchant/products/{id}/unpublish': 'unpublishProduct',
  'PUT /api/cart/items/{sku_id}': 'setCartItem',
  'DELETE /api/cart/items/{sku_id}': 'removeCartItem',
  'POST /api/checkout': 'checkout',
  'POST /api/checkout/pay': 'payCheckout',
  'POST /api/cart/merge': 'mergeCart',
  'POST /api/orders/{id}/pay': 'payOrder',
  'POST /api/orders/{id}/cancel': 'cancelOrder',
  'POST /api/orders/{id}/confirm-delivery': 'confirmDelivery',
  'POST /api/merchant/orders/{id}/shipments': 'createShipment',
  'POST /api/merchant/orders/{id}/invoice': 'issueInvoice',
  'POST /api/admin/payout-batches': 'createPayoutBatch',
  'POST /api/admin/payouts/{id}/settle': 'settlePayout',
  'POST /api/admin/shops/{id}/commission-rates': 'addCommissionRate',
  'POST /api/coupon-templates/{id}/claim': 'claimCoupon',
  'POST /api/merchant/coupon-templates': 'createCouponTemplate',
  'PATCH /api/merchant/coupon-templates/{id}': 'updateCouponTemplate',
  'DELETE /api/merchant/coupon-templates/{id}': 'deleteCouponTemplate',
  'POST /api/merchant/coupon-templates/{id}/disable': 'disableCouponTemplate',
  'POST /api/merchant/group-buys': 'createGroupBuy',
  'PUT /api/merchant/group-buys/{id}': 'updateGroupBuy',
  'DELETE /api/merchant/group-buys/{id}': 'deleteGroupBuy',
  'POST /api/merchant/flash-sales': 'createFlashSale',
  'PUT /api/merchant/flash-sales/{id}': 'updateFlashSale',
  'DELETE /api/merchant/flash-sales/{id}': 'deleteFlashSale',
  'POST /api/merchant/flash-sales/{id}/enable': 'enableFlashSale',
  'POST /api/merchant/flash-sales/{id}/disable': 'disableFlashSale',
  'POST /api/merchant/freight-templates': 'createFreightTemplate',
  'PUT /api/merchant/freight-templates/{id}': 'updateFreightTemplate',
  'DELETE /api/merchant/freight-templates/{id}': 'deleteFreightTemplate',
  'PUT /api/merchant/products/{id}/freight-template': 'assignFreightTemplate',
  'POST /api/orders/{id}/items/{item_id}/review': 'reviewOrderItem',
  'POST /api/merchant/reviews/{id}/reply': 'replyToReview',
  'POST /api/admin/reviews/{id}/hide': 'hideReview',
  'POST /api/admin/reviews/{id}/show': 'showReview',
  'POST /api/orders/{id}/refunds': 'requestRefund',
  'POST /api/refunds/{id}/ship-back': 'shipBackRefund',
  'POST /api/refunds/{id}/cancel': 'cancelRefund',
  'POST /api/merchant/refunds/{id}/approve': 'approveRefund',
  'POST /api/merchant/refunds/{id}/reject': 'rejectRefund',
  'POST /api/merchant/refunds/{id}/receive': 'receiveRefund',
  'POST /api/refunds/{id}/dispute': 'escalateRefund',
  'POST /api/admin/disputes/{id}/refund': 'refundDispute',
  'POST /api/admin/disputes/{id}/uphold': 'upholdDispute',
  'POST /api/admin/customers/{id}/disable': 'disableCustomer',
  'POST /api/admin/customers/{id}/enable': 'enableCustomer',
  'POST /api/me/shop-applications': 'applyForShop',
  'POST /api/me/shop-applications/{id}/withdraw': 'withdrawShopApplication',
  'POST /api/admin/shop-applications/{id}/approve': 'approveShopApplication',
  'POST /api/admin/shop-applications/{id}/reject': 'rejectShopApplication',
  'POST /api/admin/shops/{id}/suspend': 'suspendShop',
  'POST /api/admin/shops/{id}/reinstate': 'reinstateShop',
  'POST /api/admin/shops/{id}/close': 'closeShop',
  'POST /api/points/products/{id}/redeem': 'redeemPointsProduct',
  'POST /api/admin/points/products': 'createPointsProduct',
  'PUT /api/admin/points/products/{id}': 'updatePointsProduct',
  'POST /api/admin/redemptions/{id}/fulfil': 'fulfilRedemption',
  'POST /api/me/addresses': 'addAddress',
  'PATCH /api/me/addresses/{address_id}': 'updateAddress',
  'DELETE /api/me/addresses/{address_id}': 'deleteAddress',
  'PUT /api/me/addresses/{address_id}/default': 'setDefaultAddress',
  'PUT /api/me/favorites/products/{id}': 'favoriteProduct',
  'DELETE /api/me/favorites/products/{id}': 'unfavoriteProduct',
  'PUT /api/me/favorites/shops/{id}': 'favoriteShop',
  'DELETE /api/me/favorites/shops/{id}': 'unfavoriteShop',
  'POST /api/admin/webhooks': 'createWebhookEndpoint',
  'PATCH /api/admin/webhooks/{id}': 'updateWebhookEndpoint',
  'DELETE /api/admin/webhooks/{id}': 'deleteWebhookEndpoint',
  'PUT /api/merchant/members/{user_id}/role': 'changeMemberRole',
  'DELETE /api/merchant/members/{user_id}': 'removeMember',
  'POST /api/merchant/invitations': 'inviteMember',
  'DELETE /api/merchant/invitations/{invitation_id}': 'revokeInvitation',
  'POST /api/me/invitations/accept': 'acceptInvitation',
  'PUT /api/admin/staff/{user_id}/role': 'changeStaffRole',
  'DELETE /api/admin/staff/{user_id}': 'removeStaff',
  'POST /api/admin/staff-invitations': 'inviteStaff',
  'DELETE /api/admin/staff-invitations/{invitation_id}': 'revokeStaffInvitation',
  'POST /api/me/staff-invitations/accept': 'acceptStaffInvitation',
  'POST /api/admin/webhooks/{id}/rotate-secret': 'rotateWebhookSecret',
  'POST /api/admin/webhooks/{id}/redeliver': 'redeliverWebhookEvent',
  'POST /api/admin/webhooks/{id}/ping': 'pingWebhookEndpoint',
  'POST /api/merchant/webhooks': 'createWebhookEndpoint',
  'PATCH /api/merchant/webhooks/{id}': 'updateWebhookEndpoint',
  'DELETE /api/merchant/webhooks/{id}': 'deleteWebhookEndpoint',
  'POST /api/merchant/webhooks/{id}/rotate-secret': 'rotateWebhookSecret',
  'POST /api/merchant/webhooks/{id}/redeliver': 'redeliverWebhookEvent',
  'POST /api/merchant/webhooks/{id}/ping': 'pingWebhookEndpoint',
  'POST /api/payments': 'startPayment',
  'POST /api/merchant/media': 'uploadShopMedia',
  'POST /api/merchant/invitations/{invitation_id}/resend': 'resendInvitation',
  'POST /api/admin/staff-invitations/{invitation_id}/resend': 'resendStaffInvitation',
  'POST /api/admin/media': 'uploadPlatformMedia',
};

const shape = (route: string) => route.replace(/\{[^}]+\}/g, '{}');
const byShape = new Map(Object.entries(NAMES).map(([route, name]) => [shape(route), name]));

/**
 * The operation name a route's calls run under: the GraphQL twin's for a write, else (a read, or a
 * write missing from the table) its method and path, so the log still says what ran
 * (test/audit-log.test.ts fails on a staff write missing here).
 */
export function operationName(method: Method, expressPath: string): string {
  const route = `${method.toUpperCase()} ${openApiPath(expressPath).path}`;
  return byShape.get(shape(route)) ?? route;
}
