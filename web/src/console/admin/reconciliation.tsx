import { type FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { BalanceKind } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { QueryResult } from '../../ui/query-result';
import { label, text } from '../kit';

const ReconciliationQuery = graphql(`
  query AdminReconciliation($from: String!, $to: String!) {
    reconciliation(from: $from, to: $to) {
      booksSum
      booksBalance
      unbalancedTransfers
      balances {
        kind
        total
      }
      days {
        day
        movements {
          kind
          total
        }
        ordersPaid
        amountPaid
        refundsCompleted
        amountRefunded
        commissionEarned
        payoutsCreated
        amountPaidOut
      }
    }
  }
`);

/** UTC days, as the report counts them. */
const utcDay = (date: Date) => date.toISOString().slice(0, 10);
const daysAgo = (n: number) => utcDay(new Date(Date.now() - n * 86_400_000));

const KIND_NAMES: Partial<Record<BalanceKind, string>> = {
  AVAILABLE: 'Customers available',
  FROZEN: 'Customers frozen',
  SHOP_PENDING: 'Shops pending',
  SHOP_AVAILABLE: 'Shops available',
  SHOP_IN_TRANSIT: 'Payouts in transit',
  SHOP_DEBT: 'Shops debt',
  PLATFORM_COMMISSION: 'Platform commission',
  PLATFORM_CLEARING: 'Platform clearing',
};
const kindName = (kind: BalanceKind) => KIND_NAMES[kind] ?? label(kind);

/**
 * The platform's books per UTC day (orders paid, refunds, commission, payouts and each account
 * kind's movements), beside the check that every money account sums to zero.
 */
export function Reconciliation() {
  const [params, setParams] = useSearchParams();
  const from = params.get('from') || daysAgo(6);
  const to = params.get('to') || daysAgo(0);
  const [result] = useQuery({ query: ReconciliationQuery, variables: { from, to }, requestPolicy: 'cache-and-network' });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setParams({ from: text(form.get('from')), to: text(form.get('to')) });
  };
  return (
    <>
      <h1>Reconciliation</h1>
      <form onSubmit={submit} className="toolbar" aria-label="Days of the report">
        <label>
          From (UTC)
          <input name="from" type="date" defaultValue={from} key={`from-${from}`} required />
        </label>
        <label>
          To (UTC)
          <input name="to" type="date" defaultValue={to} key={`to-${to}`} required />
        </label>
        <button type="submit">Show</button>
      </form>
      <QueryResult result={result} what="Loading the report">
        {({ reconciliation: r }) => (
          <div className="report-columns">
            <section aria-labelledby="books-check" className={`panel ${r.booksBalance && r.unbalancedTransfers === 0 ? 'notice-ok' : 'notice-error'}`} data-testid="books-check">
              <h2 id="books-check">Zero-sum check</h2>
              <p role="status">
                {r.booksBalance ? 'The books balance: ' : 'The books do NOT balance: '}
                every money account sums to <Money amount={r.booksSum} />
                {r.unbalancedTransfers > 0 ? `, and ${r.unbalancedTransfers} transfer(s) of these days are not two entries cancelling out` : ', and every transfer of these days is two entries cancelling out'}.
              </p>
              <table className="grid">
                <caption>Balances now, per account kind</caption>
                <tbody>
                  {r.balances.map((b) => (
                    <tr key={b.kind}>
                      <th scope="row">{kindName(b.kind)}</th>
                      <td>
                        <Money amount={b.total} />
                      </td>
                    </tr>
                  ))}
                  <tr>
                    <th scope="row">Sum</th>
                    <td>
                      <Money amount={r.booksSum} />
                    </td>
                  </tr>
                </tbody>
              </table>
            </section>
            <section aria-labelledby="per-day">
              <h2 id="per-day">Per day</h2>
              <table className="grid" data-testid="reconciliation-days">
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Orders paid</th>
                    <th scope="col">Refunds</th>
                    <th scope="col">Commission</th>
                    <th scope="col">Payouts</th>
                    <th scope="col">Movements</th>
                  </tr>
                </thead>
                <tbody>
                  {r.days.map((d) => (
                    <tr key={d.day} data-day={d.day}>
                      <th scope="row">{d.day}</th>
                      <td data-testid="orders-paid">
                        {d.ordersPaid} · <Money amount={d.amountPaid} />
                      </td>
                      <td>
                        {d.refundsCompleted} · <Money amount={d.amountRefunded} />
                      </td>
                      <td>
                        <Money amount={d.commissionEarned} />
                      </td>
                      <td data-testid="payouts-created">
                        {d.payoutsCreated} · <Money amount={d.amountPaidOut} />
                      </td>
                      <td>
                        {d.movements.length === 0 ? '—' : null}
                        <ul className="plain-list">
                          {d.movements.map((m) => (
                            <li key={m.kind}>
                              {kindName(m.kind)}: <Money amount={m.total} />
                            </li>
                          ))}
                        </ul>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </div>
        )}
      </QueryResult>
    </>
  );
}
