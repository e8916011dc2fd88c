import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { ErrorNotice } from '../../ui/query-state';
import { errorCode } from '../../api/errors';

const ReviewOrderItem = graphql(`
  mutation ReviewOrderItem($orderId: Int!, $orderItemId: Int!, $input: ReviewInput!) {
    reviewOrderItem(orderId: $orderId, orderItemId: $orderItemId, input: $input) {
      id
      rating
    }
  }
`);

/** One review per delivered item (the API answers REVIEW_EXISTS for a second one). */
export function ReviewForm({ orderId, item }: { orderId: number; item: { id: number; productName: string; skuName: string } }) {
  const [state, review] = useMutation(ReviewOrderItem);
  const [done, setDone] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await review({ orderId, orderItemId: item.id, input: { rating: Number(form.get('rating')), text: String(form.get('text') ?? '').trim() } });
    if (!result.error || errorCode(result.error) === 'REVIEW_EXISTS') setDone(true);
  };
  if (done) return <p role="status">Thanks: your review of {item.productName} is saved.</p>;
  return (
    <form onSubmit={submit} className="review-form" aria-label={`Review ${item.productName}`}>
      <h3>
        {item.productName} <span className="meta">{item.skuName}</span>
      </h3>
      <label>
        Rating{' '}
        <select name="rating" defaultValue="5">
          {[5, 4, 3, 2, 1].map((r) => (
            <option key={r} value={r}>
              {r} {r === 1 ? 'star' : 'stars'}
            </option>
          ))}
        </select>
      </label>
      <label>
        Your review <textarea name="text" required maxLength={2000} rows={3} />
      </label>
      {state.error ? <ErrorNotice error={state.error} title="Review not saved" /> : null}
      <button type="submit" disabled={state.fetching}>
        Post review
      </button>
    </form>
  );
}
