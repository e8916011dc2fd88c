import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { MerchantRefundsQuery, MerchantReviewsQuery, RefundKind, RefundStatus } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { Stars } from '../../ui/stars';
import { ActionButton, ConfirmButton, StateSelect, label, text, useFilterParam, useFilterParams, usePageParam, useAction, when, useListContext } from '../kit';
import { DataTable, useEachSelected, type Column, type Selection } from '../data-table';

const PAGE_SIZE = 20;
const REFUND_STATUSES: RefundStatus[] = ['REQUESTED', 'APPROVED', 'SHIPPED_BACK', 'COMPLETED', 'REJECTED', 'CANCELLED'];

const MerchantRefunds = graphql(`
  query MerchantRefunds($page: Int, $pageSize: Int, $status: RefundStatus, $kind: RefundKind) {
    merchantRefunds(page: $page, pageSize: $pageSize, status: $status, kind: $kind) {
      page
      pageSize
      total
      items {
        id
        orderId
        kind
        status
        reason
        amount
        freightAmount
        rejectReason
        createdAt
        items {
          orderItemId
          productName
          skuName
          quantity
          amount
        }
        returnShipment {
          carrier
          trackingNumber
        }
      }
    }
  }
`);


const ApproveRefund = graphql(`
  mutation ConsoleApproveRefund($input: ApproveRefundInput!) {
    approveRefund(input: $input) {
      refund {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const RejectRefund = graphql(`
  mutation ConsoleRejectRefund($input: RejectRefundInput!) {
    rejectRefund(input: $input) {
      refund {
        id
        status
        rejectReason
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const ReceiveRefund = graphql(`
  mutation ConsoleReceiveRefund($input: ReceiveRefundInput!) {
    receiveRefund(input: $input) {
      refund {
        id
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Refund = MerchantRefundsQuery['merchantRefunds']['items'][number];

/** Approve (a refund pays back; a return waits for the parcel), reject with a reason, or receive a returned parcel. */
function RefundActions({ refund }: { refund: Refund }) {
  const reject = useAction(RejectRefund, (d) => d.rejectRefund, 'Not rejected');
  const [rejecting, setRejecting] = useState(false);
  const input = { input: { refundId: refund.id } };
  const submitReject = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const answer = await reject.run({ input: { refundId: refund.id, reason: text(new FormData(event.currentTarget).get('reason')) } });
    if (answer?.refund) setRejecting(false);
  };
  return (
    <div className="row-actions">
      {refund.status === 'REQUESTED' ? (
        <>
          <ActionButton
            mutation={ApproveRefund}
            variables={input}
            payload={(d) => d.approveRefund}
            label="Approve"
            confirm={refund.kind === 'RETURN' ? 'Approve the return?' : 'Pay the refund back?'}
            refused="Not approved"
          />
          {rejecting ? (
            <form onSubmit={submitReject} className="toolbar" aria-label={`Reject refund #${refund.id}`}>
              <label>
                Reason for rejecting
                <input name="reason" required maxLength={500} autoFocus />
              </label>
              <button type="submit" className="danger" disabled={reject.fetching}>
                Reject
              </button>
              <button type="button" onClick={() => setRejecting(false)}>
                Cancel
              </button>
            </form>
          ) : (
            <button type="button" onClick={() => setRejecting(true)}>
              Reject…
            </button>
          )}
        </>
      ) : null}
      {refund.status === 'SHIPPED_BACK' ? (
        <ActionButton mutation={ReceiveRefund} variables={input} payload={(d) => d.receiveRefund} label="Receive" confirm="The parcel arrived; pay the refund back?" refused="Not received" />
      ) : null}
      {reject.refusal}
    </div>
  );
}

const REFUND_COLUMNS: readonly Column<Refund>[] = [
  {
    header: 'Request',
    cell: (r) => (
      <>
        {label(r.kind)} #{r.id} · <Link to={`/merchant/orders/${r.orderId}`}>order #{r.orderId}</Link>
        <br />
        <small>{when(r.createdAt)}</small>
      </>
    ),
  },
  { header: 'Status', cell: (r) => <span data-testid="refund-status">{label(r.status)}</span> },
  {
    header: 'Reason',
    cell: (r) => (
      <>
        {r.reason}
        {r.rejectReason ? <p className="meta">Rejected: {r.rejectReason}</p> : null}
        {r.returnShipment ? (
          <p className="meta">
            Sent back: {r.returnShipment.carrier} {r.returnShipment.trackingNumber}
          </p>
        ) : null}
      </>
    ),
  },
  { header: 'Items', cell: (r) => r.items.map((i) => `${i.productName} (${i.skuName}) × ${i.quantity}`).join(', ') },
  {
    header: 'Amount',
    cell: (r) => (
      <>
        <Money amount={r.amount} />
        {r.freightAmount > 0 ? (
          <>
            {' '}
            + freight <Money amount={r.freightAmount} />
          </>
        ) : null}
      </>
    ),
  },
  { header: 'Decision', cell: (r) => <RefundActions refund={r} /> },
];

/** A request as the shop names it in a bulk outcome: its kind, number and order. */
const refundName = (r: Refund) => `${label(r.kind).toLowerCase()} #${r.id} (order #${r.orderId})`;

/**
 * Approves the selected requests, one mutation each (the single request's, with its permission and
 * its rules: one no longer requested is refused and named). Rejection has a reason of its own per
 * request, so it stays on the row.
 */
function RefundBulkActions(selection: Selection<Refund>) {
  const approve = useAction(ApproveRefund, (d) => d.approveRefund, 'Not approved');
  const { busy, run } = useEachSelected(selection, refundName);
  return (
    <ConfirmButton
      label="Approve"
      question={`Approve ${selection.rows.length}? Refunds pay back at once; returns wait for the parcel.`}
      disabled={busy}
      onConfirm={() => void run(async (row) => Boolean((await approve.run({ input: { refundId: row.id } }))?.refund), 'approved')}
    />
  );
}

export function Refunds() {
  const [page] = usePageParam();
  const [{ status, kind }, setFilters] = useFilterParams(['status', 'kind']);
  const [result, reread] = useQuery({
    query: MerchantRefunds,
    context: useListContext('Refund'),
    variables: { page, pageSize: PAGE_SIZE, status: (status || null) as RefundStatus | null, kind: (kind || null) as RefundKind | null },
  });
  return (
    <>
      <h1>Refunds and returns</h1>
      <DataTable
        label="Refunds"
        testId="refund-table"
        result={result}
        list={(data) => data.merchantRefunds}
        columns={REFUND_COLUMNS}
        rowKey={(r) => r.id}
        rowLabel={refundName}
        rowProps={(r) => ({ 'data-refund-id': r.id })}
        filters={
          <>
            <StateSelect label="Status" value={status} states={REFUND_STATUSES} onChange={(value) => setFilters({ status: value })} />
            <label>
              Kind
              <select value={kind} onChange={(e) => setFilters({ kind: e.target.value })}>
                <option value="">Any</option>
                <option value="REFUND">Refund only</option>
                <option value="RETURN">Return and refund</option>
              </select>
            </label>
          </>
        }
        bulk={(selection) => <RefundBulkActions {...selection} />}
        reread={reread}
        empty="No refund matches."
      />
    </>
  );
}

const MerchantReviews = graphql(`
  query MerchantReviews($page: Int, $pageSize: Int, $replied: Boolean) {
    merchantReviews(page: $page, pageSize: $pageSize, replied: $replied) {
      page
      pageSize
      total
      items {
        id
        productId
        productName
        skuName
        author
        rating
        text
        hidden
        createdAt
        reply {
          text
          repliedAt
        }
      }
    }
  }
`);

const ReplyToReview = graphql(`
  mutation ConsoleReplyToReview($input: ReplyToReviewInput!) {
    replyToReview(input: $input) {
      review {
        id
        reply {
          text
          repliedAt
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function ReplyForm({ review }: { review: ShopReview }) {
  const reply = useAction(ReplyToReview, (d) => d.replyToReview, 'Reply not sent');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await reply.run({ input: { reviewId: review.id, text: text(new FormData(event.currentTarget).get('reply')) } });
  };
  return (
    <form onSubmit={submit} className="toolbar" aria-label={`Reply to review #${review.id}`}>
      <label>
        Reply
        <textarea name="reply" rows={2} cols={40} required maxLength={2000} />
      </label>
      <button type="submit" disabled={reply.fetching}>
        Send reply
      </button>
      {reply.refusal}
    </form>
  );
}

type ShopReview = MerchantReviewsQuery['merchantReviews']['items'][number];

const SHOP_REVIEW_COLUMNS: readonly Column<ShopReview>[] = [
  {
    header: 'Review',
    cell: (r) => (
      <>
        <Stars average={r.rating} /> {r.author} on <Link to={`/products/${r.productId}`}>{r.productName}</Link> ({r.skuName}) · {when(r.createdAt)}
        {r.hidden ? <strong> · hidden by the platform</strong> : null}
      </>
    ),
  },
  { header: 'Text', cell: (r) => r.text },
  { header: 'Reply', cell: (r) => (r.reply ? <p className="reply">Your reply: {r.reply.text}</p> : <ReplyForm review={r} />) },
];

/** The shop's reviews, the ones awaiting a reply found on the server; each reply is its own words, so no bulk action. */
export function Reviews() {
  const [page] = usePageParam();
  const [replied, setReplied] = useFilterParam('replied');
  const [result] = useQuery({ query: MerchantReviews, context: useListContext('Review'), variables: { page, pageSize: PAGE_SIZE, replied: replied === '' ? null : replied === 'yes' } });
  return (
    <>
      <h1>Reviews</h1>
      <DataTable
        label="Reviews"
        result={result}
        list={(data) => data.merchantReviews}
        columns={SHOP_REVIEW_COLUMNS}
        rowKey={(r) => r.id}
        rowProps={(r) => ({ 'data-review-id': r.id })}
        filters={
          <label>
            Show
            <select value={replied} onChange={(e) => setReplied(e.target.value)}>
              <option value="">All</option>
              <option value="no">Awaiting a reply</option>
              <option value="yes">Replied</option>
            </select>
          </label>
        }
        empty="No review here."
      />
    </>
  );
}
