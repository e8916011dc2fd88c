import type { EventName } from '../../shared/domain-event.js';

/**
 * The names of the domain events, in one place so every module emits the same strings. Over GraphQL
 * they are the values of the `EventType` enum (`ORDER_PLACED` is 'order.placed'). Each name's payload
 * shape is declared once, in `EVENT_PAYLOADS` (src/shared/domain-event.ts, below the services so that
 * `emit` can check it); this list must name exactly those (checked below).
 *
 * Payloads stay small (ids, states, amounts): an event travels in one PostgreSQL NOTIFY, which
 * holds less than 8000 bytes. A subscriber that needs more reads it through a query. Who receives
 * each event and its payload are listed in one place, docs/api.md "Subscriptions and events" (a
 * test keeps that table and this list equal).
 */
export const EventTypes = {
  ORDER_PLACED: 'order.placed',
  ORDER_PAID: 'order.paid',
  ORDER_CANCELLED: 'order.cancelled',
  ORDER_DELIVERED: 'order.delivered',
  /** The after-sale window of a delivered order passed with no refund open: the sale is final. */
  ORDER_COMPLETED: 'order.completed',
  SHIPMENT_CREATED: 'shipment.created',
  GROUP_STATE_CHANGED: 'group.state_changed',
  REDEMPTION_CREATED: 'redemption.created',
  /** Raised when a sale takes a SKU's stock below STOCK_LOW_THRESHOLD. */
  STOCK_LOW: 'stock.low',
  REVIEW_CREATED: 'review.created',
  REVIEW_REPLIED: 'review.replied',
  /** After-sale: one per state a refund or return reaches. */
  REFUND_REQUESTED: 'refund.requested',
  REFUND_APPROVED: 'refund.approved',
  REFUND_SHIPPED_BACK: 'refund.shipped_back',
  REFUND_COMPLETED: 'refund.completed',
  REFUND_REJECTED: 'refund.rejected',
  REFUND_CANCELLED: 'refund.cancelled',
  /** Settlement: a completed order's earnings released to its shop, payouts created and settled. */
  EARNINGS_RELEASED: 'earnings.released',
  PAYOUT_CREATED: 'payout.created',
  PAYOUT_SETTLED: 'payout.settled',
  /** Payments through a gateway: captured, failed (or cancelled, expired), a refund to it settled. */
  PAYMENT_CAPTURED: 'payment.captured',
  PAYMENT_FAILED: 'payment.failed',
  PAYMENT_REFUNDED: 'payment.refunded',
  /** Shop states (a platform admin's moves): to the shop and the admins. */
  SHOP_SUSPENDED: 'shop.suspended',
  SHOP_REINSTATED: 'shop.reinstated',
  SHOP_CLOSED: 'shop.closed',
  /** Disputes: a rejected refund escalated to the platform, and the platform's ruling: to the shop, the customer and the admins. */
  DISPUTE_OPENED: 'dispute.opened',
  DISPUTE_RESOLVED: 'dispute.resolved',
  /** A webhook endpoint was disabled (failing for a day, or 410 Gone): to its shop and the admins. */
  WEBHOOK_ENDPOINT_DISABLED: 'webhook.endpoint_disabled',
} as const satisfies Record<string, EventName>;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

/** Compiles only while every event name with a payload shape is listed above. */
export const everyEventNamed: [Exclude<EventName, EventType>] extends [never] ? true : never = true;

export const ALL_EVENT_TYPES: readonly EventType[] = Object.values(EventTypes);

/** What a customer's `myOrderEvents` subscription carries: the state of their own orders. */
export const ORDER_EVENT_TYPES: readonly EventType[] = [
  EventTypes.ORDER_PLACED,
  EventTypes.ORDER_PAID,
  EventTypes.ORDER_CANCELLED,
  EventTypes.ORDER_DELIVERED,
  EventTypes.ORDER_COMPLETED,
  EventTypes.SHIPMENT_CREATED,
];
