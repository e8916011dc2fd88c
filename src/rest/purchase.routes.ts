import type { Router } from 'express';
import * as cart from '../services/checkout/cart.service.js';
import { checkout, CheckoutInput, checkoutRefusals, previewCheckout, previewCheckoutRefusals, PreviewInput } from '../services/checkout/checkout.service.js';
import * as orders from '../services/orders/order.service.js';
import * as payments from '../services/payments/payment.service.js';
import { createShipment, createShipmentRefusals, ShipmentInput } from '../services/orders/shipment.service.js';
import { getMyInvoice, getMyInvoiceRefusals, issueInvoice, issueInvoiceRefusals, IssueInput } from '../services/orders/invoice.service.js';
import { myStats } from '../services/accounts/account.service.js';
import { route, Reply } from './route.js';
import { Cart, CheckoutPreview, CheckoutResult, Invoice, MergedCart, Order, OrderPage, PaidCheckout } from './responses/purchase.js';
import { AccountStats } from './responses/accounts.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Cart, checkout and orders';

/**
 * Where a purchase goes next, as OpenAPI links: checkout → the order → payment → the shop's shipment
 * → the customer's delivery confirmation. `first` reads the first order a checkout placed.
 */
const orderAt = (pointer: string) => ({ orderId: `$response.body#${pointer}` });
const next = {
  readOrder: (pointer: string) => ({ method: 'get' as const, path: '/orders/:orderId', parameters: orderAt(pointer), description: 'Read the order: its state, items, shipments.' }),
  pay: (pointer: string) => ({
    method: 'post' as const, path: '/orders/:orderId/pay', parameters: orderAt(pointer), description: 'Pay the order (with an `Idempotency-Key` of its own).',
  }),
  ship: (pointer: string) => ({
    method: 'post' as const, path: '/merchant/orders/:orderId/shipments', parameters: orderAt(pointer), description: "The shop ships the paid order (the shop operator's token).",
  }),
  confirmDelivery: (pointer: string) => ({
    method: 'post' as const, path: '/orders/:orderId/confirm-delivery', parameters: orderAt(pointer), description: 'The customer confirms the shipped order arrived.',
  }),
};

/** Cart, checkout, orders, shipments, invoices and the account summary. */
export function purchaseRoutes(router: Router) {
  route(router, '/cart', {
    get: { doc: { tag, summary: "The customer's cart", permission: Permission.Customer, response: Cart }, handle: ({ ctx }) => cart.getCart(ctx) },
  });
  route(router, '/cart/merge', {
    post: {
      doc: {
        tag, summary: 'Merge the guest cart kept while signed out (at sign-in)', permission: Permission.Customer, body: cart.MergeCartInput, response: MergedCart, idempotent: true,
        errors: cart.mergeCartRefusals,
        description: 'Quantities add up, to the stock at most (never below what the cart held; a line out of stock keeps one unit). Each guest line is answered with its outcome: nothing is dropped silently.',
      },
      handle: ({ ctx, body, header }) => cart.mergeCart(ctx, body, header('idempotency-key')),
    },
  });
  route(router, '/cart/items/:skuId', {
    put: {
      doc: { tag, summary: "Set a SKU's quantity in the cart (0 removes it)", permission: Permission.Customer, body: cart.SetQuantity, response: Cart, errors: cart.setCartItemRefusals },
      handle: ({ ctx, params, body }) => cart.setCartItem(ctx, { ...(body as object), skuId: params.skuId }),
    },
    delete: {
      doc: { tag, summary: 'Remove a SKU from the cart', permission: Permission.Customer, response: Cart, errors: cart.removeCartItemRefusals },
      handle: ({ ctx, params }) => cart.removeCartItem(ctx, { skuId: params.skuId }),
    },
  });

  route(router, '/checkout', {
    post: {
      doc: {
        tag, summary: 'Place the cart (or one group-buying item) as one order per shop', permission: Permission.Customer, body: CheckoutInput, response: CheckoutResult,
        status: 201, idempotent: true, errors: checkoutRefusals, links: { order: next.readOrder('/orders/0/id'), pay: next.pay('/orders/0/id') },
        description: '`shipping_address` is required: its `region` prices the freight.',
      },
      handle: async ({ ctx, body, header }) => new Reply(201, { orders: await checkout(ctx, body, header('idempotency-key')) }),
    },
  });
  route(router, '/checkout/pay', {
    post: {
      doc: {
        tag, summary: 'Pay every order of a checkout at once from the available balance: all or none', permission: Permission.Customer, body: payments.PayCheckoutInput,
        response: PaidCheckout, idempotent: true, errors: payments.payCheckoutRefusals,
        description: 'Each order moves by itself (`paid`, or `awaiting_group` for a group seat) with its own ledger entry; any refusal pays none. Orders already paid are answered and charged nothing.',
      },
      handle: async ({ ctx, body, header }) => ({ orders: await payments.payCheckout(ctx, body, header('idempotency-key')) }),
    },
  });
  route(router, '/checkout/preview', {
    post: {
      doc: { tag, summary: 'Price a checkout without placing it', permission: Permission.Customer, body: PreviewInput, response: CheckoutPreview, errors: previewCheckoutRefusals },
      handle: ({ ctx, body }) => previewCheckout(ctx, body),
    },
  });

  route(router, '/orders', {
    get: { doc: { tag, summary: "The customer's orders", permission: Permission.Customer, query: orders.ListInput, response: OrderPage }, handle: ({ ctx, query }) => orders.listMyOrders(ctx, query) },
  });
  route(router, '/orders/:orderId', {
    get: {
      doc: { tag, summary: 'One of the customer\'s orders', permission: Permission.Customer, response: Order, errors: orders.getMyOrderRefusals, links: { pay: next.pay('/id') } },
      handle: ({ ctx, params }) => orders.getMyOrder(ctx, params),
    },
  });
  route(router, '/orders/:orderId/pay', {
    post: {
      doc: {
        tag, summary: 'Pay an order from the available balance', permission: Permission.Customer, response: Order, idempotent: true,
        errors: payments.payOrderRefusals, links: { order: next.readOrder('/id'), ship: next.ship('/id') },
      },
      handle: ({ ctx, params, header }) => payments.payOrder(ctx, params, header('idempotency-key')),
    },
  });
  route(router, '/orders/:orderId/cancel', {
    post: { doc: { tag, summary: 'Cancel an unpaid order', permission: Permission.Customer, response: Order, errors: orders.cancelOrderRefusals }, handle: ({ ctx, params }) => orders.cancelOrder(ctx, params) },
  });
  route(router, '/orders/:orderId/confirm-delivery', {
    post: {
      doc: { tag, summary: 'Confirm a shipped order arrived', permission: Permission.Customer, response: Order, errors: orders.confirmDeliveryRefusals },
      handle: ({ ctx, params }) => orders.confirmDelivery(ctx, params),
    },
  });
  route(router, '/orders/:orderId/invoice', {
    get: { doc: { tag, summary: "An order's invoice", permission: Permission.Customer, response: Invoice, errors: getMyInvoiceRefusals }, handle: ({ ctx, params }) => getMyInvoice(ctx, params) },
  });

  route(router, '/merchant/orders', {
    get: { doc: { tag, summary: "The shop's orders", permission: Permission.ShopOrdersRead, query: orders.ShopListInput, response: OrderPage }, handle: ({ ctx, query }) => orders.listShopOrders(ctx, query) },
  });
  route(router, '/merchant/orders/:orderId', {
    get: { doc: { tag, summary: 'One of the shop\'s orders', permission: Permission.ShopOrdersRead, response: Order, errors: orders.getShopOrderRefusals }, handle: ({ ctx, params }) => orders.getShopOrder(ctx, params) },
  });
  route(router, '/merchant/orders/:orderId/shipments', {
    post: {
      doc: {
        tag, summary: 'Ship an order, whole or in part', permission: Permission.ShopOrdersFulfil, body: ShipmentInput, response: Order, status: 201,
        errors: createShipmentRefusals, links: { confirmDelivery: next.confirmDelivery('/id') },
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await createShipment(ctx, { ...(body as object), orderId: params.orderId })),
    },
  });
  route(router, '/merchant/orders/:orderId/invoice', {
    post: {
      doc: {
        tag, summary: "Issue an order's invoice", permission: Permission.ShopInvoicesIssue, body: IssueInput, response: Invoice, status: 201,
        errors: issueInvoiceRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await issueInvoice(ctx, { ...(body as object), orderId: params.orderId })),
    },
  });

  route(router, '/me/stats', {
    get: { doc: { tag: 'Accounts', summary: "The customer's balances and order counts", permission: Permission.Customer, response: AccountStats }, handle: ({ ctx }) => myStats(ctx) },
  });
}
