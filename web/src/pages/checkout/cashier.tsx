import { useId, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import type { PaymentMethod } from '../../gql/graphql';
import { refusalOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/query-state';
import { methodLabel } from '../../ui/payment-summary';
import { useIdempotencyKey } from '../../api/idempotency-key';

const CashierMethods = graphql(`
  query CashierMethods {
    paymentMethods
  }
`);

const StartPayment = graphql(`
  mutation StartPayment($input: StartPaymentInput!) {
    startPayment(input: $input) {
      payment {
        id
        status
        nextStep {
          type
          url
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** Where the customer waits for a payment's result (the page reads it from the server, never from the return). */
export const paymentPath = (paymentId: number) => `/checkout/payment/${paymentId}`;

/** Only the provider's own pages: a next step that is not an https address (or the sandbox's own http one in development) is not followed. */
const followable = (url: string) => /^https:\/\//.test(url) || (location.protocol === 'http:' && /^http:\/\//.test(url));

interface WalletChoice {
  /** The button's words when the balance is chosen. */
  label: string;
  pay: () => void;
  busy: boolean;
}

/**
 * The cashier: the methods this server offers, one chosen, then started for the orders of one
 * checkout. A gateway's next step is followed: a redirect goes to the provider's page; otherwise the
 * customer goes to the waiting page, which confirms a card with Stripe's own library or waits for the
 * gateway's answer. `wallet`: the caller pays from the balance itself (the checkout page's "Pay all",
 * with its idempotency key); without it the balance is left out when `gatewaysOnly`, else started as
 * a payment like the others.
 */
export function Cashier({ orderIds, wallet, gatewaysOnly = false, title = 'Pay with' }: { orderIds: number[]; wallet?: WalletChoice; gatewaysOnly?: boolean; title?: string }) {
  const [methods] = useQuery({ query: CashierMethods });
  const [state, start] = useMutation(StartPayment);
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<PaymentMethod | null>(null);
  const [decline, setDecline] = useState(false);
  const [leaving, setLeaving] = useState(false);
  // One key per payment the customer means: a retry after a lost answer never starts a second one.
  const idempotency = useIdempotencyKey();
  const name = useId();
  const offered = (methods.data?.paymentMethods ?? []).filter((m) => !(gatewaysOnly && m === 'WALLET'));
  const method = chosen && offered.includes(chosen) ? chosen : (offered[0] ?? null);
  // Another choice is another payment, not the retry of one whose answer was lost: a new key.
  const choose = (m: PaymentMethod) => {
    setChosen(m);
    idempotency.answered();
  };
  const chooseDecline = (on: boolean) => {
    setDecline(on);
    idempotency.answered();
  };
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!method) return;
    if (method === 'WALLET' && wallet) return wallet.pay();
    // A phone gets the provider's mobile page (Alipay's mobile-web pay), a larger screen its desktop one.
    const device = matchMedia('(max-width: 720px)').matches ? 'MOBILE' : 'DESKTOP';
    const result = await start({ input: { orderIds, method, device, simulateFailure: method === 'SANDBOX' && decline ? true : null, idempotencyKey: idempotency.key() } });
    if (!result.error?.networkError) idempotency.answered();
    const payment = result.data?.startPayment.payment;
    if (!payment) return;
    const next = payment.nextStep;
    if (next?.type === 'redirect' && next.url && followable(next.url)) {
      setLeaving(true);
      location.assign(next.url);
      return;
    }
    navigate(paymentPath(payment.id));
  };
  const refused = refusalOf(state.error, state.data?.startPayment);
  // Only the balance offered and the caller pays from it already: nothing to choose here.
  if (methods.data && offered.length === 0) return null;
  const busy = state.fetching || leaving || (method === 'WALLET' && wallet?.busy === true);
  const buttonLabel = method === 'WALLET' && wallet ? wallet.label : method ? `Pay with ${methodLabel(method)}` : 'Pay';
  return (
    <form className="cashier" onSubmit={submit} aria-busy={methods.fetching}>
      <fieldset>
        <legend>{title}</legend>
        {methods.error ? <ErrorNotice error={methods.error} title="The payment methods could not be loaded" /> : null}
        {offered.map((m) => (
          <label key={m} className="method-choice">
            <input type="radio" name={name} value={m} checked={m === method} onChange={() => choose(m)} /> {methodLabel(m)}
          </label>
        ))}
        {method === 'SANDBOX' ? (
          <label className="method-option">
            <input type="checkbox" checked={decline} onChange={(e) => chooseDecline(e.target.checked)} /> Make the sandbox customer decline (to try a failure)
          </label>
        ) : null}
      </fieldset>
      {refused ? <ErrorNotice error={refused} title="Payment not started" /> : null}
      <button type="submit" className="primary" disabled={!method || busy}>
        {leaving ? 'Going to the provider…' : state.fetching ? 'Starting the payment…' : buttonLabel}
      </button>
    </form>
  );
}
