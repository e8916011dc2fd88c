import type { Router } from 'express';
import * as cart from '../checkout/cart.service.js';
import { checkout, previewCheckout } from '../checkout/checkout.service.js';
import * as orders from '../orders/order.service.js';
import { createShipment } from '../orders/shipment.service.js';
import { getMyInvoice, issueInvoice } from '../orders/invoice.service.js';
import { myStats } from '../accounts/account.service.js';
import { route, Reply } from './route.js';

/** Cart, checkout, orders, shipments, invoices and the account summary. */
export function purchaseRoutes(router: Router) {
  route(router, '/cart', { get: ({ ctx }) => cart.getCart(ctx) });
  route(router, '/cart/items/:skuId', {
    put: ({ ctx, params, body }) => cart.setCartItem(ctx, { ...(body as object), skuId: params.skuId }),
    delete: ({ ctx, params }) => cart.removeCartItem(ctx, { skuId: params.skuId }),
  });

  route(router, '/checkout', {
    post: async ({ ctx, body, header }) => new Reply(201, { orders: await checkout(ctx, body, header('idempotency-key')) }),
  });
  route(router, '/checkout/preview', { post: ({ ctx, body }) => previewCheckout(ctx, body) });

  route(router, '/orders', { get: ({ ctx, query }) => orders.listMyOrders(ctx, query) });
  route(router, '/orders/:orderId', { get: ({ ctx, params }) => orders.getMyOrder(ctx, params) });
  route(router, '/orders/:orderId/pay', { post: ({ ctx, params, header }) => orders.payOrder(ctx, params, header('idempotency-key')) });
  route(router, '/orders/:orderId/cancel', { post: ({ ctx, params }) => orders.cancelOrder(ctx, params) });
  route(router, '/orders/:orderId/confirm-delivery', { post: ({ ctx, params }) => orders.confirmDelivery(ctx, params) });
  route(router, '/orders/:orderId/invoice', { get: ({ ctx, params }) => getMyInvoice(ctx, params) });

  route(router, '/merchant/orders', { get: ({ ctx, query }) => orders.listShopOrders(ctx, query) });
  route(router, '/merchant/orders/:orderId', { get: ({ ctx, params }) => orders.getShopOrder(ctx, params) });
  route(router, '/merchant/orders/:orderId/shipments', {
    post: async ({ ctx, params, body }) => new Reply(201, await createShipment(ctx, { ...(body as object), orderId: params.orderId })),
  });
  route(router, '/merchant/orders/:orderId/invoice', {
    post: async ({ ctx, params, body }) => new Reply(201, await issueInvoice(ctx, { ...(body as object), orderId: params.orderId })),
  });

  route(router, '/me/stats', { get: ({ ctx }) => myStats(ctx) });
}
