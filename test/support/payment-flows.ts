import { expect } from 'vitest';
import type { TestApp } from './harness.js';
import { newCustomer, newOperator, type TestUser } from './fixtures.js';
import { addToCart, checkoutOk, shopWithProduct } from './shopping.js';
import { settlePaymentRefunds } from '../../src/services/payments/payment-refunds.js';

export interface TwoShopCheckout {
  customer: TestUser;
  orderIds: number[];
  total: number;
  shopIds: number[];
}

/**
 * A new customer (with `funds` available; none by default) and one checkout from two shops: `lines`
 * are each shop's one SKU as [price, quantity bought]. The payment tests' common start.
 */
export async function twoShopCheckout(t: TestApp, options: { funds?: number; lines?: [[number, number], [number, number]] } = {}): Promise<TwoShopCheckout> {
  const customer = await newCustomer(t, { available: options.funds ?? 0, points: 0 });
  for (const [price, quantity] of options.lines ?? [[1250, 1], [799, 3]]) {
    const shop = await shopWithProduct(t, [{ price, stock: 10 }]);
    await addToCart(t, customer.token, shop.product.skuIds[0], quantity);
  }
  const orders = await checkoutOk(t, customer.token);
  return { customer, orderIds: orders.map((o) => o.id as number), total: orders.reduce((n, o) => n + (o.total as number), 0), shopIds: orders.map((o) => o.shop.id as number) };
}

/** The customer asks for one unit of the order's first line back (money only) and the shop approves: the after-sale refund. */
export async function approvedRefund(t: TestApp, customer: TestUser, orderId: number, shopId: number): Promise<{ refundId: number; amount: number }> {
  const order = (await t.api('GET', `/api/orders/${orderId}`, { token: customer.token })).body;
  const asked = await t.api('POST', `/api/orders/${orderId}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Not needed', items: [{ order_item_id: order.items[0].id, quantity: 1 }] } });
  const approved = await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: (await newOperator(t, shopId)).token, body: {} });
  expect(approved.body.status).toBe('completed');
  return { refundId: asked.body.id as number, amount: approved.body.amount as number };
}

/** The refund sweep runs while the gateway's stand-in is down (it answers every request with an error). */
export async function settleWhileDown(t: TestApp, gateway: { failing: boolean }): Promise<void> {
  gateway.failing = true;
  try {
    await settlePaymentRefunds(await t.context());
  } finally {
    gateway.failing = false;
  }
}
