import { useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { PointsPageQuery as PointsData } from '../gql/graphql';
import { QueryResult } from '../ui/query-result';
import { ErrorNotice } from '../ui/query-state';
import { refusalOf } from '../api/errors';
import { usePageTitle } from '../ui/page-title';
import { AddressFields, readAddress } from '../ui/address-fields';
import { useSession } from '../auth/session';
import { loginPathFor } from '../auth/require-sign-in';
import { Image } from '../ui/image';
import { formatCount } from '../ui/dates';

const PointsPageQuery = graphql(`
  query PointsPage($customer: Boolean!) {
    pointsProducts(pageSize: 50) {
      items {
        id
        name
        description
        imageUrl
        pointsPrice
        stock
      }
    }
    myStats @include(if: $customer) {
      points
    }
    myRedemptions(pageSize: 10) @include(if: $customer) {
      items {
        id
        productName
        quantity
        pointsTotal
        status
        createdAt
      }
    }
  }
`);

const Redeem = graphql(`
  mutation Redeem($input: RedeemPointsProductInput!) {
    redeemPointsProduct(input: $input) {
      redemption {
        id
        pointsTotal
        status
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type PointsProduct = PointsData['pointsProducts']['items'][number];

function RedeemForm({ product, onDone }: { product: PointsProduct; onDone: () => void }) {
  const [state, redeem] = useMutation(Redeem);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await redeem({ input: { pointsProductId: product.id, quantity: Number(form.get('quantity')) || 1, shippingAddress: readAddress(form) } });
    if (result.data?.redeemPointsProduct.redemption) onDone();
  };
  const refused = refusalOf(state.error, state.data?.redeemPointsProduct);
  return (
    <form onSubmit={submit} className="redeem-form" aria-label={`Redeem ${product.name}`}>
      <label>
        Quantity <input type="number" name="quantity" min={1} max={Math.min(100, product.stock)} defaultValue={1} />
      </label>
      <AddressFields legend="Deliver to" />
      {refused ? <ErrorNotice error={refused} title="Not redeemed" /> : null}
      <button type="submit" className="primary" disabled={state.fetching}>
        Redeem for {formatCount(product.pointsPrice)} points each
      </button>
    </form>
  );
}

export default function PointsPage() {
  usePageTitle('Points mall');
  const { session } = useSession();
  const location = useLocation();
  const customer = session?.user.role === 'CUSTOMER';
  const [result, reexecute] = useQuery({ query: PointsPageQuery, variables: { customer }, requestPolicy: 'cache-and-network' });
  const [redeeming, setRedeeming] = useState<number | null>(null);
  const [done, setDone] = useState(false);
  return (
    <>
      <h1>Points mall</h1>
      <QueryResult result={result} what="Loading the points mall">
        {({ pointsProducts, myStats, myRedemptions }) => (
          <>
            {myStats ? <p className="stat-line">You have {formatCount(myStats.points)} points.</p> : <p>Earn points with every delivered order: 1 point per yuan.</p>}
            {done ? <p role="status" className="notice notice-ok">Redeemed: the mall will ship it to you.</p> : null}
            <ul className="points-grid">
              {pointsProducts.items.map((p) => (
                <li key={p.id} className="product-card">
                  <Image src={p.imageUrl} alt="" width={800} height={600} />
                  <h2>{p.name}</h2>
                  {p.description ? <p>{p.description}</p> : null}
                  <p className="price price-now">{formatCount(p.pointsPrice)} points</p>
                  <p className="meta">{p.stock > 0 ? `${p.stock} left` : 'Sold out'}</p>
                  {!session ? (
                    <Link to={loginPathFor(location)} className="button">
                      Sign in to redeem
                    </Link>
                  ) : customer && p.stock > 0 ? (
                    redeeming === p.id ? (
                      <RedeemForm
                        product={p}
                        onDone={() => {
                          setRedeeming(null);
                          setDone(true);
                          reexecute({ requestPolicy: 'network-only' });
                        }}
                      />
                    ) : (
                      <button type="button" onClick={() => setRedeeming(p.id)}>
                        Redeem
                      </button>
                    )
                  ) : null}
                </li>
              ))}
            </ul>
            {myRedemptions && myRedemptions.items.length > 0 ? (
              <section aria-labelledby="redemptions">
                <h2 id="redemptions">Your redemptions</h2>
                <ul>
                  {myRedemptions.items.map((r) => (
                    <li key={r.id}>
                      {r.productName} × {r.quantity}: {formatCount(r.pointsTotal)} points · {r.status === 'FULFILLED' ? 'shipped' : 'being prepared'}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null}
          </>
        )}
      </QueryResult>
    </>
  );
}
