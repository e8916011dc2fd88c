import { type FormEvent } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminDisputesQuery, DisputeStatus } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { Field, StateSelect, label, text, toMinor, usePageParam, useFilterParams, useListContext, useAction, when } from '../kit';
import { DataTable, type Column } from '../data-table';

const PAGE_SIZE = 20;

const AdminDisputes = graphql(`
  query AdminDisputes($status: DisputeStatus, $q: String, $page: Int, $pageSize: Int) {
    disputes(status: $status, q: $q, page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        refundId
        orderId
        customerId
        customerName
        shop {
          id
          name
        }
        status
        reason
        refundKind
        requestedAmount
        shopRejectReason
        ruling
        refundedAmount
        createdAt
        ruledAt
      }
    }
  }
`);

const RefundDispute = graphql(`
  mutation ConsoleRefundDispute($input: RefundDisputeInput!) {
    refundDispute(input: $input) {
      dispute {
        id
        status
        ruling
        refundedAmount
        ruledAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const UpholdDispute = graphql(`
  mutation ConsoleUpholdDispute($input: UpholdDisputeInput!) {
    upholdDispute(input: $input) {
      dispute {
        id
        status
        ruling
        refundedAmount
        ruledAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Dispute = AdminDisputesQuery['disputes']['items'][number];

/** The ruling of one open dispute: a refund of all or part of the request, or the rejection upheld; the reason goes to both sides. */
function Ruling({ dispute }: { dispute: Dispute }) {
  const refund = useAction(RefundDispute, (d) => d.refundDispute, 'Not refunded');
  const uphold = useAction(UpholdDispute, (d) => d.upholdDispute, 'Not upheld');
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = text(form.get('reason'));
    const choice = (event.nativeEvent as SubmitEvent).submitter?.getAttribute('value');
    if (choice === 'uphold') await uphold.run({ input: { disputeId: dispute.id, reason } });
    else await refund.run({ input: { disputeId: dispute.id, amount: toMinor(form.get('amount')), reason } });
  };
  const errors = refund.errors.of('reason') ?? uphold.errors.of('reason');
  return (
    <form onSubmit={submit} aria-label={`Ruling on dispute ${dispute.id}`} noValidate>
      <Field label="Amount to refund" name={`dispute-${dispute.id}-amount`} error={refund.errors.of('amount')}>
        {(props) => <input {...props} name="amount" inputMode="decimal" defaultValue={(dispute.requestedAmount / 100).toFixed(2)} />}
      </Field>
      <Field label="Ruling (both sides read it)" name={`dispute-${dispute.id}-reason`} error={errors}>
        {(props) => <textarea {...props} name="reason" rows={2} />}
      </Field>
      {refund.unshown((k) => k === 'amount' || k === 'reason')}
      {uphold.unshown((k) => k === 'reason')}
      <button type="submit" name="choice" value="refund" className="primary" disabled={refund.fetching || uphold.fetching}>
        Refund
      </button>{' '}
      <button type="submit" name="choice" value="uphold" disabled={refund.fetching || uphold.fetching}>
        Uphold the rejection
      </button>
    </form>
  );
}

const STATUSES: DisputeStatus[] = ['OPEN', 'REFUNDED', 'UPHELD'];

const DISPUTE_COLUMNS: readonly Column<Dispute>[] = [
  {
    header: 'Dispute',
    cell: (d) => (
      <>
        <span>
          #{d.id}: order #{d.orderId} at {d.shop.name}, customer {d.customerName}
        </span>{' '}
        <span className="meta">{when(d.createdAt)}</span>
      </>
    ),
  },
  {
    header: 'Request',
    cell: (d) => (
      <>
        <p>
          {label(d.refundKind)} of <Money amount={d.requestedAmount} /> asked, rejected by the shop: “{d.shopRejectReason ?? '—'}”
        </p>
        <p>Customer: “{d.reason}”</p>
      </>
    ),
  },
  {
    header: 'Ruling',
    cell: (d) =>
      d.status === 'OPEN' ? (
        <Ruling dispute={d} />
      ) : (
        <p data-testid="ruling">
          {label(d.status)}
          {d.status === 'REFUNDED' ? (
            <>
              {' '}
              <Money amount={d.refundedAmount} />
            </>
          ) : null}
          : “{d.ruling}” ({when(d.ruledAt)})
        </p>
      ),
  },
];

/**
 * Disputes: rejected refunds customers escalated, open ones first to rule on, found on the server by
 * the customer's or the shop's name, the reason or the order's number. Each is ruled on alone (a
 * ruling has its own amount and words), so the table has no bulk action.
 */
export function Disputes() {
  const [page] = usePageParam();
  const [{ status, q }, setFilters] = useFilterParams(['status', 'q']);
  // Open is the desk's work, so it is what the page shows until another status (or any) is chosen.
  const chosen = status === 'ANY' ? null : (STATUSES.find((s) => s === status) ?? 'OPEN');
  const [result] = useQuery({ query: AdminDisputes, context: useListContext('Dispute'), variables: { status: chosen, q: q || null, page, pageSize: PAGE_SIZE } });
  return (
    <>
      <h1>Disputes</h1>
      <DataTable
        label="Disputes"
        result={result}
        list={(data) => data.disputes}
        columns={DISPUTE_COLUMNS}
        rowKey={(d) => d.id}
        rowProps={(d) => ({ 'data-dispute-id': d.id, 'data-testid': 'dispute' })}
        search={{ label: 'Customer, shop, reason or order number' }}
        filters={<StateSelect label="Status" value={chosen ?? 'ANY'} states={STATUSES} any="Any status" anyValue="ANY" onChange={(value) => setFilters({ status: value })} />}
        empty="No dispute matches."
      />
    </>
  );
}
