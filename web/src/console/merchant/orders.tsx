import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConsoleIssueInvoiceMutation, MerchantOrderListQuery, MerchantOrderQuery, OrderStatus, ShopOrderSort } from '../gql/graphql';
import { regionLabel } from '../../ui/region-label';
import { Money } from '../../money/currency-context';
import { Missing, QueryResult } from '../../ui/query-result';
import { OrderPaymentsPanel } from '../order-payments-panel';
import { StateSelect, label, optionalText, text, useFilterParam, usePageParam, useAction, when, useListContext } from '../kit';
import { DataTable, eachSelected, useSortParam, type Column, type Selection } from '../data-table';

const PAGE_SIZE = 20;
const STATUSES: OrderStatus[] = ['PENDING_PAYMENT', 'AWAITING_GROUP', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];

const OrderListQuery = graphql(`
  query MerchantOrderList($page: Int, $pageSize: Int, $status: OrderStatus, $sort: ShopOrderSort) {
    merchantOrders(page: $page, pageSize: $pageSize, status: $status, sort: $sort) {
      page
      pageSize
      total
      items {
        id
        status
        total
        createdAt
        paidAt
        shippingAddress {
          recipient
          region
        }
        items {
          id
          quantity
          shippedQuantity
          refundQuantity
        }
      }
    }
    shippingCompanies {
      code
      name
    }
  }
`);

type ListedOrder = MerchantOrderListQuery['merchantOrders']['items'][number];

const ORDER_SORTS: readonly ShopOrderSort[] = ['NEWEST', 'OLDEST', 'TOTAL_ASC', 'TOTAL_DESC'];

const ORDER_COLUMNS: readonly Column<ListedOrder>[] = [
  { header: 'Order', cell: (o) => <Link to={`/merchant/orders/${o.id}`}>Order #{o.id}</Link> },
  { header: 'Status', cell: (o) => label(o.status) },
  { header: 'Recipient', cell: (o) => `${o.shippingAddress.recipient} (${regionLabel(o.shippingAddress.region)})` },
  { header: 'Units', cell: (o) => o.items.reduce((n, i) => n + i.quantity, 0) },
  { header: 'Total', sort: { asc: 'TOTAL_ASC', desc: 'TOTAL_DESC' }, cell: (o) => <Money amount={o.total} /> },
  { header: 'Placed', sort: { asc: 'OLDEST', desc: 'NEWEST' }, cell: (o) => when(o.createdAt) },
  { header: 'Paid', cell: (o) => when(o.paidAt) },
];

/** The units of an order item still to ship: neither shipped nor refunded. */
const toShip = (item: ListedOrder['items'][number]) => item.quantity - item.shippedQuantity - item.refundQuantity;

/**
 * Ships the selected paid orders whole, one parcel each: one shipping company for all, a tracking
 * number per order. Each is the single order's shipment (`createShipment`, its permission and its
 * rules); an order not paid is left out, and each refusal is named with its order.
 */
function OrderBulkShip({ rows, done, companies }: Selection<ListedOrder> & { companies: MerchantOrderListQuery['shippingCompanies'] }) {
  const ship = useAction(CreateShipment, (d) => d.createShipment, 'Not shipped');
  const paid = rows.filter((o) => o.status === 'PAID' && o.items.some((i) => toShip(i) > 0));
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const shipWhole = async (order: ListedOrder) => {
      const items = order.items.filter((i) => toShip(i) > 0).map((i) => ({ orderItemId: i.id, quantity: toShip(i) }));
      return Boolean((await ship.run({ input: { orderId: order.id, companyCode: text(form.get('company')), trackingNumber: text(form.get(`tracking-${order.id}`)), items } }))?.order);
    };
    done(await eachSelected(paid, shipWhole, (order) => `order #${order.id}`, 'shipped'));
  };
  return (
    <>
      {paid.length === 0 ? (
        <span>None of the selected orders is paid and waiting to ship.</span>
      ) : (
        <form onSubmit={submit} aria-label="Ship the selected orders" className="toolbar">
          <label>
            Shipping company
            <select name="company" required>
              {companies.map((c) => (
                <option key={c.code} value={c.code}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          {paid.map((o) => (
            <label key={o.id}>
              Tracking number of order #{o.id}
              <input name={`tracking-${o.id}`} required maxLength={80} />
            </label>
          ))}
          <button type="submit" disabled={ship.fetching}>
            Ship {paid.length} {paid.length === 1 ? 'order' : 'orders'}
          </button>
          {paid.length < rows.length ? <span>{rows.length - paid.length} not paid or already shipped, left out.</span> : null}
        </form>
      )}
      {ship.refusal}
    </>
  );
}

export function OrderList() {
  const [page] = usePageParam();
  const [status, setStatus] = useFilterParam('status');
  const [sort] = useSortParam();
  const [result, reread] = useQuery({
    query: OrderListQuery,
    context: useListContext('Order'),
    variables: { page, pageSize: PAGE_SIZE, status: (status || null) as OrderStatus | null, sort: ORDER_SORTS.find((s) => s === sort) ?? null },
  });
  return (
    <>
      <h1>Orders</h1>
      <DataTable
        label="Orders"
        testId="order-table"
        result={result}
        list={(data) => data.merchantOrders}
        columns={ORDER_COLUMNS}
        rowKey={(o) => o.id}
        rowLabel={(o) => `order #${o.id}`}
        rowProps={(o) => ({ 'data-order-id': o.id })}
        filters={<StateSelect label="Status" value={status} states={STATUSES} onChange={setStatus} />}
        bulk={(selection) => <OrderBulkShip {...selection} companies={result.data?.shippingCompanies ?? []} />}
        reread={reread}
        empty="No order matches."
        what="Loading orders"
      />
    </>
  );
}

const MerchantOrderQuery = graphql(`
  query MerchantOrder($id: Int!) {
    merchantOrder(id: $id) {
      id
      status
      itemsTotal
      discount
      freightFee
      total
      createdAt
      paidAt
      shippedAt
      deliveredAt
      cancelledAt
      cancelReason
      shippingAddress {
        recipient
        phone
        region
        address
      }
      items {
        id
        productName
        skuName
        unitPrice
        quantity
        amount
        shippedQuantity
        refundQuantity
      }
      shipments {
        id
        carrier
        trackingNumber
        createdAt
        items {
          orderItemId
          quantity
        }
      }
    }
    shippingCompanies {
      code
      name
    }
  }
`);

const CreateShipment = graphql(`
  mutation ConsoleShip($input: CreateShipmentInput!) {
    createShipment(input: $input) {
      order {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const IssueInvoice = graphql(`
  mutation ConsoleIssueInvoice($input: IssueInvoiceInput!) {
    issueInvoice(input: $input) {
      invoice {
        orderId
        status
        invoiceNo
        title
        taxNumber
        amount
        issuedAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Order = NonNullable<MerchantOrderQuery['merchantOrder']>;
type Invoice = NonNullable<ConsoleIssueInvoiceMutation['issueInvoice']['invoice']>;

/** One parcel: a carrier, a tracking number and how many of each unshipped unit go in it (all by default). */
function ShipPanel({ order, companies, onDone }: { order: Order; companies: MerchantOrderQuery['shippingCompanies']; onDone: () => void }) {
  const ship = useAction(CreateShipment, (d) => d.createShipment, 'Not shipped');
  const open = order.items.filter((i) => i.quantity - i.shippedQuantity - i.refundQuantity > 0);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const items = open.map((i) => ({ orderItemId: i.id, quantity: Number(form.get(`qty-${i.id}`)) })).filter((i) => i.quantity > 0);
    const answer = await ship.run({ input: { orderId: order.id, companyCode: text(form.get('company')), trackingNumber: text(form.get('tracking')), items } });
    if (answer?.order) onDone();
  };
  return (
    <form onSubmit={submit} className="panel" aria-labelledby="ship-heading">
      <h2 id="ship-heading">Ship</h2>
      <div className="toolbar">
        <label>
          Shipping company
          <select name="company" required>
            {companies.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Tracking number
          <input name="tracking" required maxLength={80} />
        </label>
      </div>
      <table className="grid">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">In this parcel</th>
          </tr>
        </thead>
        <tbody>
          {open.map((i) => {
            const left = i.quantity - i.shippedQuantity - i.refundQuantity;
            return (
              <tr key={i.id}>
                <td>
                  <label htmlFor={`qty-${i.id}`}>
                    {i.productName} ({i.skuName}), {left} to ship
                  </label>
                </td>
                <td>
                  <input id={`qty-${i.id}`} name={`qty-${i.id}`} type="number" min={0} max={left} defaultValue={left} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button type="submit" className="primary" disabled={ship.fetching}>
        Ship
      </button>
      {ship.refusal}
    </form>
  );
}

/** The shop issues the invoice (title and tax number as the customer asked, or typed here); the server answers it, with its number. */
function InvoicePanel({ orderId }: { orderId: number }) {
  const issue = useAction(IssueInvoice, (d) => d.issueInvoice, 'Invoice not issued');
  const [invoice, setInvoice] = useState<Invoice | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const answer = await issue.run({ input: { orderId, title: optionalText(form.get('title')), taxNumber: optionalText(form.get('taxNumber')) } });
    if (answer?.invoice) setInvoice(answer.invoice);
  };
  return (
    <section className="panel" aria-labelledby="invoice-heading">
      <h2 id="invoice-heading">Invoice</h2>
      {invoice ? (
        <dl className="stats" data-testid="invoice">
          <div>
            <dt>Status</dt>
            <dd>{label(invoice.status)}</dd>
          </div>
          <div>
            <dt>Number</dt>
            <dd>{invoice.invoiceNo ?? '—'}</dd>
          </div>
          <div>
            <dt>Title</dt>
            <dd>{invoice.title ?? '—'}</dd>
          </div>
          <div>
            <dt>Amount</dt>
            <dd>
              <Money amount={invoice.amount} />
            </dd>
          </div>
          <div>
            <dt>Issued</dt>
            <dd>{when(invoice.issuedAt)}</dd>
          </div>
        </dl>
      ) : (
        <form onSubmit={submit} className="toolbar">
          <label>
            Invoice title
            <input name="title" maxLength={200} />
          </label>
          <label>
            Tax number
            <input name="taxNumber" maxLength={64} />
          </label>
          <button type="submit" disabled={issue.fetching}>
            Issue invoice
          </button>
        </form>
      )}
      {issue.refusal}
    </section>
  );
}

export function OrderDetail() {
  const id = Number(useParams().id);
  const [result, reexecute] = useQuery({ query: MerchantOrderQuery, variables: { id } });
  const [shipped, setShipped] = useState(false);
  const refresh = () => reexecute({ requestPolicy: 'network-only' });
  return (
    <>
      <p>
        <Link to="/merchant/orders">← Orders</Link>
      </p>
      <QueryResult result={result} what="Loading the order">
        {(data) => {
          const order = data.merchantOrder;
          if (!order) return <Missing error={result.error} what="order" />;
          return (
            <>
              <h1>Order #{order.id}</h1>
              <p>
                Status: <strong data-testid="order-status">{label(order.status)}</strong>
                {order.cancelReason ? ` (${order.cancelReason})` : ''}
              </p>
              <dl className="stats">
                <div>
                  <dt>Placed</dt>
                  <dd>{when(order.createdAt)}</dd>
                </div>
                <div>
                  <dt>Paid</dt>
                  <dd>{when(order.paidAt)}</dd>
                </div>
                <div>
                  <dt>Shipped</dt>
                  <dd>{when(order.shippedAt)}</dd>
                </div>
                <div>
                  <dt>Delivered</dt>
                  <dd>{when(order.deliveredAt)}</dd>
                </div>
                <div>
                  <dt>Ship to</dt>
                  <dd>
                    {order.shippingAddress.recipient}, {order.shippingAddress.phone}, {order.shippingAddress.address} ({regionLabel(order.shippingAddress.region)})
                  </dd>
                </div>
              </dl>
              <table className="grid">
                <thead>
                  <tr>
                    <th scope="col">Item</th>
                    <th scope="col">Unit price</th>
                    <th scope="col">Quantity</th>
                    <th scope="col">Shipped</th>
                    <th scope="col">Refunded</th>
                    <th scope="col">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {order.items.map((i) => (
                    <tr key={i.id}>
                      <td>
                        {i.productName} ({i.skuName})
                      </td>
                      <td>
                        <Money amount={i.unitPrice} />
                      </td>
                      <td>{i.quantity}</td>
                      <td>{i.shippedQuantity}</td>
                      <td>{i.refundQuantity}</td>
                      <td>
                        <Money amount={i.amount} />
                      </td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <td colSpan={5}>Items / discount / freight</td>
                    <td>
                      <Money amount={order.itemsTotal} /> / −<Money amount={order.discount} /> / <Money amount={order.freightFee} />
                    </td>
                  </tr>
                  <tr>
                    <th scope="row" colSpan={5}>
                      Total
                    </th>
                    <td>
                      <Money amount={order.total} />
                    </td>
                  </tr>
                </tfoot>
              </table>
              <OrderPaymentsPanel orderId={order.id} />
              {order.shipments.length > 0 ? (
                <section aria-labelledby="shipments-heading">
                  <h2 id="shipments-heading">Shipments</h2>
                  <ul data-testid="shipments">
                    {order.shipments.map((s) => (
                      <li key={s.id}>
                        {s.carrier} {s.trackingNumber} · {when(s.createdAt)}
                      </li>
                    ))}
                  </ul>
                </section>
              ) : null}
              {shipped ? <p role="status">Shipment recorded.</p> : null}
              {order.status === 'PAID' ? (
                <ShipPanel
                  order={order}
                  companies={data.shippingCompanies}
                  onDone={() => {
                    setShipped(true);
                    refresh();
                  }}
                />
              ) : null}
              {order.paidAt ? <InvoicePanel orderId={order.id} /> : null}
            </>
          );
        }}
      </QueryResult>
    </>
  );
}
