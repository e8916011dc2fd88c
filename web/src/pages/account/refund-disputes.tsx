import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { MyDisputeFieldsFragment } from '../../gql/graphql';
import { Money } from '../../money/currency-context';
import { refusalOf } from '../../api/errors';
import { ErrorNotice } from '../../ui/query-state';

export const MyDisputeFields = graphql(`
  fragment MyDisputeFields on Dispute {
    id
    refundId
    orderId
    shop {
      name
    }
    status
    reason
    ruling
    refundedAmount
  }
`);

const EscalateRefund = graphql(`
  mutation EscalateRefund($input: EscalateRefundInput!) {
    escalateRefund(input: $input) {
      dispute {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const STATUS: Record<string, string> = { OPEN: 'with the platform', REFUNDED: 'refunded by the platform', UPHELD: "the shop's answer upheld" };

/**
 * A refund or return the shop rejected: the customer asks the platform to rule, with a reason (the
 * platform then refunds from the shop's share or upholds the rejection; both sides read the ruling).
 */
export function EscalateForm({ refundId, disputed }: { refundId: number; disputed: boolean }) {
  const [state, escalate] = useMutation(EscalateRefund);
  const [open, setOpen] = useState(false);
  const reasonId = useId();
  if (disputed) return null;
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Ask the platform to rule
      </button>
    );
  }
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const reason = String(new FormData(event.currentTarget).get('reason') ?? '').trim();
    const result = await escalate({ input: { refundId, reason } });
    if (result.data?.escalateRefund.dispute) setOpen(false);
  };
  const refused = refusalOf(state.error, state.data?.escalateRefund);
  return (
    <form onSubmit={submit} aria-label={`Ask the platform about refund #${refundId}`} noValidate>
      <label htmlFor={reasonId}>Why the platform should rule otherwise</label>
      <textarea id={reasonId} name="reason" maxLength={500} rows={3} />
      {refused ? <ErrorNotice error={refused} title="Not sent to the platform" /> : null}
      <button type="submit" className="primary" disabled={state.fetching}>
        Send to the platform
      </button>
    </form>
  );
}

/** The customer's disputes, newest first, with the platform's ruling once it is made. */
export function MyDisputesSection({ disputes }: { disputes: readonly MyDisputeFieldsFragment[] }) {
  if (disputes.length === 0) return null;
  return (
    <section aria-labelledby="my-disputes">
      <h2 id="my-disputes">Asked of the platform</h2>
      <ul>
        {disputes.map((d) => (
          <li key={d.id} data-testid="my-dispute">
            Refund #{d.refundId} for <Link to={`/orders/${d.orderId}`}>order #{d.orderId}</Link> ({d.shop.name}): {STATUS[d.status] ?? d.status.toLowerCase()}
            {d.status === 'REFUNDED' ? (
              <>
                , <Money amount={d.refundedAmount} /> back
              </>
            ) : null}
            . You wrote: “{d.reason}”.
            {d.ruling ? <p className="meta">The platform: “{d.ruling}”</p> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
