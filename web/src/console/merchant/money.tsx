import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { MerchantPayoutsQuery, MerchantStatementQuery, ShopAccount } from '../gql/graphql';
import { Money } from '../../money/currency-context';
import { QueryResult } from '../../ui/query-result';
import { label, useFilterParam, usePageParam, when } from '../kit';
import { DataTable, type Column } from '../data-table';
import { PayoutStatusText } from '../payout-fields';

const PAGE_SIZE = 20;
/** The money moves without the operator (payments, the after-sale window, the platform's payouts): each visit reads it again, showing the last answer meanwhile. */
const FRESH = 'cache-and-network' as const;

const MerchantBalances = graphql(`
  query MerchantBalances {
    merchantBalances {
      currency
      pending
      available
      inTransit
      debt
    }
  }
`);

const MerchantStatement = graphql(`
  query MerchantStatement($page: Int, $pageSize: Int, $account: ShopAccount) {
    merchantStatement(page: $page, pageSize: $pageSize, account: $account) {
      page
      pageSize
      total
      items {
        id
        account
        delta
        balanceAfter
        reason
        orderId
        refundId
        payoutId
        createdAt
      }
    }
  }
`);

const MerchantPayouts = graphql(`
  query MerchantPayouts($page: Int, $pageSize: Int) {
    merchantPayouts(page: $page, pageSize: $pageSize) {
      page
      pageSize
      total
      items {
        ...PayoutFields
      }
    }
  }
`);

const ACCOUNTS: { account: ShopAccount; name: string }[] = [
  { account: 'SHOP_PENDING', name: 'Pending' },
  { account: 'SHOP_AVAILABLE', name: 'Available' },
  { account: 'SHOP_IN_TRANSIT', name: 'In transit' },
  { account: 'SHOP_DEBT', name: 'Debt' },
];
const accountName = (account: ShopAccount) => ACCOUNTS.find((a) => a.account === account)?.name ?? label(account);

/** What each entry of the ledger means to a shop (src/services/settlement: the transfers' reasons). */
const REASONS: Record<string, string> = {
  order_payment: 'Order paid: your share',
  group_settlement: 'Group buy completed: your share',
  earnings_released: 'Earnings released after the after-sale window',
  debt_netted: 'Debt netted from earnings',
  refund: 'Refund: your share taken back',
  refund_shortfall: 'Refund beyond the available balance: carried as debt',
  payout: 'Payout sent to the bank',
  payout_paid: 'Payout paid by the bank',
  payout_failed: 'Payout failed: back to available',
  payout_returned: 'Payout returned by the bank: back to available',
};

type Entry = MerchantStatementQuery['merchantStatement']['items'][number];

function Reference({ entry }: { entry: Entry }) {
  if (entry.orderId != null) return <Link to={`/merchant/orders/${entry.orderId}`}>Order #{entry.orderId}</Link>;
  if (entry.refundId != null) return <Link to="/merchant/refunds">Refund #{entry.refundId}</Link>;
  if (entry.payoutId != null) return <a href={`#payout-${entry.payoutId}`}>Payout #{entry.payoutId}</a>;
  return <>—</>;
}

function Balances() {
  const [result] = useQuery({ query: MerchantBalances, requestPolicy: FRESH });
  return (
    <QueryResult result={result} what="Loading balances">
      {({ merchantBalances: b }) => (
        <section aria-labelledby="balances">
          <h2 id="balances">Balances</h2>
          <dl className="stats">
            <div>
              <dt>Pending</dt>
              <dd data-testid="balance-pending">
                <Money amount={b.pending} />
              </dd>
              <dd className="meta">Earned on orders still in their after-sale window</dd>
            </div>
            <div>
              <dt>Available</dt>
              <dd data-testid="balance-available">
                <Money amount={b.available} />
              </dd>
              <dd className="meta">Paid out in the next payout batch</dd>
            </div>
            <div>
              <dt>In transit</dt>
              <dd data-testid="balance-in-transit">
                <Money amount={b.inTransit} />
              </dd>
              <dd className="meta">Sent to the bank, not yet confirmed</dd>
            </div>
            {b.debt !== 0 ? (
              <div>
                <dt>Debt</dt>
                <dd data-testid="balance-debt">
                  <Money amount={b.debt} />
                </dd>
                <dd className="meta">Refunds beyond the available balance, netted from the next earnings</dd>
              </div>
            ) : null}
          </dl>
        </section>
      )}
    </QueryResult>
  );
}

const STATEMENT_COLUMNS: readonly Column<Entry>[] = [
  { header: 'When', cell: (e) => when(e.createdAt) },
  { header: 'Account', cell: (e) => accountName(e.account) },
  { header: 'What', cell: (e) => REASONS[e.reason] ?? label(e.reason) },
  { header: 'For', cell: (e) => <Reference entry={e} /> },
  {
    header: 'Amount',
    cell: (e) => (
      <span className={e.delta < 0 ? 'amount-out' : 'amount-in'}>
        {e.delta > 0 ? '+' : ''}
        <Money amount={e.delta} />
      </span>
    ),
  },
  { header: 'Balance after', cell: (e) => <Money amount={e.balanceAfter} /> },
];

function Statement() {
  const [page] = usePageParam();
  const [account, setAccount] = useFilterParam('account');
  const [result] = useQuery({
    query: MerchantStatement,
    requestPolicy: FRESH,
    variables: { page, pageSize: PAGE_SIZE, account: ACCOUNTS.find((a) => a.account === account)?.account ?? null },
  });
  return (
    <section aria-labelledby="statement">
      <h2 id="statement">Statement</h2>
      <p className="meta">
        Every entry of your accounts, newest first. Per account the entries add up to its balance: the newest entry&apos;s “balance after” is the balance above.
      </p>
      <DataTable
        label="Statement"
        testId="statement"
        result={result}
        list={(data) => data.merchantStatement}
        columns={STATEMENT_COLUMNS}
        rowKey={(e) => e.id}
        rowProps={(e) => ({ 'data-account': e.account, 'data-delta': e.delta })}
        filters={
          <label>
            Account
            <select value={account} onChange={(e) => setAccount(e.target.value)}>
              <option value="">Every account</option>
              {ACCOUNTS.map((a) => (
                <option key={a.account} value={a.account}>
                  {a.name}
                </option>
              ))}
            </select>
          </label>
        }
        empty="No entry yet: earnings show here once an order is paid."
        what="Loading the statement"
      />
    </section>
  );
}

type Payout = MerchantPayoutsQuery['merchantPayouts']['items'][number];

const PAYOUT_COLUMNS: readonly Column<Payout>[] = [
  { header: 'Payout', cell: (p) => `#${p.id} (batch #${p.batchId})` },
  { header: 'Amount', cell: (p) => <Money amount={p.amount} /> },
  {
    header: 'Status',
    cell: (p) => (
      <span data-testid="payout-status">
        <PayoutStatusText payout={p} />
      </span>
    ),
  },
  { header: 'Sent', cell: (p) => when(p.createdAt) },
  { header: 'Settled', cell: (p) => when(p.settledAt) },
];

function Payouts() {
  const [page] = usePageParam('ppage');
  const [result] = useQuery({ query: MerchantPayouts, requestPolicy: FRESH, variables: { page, pageSize: PAGE_SIZE } });
  return (
    <section aria-labelledby="payouts">
      <h2 id="payouts">Payouts</h2>
      <DataTable
        label="Payouts"
        testId="payouts"
        pageParam="ppage"
        result={result}
        list={(data) => data.merchantPayouts}
        columns={PAYOUT_COLUMNS}
        rowKey={(p) => p.id}
        rowProps={(p) => ({ id: `payout-${p.id}` })}
        empty="No payout yet."
        what="Loading payouts"
      />
    </section>
  );
}

/** The shop's money: what it has earned (pending, then available), what was paid out, and every entry behind the figures. */
export function MoneyScreen() {
  return (
    <>
      <h1>Money</h1>
      <Balances />
      <Payouts />
      <Statement />
    </>
  );
}
