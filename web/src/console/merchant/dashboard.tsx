import { useCallback, useEffect, useRef } from 'react';
import { Link } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { ConsoleEventsSubscription } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { QueryResult } from '../../ui/query-result';
import { ErrorNotice } from '../../ui/query-state';
import { useLiveConnection } from '../../api/live-connection';
import { ConnectionStatus } from '../../pages/ops/connection-status';
import { label, when, useListContext } from '../kit';

const DashboardQuery = graphql(`
  query MerchantDashboard($timeZone: String) {
    operationsToday(timeZone: $timeZone) {
      since
      ordersPlaced
      ordersPaid
      paidAmount
      awaitingShipment
      refundsOpen
    }
    merchantOrders(pageSize: 8) {
      total
      items {
        id
        status
        total
        createdAt
      }
    }
    lowStock: merchantProducts(lowStock: true, pageSize: 8) {
      total
      items {
        id
        name
        skus {
          id
          name
          stock
        }
      }
    }
  }
`);

const ConsoleEvents = graphql(`
  subscription ConsoleEvents($types: [EventType!]) {
    events(types: $types) {
      id
      type
      occurredAt
    }
  }
`);

/** What may move the dashboard's figures. */
const TYPES = ['ORDER_PLACED', 'ORDER_PAID', 'ORDER_CANCELLED', 'SHIPMENT_CREATED', 'STOCK_LOW', 'REFUND_REQUESTED'] as const;
const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

type ConsoleEvent = ConsoleEventsSubscription['events'];
const lastEvent = (_prev: ConsoleEvent | undefined, next: ConsoleEventsSubscription): ConsoleEvent => next.events;

/**
 * Today's figures of the operator's shop, live: each event of the shop (a new order, a payment, a
 * refund asked, stock falling low) reads the figures again, at most every 300 ms, with no reload.
 */
export function Dashboard() {
  const [result, reexecute] = useQuery({ query: DashboardQuery, context: useListContext('Order', 'Refund', 'Product'), variables: { timeZone: TIME_ZONE } });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  const [live] = useSubscription({ query: ConsoleEvents, variables: { types: [...TYPES] } }, lastEvent);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = live.data?.id;
  useEffect(() => {
    if (!latest) return;
    pending.current ??= setTimeout(() => {
      pending.current = null;
      refresh();
    }, 300);
  }, [latest, refresh]);
  useEffect(() => () => clearTimeout(pending.current ?? undefined), []);
  // Events missed while the socket was down are not replayed: read everything again after a reconnect.
  const { reconnects } = useLiveConnection();
  useEffect(() => {
    if (reconnects > 0) refresh();
  }, [reconnects, refresh]);

  return (
    <>
      <h1>Dashboard</h1>
      <ConnectionStatus />
      {live.error ? <ErrorNotice error={live.error} title="Live updates stopped" /> : null}
      <QueryResult result={result} what="Loading today's figures">
        {(data) => (
          <>
            <section aria-labelledby="today">
              <h2 id="today">Today</h2>
              <dl className="stats">
                <div>
                  <dt>Orders today</dt>
                  <dd data-testid="orders-today">{data.operationsToday.ordersPlaced}</dd>
                </div>
                <div>
                  <dt>Paid today</dt>
                  <dd data-testid="paid-today">{data.operationsToday.ordersPaid}</dd>
                </div>
                <div>
                  <dt>Sales today</dt>
                  <dd data-testid="sales-today">
                    <Money amount={data.operationsToday.paidAmount} />
                  </dd>
                </div>
                <div>
                  <dt>
                    <Link to="/merchant/orders?status=PAID">Awaiting shipment</Link>
                  </dt>
                  <dd data-testid="awaiting">{data.operationsToday.awaitingShipment}</dd>
                </div>
                <div>
                  <dt>
                    <Link to="/merchant/refunds?status=REQUESTED">Refunds to decide</Link>
                  </dt>
                  <dd data-testid="refunds-open">{data.operationsToday.refundsOpen}</dd>
                </div>
                <div>
                  <dt>
                    <Link to="/merchant/products?lowStock=1">Low-stock products</Link>
                  </dt>
                  <dd data-testid="low-stock">{data.lowStock.total}</dd>
                </div>
              </dl>
            </section>
            <div className="ops-columns">
              <section aria-labelledby="recent">
                <h2 id="recent">Latest orders</h2>
                <table className="grid" data-testid="latest-orders">
                  <thead>
                    <tr>
                      <th scope="col">Order</th>
                      <th scope="col">Status</th>
                      <th scope="col">Total</th>
                      <th scope="col">Placed</th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.merchantOrders.items.map((o) => (
                      <tr key={o.id}>
                        <td>
                          <Link to={`/merchant/orders/${o.id}`}>#{o.id}</Link>
                        </td>
                        <td>{label(o.status)}</td>
                        <td>
                          <Money amount={o.total} />
                        </td>
                        <td>{when(o.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </section>
              <section aria-labelledby="low">
                <h2 id="low">Low stock</h2>
                {data.lowStock.items.length === 0 ? <p className="empty">No SKU is low.</p> : null}
                <ul>
                  {data.lowStock.items.map((p) => (
                    <li key={p.id}>
                      <Link to={`/merchant/products/${p.id}`}>{p.name}</Link>: {p.skus.map((s) => `${s.name} ${s.stock}`).join(', ')}
                    </li>
                  ))}
                </ul>
              </section>
            </div>
          </>
        )}
      </QueryResult>
    </>
  );
}
