import { useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { OpsPageQuery as OpsData } from '../gql/graphql';
import { CurrencyProvider, Money, useCurrency } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ErrorNotice } from '../ui/query-state';
import { usePageTitle } from '../ui/page-title';
import { RequireSignIn } from '../auth/require-sign-in';
import { useSession } from '../auth/session';
import { useLiveConnection } from '../api/live-connection';
import { addToFeed, describeEvent, FEED_TYPES, type FeedEvent } from './ops/event-feed';
import { ShipForm } from './ops/ship-form';
import { ConnectionStatus } from './ops/connection-status';
import { formatTime } from '../ui/dates';

const OpsPageQuery = graphql(`
  query OpsPage($timeZone: String) {
    currency {
      ...CurrencyFields
    }
    operationsToday(timeZone: $timeZone) {
      shopId
      since
      ordersPlaced
      ordersPaid
      paidAmount
      ordersCancelled
      awaitingShipment
      refundsRequested
      refundsOpen
    }
    ordersAwaitingShipment(pageSize: 20) {
      total
      items {
        id
        total
        paidAt
        shop {
          name
        }
        items {
          id
          productName
          skuName
          quantity
          shippedQuantity
        }
      }
    }
    shippingCompanies {
      code
      name
    }
  }
`);

const LiveEvents = graphql(`
  subscription LiveEvents($types: [EventType!]) {
    events(types: $types) {
      id
      type
      occurredAt
      shopIds
      payload {
        __typename
        ... on OrderPlacedEventPayload {
          orderId
          total
        }
        ... on OrderPaidEventPayload {
          orderId
          total
        }
        ... on OrderCancelledEventPayload {
          orderId
          reason
        }
        ... on ShipmentCreatedEventPayload {
          orderId
          carrier
          trackingNumber
        }
        ... on StockLowEventPayload {
          skuId
          productId
          stock
        }
        ... on GroupStateChangedEventPayload {
          groupId
          state
        }
        ... on RefundRequestedEventPayload {
          refundId
          orderId
          kind
        }
      }
    }
  }
`);

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

function Counters({ today }: { today: OpsData['operationsToday'] }) {
  return (
    <section aria-labelledby="today-heading">
      <h2 id="today-heading">Today</h2>
      <dl className="stats counters">
        <div>
          <dt>Orders placed</dt>
          <dd data-testid="count-placed">{today.ordersPlaced}</dd>
        </div>
        <div>
          <dt>Orders paid</dt>
          <dd data-testid="count-paid">{today.ordersPaid}</dd>
        </div>
        <div>
          <dt>Paid amount</dt>
          <dd>
            <Money amount={today.paidAmount} />
          </dd>
        </div>
        <div>
          <dt>Waiting for shipment</dt>
          <dd data-testid="count-awaiting">{today.awaitingShipment}</dd>
        </div>
        <div>
          <dt>Cancelled</dt>
          <dd>{today.ordersCancelled}</dd>
        </div>
        <div>
          <dt>Refunds asked / open</dt>
          <dd>
            {today.refundsRequested} / {today.refundsOpen}
          </dd>
        </div>
      </dl>
    </section>
  );
}

function Feed({ feed }: { feed: FeedEvent[] }) {
  const currency = useCurrency();
  return (
    <section aria-labelledby="feed-heading" className="feed">
      <h2 id="feed-heading">Live feed</h2>
      {feed.length === 0 ? <p className="empty">Waiting for events…</p> : null}
      <ol aria-live="polite" data-testid="feed">
        {feed.map((e) => (
          <li key={e.id} className={`event event-${e.type.toLowerCase()}`}>
            <time dateTime={e.occurredAt}>{formatTime(e.occurredAt)}</time> {describeEvent(e, currency)}
          </li>
        ))}
      </ol>
    </section>
  );
}

function AwaitingShipment({ data, canShip, refresh }: { data: OpsData; canShip: boolean; refresh: () => void }) {
  const orders = data.ordersAwaitingShipment;
  return (
    <section aria-labelledby="awaiting-heading">
      <h2 id="awaiting-heading">Waiting for shipment ({orders.total})</h2>
      {orders.items.length === 0 ? <p className="empty">Nothing to ship.</p> : null}
      <ul className="awaiting" data-testid="awaiting">
        {orders.items.map((o) => (
          <li key={o.id} data-order-id={o.id}>
            <p>
              <strong>Order #{o.id}</strong> · {o.shop.name} · <Money amount={o.total} /> · paid {o.paidAt ? formatTime(o.paidAt) : ''}
            </p>
            <p className="meta">{o.items.map((i) => `${i.productName} (${i.skuName}) × ${i.quantity - i.shippedQuantity}`).join(', ')}</p>
            {canShip ? <ShipForm orderId={o.id} companies={data.shippingCompanies} onShipped={refresh} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Keeps the latest events of the operator's shop (or every shop for an admin). */
function feedReducer(feed: FeedEvent[] = [], event: { events: FeedEvent }): FeedEvent[] {
  return addToFeed(feed, event.events);
}

function OpsContent() {
  const { session } = useSession();
  const [result, reexecute] = useQuery({ query: OpsPageQuery, variables: { timeZone: TIME_ZONE }, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [live] = useSubscription({ query: LiveEvents, variables: { types: FEED_TYPES } }, feedReducer);
  const feed = live.data ?? [];

  // Every event may change the counters and the list: read them again, at most every 300 ms.
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = feed[0]?.id;
  useEffect(() => {
    if (!latest) return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      refresh();
    }, 300);
  }, [latest, refresh]);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);

  // Events sent while the socket was down are not replayed: after a reconnect, read everything again.
  const { reconnects } = useLiveConnection();
  useEffect(() => {
    if (reconnects > 0) refresh();
  }, [reconnects, refresh]);

  return (
    <>
      <ConnectionStatus />
      {live.error ? <ErrorNotice error={live.error} title="Live feed stopped" /> : null}
      <QueryResult result={result} what="Loading today's figures">
        {(data) => (
          <CurrencyProvider currency={data.currency}>
            <Counters today={data.operationsToday} />
            <div className="ops-columns">
              <AwaitingShipment data={data} canShip={session?.user.role === 'SHOP_OPERATOR'} refresh={refresh} />
              <Feed feed={feed} />
            </div>
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}

export default function OpsPage() {
  usePageTitle('Operations');
  const { session } = useSession();
  return (
    <RequireSignIn roles={['SHOP_OPERATOR', 'PLATFORM_ADMIN']}>
      <h1>Operations {session?.user.role === 'PLATFORM_ADMIN' ? '(all shops)' : ''}</h1>
      {/* Above the figures, not under them: under them it moved down when they arrived (a layout shift). */}
      <p className="meta">
        Counts follow your time zone ({TIME_ZONE}). <Link to="/">Storefront</Link>
      </p>
      <OpsContent />
    </RequireSignIn>
  );
}
