import { z } from './validate.js';
import { OrderStatus } from '../entities/order.entity.js';
import { GroupState } from '../entities/group-buy.entity.js';
import { RefundKind, RefundStatus } from '../entities/refund.entity.js';
import { PayoutStatus } from '../entities/settlement.entity.js';

const id = z.number().int();
const amount = z.number().int();

const refundChange = { refundId: id, orderId: id, kind: z.enum(RefundKind), status: z.enum(RefundStatus) };

/**
 * The one shape of each event's payload, by event name: what services emit (`emit` checks it at
 * compile time), what a subscriber decodes (checked again at run time), and what the GraphQL
 * `EventPayload` union, a REST event feed and webhooks describe. States are the objects' own
 * closed sets (an order event's `status` is an `OrderStatus`), so every door spells them as it
 * spells the objects. Payloads stay small (ids, states, amounts): an event travels in one NOTIFY.
 */
export const EVENT_PAYLOADS = {
  /** One per order a checkout placed. */
  'order.placed': z.object({ orderId: id, total: amount, status: z.enum(OrderStatus) }),
  /** `groupId` when a group seat was paid: then `status` is `awaiting_group` (or `paid` for the seat that filled the group). */
  'order.paid': z.object({ orderId: id, total: amount, status: z.enum(OrderStatus), groupId: id.optional() }),
  'order.cancelled': z.object({ orderId: id, reason: z.enum(['customer', 'payment_timeout', 'group_expired']), status: z.enum(OrderStatus) }),
  /** The customer confirmed delivery. */
  'order.delivered': z.object({ orderId: id, status: z.enum(OrderStatus) }),
  /** The after-sale window passed with no refund open: the shop's earnings of the order are released. */
  'order.completed': z.object({ orderId: id, status: z.enum(OrderStatus) }),
  'shipment.created': z.object({ orderId: id, shipmentId: id, companyCode: z.string(), carrier: z.string(), trackingNumber: z.string() }),
  /** `orderIds`: the seat orders now paid (successful) or cancelled (expired). */
  'group.state_changed': z.object({ groupId: id, activityId: id, state: z.enum(GroupState), paidSeats: amount, capacity: amount, orderIds: z.array(id) }),
  'redemption.created': z.object({ redemptionId: id, pointsProductId: id, quantity: amount, points: amount }),
  /** Once, when a sale takes a SKU's stock below the threshold (STOCK_LOW_THRESHOLD). */
  'stock.low': z.object({ skuId: id, productId: id, stock: amount, threshold: amount }),
  'review.created': z.object({ reviewId: id, productId: id, rating: amount }),
  'review.replied': z.object({ reviewId: id }),
  'refund.requested': z.object({ ...refundChange, amount }),
  /** A return approved (an approved refund completes at once). */
  'refund.approved': z.object(refundChange),
  'refund.shipped_back': z.object(refundChange),
  'refund.completed': z.object({ ...refundChange, amount }),
  'refund.rejected': z.object(refundChange),
  'refund.cancelled': z.object(refundChange),
  /** An order completed: its shop's share left pending; `netted` of it paid the shop's debt, `available` became payable. */
  'earnings.released': z.object({ orderId: id, shopId: id, amount, netted: amount, available: amount }),
  /** A payout batch paid out the shop's available balance: now in transit to its bank. */
  'payout.created': z.object({ payoutId: id, batchId: id, shopId: id, amount }),
  /** The bank's answer: `paid`, or `failed` (the money back in the shop's available balance; `failedAfterPaid` when it was reported paid first). */
  'payout.settled': z.object({ payoutId: id, shopId: id, amount, status: z.enum(PayoutStatus), failedAfterPaid: z.boolean() }),
};

export type EventName = keyof typeof EVENT_PAYLOADS;
export type EventPayloads = { [T in EventName]: z.output<(typeof EVENT_PAYLOADS)[T]> };

/**
 * Something that happened in a committed transaction. `shopIds` and `customerId` say who may see it:
 * a shop operator receives only events of their shop, a customer only their own. The payload's
 * shape follows from `type`.
 */
export type DomainEvent = { [T in EventName]: EventEnvelope<T> }[EventName];

export interface EventEnvelope<T extends EventName> {
  /** Unique per event, so a client can drop a duplicate (delivery is at least once after a reconnect). */
  id: string;
  type: T;
  occurredAt: string;
  shopIds: number[];
  customerId: number | null;
  payload: EventPayloads[T];
}

export interface EventPublisher {
  publish(events: DomainEvent[]): void;
}

export interface EventSource {
  /** Calls `listener` with every event this process delivers; returns the unsubscribe function. */
  subscribe(listener: (event: DomainEvent) => void): () => void;
}

/** Where services publish and subscriptions listen: in-process for unit use, PostgreSQL across processes. */
export type EventBus = EventPublisher & EventSource;

/** PostgreSQL refuses a NOTIFY payload of 8000 bytes or more. */
export const MAX_EVENT_BYTES = 7999;

export class EventTooLargeError extends Error {}

/** The wire form of an event (one NOTIFY payload); throws when it would not fit. */
export function encodeEvent(event: DomainEvent): string {
  const text = JSON.stringify(event);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_EVENT_BYTES) {
    throw new EventTooLargeError(
      `Event ${event.type} is ${bytes} bytes encoded; a NOTIFY holds at most ${MAX_EVENT_BYTES}. Keep payloads to ids and states.`,
    );
  }
  return text;
}

/** The wire form as read back; its payload is checked against its type's shape below. */
const WireEvent = z.object({
  id: z.string(),
  type: z.string(),
  occurredAt: z.string(),
  shopIds: z.array(z.number().int()),
  customerId: z.number().int().nullable(),
  payload: z.unknown(),
});

const isEventName = (type: string): type is EventName => Object.hasOwn(EVENT_PAYLOADS, type);

/** Reads a wire event; null for anything that is not one (another writer on the channel, an unknown type, a payload of another shape). */
export function decodeEvent(text: string): DomainEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const event = WireEvent.safeParse(value);
  if (!event.success || !isEventName(event.data.type)) return null;
  const payload = EVENT_PAYLOADS[event.data.type].safeParse(event.data.payload);
  // The payload was checked against the shape of this very type: the pair is a DomainEvent.
  return payload.success ? ({ ...event.data, payload: payload.data } as DomainEvent) : null;
}
