import { graphql } from '../../gql';
import type { ReviewFieldsFragment } from '../../gql/graphql';
import { Stars } from '../../ui/stars';
import { formatDate } from '../../ui/dates';

export const ReviewFields = graphql(`
  fragment ReviewFields on Review {
    id
    author
    rating
    text
    skuName
    createdAt
    reply {
      text
    }
  }
`);

interface Summary {
  count: number;
  average?: number | null;
  perStar: { rating: number; count: number }[];
}

/** Rating summary (per-star bars) and the latest reviews. */
export function ReviewList({ rating, reviews, total }: { rating: Summary; reviews: ReviewFieldsFragment[]; total: number }) {
  return (
    <section aria-labelledby="reviews-heading" className="reviews">
      <h2 id="reviews-heading">Reviews ({total})</h2>
      {rating.average !== null && rating.average !== undefined ? (
        <div className="rating-summary">
          <p>
            <Stars average={rating.average} /> {rating.average.toFixed(1)} out of 5 from {rating.count} {rating.count === 1 ? 'review' : 'reviews'}
          </p>
          <dl className="star-bars">
            {[...rating.perStar].reverse().map((s) => (
              <div key={s.rating}>
                <dt>{s.rating} stars</dt>
                <dd>
                  <meter min={0} max={Math.max(1, rating.count)} value={s.count} aria-label={`${s.count} reviews with ${s.rating} stars`} /> {s.count}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
      {reviews.length === 0 ? (
        <p className="empty">No reviews yet.</p>
      ) : (
        <ul className="review-list">
          {reviews.map((r) => (
            <li key={r.id}>
              <p>
                <Stars average={r.rating} /> <strong>{r.author}</strong> · {r.skuName} · <time dateTime={r.createdAt}>{formatDate(r.createdAt)}</time>
              </p>
              <p>{r.text}</p>
              {r.reply ? <p className="reply">Shop reply: {r.reply.text}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
