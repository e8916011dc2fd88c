import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { usePageTitle } from '../ui/page-title';
import { RequireSignIn } from '../auth/require-sign-in';
import { CouponTerms } from '../ui/coupon-terms';
import { EscalateForm, MyDisputesSection } from './account/refund-disputes';
import { AddressBookSection } from './account/address-book';
import { formatCount } from '../ui/dates';

const AccountPageQuery = graphql(`
  query AccountPage {
    currency {
      ...CurrencyFields
    }
    me {
      displayName
      email
      createdAt
    }
    myStats {
      available
      frozen
      points
      orders {
        pendingPayment
        awaitingGroup
        paid
        shipped
        delivered
        cancelled
      }
    }
    myCoupons(status: AVAILABLE, pageSize: 20) {
      total
      items {
        ...HeldCouponFields
      }
    }
    myRefunds(pageSize: 5) {
      items {
        id
        orderId
        kind
        status
        amount
        rejectReason
      }
    }
    myDisputes(pageSize: 10) {
      items {
        ...MyDisputeFields
      }
    }
  }
`);

/** The page holds no dispute before the first: it is read again when a mutation answers one. */
const ACCOUNT_CONTEXT = { additionalTypenames: ['Dispute'] };

function AccountContent() {
  const [result] = useQuery({ query: AccountPageQuery, context: ACCOUNT_CONTEXT, requestPolicy: 'cache-and-network' });
  return (
    <QueryResult result={result} what="Loading your account">
      {({ currency, me, myStats, myCoupons, myRefunds, myDisputes }) => (
        <CurrencyProvider currency={currency}>
          <p>
            {me.displayName} · {me.email}
          </p>
          <p>
            Selling too? <Link to="/open-shop">Apply to open a shop</Link>, or follow your applications.
          </p>
          <section aria-labelledby="balances-heading">
            <h2 id="balances-heading">Balances</h2>
            <dl className="stats">
              <div>
                <dt>Available</dt>
                <dd>
                  <Money amount={myStats.available} />
                </dd>
              </div>
              <div>
                <dt>Held for group buys</dt>
                <dd>
                  <Money amount={myStats.frozen} />
                </dd>
              </div>
              <div>
                <dt>Points</dt>
                <dd>
                  {formatCount(myStats.points)} <Link to="/points">Spend them</Link>
                </dd>
              </div>
            </dl>
          </section>
          <section aria-labelledby="order-counts">
            <h2 id="order-counts">Orders</h2>
            <ul className="chips">
              <li>
                <Link to="/orders?status=PENDING_PAYMENT">To pay: {myStats.orders.pendingPayment}</Link>
              </li>
              <li>
                <Link to="/orders?status=AWAITING_GROUP">Waiting for a group: {myStats.orders.awaitingGroup}</Link>
              </li>
              <li>
                <Link to="/orders?status=PAID">To ship: {myStats.orders.paid}</Link>
              </li>
              <li>
                <Link to="/orders?status=SHIPPED">On the way: {myStats.orders.shipped}</Link>
              </li>
              <li>
                <Link to="/orders?status=DELIVERED">Delivered: {myStats.orders.delivered}</Link>
              </li>
            </ul>
          </section>
          <AddressBookSection />
          <section aria-labelledby="my-coupons">
            <h2 id="my-coupons">Coupons ({myCoupons.total})</h2>
            <ul className="coupon-list">
              {myCoupons.items.map((c) => (
                <li key={c.id} className="coupon">
                  <CouponTerms coupon={c} />
                  <p className="meta">
                    <Link to={`/shops/${c.shop.slug}`}>{c.shop.name}</Link>
                  </p>
                </li>
              ))}
            </ul>
          </section>
          {myRefunds.items.length > 0 ? (
            <section aria-labelledby="my-refunds">
              <h2 id="my-refunds">Refunds and returns</h2>
              <ul>
                {myRefunds.items.map((r) => (
                  <li key={r.id} data-testid="my-refund">
                    {r.kind === 'RETURN' ? 'Return' : 'Refund'} #{r.id} for <Link to={`/orders/${r.orderId}`}>order #{r.orderId}</Link>: {r.status.replace(/_/g, ' ').toLowerCase()}, <Money amount={r.amount} />
                    {r.status === 'REJECTED' ? (
                      <>
                        {r.rejectReason ? <p className="meta">The shop: “{r.rejectReason}”</p> : null}
                        <EscalateForm refundId={r.id} disputed={myDisputes.items.some((d) => d.refundId === r.id)} />
                      </>
                    ) : null}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <MyDisputesSection disputes={myDisputes.items} />
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}

export default function AccountPage() {
  usePageTitle('Your account');
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <h1>Your account</h1>
      <AccountContent />
    </RequireSignIn>
  );
}
