import type { EventType, LiveEventsSubscription } from '../../gql/graphql';
import { formatMoney, type Currency } from '../../money/format-money';

/** An event as the operations page keeps it: as the subscription types it, payload by payload type. */
export type FeedEvent = LiveEventsSubscription['events'];

/** The kinds the feed shows. */
export const FEED_TYPES: EventType[] = ['ORDER_PLACED', 'ORDER_PAID', 'ORDER_CANCELLED', 'SHIPMENT_CREATED', 'STOCK_LOW', 'GROUP_STATE_CHANGED', 'REFUND_REQUESTED'];

const MAX_FEED = 50;

/** Newest first, each event once (delivery is at least once: a repeat has the same id), at most 50. */
export function addToFeed(feed: FeedEvent[], event: FeedEvent): FeedEvent[] {
  if (feed.some((e) => e.id === event.id)) return feed;
  return [event, ...feed].slice(0, MAX_FEED);
}

/** One line of text per event, from its typed payload (docs/api.md "Subscriptions and events"). */
export function describeEvent(event: FeedEvent, currency: Currency): string {
  const p = event.payload;
  switch (p.__typename) {
    case 'OrderPlacedEventPayload':
      return `Order #${p.orderId} placed: ${formatMoney(p.total, currency)}`;
    case 'OrderPaidEventPayload':
      return `Order #${p.orderId} paid: ${formatMoney(p.total, currency)}`;
    case 'OrderCancelledEventPayload':
      return `Order #${p.orderId} cancelled (${p.reason.replace(/_/g, ' ')})`;
    case 'ShipmentCreatedEventPayload':
      return `Order #${p.orderId} shipped with ${p.carrier} ${p.trackingNumber}`;
    case 'StockLowEventPayload':
      return `Stock low: SKU #${p.skuId} of product #${p.productId} has ${p.stock} left`;
    case 'GroupStateChangedEventPayload':
      return `Group #${p.groupId} is now ${p.state.toLowerCase()}`;
    case 'RefundRequestedEventPayload':
      return `${p.kind === 'RETURN' ? 'Return' : 'Refund'} #${p.refundId} requested on order #${p.orderId}`;
    default:
      return event.type.toLowerCase().replace(/_/g, ' ');
  }
}
