import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminReviewsQuery } from '../gql/graphql';
import { Stars } from '../../ui/stars';
import { ConfirmButton, OptimisticSwitch, StateSelect, useAction, useFilterParams, usePageParam, when, useListContext } from '../kit';
import { DataTable, useEachSelected, type Column, type Selection } from '../data-table';

const PAGE_SIZE = 20;

const AdminReviews = graphql(`
  query AdminReviews($page: Int, $pageSize: Int, $hidden: Boolean, $q: String, $rating: Int) {
    adminReviews(page: $page, pageSize: $pageSize, hidden: $hidden, q: $q, rating: $rating) {
      page
      pageSize
      total
      items {
        id
        productId
        productName
        shopId
        shopName
        skuName
        author
        rating
        text
        hidden
        createdAt
      }
    }
  }
`);
const HideReview = graphql(`
  mutation ConsoleHideReview($input: HideReviewInput!) {
    hideReview(input: $input) {
      review {
        id
        hidden
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const ShowReview = graphql(`
  mutation ConsoleShowReview($input: ShowReviewInput!) {
    showReview(input: $input) {
      review {
        id
        hidden
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** Visible or hidden, switched optimistically; hiding asks first. */
function Moderate({ id, hidden }: { id: number; hidden: boolean }) {
  const hide = useAction(HideReview, (d) => d.hideReview, 'Not hidden');
  const show = useAction(ShowReview, (d) => d.showReview, 'Not shown');
  const input = { input: { reviewId: id } };
  return (
    <OptimisticSwitch
      value={hidden}
      text={(shown) => <span>{shown ? 'Hidden' : 'Visible'}</span>}
      busy={hide.fetching || show.fetching}
      action={(shown) =>
        shown
          ? { to: false, label: 'Show', run: async () => (await show.run(input))?.review?.hidden ?? null }
          : { to: true, label: 'Hide', confirm: 'Hide this review from the storefront?', run: async () => (await hide.run(input))?.review?.hidden ?? null }
      }
    >
      {hide.refusal}
      {show.refusal}
    </OptimisticSwitch>
  );
}

type ListedReview = AdminReviewsQuery['adminReviews']['items'][number];

/** A review as a moderator names it: by its author and product. */
const reviewName = (r: ListedReview) => `${r.author} on ${r.productName}`;

const REVIEW_COLUMNS: readonly Column<ListedReview>[] = [
  {
    header: 'Review',
    cell: (r) => (
      <>
        <Stars average={r.rating} /> {r.author} on <Link to={`/products/${r.productId}`}>{r.productName}</Link> ({r.skuName}) from {r.shopName} · {when(r.createdAt)}
      </>
    ),
  },
  { header: 'Text', cell: (r) => r.text },
  { header: 'State', cell: (r) => <Moderate id={r.id} hidden={r.hidden} /> },
];

/**
 * Hides or shows the selected reviews, one mutation each (the single review's, with its permission),
 * then says how many moved and which were refused, by product and author.
 */
function ReviewBulkActions(selection: Selection<ListedReview>) {
  const { rows } = selection;
  const hide = useAction(HideReview, (d) => d.hideReview, 'Not hidden');
  const show = useAction(ShowReview, (d) => d.showReview, 'Not shown');
  const { busy, run: each } = useEachSelected(selection, reviewName);
  const run = (action: typeof hide | typeof show, moved: string) => each(async (row) => Boolean((await action.run({ input: { reviewId: row.id } }))?.review), moved);
  return (
    <>
      <ConfirmButton label="Hide" question={`Hide ${rows.length} from the storefront?`} disabled={busy} onConfirm={() => void run(hide, 'hidden')} />
      <button type="button" disabled={busy} onClick={() => void run(show, 'shown')}>
        Show
      </button>
    </>
  );
}

const STARS = ['5', '4', '3', '2', '1'];

export function ReviewModeration() {
  const [page] = usePageParam();
  const [{ hidden, q, rating }, setFilters] = useFilterParams(['hidden', 'q', 'rating']);
  const stars = STARS.includes(rating) ? Number(rating) : null;
  const [result, reread] = useQuery({
    query: AdminReviews,
    context: useListContext('Review'),
    variables: { page, pageSize: PAGE_SIZE, hidden: hidden === '' ? null : hidden === 'yes', q: q || null, rating: stars },
  });
  return (
    <>
      <h1>Review moderation</h1>
      <DataTable
        label="Reviews"
        testId="review-table"
        result={result}
        list={(data) => data.adminReviews}
        columns={REVIEW_COLUMNS}
        rowKey={(r) => r.id}
        rowLabel={reviewName}
        rowProps={(r) => ({ 'data-review-id': r.id })}
        search={{ label: 'Words, product or shop' }}
        filters={
          <>
            <label>
              Show
              <select value={hidden} onChange={(e) => setFilters({ hidden: e.target.value })}>
                <option value="">All reviews</option>
                <option value="no">Visible</option>
                <option value="yes">Hidden</option>
              </select>
            </label>
            <StateSelect label="Stars" value={stars === null ? '' : String(stars)} states={STARS} onChange={(value) => setFilters({ rating: value })} />
          </>
        }
        bulk={(selection) => <ReviewBulkActions {...selection} />}
        reread={reread}
        empty="No review matches."
        what="Loading reviews"
      />
    </>
  );
}
