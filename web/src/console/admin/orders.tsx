import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminOrdersQuery, OrderStatus, ShopOrderSort } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { Field, StateSelect, label, text, useFilterParams, useListContext, usePageParam, when } from '../kit';
import { DataTable, useSortOf, type Column } from '../data-table';

const PAGE_SIZE = 20;
const STATUSES: OrderStatus[] = ['PENDING_PAYMENT', 'AWAITING_GROUP', 'PAID', 'SHIPPED', 'DELIVERED', 'COMPLETED', 'CANCELLED'];
/** The orders the list reads in (index-backed: by id or by total). */
const SORTS: readonly ShopOrderSort[] = ['NEWEST', 'OLDEST', 'TOTAL_ASC', 'TOTAL_DESC'];

const AdminOrders = graphql(`
  query AdminOrders($orderId: Int, $customerEmail: String, $shopId: Int, $status: OrderStatus, $sort: ShopOrderSort, $page: Int, $pageSize: Int) {
    adminOrders(orderId: $orderId, customerEmail: $customerEmail, shopId: $shopId, status: $status, sort: $sort, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        customer {
          id
          email
          displayName
        }
        order {
          id
          shop {
            id
            name
          }
          status
          total
          createdAt
          shipments {
            id
            carrier
            trackingNumber
          }
        }
        payments {
          paymentId
          method
          status
          paidThisOrder
        }
        refunds {
          id
          kind
          status
          amount
        }
      }
    }
  }
`);

type Row = AdminOrdersQuery['adminOrders']['items'][number];

/** A whole number from a search field, or null when it holds none. */
const wholeNumber = (value: string): number | null => (/^\d{1,9}$/.test(value) ? Number(value) : null);

function PaymentCell({ payments }: { payments: Row['payments'] }) {
  if (payments.length === 0) return <>None</>;
  return (
    <>
      {payments.map((p) => (
        <div key={p.paymentId}>
          #{p.paymentId} {label(p.method)}: {label(p.status)}
          {p.paidThisOrder ? ' (paid it)' : ''}
        </div>
      ))}
    </>
  );
}

function AfterSaleCell({ row }: { row: Row }) {
  const { shipments } = row.order;
  return (
    <>
      {shipments.map((s) => (
        <div key={s.id}>
          {s.carrier} {s.trackingNumber}
        </div>
      ))}
      {row.refunds.map((r) => (
        <div key={r.id}>
          {label(r.kind)} #{r.id}: {label(r.status)}, <Money amount={r.amount} />
        </div>
      ))}
      {shipments.length === 0 && row.refunds.length === 0 ? '—' : null}
    </>
  );
}

/** The columns; a shop's name narrows the list to that shop's orders (the filter by name, never by a typed id). */
const orderColumns = (onlyShop: (shop: { id: number; name: string }) => void): readonly Column<Row>[] => [
  { header: 'Order', sort: { asc: 'OLDEST', desc: 'NEWEST' }, cell: (row) => `#${row.order.id} · ${when(row.order.createdAt)}` },
  {
    header: 'Shop',
    cell: (row) => (
      <button type="button" className="link-button" title={`Only ${row.order.shop.name}'s orders`} onClick={() => onlyShop(row.order.shop)}>
        {row.order.shop.name}
      </button>
    ),
  },
  { header: 'Customer', cell: (row) => `${row.customer.displayName} <${row.customer.email}>` },
  { header: 'Status', cell: (row) => label(row.order.status) },
  { header: 'Total', sort: { asc: 'TOTAL_ASC', desc: 'TOTAL_DESC' }, cell: (row) => <Money amount={row.order.total} /> },
  { header: 'Payments', cell: (row) => <PaymentCell payments={row.payments} /> },
  { header: 'Shipments and refunds', cell: (row) => <AfterSaleCell row={row} /> },
];

/**
 * Every shop's orders as the platform sees them (issue 41): found by order number, the customer's
 * email and the status, each with its payments, shipments and refunds; a shop's name in the list
 * narrows it to that shop (kept in the address by id, shown by name).
 */
export function AdminOrdersScreen() {
  const [page] = usePageParam();
  const [{ order, email, shop, shopName, status }, setSearch] = useFilterParams(['order', 'email', 'shop', 'shopName', 'status']);
  const sort = useSortOf(SORTS);
  const variables = {
    orderId: wholeNumber(order),
    customerEmail: email || null,
    shopId: wholeNumber(shop),
    status: (status || null) as OrderStatus | null,
    sort,
    page,
    pageSize: PAGE_SIZE,
  };
  const [result] = useQuery({ query: AdminOrders, context: useListContext('Order'), variables });
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setSearch({ order: text(form.get('order')), email: text(form.get('email')) });
  };
  return (
    <>
      <h1>Orders</h1>
      <form onSubmit={search} role="search" aria-label="Find orders" className="filters">
        <Field label="Order number" name="order-search">
          {(props) => <input {...props} name="order" inputMode="numeric" defaultValue={order} />}
        </Field>
        <Field label="Customer email" name="email-search">
          {(props) => <input {...props} name="email" type="email" defaultValue={email} />}
        </Field>
        <button type="submit">Search</button>
      </form>
      <DataTable
        label="Orders"
        result={result}
        list={(data) => data.adminOrders}
        columns={orderColumns((picked) => setSearch({ shop: String(picked.id), shopName: picked.name }))}
        rowKey={(row) => row.order.id}
        rowProps={() => ({ 'data-testid': 'admin-order-row' })}
        filters={
          <>
            <StateSelect label="Status" value={status} states={STATUSES} onChange={(value) => setSearch({ status: value })} />
            {shop ? (
              <span className="filter-chip">
                Shop: {shopName || 'the one chosen'}{' '}
                <button type="button" onClick={() => setSearch({ shop: '', shopName: '' })}>
                  Every shop
                </button>
              </span>
            ) : null}
          </>
        }
        empty="No order matches."
        what="Loading orders"
      />
    </>
  );
}
