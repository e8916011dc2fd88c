import type { EventType } from '../../gql/graphql';
import { formatMoney, type Currency } from '../../money/format-money';

/** An event as the operations page keeps it. */
export interface FeedEvent {
  id: string;
  type: EventType;
  occurredAt: string;
  shopIds: number[];
  payload: Record<string, unknown>;
}

/** The kinds the feed shows. */
export const FEED_TYPES: EventType[] = ['ORDER_PLACED', 'ORDER_PAID', 'ORDER_CANCELLED', 'SHIPMENT_CREATED', 'STOCK_LOW', 'GROUP_STATE_CHANGED', 'REFUND_REQUESTED'];

const MAX_FEED = 50;

/** Newest first, each event once (delivery is at least once: a repeat has the same id), at most 50. */
export function addToFeed(feed: FeedEvent[], event: FeedEvent): FeedEvent[] {
  if (feed.some((e) => e.id === event.id)) return feed;
  return [event, ...feed].slice(0, MAX_FEED);
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v));
const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : '?');

/** One line of text per event, from its payload (docs/api.md "Subscriptions and events"). */
export function describeEvent(event: FeedEvent, currency: Currency): string {
  const p = event.payload;
  switch (event.type) {
    case 'ORDER_PLACED':
      return `Order #${text(p.orderId)} placed: ${formatMoney(num(p.total), currency)}`;
    case 'ORDER_PAID':
      return `Order #${text(p.orderId)} paid: ${formatMoney(num(p.total), currency)}`;
    case 'ORDER_CANCELLED':
      return `Order #${text(p.orderId)} cancelled (${text(p.reason).replace(/_/g, ' ')})`;
    case 'SHIPMENT_CREATED':
      return `Order #${text(p.orderId)} shipped with ${text(p.carrier)} ${text(p.trackingNumber)}`;
    case 'STOCK_LOW':
      return `Stock low: SKU #${text(p.skuId)} of product #${text(p.productId)} has ${text(p.stock)} left`;
    case 'GROUP_STATE_CHANGED':
      return `Group #${text(p.groupId)} is now ${text(p.state)}`;
    case 'REFUND_REQUESTED':
      return `${p.kind === 'return' ? 'Return' : 'Refund'} #${text(p.refundId)} requested on order #${text(p.orderId)}`;
    default:
      return event.type.toLowerCase().replace(/_/g, ' ');
  }
}
