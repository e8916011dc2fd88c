import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { CartPageQuery as CartData } from '../gql/graphql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ErrorNotice } from '../ui/query-state';
import { refusalOf } from '../api/errors';
import { usePageTitle } from '../ui/page-title';
import { loginPathFor, RequireSignIn } from '../auth/require-sign-in';
import { useSession } from '../auth/session';
import { useGuestCartCount } from '../cart/guest-cart';

export const CartFields = graphql(`
  fragment CartFields on Cart {
    itemCount
    total
    lines {
      skuId
      skuName
      productId
      productName
      unitPrice
      quantity
      lineTotal
      stock
      available
      shop {
        id
        slug
        name
      }
    }
  }
`);

const CartPageQuery = graphql(`
  query CartPage {
    currency {
      ...CurrencyFields
    }
    cart {
      ...CartFields
    }
  }
`);

const UpdateCartLine = graphql(`
  mutation UpdateCartLine($input: SetCartItemInput!) {
    setCartItem(input: $input) {
      cart {
        ...CartFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type Line = CartData['cart']['lines'][number];

/** Cart lines grouped by shop, in the order the shops first appear: checkout makes one order per shop. */
export function linesByShop(lines: Line[]): { shop: Line['shop']; lines: Line[] }[] {
  const groups = new Map<number, { shop: Line['shop']; lines: Line[] }>();
  for (const line of lines) {
    const group = groups.get(line.shop.id) ?? { shop: line.shop, lines: [] };
    group.lines.push(line);
    groups.set(line.shop.id, group);
  }
  return [...groups.values()];
}

function CartView({ cart }: { cart: CartData['cart'] }) {
  const [update, setQuantity] = useMutation(UpdateCartLine);
  if (cart.lines.length === 0) {
    return (
      <p className="empty">
        Your cart is empty. <Link to="/">Start shopping</Link>
      </p>
    );
  }
  const blocked = cart.lines.some((l) => !l.available || l.quantity > l.stock);
  const refused = refusalOf(update.error, update.data?.setCartItem);
  return (
    <>
      {refused ? <ErrorNotice error={refused} title="Cart not changed" /> : null}
      {linesByShop(cart.lines).map(({ shop, lines }) => (
        <section key={shop.id} className="cart-shop" aria-label={`From ${shop.name}`}>
          <h2>
            <Link to={`/shops/${shop.slug}`}>{shop.name}</Link>
          </h2>
          <table className="lines">
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Price</th>
                <th scope="col">Quantity</th>
                <th scope="col">Total</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {lines.map((line) => (
                <tr key={line.skuId}>
                  <td>
                    <Link to={`/products/${line.productId}`}>{line.productName}</Link> <span className="meta">{line.skuName}</span>
                    {!line.available ? <p className="warning">No longer on sale</p> : line.quantity > line.stock ? <p className="warning">Only {line.stock} in stock</p> : null}
                  </td>
                  <td data-label="Price">
                    <Money amount={line.unitPrice} />
                  </td>
                  <td data-label="Quantity">
                    <label className="visually-hidden" htmlFor={`qty-${line.skuId}`}>
                      Quantity of {line.productName} {line.skuName}
                    </label>
                    <input
                      id={`qty-${line.skuId}`}
                      type="number"
                      min={0}
                      max={Math.max(line.stock, line.quantity)}
                      defaultValue={line.quantity}
                      onKeyDown={(e) => {
                        // Enter saves, as a form field would (the change is sent on blur).
                        if (e.key === 'Enter') e.currentTarget.blur();
                      }}
                      onBlur={(e) => {
                        const quantity = Math.max(0, Math.trunc(Number(e.target.value)) || 0);
                        if (quantity !== line.quantity) void setQuantity({ input: { skuId: line.skuId, quantity } });
                      }}
                    />
                  </td>
                  <td data-label="Total">
                    <Money amount={line.lineTotal} />
                  </td>
                  <td>
                    <button type="button" className="link-button" onClick={() => setQuantity({ input: { skuId: line.skuId, quantity: 0 } })}>
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
      <p className="cart-total">
        {cart.itemCount} {cart.itemCount === 1 ? 'item' : 'items'}: <Money amount={cart.total} className="money price-now" />
      </p>
      <p className="meta">Coupons and freight are applied at checkout.</p>
      {blocked ? (
        <p className="warning">Change the lines marked above before checking out.</p>
      ) : (
        <Link to="/checkout" className="button primary">
          Check out
        </Link>
      )}
    </>
  );
}

/** Signed out: the guest cart waits in this browser until sign-in merges it. */
function GuestCart() {
  const count = useGuestCartCount();
  return (
    <>
      <h1>Your cart</h1>
      {count === 0 ? (
        <p className="empty">
          Your cart is empty. <Link to="/">Start shopping</Link>
        </p>
      ) : (
        <p className="notice">
          {count} {count === 1 ? 'item is' : 'items are'} waiting in this browser.{' '}
          <Link to={loginPathFor({ pathname: '/cart', search: '' })} className="button primary">
            Sign in to check out
          </Link>
        </p>
      )}
    </>
  );
}

export default function CartPage() {
  usePageTitle('Cart');
  const { session } = useSession();
  if (!session) return <GuestCart />;
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <h1>Your cart</h1>
      <CartContent />
    </RequireSignIn>
  );
}

function CartContent() {
  const [result] = useQuery({ query: CartPageQuery, requestPolicy: 'cache-and-network' });
  return (
    <QueryResult result={result} what="Loading your cart">
      {({ currency, cart }) => (
        <CurrencyProvider currency={currency}>
          <CartView cart={cart} />
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}
