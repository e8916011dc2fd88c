import { type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { PaymentMethod } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { ErrorNotice, Loading } from '../../ui/query-state';
import { methodLabel, paymentStatusLabel } from '../../ui/payment-summary';
import { OrderPaymentsPanel } from '../order-payments-panel';
import { int, text, when } from '../kit';

const PaymentByReference = graphql(`
  query AdminPaymentByReference($method: PaymentMethod!, $providerReference: String!) {
    paymentByReference(method: $method, providerReference: $providerReference) {
      id
      customerId
      customerName
      method
      status
      amount
      currency
      capturedAmount
      refundedAmount
      providerReference
      closeReason
      orderIds
      createdAt
      capturedAt
      closedAt
    }
  }
`);

const AdminPaymentEvents = graphql(`
  query AdminPaymentEvents($paymentId: Int!) {
    paymentEvents(paymentId: $paymentId) {
      id
      source
      status
      amount
      currency
      verified
      outcome
      createdAt
    }
  }
`);

const LateMoneyList = graphql(`
  query AdminLateMoney {
    lateMoney(pageSize: 20) {
      total
      items {
        id
        paymentId
        method
        providerReference
        customerName
        amount
        status
        unpaidOrderIds
        createdAt
        updatedAt
      }
    }
  }
`);

const REFUND_STATUS: Record<string, string> = { PENDING: 'On its way back', SUCCEEDED: 'Back on the method', FAILED: 'Refused: on the balance' };

/**
 * Late money: what a gateway captured for orders that could no longer be paid (cancelled by the
 * payment window, a seat filled meanwhile), sent back to the method by itself. Newest first.
 */
function LateMoney() {
  const [result] = useQuery({ query: LateMoneyList });
  if (result.error && !result.data) return <ErrorNotice error={result.error} />;
  if (!result.data) return <Loading what="Loading late money" />;
  const { items, total } = result.data.lateMoney;
  return (
    <section className="panel" aria-labelledby="late-money-heading" data-testid="late-money">
      <h2 id="late-money-heading">Late money ({total})</h2>
      <p className="meta">Captured after its orders could no longer be paid; each goes back to the method by itself.</p>
      {items.length === 0 ? (
        <p className="meta">None.</p>
      ) : (
        <table className="grid">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Payment</th>
              <th scope="col">Customer</th>
              <th scope="col">Orders not paid</th>
              <th scope="col">Amount</th>
              <th scope="col">Refund</th>
            </tr>
          </thead>
          <tbody>
            {items.map((m) => (
              <tr key={m.id}>
                <td>{when(m.createdAt)}</td>
                <td>
                  {m.providerReference ? <Link to={`/admin/payments?method=${m.method}&reference=${encodeURIComponent(m.providerReference)}`}>#{m.paymentId}</Link> : `#${m.paymentId}`} ({methodLabel(m.method)})
                </td>
                <td>{m.customerName}</td>
                <td>{m.unpaidOrderIds.map((id) => `#${id}`).join(', ')}</td>
                <td>
                  <Money amount={m.amount} />
                </td>
                <td>{REFUND_STATUS[m.status] ?? m.status}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

const GATEWAYS: PaymentMethod[] = ['SANDBOX', 'STRIPE', 'ALIPAY', 'WALLET'];

function PaymentEvents({ paymentId }: { paymentId: number }) {
  const [result] = useQuery({ query: AdminPaymentEvents, variables: { paymentId } });
  if (result.error && !result.data?.paymentEvents) return <ErrorNotice error={result.error} />;
  if (!result.data?.paymentEvents) return <Loading what="Loading what the provider said" />;
  const events = result.data.paymentEvents;
  if (events.length === 0) return <p className="meta">No provider message recorded.</p>;
  return (
    <table className="grid" data-testid="payment-events">
      <caption>What the provider told us, and what we did</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Source</th>
          <th scope="col">Provider said</th>
          <th scope="col">Verified</th>
          <th scope="col">Outcome</th>
        </tr>
      </thead>
      <tbody>
        {events.map((e) => (
          <tr key={e.id}>
            <td>{when(e.createdAt)}</td>
            <td>{e.source}</td>
            <td>
              {e.status ?? '—'} {e.amount !== null ? <Money amount={e.amount} /> : null}
            </td>
            <td>{e.verified ? 'yes' : 'no'}</td>
            <td>{e.outcome.replace(/_/g, ' ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ReferenceLookup({ method, reference }: { method: PaymentMethod; reference: string }) {
  const [result] = useQuery({ query: PaymentByReference, variables: { method, providerReference: reference } });
  if (result.fetching && !result.data) return <Loading what="Looking the payment up" />;
  const payment = result.data?.paymentByReference;
  if (!payment) return result.error ? <ErrorNotice error={result.error} title="No such payment" /> : null;
  return (
    <section className="panel" aria-labelledby="found-heading" data-testid="found-payment">
      <h2 id="found-heading">
        Payment #{payment.id}: {paymentStatusLabel(payment.status)}
      </h2>
      <dl className="stats">
        <div>
          <dt>Method</dt>
          <dd>{methodLabel(payment.method)}</dd>
        </div>
        <div>
          <dt>Amount / captured / refunded</dt>
          <dd>
            <Money amount={payment.amount} /> / <Money amount={payment.capturedAmount} /> / <Money amount={payment.refundedAmount} />
          </dd>
        </div>
        <div>
          <dt>Customer</dt>
          <dd>{payment.customerName}</dd>
        </div>
        <div>
          <dt>Orders</dt>
          <dd>
            {payment.orderIds.map((id, i) => (
              <span key={id}>
                {i > 0 ? ', ' : null}
                <Link to={`/admin/payments?order=${id}`}>#{id}</Link>
              </span>
            ))}
          </dd>
        </div>
        <div>
          <dt>Started / captured / closed</dt>
          <dd>
            {when(payment.createdAt)} / {when(payment.capturedAt)} / {when(payment.closedAt)}
            {payment.closeReason ? ` (${payment.closeReason.replace(/_/g, ' ')})` : ''}
          </dd>
        </div>
      </dl>
      <PaymentEvents paymentId={payment.id} />
    </section>
  );
}

/**
 * The payment desk: a payment found by the provider's reference (a PaymentIntent id, a trade number,
 * as a customer or the provider's support quotes it), with what the provider said; and any order's
 * payments and the refunds sent back on their method.
 */
export function PaymentDesk() {
  const [params, setParams] = useSearchParams();
  const method = (params.get('method') as PaymentMethod | null) ?? 'SANDBOX';
  const reference = params.get('reference') ?? '';
  const order = Number.parseInt(params.get('order') ?? '', 10);
  const findReference = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setParams({ method: text(form.get('method')), reference: text(form.get('reference')) });
  };
  const findOrder = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = int(new FormData(event.currentTarget).get('order'));
    if (id > 0) setParams({ order: String(id) });
  };
  return (
    <>
      <h1>Payments</h1>
      <form className="toolbar" onSubmit={findReference} aria-label="Find a payment by the provider's reference">
        <label>
          Provider
          <select name="method" defaultValue={method}>
            {GATEWAYS.map((m) => (
              <option key={m} value={m}>
                {methodLabel(m)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Provider reference
          <input name="reference" required maxLength={255} defaultValue={reference} autoComplete="off" />
        </label>
        <button type="submit">Find payment</button>
      </form>
      <form className="toolbar" onSubmit={findOrder} aria-label="An order's payments">
        <label>
          Order number
          <input name="order" type="number" min={1} required defaultValue={Number.isFinite(order) ? order : undefined} />
        </label>
        <button type="submit">Show its payments</button>
      </form>
      {reference ? <ReferenceLookup method={method} reference={reference} /> : null}
      {Number.isFinite(order) && order > 0 ? <OrderPaymentsPanel orderId={order} /> : null}
      <LateMoney />
    </>
  );
}
