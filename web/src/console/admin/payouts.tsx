import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useClient, useQuery } from 'urql';
import { graphql } from '../gql';
import type { AdminPayoutBatchQuery, AdminPayoutBatchesQuery } from '../gql/graphql';
import { Money, useCurrency } from '../../money/currency-context';
import { formatMoney } from '../../money/format-money';
import { Missing, QueryResult } from '../../ui/query-result';
import { ErrorNotice } from '../../ui/query-state';
import type { ApiRefusal } from '../../api/errors';
import { ActionButton, ConfirmButton, Field, text, toMinor, useAction, when, useListContext, usePageParam } from '../kit';
import { DataTable, type Column } from '../data-table';
import { lazySchema, useFormCheck } from '../form-check';

const batchSchema = lazySchema(() => import('../../../../src/services/settlement/payout.inputs').then((m) => m.BatchInput));
import { PayoutStatusText } from '../payout-fields';

const PAGE_SIZE = 20;

const BatchesQuery = graphql(`
  query AdminPayoutBatches($page: Int, $pageSize: Int) {
    adminPayoutBatches(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        id
        threshold
        createdAt
        payoutCount
        total
      }
    }
  }
`);

const BatchQuery = graphql(`
  query AdminPayoutBatch($id: Int!) {
    payoutBatch(id: $id) {
      id
      threshold
      createdAt
      total
      payouts {
        ...PayoutFields
      }
    }
  }
`);

const CsvQuery = graphql(`
  query AdminPayoutBatchCsv($id: Int!) {
    payoutBatchCsv(id: $id)
  }
`);

const CreatePayoutBatch = graphql(`
  mutation ConsoleCreatePayoutBatch($input: CreatePayoutBatchInput!) {
    createPayoutBatch(input: $input) {
      batch {
        id
        payouts {
          ...PayoutFields
        }
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

const SettlePayout = graphql(`
  mutation ConsoleSettlePayout($input: SettlePayoutInput!) {
    settlePayout(input: $input) {
      payout {
        ...PayoutFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/** A batch moves every due shop's available balance to in transit: it asks first, then opens the new batch. */
function NewBatch() {
  const navigate = useNavigate();
  const create = useAction(CreatePayoutBatch, (d) => d.createPayoutBatch, 'No batch created');
  const [threshold, setThreshold] = useState('100.00');
  const errors = create.errors;
  // The threshold by the rule the server parses it with (payout.inputs.ts), as it is typed.
  const check = useFormCheck(batchSchema, (form) => ({ threshold: text(form.get('threshold')) === '' ? null : toMinor(form.get('threshold')) }));
  const submit = async () => {
    if (!(await check.check())) return;
    const answer = await create.run({ input: { threshold: toMinor(threshold) } });
    if (answer?.batch) navigate(`/admin/payouts/${answer.batch.id}`);
  };
  return (
    <form {...check.form} className="panel" aria-labelledby="new-batch" onSubmit={(e: FormEvent) => e.preventDefault()}>
      <h2 id="new-batch">New payout batch</h2>
      <p className="meta">Every shop whose available balance is at least the threshold gets a payout of all of it, sent to the bank as the batch&apos;s file.</p>
      <div className="form-grid">
        <Field label="Threshold" name="threshold" {...check.field('threshold', errors.of('threshold'))}>
          {(p) => <input {...p} inputMode="decimal" value={threshold} onChange={(e) => setThreshold(e.target.value)} required />}
        </Field>
      </div>
      <div className="row-actions">
        <ConfirmButton label="Create batch" question={`Pay out every shop with at least ${threshold} available?`} onConfirm={() => void submit()} disabled={create.fetching} />
      </div>
      {create.refusal}
    </form>
  );
}

type BatchRow = AdminPayoutBatchesQuery['adminPayoutBatches']['items'][number];

const BATCH_COLUMNS: readonly Column<BatchRow>[] = [
  { header: 'Batch', cell: (b) => <Link to={`/admin/payouts/${b.id}`}>Batch #{b.id}</Link> },
  { header: 'Created', cell: (b) => when(b.createdAt) },
  { header: 'Threshold', cell: (b) => <Money amount={b.threshold} /> },
  { header: 'Payouts', cell: (b) => b.payoutCount },
  { header: 'Total', cell: (b) => <Money amount={b.total} /> },
];

/** The platform's payout batches, newest first, a page at a time (the page in the address), under the form that makes one. */
export function PayoutBatchList() {
  const [page] = usePageParam();
  const [result] = useQuery({ query: BatchesQuery, variables: { page, pageSize: PAGE_SIZE }, context: useListContext('PayoutBatchSummary', 'PayoutBatch') });
  return (
    <>
      <h1>Payouts</h1>
      <NewBatch />
      <h2>Batches</h2>
      <DataTable
        label="Payout batches"
        testId="payout-batches"
        result={result}
        list={(data) => data.adminPayoutBatches}
        columns={BATCH_COLUMNS}
        rowKey={(b) => b.id}
        rowProps={(b) => ({ 'data-batch-id': b.id })}
        empty="No batch yet."
        what="Loading payout batches"
      />
    </>
  );
}

type Payout = NonNullable<AdminPayoutBatchQuery['payoutBatch']>['payouts'][number];

/** The bank's answer for one payout: paid, or failed (with its reason); a paid one can still come back. */
function Settle({ payout }: { payout: Payout }) {
  const [reason, setReason] = useState('');
  const settle = (status: 'PAID' | 'FAILED') => ({ input: { payoutId: payout.id, status, failureReason: status === 'FAILED' ? reason.trim() || null : null } });
  const amount = formatMoney(payout.amount, useCurrency());
  if (payout.status === 'FAILED') return null;
  return (
    <div className="row-actions">
      {payout.status === 'PENDING' ? (
        <ActionButton mutation={SettlePayout} variables={settle('PAID')} payload={(d) => d.settlePayout} label="Mark paid" confirm={`The bank paid ${amount} to ${payout.shopName}?`} refused="Not marked paid" />
      ) : null}
      <label>
        <span className="visually-hidden">Failure reason of payout #{payout.id}</span>
        <input value={reason} onChange={(e) => setReason(e.target.value)} placeholder="Failure reason" maxLength={200} size={14} />
      </label>
      <ActionButton
        mutation={SettlePayout}
        variables={settle('FAILED')}
        payload={(d) => d.settlePayout}
        label="Mark failed"
        confirm={payout.status === 'PAID' ? 'The bank returned it after paying? The money goes back to the shop.' : 'The bank could not pay it? The money goes back to the shop.'}
        refused="Not marked failed"
      />
    </div>
  );
}

/** Fetches the batch's file for the bank through the API and hands it to the browser as a download. */
function CsvDownload({ batchId }: { batchId: number }) {
  const client = useClient();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<ApiRefusal | null>(null);
  const download = async () => {
    setBusy(true);
    const result = await client.query(CsvQuery, { id: batchId }, { requestPolicy: 'network-only' }).toPromise();
    setBusy(false);
    setRefusal(result.error ?? null);
    const csv = result.data?.payoutBatchCsv;
    if (csv == null) return;
    const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `payout-batch-${batchId}.csv`;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };
  return (
    <>
      <button type="button" onClick={() => void download()} disabled={busy}>
        Download CSV for the bank
      </button>
      {refusal ? <ErrorNotice error={refusal} title="No file" /> : null}
    </>
  );
}

export function PayoutBatchDetail() {
  const id = Number(useParams().id);
  const [result] = useQuery({ query: BatchQuery, variables: { id } });
  return (
    <>
      <p>
        <Link to="/admin/payouts">← Payouts</Link>
      </p>
      <QueryResult result={result} what="Loading the batch">
        {({ payoutBatch: batch }) =>
          !batch ? (
            <Missing error={result.error} what="payout batch" />
          ) : (
            <>
              <h1>Payout batch #{batch.id}</h1>
              <p>
                {when(batch.createdAt)} · threshold <Money amount={batch.threshold} /> · {batch.payouts.length} payout(s), <Money amount={batch.total} /> in all
              </p>
              <div className="row-actions">
                <CsvDownload batchId={batch.id} />
              </div>
              <table className="grid" data-testid="batch-payouts">
                <thead>
                  <tr>
                    <th scope="col">Payout</th>
                    <th scope="col">Shop</th>
                    <th scope="col">Amount</th>
                    <th scope="col">Status</th>
                    <th scope="col">Bank&apos;s answer</th>
                  </tr>
                </thead>
                <tbody>
                  {batch.payouts.map((p) => (
                    <tr key={p.id} data-payout-id={p.id} data-shop-id={p.shopId}>
                      <td>#{p.id}</td>
                      <td>{p.shopName}</td>
                      <td>
                        <Money amount={p.amount} />
                      </td>
                      <td data-testid="payout-status">
                        <PayoutStatusText payout={p} />
                        {p.settledAt ? ` · ${when(p.settledAt)}` : ''}
                      </td>
                      <td>
                        <Settle payout={p} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              {batch.payouts.length === 0 ? <p className="empty">No shop had reached the threshold.</p> : null}
            </>
          )
        }
      </QueryResult>
    </>
  );
}
