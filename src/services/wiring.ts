import type { AppConfig } from '../config.js';
import type { ServiceWiring } from '../shared/context.js';
import { combinedOrderWriter } from './checkout/combined-order-writer.js';
import { transactionalOrderWriter } from './checkout/transactional-order-writer.js';
import type { OrderTransitionEvent, OrderTransitionHooks, OrderTransitionSubscriber } from './orders/order-lifecycle.js';
import { closeGroupsOfCancelledOrders, expireGroupsOfOrders, takePaidSeats } from './promotions/group-buy-lifecycle.js';
import { giveBackCountersOfCancelledOrders } from './promotions/flash-sale-pricing.js';
import { restoreCouponsOfCancelledOrders } from './promotions/coupon-redemption.js';
import { giveBackStockOfCancelledOrders } from './inventory/inventory.service.js';
import { earnPointsForDeliveredOrders } from './points/points-earning.service.js';
import { payShopsForPaidOrders, releaseEarningsOfCompletedOrders } from './settlement/earnings.js';
import type { PaymentProviders } from './payments/provider.js';
import { walletProvider } from './payments/wallet-provider.js';
import { SandboxProvider } from './payments/sandbox-provider.js';
import { StripeProvider } from './payments/stripe-provider.js';
import { AlipayProvider } from './payments/alipay-provider.js';
import { mailerFor } from './mail/mailer.js';
import { mediaStoreFor } from './media/media-store-choice.js';

/**
 * What the service layer is made of in this process, chosen once at start-up: the one place that
 * names which module attaches to which order transition (so orders imports none of them), and which
 * order writer checkout uses. Above every domain; only the doors and the tests import it.
 */

/**
 * Order transitions and who acts on them, in the order they act. Payment runs the group expiry first
 * (its own transaction); a seat paid takes the seat; a cancelled pending order closes its group (the
 * expiry first), then takes its flash-sale units off the counters, gives its coupon back, and
 * inventory gives back the stock it took (an order closed by its refunds got its units back with
 * them); a delivered order earns points. Money
 * follows the moves (settlement): a paid order (or a group seat settled) pays its shop's pending
 * balance and the platform's commission; a completed order releases the shop's share.
 */
export const ORDER_TRANSITION_HOOKS: OrderTransitionHooks = {
  prepare: { paySeat: [expireGroupsOfOrders] },
  on: {
    'order.awaiting_group': [takePaidSeats],
    'order.cancelled': [closeGroupsOfCancelledOrders, giveBackCountersOfCancelledOrders, restoreCouponsOfCancelledOrders, giveBackStockOfCancelledOrders],
    'order.paid': [payShopsForPaidOrders],
    'order.delivered': [earnPointsForDeliveredOrders],
    'order.completed': [releaseEarningsOfCompletedOrders],
  },
};

/** The wiring CHECKOUT_WRITER and the hooks above describe; `parts` replaces some (a test's own writer or hooks). */
export function serviceWiring(config: Pick<AppConfig, 'checkoutWriter' | 'payments' | 'mail' | 'media' | 'nodeEnv' | 'port'>, parts: Partial<ServiceWiring> = {}): ServiceWiring {
  return {
    mailer: mailerFor(config),
    mediaStore: mediaStoreFor(config.media.store),
    orderWriter: config.checkoutWriter === 'transactional' ? transactionalOrderWriter : combinedOrderWriter,
    orderTransitions: ORDER_TRANSITION_HOOKS,
    paymentProviders: paymentProviders(config.payments),
    ...parts,
  };
}

/** The hooks with one more subscriber of `event`, acting after the others. */
export function withSubscriber(hooks: OrderTransitionHooks, event: OrderTransitionEvent, subscriber: OrderTransitionSubscriber): OrderTransitionHooks {
  return { ...hooks, on: { ...hooks.on, [event]: [...(hooks.on?.[event] ?? []), subscriber] } };
}

/** A provider for each configured payment method (PAYMENT_METHODS); each gateway's settings are its own. */
export function paymentProviders(payments: AppConfig['payments']): PaymentProviders {
  const providers: PaymentProviders = {};
  for (const method of payments.methods) {
    if (method === 'wallet') providers.wallet = walletProvider;
    if (method === 'sandbox') providers.sandbox = new SandboxProvider(payments.sandbox);
    if (method === 'stripe' && payments.stripe) providers.stripe = new StripeProvider(payments.stripe);
    if (method === 'alipay' && payments.alipay) providers.alipay = new AlipayProvider(payments.alipay);
  }
  return providers;
}
