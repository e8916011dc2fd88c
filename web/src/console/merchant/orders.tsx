import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ConsoleIssueInvoiceMutation, MerchantOrderQuery, OrderStatus } from '../gql/graphql';
import { regionLabel } from '../../ui/region-label';
import { Money } from '../../money/currency-context';
import { Missing, QueryResult } from '../../ui/query-result';
import { OrderPaymentsPanel } from '../order-payments-panel';
import { Pager, StateSelect, label, optionalText, text, useFilterParam, usePageParam, useAction, when, useListContext } from '../kit';

const PAGE_SIZE = 20;
const STATUSES: OrderStatus[] = ['PENDING_PAYMENT', 'AWAITING_GROUP', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];

const OrderListQuery = graphql(`
  query MerchantOrderList($page: Int, $pageSize: Int, $status: OrderStatus) {
    merchantOrders(page: $page, pageSize: $pageSize, status: $status) {
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
        }
      }
    }
  }
`);

export function OrderList() {
  const [page, setPage] = usePageParam();
  const [status, setStatus] = useFilterParam('status');
  const [result] = useQuery({ query: OrderListQuery, context: useListContext('Order'), variables: { page, pageSize: PAGE_SIZE, status: (status || null) as OrderStatus | null } });
  return (
    <>
      <h1>Orders</h1>
      <div className="toolbar">
        <StateSelect label="Status" value={status} states={STATUSES} onChange={setStatus} />
      </div>
      <QueryResult result={result} what="Loading orders">
        {({ merchantOrders: list }) => (
          <>
            <table className="grid" data-testid="order-table">
              <thead>
                <tr>
                  <th scope="col">Order</th>
                  <th scope="col">Status</th>
                  <th scope="col">Recipient</th>
                  <th scope="col">Units</th>
                  <th scope="col">Total</th>
                  <th scope="col">Placed</th>
                  <th scope="col">Paid</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((o) => (
                  <tr key={o.id} data-order-id={o.id}>
                    <td>
                      <Link to={`/merchant/orders/${o.id}`}>Order #{o.id}</Link>
                    </td>
                    <td>{label(o.status)}</td>
                    <td>
                      {o.shippingAddress.recipient} ({regionLabel(o.shippingAddress.region)})
                    </td>
                    <td>{o.items.reduce((n, i) => n + i.quantity, 0)}</td>
                    <td>
                      <Money amount={o.total} />
                    </td>
                    <td>{when(o.createdAt)}</td>
                    <td>{when(o.paidAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.items.length === 0 ? <p className="empty">No order matches.</p> : null}
            <Pager page={list.page} pageSize={list.pageSize} total={list.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
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
