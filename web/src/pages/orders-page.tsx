import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { OrderStatus } from '../gql/graphql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { Pagination } from '../ui/pagination';
import { OrderStatusBadge, orderStatusLabel } from '../ui/order-status';
import { usePageTitle } from '../ui/page-title';
import { RequireSignIn } from '../auth/require-sign-in';
import { EmptyState } from '../ui/empty-state';
import { formatDateTime } from '../ui/dates';

const PAGE_SIZE = 10;
const STATUSES: OrderStatus[] = ['PENDING_PAYMENT', 'AWAITING_GROUP', 'PAID', 'SHIPPED', 'DELIVERED', 'COMPLETED', 'CANCELLED'];

const OrdersPageQuery = graphql(`
  query OrdersPage($status: OrderStatus, $page: Int, $pageSize: Int) {
    currency {
      ...CurrencyFields
    }
    orders(status: $status, page: $page, pageSize: $pageSize) {
      page
      total
      items {
        id
        status
        total
        createdAt
        shop {
          name
        }
        items {
          id
          productName
          quantity
        }
      }
    }
  }
`);

function OrderList() {
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s === params.get('status')) ?? null;
  const page = Number(params.get('page')) || 1;
  const [result] = useQuery({ query: OrdersPageQuery, variables: { status, page, pageSize: PAGE_SIZE }, requestPolicy: 'cache-and-network' });
  return (
    <>
      <label>
        Show{' '}
        <select value={status ?? ''} onChange={(e) => setParams(e.target.value ? { status: e.target.value } : {})}>
          <option value="">All orders</option>
          {STATUSES.map((s) => (
            <option key={s} value={s}>
              {orderStatusLabel(s)}
            </option>
          ))}
        </select>
      </label>
      <QueryResult result={result} what="Loading your orders">
        {({ currency, orders }) => (
          <CurrencyProvider currency={currency}>
            {orders.items.length === 0 ? (
              <EmptyState picture="orders" title={status ? `No orders in “${orderStatusLabel(status)}”` : 'No orders yet'} action={{ to: '/', label: 'Start shopping' }}>
                {status ? 'Orders show here as they reach this state.' : 'Your orders from every shop show here, with where each one is.'}
              </EmptyState>
            ) : (
              <ul className="order-list">
                {orders.items.map((o) => (
                  <li key={o.id}>
                    <Link to={`/orders/${o.id}`}>Order #{o.id}</Link> · {o.shop.name} · <time dateTime={o.createdAt}>{formatDateTime(o.createdAt)}</time> · <OrderStatusBadge status={o.status} /> ·{' '}
                    <Money amount={o.total} />
                    <p className="meta">{o.items.map((i) => `${i.productName} × ${i.quantity}`).join(', ')}</p>
                  </li>
                ))}
              </ul>
            )}
            <Pagination page={orders.page} pageSize={PAGE_SIZE} total={orders.total} />
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}

export default function OrdersPage() {
  usePageTitle('Orders');
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <h1>Your orders</h1>
      <OrderList />
    </RequireSignIn>
  );
}
