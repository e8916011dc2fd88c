import { useCallback } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { Countdown } from '../ui/countdown';
import { usePageTitle } from '../ui/page-title';

const FlashSalesPageQuery = graphql(`
  query FlashSalesPage {
    currency {
      ...CurrencyFields
    }
    flashSales(includeUpcoming: true, pageSize: 20) {
      items {
        id
        name
        state
        startsAt
        endsAt
        shop {
          slug
          name
        }
        items {
          id
          productId
          productName
          skuName
          standardPrice
          activityPrice
          remainingStock
          reservedStock
        }
      }
    }
  }
`);

export default function FlashSalesPage() {
  usePageTitle('Flash sales');
  const [result, reexecute] = useQuery({ query: FlashSalesPageQuery, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  return (
    <>
      <h1>Flash sales</h1>
      <QueryResult result={result} what="Loading flash sales">
        {({ currency, flashSales }) => (
          <CurrencyProvider currency={currency}>
            {flashSales.items.length === 0 ? <p className="empty">No flash sale right now. Come back soon.</p> : null}
            {flashSales.items.map((sale) => (
              <section key={sale.id} className="flash-sale" aria-label={sale.name}>
                <h2>
                  {sale.name} <span className="meta">by {sale.shop.name}</span>
                </h2>
                <p>{sale.state === 'ACTIVE' ? <Countdown until={sale.endsAt} onEnd={refresh} /> : <Countdown until={sale.startsAt} label="Starts in" onEnd={refresh} />}</p>
                <ul className="flash-items">
                  {sale.items.map((item) => (
                    <li key={item.id}>
                      <Link to={`/products/${item.productId}`}>
                        {item.productName} ({item.skuName})
                      </Link>{' '}
                      <Money amount={item.activityPrice} className="money price-now" /> <s><Money amount={item.standardPrice} /></s>{' '}
                      <meter min={0} max={Math.max(1, item.reservedStock)} value={item.reservedStock - item.remainingStock} aria-label="Sold so far" /> {item.remainingStock} left
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}
