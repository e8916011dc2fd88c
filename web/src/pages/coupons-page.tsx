import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { usePageTitle } from '../ui/page-title';
import { useSession } from '../auth/session';
import { CouponTerms } from '../ui/coupon-terms';

/** The shopper's coupons, and the shops whose pages offer coupons to claim. */
const CouponsPageQuery = graphql(`
  query CouponsPage($customer: Boolean!) {
    currency {
      ...CurrencyFields
    }
    myCoupons(pageSize: 50) @include(if: $customer) {
      items {
        ...HeldCouponFields
      }
    }
    shops(pageSize: 100) {
      items {
        id
        slug
        name
      }
    }
  }
`);

export default function CouponsPage() {
  usePageTitle('Coupons');
  const { session } = useSession();
  const customer = session?.user.role === 'CUSTOMER';
  const [result] = useQuery({ query: CouponsPageQuery, variables: { customer }, requestPolicy: 'cache-and-network' });
  return (
    <>
      <h1>Coupons</h1>
      <QueryResult result={result} what="Loading coupons">
        {({ currency, myCoupons, shops }) => (
          <CurrencyProvider currency={currency}>
            {myCoupons ? (
              <section aria-labelledby="mine">
                <h2 id="mine">Your coupons</h2>
                {myCoupons.items.length === 0 ? <p className="empty">You hold no coupons yet: claim them on the shops' pages.</p> : null}
                <ul className="coupon-list">
                  {myCoupons.items.map((c) => (
                    <li key={c.id} className={`coupon coupon-${c.status.toLowerCase()}`}>
                      <CouponTerms coupon={c} />
                      <p className="meta">
                        <Link to={`/shops/${c.shop.slug}`}>{c.shop.name}</Link> · {c.status.toLowerCase()}
                      </p>
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
            <section aria-labelledby="claim">
              <h2 id="claim">Claim coupons in the shops</h2>
              <ul className="chips">
                {shops.items.map((s) => (
                  <li key={s.id}>
                    <Link to={`/shops/${s.slug}`}>{s.name}</Link>
                  </li>
                ))}
              </ul>
            </section>
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}
