import type { Router } from 'express';
import * as cart from '../services/checkout/cart.service.js';
import { checkout, CheckoutInput, previewCheckout, PreviewInput } from '../services/checkout/checkout.service.js';
import * as orders from '../services/orders/order.service.js';
import { createShipment, ShipmentInput } from '../services/orders/shipment.service.js';
import { getMyInvoice, issueInvoice, IssueInput } from '../services/orders/invoice.service.js';
import { myStats } from '../services/accounts/account.service.js';
import { route, Reply } from './route.js';
import type { ErrorCode } from '../error-codes.js';
import { Cart, CheckoutPreview, CheckoutResult, Invoice, Order, OrderPage } from './responses/purchase.js';
import { AccountStats } from './responses/accounts.js';

const tag = 'Cart, checkout and orders';

/** What pricing a cart can refuse, at preview and at checkout. */
const PRICING_ERRORS: ErrorCode[] = [
  'CART_EMPTY', 'PRODUCT_UNAVAILABLE', 'INSUFFICIENT_STOCK', 'NOT_FOUND',
  'COUPON_ALREADY_USED', 'COUPON_BELOW_THRESHOLD', 'COUPON_NOT_ALLOWED', 'COUPON_NOT_FOR_THIS_SHOP', 'COUPON_NOT_FOUND', 'COUPON_NOT_IN_WINDOW', 'COUPON_SHOP_NOT_IN_CART',
  'GROUP_BUY_NOT_ACTIVE', 'GROUP_BUY_NO_COUPONS', 'GROUP_BUY_SINGLE_ITEM', 'GROUP_BUY_FLASH_SALE_CONFLICT', 'GROUP_FULL', 'GROUP_NOT_JOINABLE', 'GROUP_ALREADY_JOINED',
];

/** Cart, checkout, orders, shipments, invoices and the account summary. */
export function purchaseRoutes(router: Router) {
  route(router, '/cart', {
    get: { doc: { tag, summary: "The customer's cart", access: 'customer', response: Cart }, handle: ({ ctx }) => cart.getCart(ctx) },
  });
  route(router, '/cart/items/:skuId', {
    put: {
      doc: { tag, summary: "Set a SKU's quantity in the cart (0 removes it)", access: 'customer', body: cart.SetQuantity, response: Cart, errors: ['NOT_FOUND', 'PRODUCT_UNAVAILABLE'] },
      handle: ({ ctx, params, body }) => cart.setCartItem(ctx, { ...(body as object), skuId: params.skuId }),
    },
    delete: {
      doc: { tag, summary: 'Remove a SKU from the cart', access: 'customer', response: Cart, errors: ['NOT_FOUND', 'PRODUCT_UNAVAILABLE'] },
      handle: ({ ctx, params }) => cart.removeCartItem(ctx, { skuId: params.skuId }),
    },
  });

  route(router, '/checkout', {
    post: {
      doc: {
        tag, summary: 'Place the cart (or one group-buying item) as one order per shop', access: 'customer', body: CheckoutInput, response: CheckoutResult,
        status: 201, idempotent: true, errors: [...PRICING_ERRORS, 'IDEMPOTENCY_KEY_REUSED'],
        description: '`shipping_address` is required: its `region` prices the freight.',
      },
      handle: async ({ ctx, body, header }) => new Reply(201, { orders: await checkout(ctx, body, header('idempotency-key')) }),
    },
  });
  route(router, '/checkout/preview', {
    post: {
      doc: { tag, summary: 'Price a checkout without placing it', access: 'customer', body: PreviewInput, response: CheckoutPreview, errors: PRICING_ERRORS },
      handle: ({ ctx, body }) => previewCheckout(ctx, body),
    },
  });

  route(router, '/orders', {
    get: { doc: { tag, summary: "The customer's orders", access: 'customer', query: orders.ListInput, response: OrderPage }, handle: ({ ctx, query }) => orders.listMyOrders(ctx, query) },
  });
  route(router, '/orders/:orderId', {
    get: { doc: { tag, summary: 'One of the customer\'s orders', access: 'customer', response: Order, errors: ['NOT_FOUND'] }, handle: ({ ctx, params }) => orders.getMyOrder(ctx, params) },
  });
  route(router, '/orders/:orderId/pay', {
    post: {
      doc: {
        tag, summary: 'Pay an order from the available balance', access: 'customer', response: Order, idempotent: true,
        errors: ['NOT_FOUND', 'ORDER_NOT_PAYABLE', 'INSUFFICIENT_FUNDS', 'IDEMPOTENCY_KEY_REUSED', 'GROUP_FULL', 'GROUP_NOT_JOINABLE', 'GROUP_ALREADY_JOINED'],
      },
      handle: ({ ctx, params, header }) => orders.payOrder(ctx, params, header('idempotency-key')),
    },
  });
  route(router, '/orders/:orderId/cancel', {
    post: { doc: { tag, summary: 'Cancel an unpaid order', access: 'customer', response: Order, errors: ['NOT_FOUND', 'ORDER_NOT_CANCELLABLE'] }, handle: ({ ctx, params }) => orders.cancelOrder(ctx, params) },
  });
  route(router, '/orders/:orderId/confirm-delivery', {
    post: {
      doc: { tag, summary: 'Confirm a shipped order arrived', access: 'customer', response: Order, errors: ['NOT_FOUND', 'ORDER_NOT_SHIPPED'] },
      handle: ({ ctx, params }) => orders.confirmDelivery(ctx, params),
    },
  });
  route(router, '/orders/:orderId/invoice', {
    get: { doc: { tag, summary: "An order's invoice", access: 'customer', response: Invoice, errors: ['NOT_FOUND', 'INVOICE_NOT_AVAILABLE'] }, handle: ({ ctx, params }) => getMyInvoice(ctx, params) },
  });

  route(router, '/merchant/orders', {
    get: { doc: { tag, summary: "The shop's orders", access: 'shop_operator', query: orders.ListInput, response: OrderPage }, handle: ({ ctx, query }) => orders.listShopOrders(ctx, query) },
  });
  route(router, '/merchant/orders/:orderId', {
    get: { doc: { tag, summary: 'One of the shop\'s orders', access: 'shop_operator', response: Order, errors: ['NOT_FOUND'] }, handle: ({ ctx, params }) => orders.getShopOrder(ctx, params) },
  });
  route(router, '/merchant/orders/:orderId/shipments', {
    post: {
      doc: {
        tag, summary: 'Ship an order, whole or in part', access: 'shop_operator', body: ShipmentInput, response: Order, status: 201,
        errors: ['NOT_FOUND', 'ORDER_NOT_SHIPPABLE', 'ORDER_ITEM_NOT_IN_ORDER', 'SHIPMENT_EXCEEDS_ORDER', 'SHIPPING_COMPANY_UNKNOWN'],
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await createShipment(ctx, { ...(body as object), orderId: params.orderId })),
    },
  });
  route(router, '/merchant/orders/:orderId/invoice', {
    post: {
      doc: {
        tag, summary: "Issue an order's invoice", access: 'shop_operator', body: IssueInput, response: Invoice, status: 201,
        errors: ['NOT_FOUND', 'INVOICE_ALREADY_ISSUED', 'INVOICE_NOT_AVAILABLE'],
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await issueInvoice(ctx, { ...(body as object), orderId: params.orderId })),
    },
  });

  route(router, '/me/stats', {
    get: { doc: { tag: 'Accounts', summary: "The customer's balances and order counts", access: 'customer', response: AccountStats }, handle: ({ ctx }) => myStats(ctx) },
  });
}
