import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { refusalOf } from '../api/errors';
import { ErrorNotice } from '../ui/query-state';
import { usePageTitle } from '../ui/page-title';
import { RequireSignIn } from '../auth/require-sign-in';

const FavoritesPageQuery = graphql(`
  query FavoritesPage {
    currency {
      ...CurrencyFields
    }
    myFavorites(pageSize: 50) {
      products {
        total
        items {
          favoritedAt
          product {
            id
            name
            priceFrom
            available
            shop {
              name
              slug
            }
          }
        }
      }
      shops {
        total
        items {
          shop {
            id
            slug
            name
          }
        }
      }
    }
  }
`);

const RemoveFavorite = graphql(`
  mutation RemoveFavorite($productId: Int!, $shopId: Int!, $product: Boolean!) {
    unfavoriteProduct(input: { productId: $productId }) @include(if: $product) {
      productId
      userErrors {
        ...UserErrorFields
      }
    }
    unfavoriteShop(input: { shopId: $shopId }) @skip(if: $product) {
      shopId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function FavoritesContent() {
  const [result, reexecute] = useQuery({ query: FavoritesPageQuery, requestPolicy: 'cache-and-network' });
  const [removal, remove] = useMutation(RemoveFavorite);
  const removeThen = async (vars: { productId: number; shopId: number; product: boolean }) => {
    const r = await remove(vars);
    if (!refusalOf(r.error, r.data?.unfavoriteProduct ?? r.data?.unfavoriteShop)) reexecute({ requestPolicy: 'network-only' });
  };
  const refused = refusalOf(removal.error, removal.data?.unfavoriteProduct ?? removal.data?.unfavoriteShop);
  return (
    <QueryResult result={result} what="Loading your favorites">
      {({ currency, myFavorites }) => (
        <CurrencyProvider currency={currency}>
          {refused ? <ErrorNotice error={refused} /> : null}
          <section aria-labelledby="fav-products">
            <h2 id="fav-products">Products ({myFavorites.products.total})</h2>
            {myFavorites.products.items.length === 0 ? <p className="empty">No favorite products yet.</p> : null}
            <ul className="favorite-list">
              {myFavorites.products.items.map(({ product }) => (
                <li key={product.id}>
                  <Link to={`/products/${product.id}`}>{product.name}</Link> · <Money amount={product.priceFrom} /> · {product.shop.name}
                  {!product.available ? <span className="warning"> (no longer on sale)</span> : null}{' '}
                  <button type="button" className="link-button" onClick={() => removeThen({ productId: product.id, shopId: 0, product: true })}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="fav-shops">
            <h2 id="fav-shops">Shops ({myFavorites.shops.total})</h2>
            {myFavorites.shops.items.length === 0 ? <p className="empty">No favorite shops yet.</p> : null}
            <ul className="favorite-list">
              {myFavorites.shops.items.map(({ shop }) => (
                <li key={shop.id}>
                  <Link to={`/shops/${shop.slug}`}>{shop.name}</Link>{' '}
                  <button type="button" className="link-button" onClick={() => removeThen({ productId: 0, shopId: shop.id, product: false })}>
                    Remove
                  </button>
                </li>
              ))}
            </ul>
          </section>
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}

export default function FavoritesPage() {
  usePageTitle('Favorites');
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <h1>Favorites</h1>
      <FavoritesContent />
    </RequireSignIn>
  );
}
