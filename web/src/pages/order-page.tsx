import { useCallback } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery, type CombinedError } from 'urql';
import { graphql } from '../gql';
import type { OrderActionMutation, OrderPageQuery as OrderData } from '../gql/graphql';
import { regionLabel } from '../ui/region-label';
import { CurrencyProvider, Money } from '../money/currency-context';
import { Missing, QueryResult } from '../ui/query-result';
import { refusalOf } from '../api/errors';
import { ErrorNotice } from '../ui/query-state';
import { OrderTotals } from '../ui/order-totals';
import { OrderStatusBadge } from '../ui/order-status';
import { usePageTitle } from '../ui/page-title';
import { RequireSignIn } from '../auth/require-sign-in';
import { useIdempotencyKey } from '../api/idempotency-key';
import { ReviewForm } from './order/review-form';
import { RefundForm } from './order/refund-form';
import { InvoicePanel } from './order/invoice-panel';
import { PaymentSummary } from '../ui/payment-summary';
import { Cashier, paymentPath } from './checkout/cashier';
import { formatDateTime } from '../ui/dates';

const OrderPageQuery = graphql(`
  query OrderPage($id: Int!) {
    currency {
      ...CurrencyFields
    }
    order(id: $id) {
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
      groupId
      shop {
        id
        slug
        name
      }
      shippingAddress {
        recipient
        phone
        region
        address
      }
      items {
        id
        productId
        productName
        skuName
        unitPrice
        quantity
        amount
        pricing
        shippedQuantity
        refundQuantity
        reviewed
      }
      shipments {
        id
        carrier
        trackingNumber
        createdAt
      }
    }
    orderPayments(orderId: $id) {
      ...OrderPaymentFields
    }
  }
`);

const OrderAction = graphql(`
  mutation OrderAction($id: Int!, $pay: Boolean!, $cancel: Boolean!, $confirm: Boolean!, $idempotencyKey: String) {
    payOrder(input: { orderId: $id, idempotencyKey: $idempotencyKey }) @include(if: $pay) {
      order {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
    cancelOrder(input: { orderId: $id }) @include(if: $cancel) {
      order {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
    confirmDelivery(input: { orderId: $id }) @include(if: $confirm) {
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

type Order = NonNullable<OrderData['order']>;
type Action = 'pay' | 'cancel' | 'confirm';

/** The refusal of whichever action ran (one runs at a time). */
const actionRefusal = (error: CombinedError | undefined, data: OrderActionMutation | undefined) =>
  refusalOf(error, data?.payOrder ?? data?.cancelOrder ?? data?.confirmDelivery);

function OrderActions({ order, refresh }: { order: Order; refresh: () => void }) {
  const [state, act] = useMutation(OrderAction);
  const idempotency = useIdempotencyKey();
  const run = async (action: Action) => {
    const result = await act({ id: order.id, pay: action === 'pay', cancel: action === 'cancel', confirm: action === 'confirm', idempotencyKey: action === 'pay' ? idempotency.key() : null });
    if (!result.error?.networkError) idempotency.answered();
    if (!actionRefusal(result.error, result.data)) refresh();
  };
  const refused = actionRefusal(state.error, state.data);
  return (
    <div className="actions">
      {refused ? <ErrorNotice error={refused} title="Not done" /> : null}
      {order.status === 'PENDING_PAYMENT' ? (
        <>
          <button type="button" className="primary" onClick={() => run('pay')} disabled={state.fetching}>
            Pay from balance
          </button>
          <button type="button" onClick={() => run('cancel')} disabled={state.fetching}>
            Cancel order
          </button>
        </>
      ) : null}
      {order.status === 'SHIPPED' ? (
        <button type="button" className="primary" onClick={() => run('confirm')} disabled={state.fetching}>
          Confirm delivery
        </button>
      ) : null}
    </div>
  );
}

/** The order's payments and what went back on their method; a pending order can also be paid through a gateway. */
function OrderPayments({ order, payments }: { order: Order; payments: OrderData['orderPayments'] }) {
  const waiting = payments?.find((p) => p.status === 'PENDING' || p.status === 'AUTHORIZED');
  return (
    <section aria-labelledby="payment-heading">
      <h2 id="payment-heading">Payment</h2>
      <PaymentSummary payments={payments ?? []} headingId="payment-heading" />
      {order.status === 'PENDING_PAYMENT' && waiting ? (
        <p>
          <Link to={paymentPath(waiting.paymentId)}>See payment #{waiting.paymentId}, still waiting for the provider</Link>
        </p>
      ) : null}
      {order.status === 'PENDING_PAYMENT' ? <Cashier orderIds={[order.id]} gatewaysOnly title="Or pay through a provider" /> : null}
    </section>
  );
}

function OrderView({ order, payments, refresh }: { order: Order; payments: OrderData['orderPayments']; refresh: () => void }) {
  const paidOrLater = order.status === 'PAID' || order.status === 'SHIPPED' || order.status === 'DELIVERED' || order.status === 'COMPLETED';
  return (
    <>
      <h1>
        Order #{order.id} <OrderStatusBadge status={order.status} />
      </h1>
      <p className="meta">
        From <Link to={`/shops/${order.shop.slug}`}>{order.shop.name}</Link> · placed <time dateTime={order.createdAt}>{formatDateTime(order.createdAt)}</time>
        {order.cancelReason ? ` · cancelled (${order.cancelReason.replace(/_/g, ' ')})` : null}
      </p>
      <OrderActions order={order} refresh={refresh} />
      <table className="lines">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Unit price</th>
            <th scope="col">Quantity</th>
            <th scope="col">Amount</th>
            <th scope="col">Shipped</th>
          </tr>
        </thead>
        <tbody>
          {order.items.map((i) => (
            <tr key={i.id}>
              <td>
                <Link to={`/products/${i.productId}`}>{i.productName}</Link> <span className="meta">{i.skuName}</span>
                {i.pricing !== 'STANDARD' ? <span className="badge">{i.pricing === 'FLASH_SALE' ? 'Flash sale' : 'Group price'}</span> : null}
                {i.refundQuantity > 0 ? <p className="meta">{i.refundQuantity} in a refund or return</p> : null}
              </td>
              <td>
                <Money amount={i.unitPrice} />
              </td>
              <td>{i.quantity}</td>
              <td>
                <Money amount={i.amount} />
              </td>
              <td>{i.shippedQuantity}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <OrderTotals order={order} />
      <OrderPayments order={order} payments={payments} />
      {order.shippingAddress ? (
        <section aria-labelledby="ship-to">
          <h2 id="ship-to">Shipping to</h2>
          <address>
            {order.shippingAddress.recipient}, {order.shippingAddress.phone}
            <br />
            {order.shippingAddress.address} ({regionLabel(order.shippingAddress.region)})
          </address>
        </section>
      ) : null}
      {order.shipments.length > 0 ? (
        <section aria-labelledby="parcels">
          <h2 id="parcels">Parcels</h2>
          <ul>
            {order.shipments.map((s) => (
              <li key={s.id}>
                {s.carrier} {s.trackingNumber} · sent <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {(order.status === 'DELIVERED' || order.status === 'COMPLETED') && order.items.some((i) => !i.reviewed) ? (
        <section aria-labelledby="review-heading">
          <h2 id="review-heading">Review your items</h2>
          {order.items
            .filter((i) => !i.reviewed)
            .map((i) => (
              <ReviewForm key={i.id} orderId={order.id} item={i} />
            ))}
        </section>
      ) : null}
      {order.status === 'PAID' || order.status === 'DELIVERED' ? <RefundForm order={order} onDone={refresh} /> : null}
      {paidOrLater ? <InvoicePanel orderId={order.id} /> : null}
    </>
  );
}

function OrderContent() {
  const id = Number(useParams().id);
  const [result, reexecute] = useQuery({ query: OrderPageQuery, variables: { id }, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  usePageTitle(result.data?.order ? `Order #${result.data.order.id}` : 'Order');
  return (
    <QueryResult result={result} what="Loading the order">
      {({ currency, order, orderPayments }) => (
        <CurrencyProvider currency={currency}>{order ? <OrderView order={order} payments={orderPayments} refresh={refresh} /> : <Missing error={result.error} what="order" />}</CurrencyProvider>
      )}
    </QueryResult>
  );
}

export default function OrderPage() {
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <OrderContent />
    </RequireSignIn>
  );
}
