import { useState, type FormEvent } from 'react';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import { ErrorNotice } from '../../ui/query-state';
import { errorCode, refusalOf } from '../../api/errors';

const ReviewOrderItem = graphql(`
  mutation ReviewOrderItem($input: ReviewOrderItemInput!) {
    reviewOrderItem(input: $input) {
      review {
        id
        rating
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** One review per delivered item: shown only for items not yet reviewed; REVIEW_EXISTS (another tab reviewed it) says so. */
export function ReviewForm({ orderId, item }: { orderId: number; item: { id: number; productName: string; skuName: string } }) {
  const [state, review] = useMutation(ReviewOrderItem);
  const [done, setDone] = useState<'saved' | 'exists' | null>(null);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await review({ input: { orderId, orderItemId: item.id, rating: Number(form.get('rating')), text: String(form.get('text') ?? '').trim() } });
    const refusal = refusalOf(result.error, result.data?.reviewOrderItem);
    // A second review is refused: say so, and do not pretend this one was saved.
    if (!refusal) setDone('saved');
    else if (errorCode(refusal) === 'REVIEW_EXISTS') setDone('exists');
  };
  const refused = refusalOf(state.error, state.data?.reviewOrderItem);
  if (done === 'saved') return <p role="status">Thanks: your review of {item.productName} is saved.</p>;
  if (done === 'exists') return <p role="status">You have already reviewed {item.productName}: each item takes one review.</p>;
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
      {refused ? <ErrorNotice error={refused} title="Review not saved" /> : null}
      <button type="submit" disabled={state.fetching}>
        Post review
      </button>
    </form>
  );
}
