/**
 * The names of the domain events, in one place so every module emits the same strings. Over GraphQL
 * they are the values of the `EventType` enum (`ORDER_PLACED` is 'order.placed').
 *
 * Payloads stay small (ids, states, amounts): an event travels in one PostgreSQL NOTIFY, which
 * holds less than 8000 bytes. A subscriber that needs more reads it through a query.
 */
export const EventTypes = {
  /** payload `{orderId, total, status}`; shopIds = the order's shop, customerId = the buyer */
  ORDER_PLACED: 'order.placed',
  /** payload `{orderId, total, status}` */
  ORDER_PAID: 'order.paid',
  /** payload `{orderId, reason, status}` (`reason`: 'customer' or 'payment_timeout') */
  ORDER_CANCELLED: 'order.cancelled',
  /** payload `{orderId, status}`: the customer confirmed delivery */
  ORDER_DELIVERED: 'order.delivered',
  /** payload `{orderId, shipmentId, carrier, trackingNumber}` */
  SHIPMENT_CREATED: 'shipment.created',
  /** payload `{groupId, activityId, state}`; customerId null (a group has many members) */
  GROUP_STATE_CHANGED: 'group.state_changed',
  /** payload `{redemptionId, pointsProductId, quantity, points}`; shopIds empty (the points mall is the platform's) */
  REDEMPTION_CREATED: 'redemption.created',
  /** payload `{skuId, productId, stock, threshold}`; emitted when a SKU's stock falls below STOCK_LOW_THRESHOLD */
  STOCK_LOW: 'stock.low',
  /** payload `{reviewId, productId, rating}`; shopIds = the product's shop, customerId = the reviewer */
  REVIEW_CREATED: 'review.created',
  /** payload `{reviewId}`: the shop replied; customerId = the reviewer */
  REVIEW_REPLIED: 'review.replied',
  /** After-sale: payload `{refundId, orderId, kind, status, ...}` on each state the refund or return reaches */
  REFUND_REQUESTED: 'refund.requested',
  REFUND_APPROVED: 'refund.approved',
  REFUND_SHIPPED_BACK: 'refund.shipped_back',
  REFUND_COMPLETED: 'refund.completed',
  REFUND_REJECTED: 'refund.rejected',
  REFUND_CANCELLED: 'refund.cancelled',
} as const;

export type EventType = (typeof EventTypes)[keyof typeof EventTypes];

export const ALL_EVENT_TYPES: readonly EventType[] = Object.values(EventTypes);

/** What a customer's `myOrderEvents` subscription carries: the state of their own orders. */
export const ORDER_EVENT_TYPES: readonly EventType[] = [
  EventTypes.ORDER_PLACED,
  EventTypes.ORDER_PAID,
  EventTypes.ORDER_CANCELLED,
  EventTypes.ORDER_DELIVERED,
  EventTypes.SHIPMENT_CREATED,
];
