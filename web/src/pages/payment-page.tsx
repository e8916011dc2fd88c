import { useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery, useSubscription } from 'urql';
import { graphql } from '../gql';
import type { PaymentPageFieldsFragment } from '../gql/graphql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { Missing, QueryResult } from '../ui/query-result';
import { usePageTitle } from '../ui/page-title';
import { RequireSignIn } from '../auth/require-sign-in';
import { useLiveConnection } from '../api/live-connection';
import { methodLabel } from '../ui/payment-summary';
import { Cashier } from './checkout/cashier';
import { StripeConfirm } from './checkout/stripe-confirm';

export const PaymentPageFields = graphql(`
  fragment PaymentPageFields on Payment {
    id
    method
    status
    amount
    capturedAmount
    refundedAmount
    closeReason
    orderIds
    nextStep {
      type
      message
      url
      clientSecret
      publishableKey
    }
  }
`);

const PaymentPageQuery = graphql(`
  query PaymentPage($id: Int!) {
    currency {
      ...CurrencyFields
    }
    payment(id: $id) {
      ...PaymentPageFields
    }
  }
`);

const PaymentUpdates = graphql(`
  subscription PaymentUpdates($paymentId: Int!) {
    paymentUpdates(paymentId: $paymentId) {
      ...PaymentPageFields
    }
  }
`);

const OPEN = new Set(['PENDING', 'AUTHORIZED']);

/**
 * Stripe sent the customer back after confirming the card (`redirect_status` on the return): the card
 * form is not shown again while the page waits. Only the form: the result still comes from the server.
 */
const confirmedAtProvider = () => ['succeeded', 'processing'].includes(new URLSearchParams(location.search).get('redirect_status') ?? '');

/** The payment's outcome, moved into view and focused when it arrives, so a screen reader hears it and nothing jumps. */
function Outcome({ payment }: { payment: PaymentPageFieldsFragment }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const open = OPEN.has(payment.status);
  useEffect(() => {
    if (!open) heading.current?.focus();
  }, [open]);
  if (open) {
    const step = payment.nextStep;
    return (
      <>
        <h2 ref={heading} tabIndex={-1}>
          Checking your payment…
        </h2>
        <p>
          We are waiting for {methodLabel(payment.method)} to tell us the result; this page updates by itself.
          {step?.type === 'wait' && step.message ? <span className="meta"> ({step.message})</span> : null}
        </p>
        {step?.type === 'redirect' && step.url ? (
          <p>
            <a href={step.url}>Continue at {methodLabel(payment.method)}</a>
          </p>
        ) : null}
        {step?.type === 'client_secret' && step.clientSecret ? (
          confirmedAtProvider() ? (
            <p className="meta">Your card was sent to {methodLabel(payment.method)}; its confirmation is on its way.</p>
          ) : (
            <StripeConfirm clientSecret={step.clientSecret} publishableKey={step.publishableKey} />
          )
        ) : null}
      </>
    );
  }
  if (payment.status === 'CAPTURED') {
    return (
      <>
        <h2 ref={heading} tabIndex={-1}>
          Paid. Thank you!
        </h2>
        <p>
          <Money amount={payment.capturedAmount} /> received by {methodLabel(payment.method)}.
        </p>
        <ul className="paid-orders">
          {payment.orderIds.map((id) => (
            <li key={id}>
              <Link to={`/orders/${id}`}>View order #{id}</Link>
            </li>
          ))}
        </ul>
      </>
    );
  }
  return (
    <>
      <h2 ref={heading} tabIndex={-1}>
        The payment did not go through
      </h2>
      <p>
        {methodLabel(payment.method)}: {payment.status.toLowerCase()}
        {payment.closeReason ? ` (${payment.closeReason.replace(/_/g, ' ')})` : ''}. Nothing was charged; your orders wait for a new payment.
      </p>
      <Cashier orderIds={payment.orderIds} title="Try again with" />
    </>
  );
}

function PaymentView({ id, initial }: { id: number; initial: PaymentPageFieldsFragment }) {
  // The result comes only from the server: the payment as read now, then live as its events arrive.
  const [live] = useSubscription({ query: PaymentUpdates, variables: { paymentId: id } });
  const connection = useLiveConnection();
  const payment = live.data?.paymentUpdates ?? initial;
  return (
    <>
      <p className="meta">
        Payment #{payment.id} of <Money amount={payment.amount} /> for {payment.orderIds.length === 1 ? `order #${payment.orderIds[0]}` : `orders ${payment.orderIds.map((o) => `#${o}`).join(', ')}`}
      </p>
      <section className="payment-outcome" aria-live="polite" aria-atomic="true" data-status={payment.status}>
        <Outcome payment={payment} />
      </section>
      {OPEN.has(payment.status) && connection.state === 'reconnecting' ? <p className="meta">Reconnecting to the live updates…</p> : null}
    </>
  );
}

function PaymentContent() {
  const id = Number(useParams().id);
  const [result] = useQuery({ query: PaymentPageQuery, variables: { id }, requestPolicy: 'network-only' });
  usePageTitle(`Payment #${id}`);
  return (
    <>
      <h1>Your payment</h1>
      <QueryResult result={result} what="Loading the payment">
        {({ currency, payment }) => (
          <CurrencyProvider currency={currency}>{payment ? <PaymentView id={id} initial={payment} /> : <Missing error={result.error} what="payment" />}</CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}

/** The waiting page after a gateway: "checking" until the server has the provider's verified answer. */
export default function PaymentPage() {
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <PaymentContent />
    </RequireSignIn>
  );
}
