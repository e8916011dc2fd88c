import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { Countdown } from '../ui/countdown';
import { usePageTitle } from '../ui/page-title';

const GroupBuysPageQuery = graphql(`
  query GroupBuysPage {
    currency {
      ...CurrencyFields
    }
    groupBuys(pageSize: 50) {
      items {
        ...GroupBuyFields
      }
    }
  }
`);

export default function GroupBuysPage() {
  usePageTitle('Group buys');
  const [result] = useQuery({ query: GroupBuysPageQuery, requestPolicy: 'cache-and-network' });
  return (
    <>
      <h1>Group buys</h1>
      <p>Buy together for a lower price: open a group or join one on the product's page.</p>
      <QueryResult result={result} what="Loading group buys">
        {({ currency, groupBuys }) => (
          <CurrencyProvider currency={currency}>
            {groupBuys.items.length === 0 ? <p className="empty">No group buy is running right now.</p> : null}
            <ul className="group-buy-list">
              {groupBuys.items.map((g) => (
                <li key={g.id} className="group-buy">
                  <h2>
                    <Link to={`/products/${g.productId}`}>{g.productName}</Link> <span className="meta">{g.skuName}</span>
                  </h2>
                  <p>
                    <Money amount={g.groupPrice} className="money price-now" /> <s><Money amount={g.standardPrice} /></s> with {g.capacity} people · {g.shop.name}
                  </p>
                  <p className="meta">
                    <Countdown until={g.endsAt} label="Offer ends in" />
                  </p>
                </li>
              ))}
            </ul>
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}
