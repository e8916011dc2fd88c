import { z } from './validate.js';
import { OrderStatus } from '../entities/order.entity.js';
import { GroupState } from '../entities/group-buy.entity.js';
import { RefundKind, RefundStatus } from '../entities/refund.entity.js';
import { PayoutStatus } from '../entities/settlement.entity.js';
import { ShopStatus } from '../entities/shop.entity.js';
import { DisputeStatus } from '../entities/dispute.entity.js';

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
  /** A gateway captured a payment (the wallet's show as `order.paid` alone); `unpaidOrderIds`: orders it could no longer pay, their money going back to the method. */
  'payment.captured': z.object({ paymentId: id, method: z.string(), amount, orderIds: z.array(id), unpaidOrderIds: z.array(id) }),
  /** A gateway payment ended without money: `failed`, `cancelled` or `expired`, with the provider's (or our) reason. */
  'payment.failed': z.object({ paymentId: id, method: z.string(), amount, status: z.enum(['failed', 'cancelled', 'expired']), reason: z.string().nullable() }),
  /** A refund to a gateway settled: `succeeded`, or `failed` (the money back on the customer's balance). */
  'payment.refunded': z.object({ paymentId: id, method: z.string(), amount, status: z.enum(['succeeded', 'failed']) }),
  /** A platform admin suspended the shop, with the reason: its products are off the storefront, its payouts held. */
  'shop.suspended': z.object({ shopId: id, status: z.enum(ShopStatus), reason: z.string() }),
  /** A suspended shop was reinstated: its products are back on the storefront. */
  'shop.reinstated': z.object({ shopId: id, status: z.enum(ShopStatus) }),
  /** The shop closed for good (no open order or refund, nothing on its balance). */
  'shop.closed': z.object({ shopId: id, status: z.enum(ShopStatus) }),
  /** A customer escalated a rejected refund to the platform. */
  'dispute.opened': z.object({ disputeId: id, refundId: id, orderId: id, status: z.enum(DisputeStatus) }),
  /** The platform ruled: `refunded` (amount > 0, through a new completed refund) or `upheld` (amount 0). */
  'dispute.resolved': z.object({ disputeId: id, refundId: id, orderId: id, status: z.enum(DisputeStatus), amount }),
  /** An outbound webhook endpoint stopped receiving: it failed for WEBHOOK_DISABLE_AFTER_SECONDS, or answered 410 Gone. */
  'webhook.endpoint_disabled': z.object({ endpointId: id, url: z.string(), reason: z.enum(['failing', 'gone']) }),
};

export type EventName = keyof typeof EVENT_PAYLOADS;
export type EventPayloads = { [T in EventName]: z.output<(typeof EVENT_PAYLOADS)[T]> };

/**
 * When an event occurred, as the bus carries it: ISO 8601 text in UTC with milliseconds, what `emit`
 * writes (`Date#toISOString`) and the outbox reads back (`to_char(... 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`).
 * Text, not a view's `Date`: the outbox, the webhook bodies and the feeds carry it as it is. REST shows it
 * as the `Timestamp` component, which is this very text (rest/openapi/json-schema.ts).
 */
export const eventTime = z.iso.datetime({ precision: 3 });

/** The envelope's fields around an event's type and payload (one description: `EVENT_ENVELOPES`). */
const envelopeFields = {
  // The event's position in the outbox (a decimal integer, growing): given by the relay in the order events
  // committed, so `after: id` resumes a feed exactly there. Also the webhook-id of its deliveries.
  id: z.string().describe('The position in the outbox: pass it as `after` to resume after this event'),
  occurredAt: eventTime,
  shopIds: z.array(z.number().int()),
  customerId: z.number().int().nullable(),
};

/** One event type's envelope; its fields in the order the wire has always had them. */
function envelopeOf<T extends EventName>(type: T) {
  const { id, ...rest } = envelopeFields;
  return z.object({ id, type: z.literal(type), ...rest, payload: EVENT_PAYLOADS[type] });
}

/**
 * Each event type's envelope, as the outbox, the feeds and the webhooks carry it: what `eventOf` reads
 * back, and what REST's feed and webhooks publish (rest/responses/events.ts). `shopIds` and `customerId`
 * say who may see it: a shop operator receives only events of their shop, a customer only their own.
 */
export const EVENT_ENVELOPES = Object.fromEntries((Object.keys(EVENT_PAYLOADS) as EventName[]).map((type) => [type, envelopeOf(type)])) as {
  [T in EventName]: ReturnType<typeof envelopeOf<T>>;
};

/**
 * Something that happened in a committed transaction: the envelope's type, inferred from its schema.
 * Spelled as the fields around `type` and `payload` so that `emit` infers the event type from `type`.
 */
export type EventEnvelope<T extends EventName> = z.output<z.ZodObject<typeof envelopeFields>> & { type: T; payload: EventPayloads[T] };

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
/** Compiles only while `EventEnvelope` is what each envelope schema says, field for field. */
export const envelopesInferred: { [T in EventName]: Same<z.output<(typeof EVENT_ENVELOPES)[T]>, EventEnvelope<T>> }[EventName] extends true ? true : never = true;

export type DomainEvent = { [T in EventName]: EventEnvelope<T> }[EventName];

/** An event emitted in a transaction, before the outbox gives it its position. */
export type NewEvent = { [T in EventName]: Omit<EventEnvelope<T>, 'id'> }[EventName];

/** The events of the current transaction, stored in the outbox when it commits. */
export interface PendingEvents {
  events: NewEvent[];
  /** Events a one-statement write stored itself (checkout's), so the relay is woken after commit. */
  storedByStatements: number;
  /** Inside `inAutocommit`: no transaction to store emitted events in. */
  autocommit: boolean;
}

export interface EventPublisher {
  /** Events were committed to the outbox: relay them soon (the relay also finds them by itself). */
  committed(): void;
  /** Webhook deliveries were written outside the relay (a redelivery by hand): wake the dispatchers. */
  deliveriesWritten(): void;
}

export interface EventSource {
  /** Calls `listener` with every event this process delivers, in position order; returns the unsubscribe function. */
  subscribe(listener: (event: DomainEvent) => void): () => void;
  /** Calls `listener` whenever webhook deliveries were written (the webhook dispatcher listens); absent without a relay. */
  onWake?(listener: () => void): () => void;
}

/** Where services announce committed events and subscriptions listen: in-process for unit use, the outbox relay across processes. */
export type EventBus = EventPublisher & EventSource;

/**
 * Payloads stay small (ids, states, amounts): what a subscriber or a webhook receiver needs to read
 * the rest through the API. The bound predates the outbox (an event used to travel in one NOTIFY,
 * which holds less than 8000 bytes) and is kept as the size limit of an event.
 */
export const MAX_EVENT_BYTES = 7999;

export class EventTooLargeError extends Error {}

/** The wire form of an event (a webhook body, a feed entry); throws when it is larger than an event may be. */
export function encodeEvent(event: DomainEvent | NewEvent): string {
  const text = JSON.stringify(event);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_EVENT_BYTES) {
    throw new EventTooLargeError(
      `Event ${event.type} is ${bytes} bytes encoded; an event holds at most ${MAX_EVENT_BYTES}. Keep payloads to ids and states.`,
    );
  }
  return text;
}

const isEventName = (type: string): type is EventName => Object.hasOwn(EVENT_PAYLOADS, type);

/** Reads a wire event; null for anything that is not one (an unknown type, a payload of another shape). */
export function decodeEvent(text: string): DomainEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return eventOf(value);
}

/** An event from its stored or wire form; null for an unknown type, or an envelope or payload of another shape. */
export function eventOf(value: unknown): DomainEvent | null {
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !isEventName(type)) return null;
  const event = EVENT_ENVELOPES[type].safeParse(value);
  // Checked against the envelope of this very type: its type and payload go together.
  return event.success ? event.data : null;
}
