import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { ErrorNotice } from '../../ui/query-state';
import { refusalOf } from '../../api/errors';

const RequestRefund = graphql(`
  mutation RequestRefund($input: RequestRefundInput!) {
    requestRefund(input: $input) {
      refund {
        id
        kind
        status
        amount
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

interface RefundableOrder {
  id: number;
  status: string;
  items: { id: number; productName: string; skuName: string; quantity: number; shippedQuantity: number; refundQuantity: number }[];
}

/** A refund of units not shipped (paid order) or a return of delivered units. */
export function RefundForm({ order, onDone }: { order: RefundableOrder; onDone: () => void }) {
  const [state, request] = useMutation(RequestRefund);
  const [sent, setSent] = useState(false);
  const kind = order.status === 'DELIVERED' ? 'RETURN' : 'REFUND';
  const left = (i: RefundableOrder['items'][number]) => (kind === 'REFUND' ? i.quantity - i.shippedQuantity - i.refundQuantity : i.quantity - i.refundQuantity);
  const items = order.items.filter((i) => left(i) > 0);
  // Once every unit is asked for the form goes, but the confirmation of the last request stays.
  if (items.length === 0 && !sent) return null;
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const chosen = items.map((i) => ({ orderItemId: i.id, quantity: Number(form.get(`qty-${i.id}`)) || 0 })).filter((i) => i.quantity > 0);
    const result = await request({ input: { orderId: order.id, kind, reason: String(form.get('reason') ?? '').trim(), items: chosen } });
    if (result.data?.requestRefund.refund) {
      setSent(true);
      onDone();
    }
  };
  const refused = refusalOf(state.error, state.data?.requestRefund);
  return (
    <section aria-labelledby="refund-heading">
      <h2 id="refund-heading">{kind === 'REFUND' ? 'Ask for a refund' : 'Return items'}</h2>
      {sent ? <p role="status">Your request is with the shop.</p> : null}
      {items.length > 0 ? (
        <form onSubmit={submit} className="refund-form">
          {items.map((i) => (
            <label key={i.id}>
              {i.productName} ({i.skuName}), up to {left(i)}: <input type="number" name={`qty-${i.id}`} min={0} max={left(i)} defaultValue={0} />
            </label>
          ))}
          <label>
            Reason <input name="reason" required maxLength={500} />
          </label>
          {refused ? <ErrorNotice error={refused} title="Request not sent" /> : null}
          <button type="submit" disabled={state.fetching}>
            Send request
          </button>
        </form>
      ) : null}
    </section>
  );
}
