import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { QueryResult } from '../../ui/query-result';
import { Stars } from '../../ui/stars';
import { OptimisticSwitch, Pager, useAction, useFilterParam, usePageParam, when, useListContext } from '../kit';

const PAGE_SIZE = 20;

const AdminReviews = graphql(`
  query AdminReviews($page: Int, $pageSize: Int, $hidden: Boolean) {
    adminReviews(page: $page, pageSize: $pageSize, hidden: $hidden) {
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

export function ReviewModeration() {
  const [page, setPage] = usePageParam();
  const [hidden, setHidden] = useFilterParam('hidden');
  const [result] = useQuery({ query: AdminReviews, context: useListContext('Review'), variables: { page, pageSize: PAGE_SIZE, hidden: hidden === '' ? null : hidden === 'yes' } });
  return (
    <>
      <h1>Review moderation</h1>
      <div className="toolbar">
        <label>
          Show
          <select value={hidden} onChange={(e) => setHidden(e.target.value)}>
            <option value="">All reviews</option>
            <option value="no">Visible</option>
            <option value="yes">Hidden</option>
          </select>
        </label>
      </div>
      <QueryResult result={result} what="Loading reviews">
        {({ adminReviews: list }) => (
          <>
            <table className="grid">
              <thead>
                <tr>
                  <th scope="col">Review</th>
                  <th scope="col">Text</th>
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {list.items.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Stars average={r.rating} /> {r.author} on <Link to={`/products/${r.productId}`}>{r.productName}</Link> ({r.skuName}) from {r.shopName} · {when(r.createdAt)}
                    </td>
                    <td>{r.text}</td>
                    <td>
                      <Moderate id={r.id} hidden={r.hidden} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {list.items.length === 0 ? <p className="empty">No review here.</p> : null}
            <Pager page={list.page} pageSize={list.pageSize} total={list.total} onPage={setPage} />
          </>
        )}
      </QueryResult>
    </>
  );
}
