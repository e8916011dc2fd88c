import { useMemo } from 'react';
import { Link } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { CartPageQuery as CartData, RegionCode } from '../gql/graphql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ErrorNotice } from '../ui/query-state';
import { refusalOf } from '../api/errors';
import { usePageTitle } from '../ui/page-title';
import { loginPathFor, RequireSignIn } from '../auth/require-sign-in';
import { useSession } from '../auth/session';
import { removeFromGuestCart, useGuestCartLines } from '../cart/guest-cart';
import { partsBySku, partsTotal, PricedUnits, standardParts, type PricedPart } from '../cart/priced-units';
import { Image } from '../ui/image';
import { EmptyState } from '../ui/empty-state';

export const CartFields = graphql(`
  fragment CartFields on Cart {
    itemCount
    total
    lines {
      skuId
      skuName
      productId
      productName
      imageUrl
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
    myCoupons(status: AVAILABLE, pageSize: 100) {
      items {
        id
        name
        shop {
          id
        }
      }
    }
  }
`);

/**
 * The cart priced as checkout would price it now (flash-sale units, no coupon yet). The preview needs
 * a region, which prices only the freight; the cart shows no freight (checkout asks the shopper's
 * region), so any region gives the cart the same prices.
 */
const ITEM_PRICES_REGION: RegionCode = 'CN_BJ';

const CartPricesQuery = graphql(`
  query CartPrices($region: RegionCode!) {
    checkoutPreview(region: $region) {
      orders {
        shop {
          id
        }
        items {
          ...PricedItemFields
        }
      }
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

/** Every cart change answers a `Cart`: the prices are asked again after it. */
const PRICES_CONTEXT = { additionalTypenames: ['Cart'] };

/**
 * The parts each line is priced in: from the server's preview when it can price the cart (every line
 * on sale), else every unit at the standard price (checkout refuses such a cart anyway).
 */
function useLineParts(cart: CartData['cart']): { parts: (line: Line) => PricedPart[]; priced: boolean } {
  const priceable = cart.lines.length > 0 && cart.lines.every((l) => l.available);
  const [prices] = useQuery({ query: CartPricesQuery, variables: { region: ITEM_PRICES_REGION }, pause: !priceable, context: PRICES_CONTEXT, requestPolicy: 'cache-and-network' });
  const preview = priceable && !prices.error ? prices.data?.checkoutPreview : undefined;
  const bySku = useMemo(() => (preview ? partsBySku(preview.orders) : null), [preview]);
  // Just after a quantity changed, the last prices are for the old quantity: standard prices until the new ones come.
  const current = (line: Line) => {
    const priced = bySku?.get(line.skuId);
    return priced && priced.reduce((n, part) => n + part.quantity, 0) === line.quantity ? priced : undefined;
  };
  return { parts: (line) => current(line) ?? standardParts(line), priced: Boolean(bySku) };
}

type Coupon = CartData['myCoupons']['items'][number];

/** What the shopper's coupons can do for one shop's lines: coupons do not combine with flash-sale prices (the server refuses them). */
function CouponHint({ coupons, flashPriced }: { coupons: Coupon[]; flashPriced: boolean }) {
  if (coupons.length === 0) return null;
  if (flashPriced) return <p className="meta coupon-hint">Your coupons for this shop do not combine with flash-sale prices.</p>;
  return (
    <p className="coupon-hint">
      <span className="badge">Coupon</span> {coupons.map((c) => c.name).join(', ')}: choose {coupons.length === 1 ? 'it' : 'one'} at checkout.
    </p>
  );
}

function CartView({ cart, coupons }: { cart: CartData['cart']; coupons: Coupon[] }) {
  const [update, setQuantity] = useMutation(UpdateCartLine);
  const { parts, priced } = useLineParts(cart);
  if (cart.lines.length === 0) {
    return (
      <EmptyState picture="cart" title="Your cart is empty" action={{ to: '/', label: 'Start shopping' }}>
        Add something from any shop: one cart, one checkout.
      </EmptyState>
    );
  }
  const blocked = cart.lines.some((l) => !l.available || l.quantity > l.stock);
  const refused = refusalOf(update.error, update.data?.setCartItem);
  const shops = linesByShop(cart.lines).map(({ shop, lines }) => ({
    shop,
    lines: lines.map((line) => ({ line, parts: parts(line) })),
  }));
  const shopTotal = (lines: { parts: PricedPart[] }[]) => lines.reduce((sum, l) => sum + partsTotal(l.parts), 0);
  const total = shops.reduce((sum, s) => sum + shopTotal(s.lines), 0);
  return (
    <>
      {refused ? <ErrorNotice error={refused} title="Cart not changed" /> : null}
      {shops.map(({ shop, lines }) => (
        <section key={shop.id} className="cart-shop" aria-label={`From ${shop.name}`}>
          <h2>
            <Link to={`/shops/${shop.slug}`} className="shop-name-link">
              {shop.name}
            </Link>
          </h2>
          <table className="lines">
            <LinesHead />
            <tbody>
              {lines.map(({ line, parts: lineParts }) => (
                <tr key={line.skuId}>
                  <td className="line-item">
                    <Link to={`/products/${line.productId}`} className="line-product">
                      <Image src={line.imageUrl} alt="" className="line-thumb" width={64} height={48} />
                      <span>{line.productName}</span>
                    </Link>{' '}
                    <span className="meta">{line.skuName}</span>
                    {!line.available ? <p className="warning">No longer on sale</p> : line.quantity > line.stock ? <p className="warning">Only {line.stock} in stock</p> : null}
                  </td>
                  <td data-label="Price">
                    <PricedUnits parts={lineParts} standardPrice={line.unitPrice} />
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
                  <td data-label="Total" className="line-total">
                    <Money amount={partsTotal(lineParts)} />
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
          <CouponHint coupons={coupons.filter((c) => c.shop.id === shop.id)} flashPriced={lines.some((l) => l.parts.some((p) => p.pricing === 'FLASH_SALE'))} />
        </section>
      ))}
      <table className="checkout-totals" aria-label="Cart totals">
        <thead>
          <tr>
            <th scope="col">Shop</th>
            <th scope="col">Items</th>
          </tr>
        </thead>
        <tbody>
          {shops.map(({ shop, lines }) => (
            <tr key={shop.id}>
              <th scope="row">{shop.name}</th>
              <td>
                <Money amount={shopTotal(lines)} />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">
              {cart.itemCount} {cart.itemCount === 1 ? 'item' : 'items'}
            </th>
            <td>
              <Money amount={total} className="money price-now" />
            </td>
          </tr>
        </tfoot>
      </table>
      <p className="meta">{priced ? 'Priced as checkout prices them now. ' : ''}Coupons and freight are applied at checkout.</p>
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

/** The head of a cart's lines table, signed in or not. */
function LinesHead() {
  return (
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
  );
}

const GuestCartQuery = graphql(`
  query GuestCart($ids: [Int!]!) {
    currency {
      code
      symbol
      minorUnitDigits
    }
    skuSummaries(ids: $ids) {
      skuId
      name
      price
      stock
      productId
      productName
      imageUrl
      shopId
      shopName
    }
  }
`);

/** Signed out: the guest cart waits in this browser until sign-in merges it; its lines are shown as the storefront sells them now. */
function GuestCart() {
  const lines = useGuestCartLines();
  const ids = useMemo(() => lines.map((l) => l.skuId), [lines]);
  const [result] = useQuery({ query: GuestCartQuery, variables: { ids }, pause: ids.length === 0 });
  if (lines.length === 0) {
    return (
      <>
        <h1>Your cart</h1>
        <EmptyState picture="cart" title="Your cart is empty" action={{ to: '/', label: 'Start shopping' }}>
          Add something from any shop: it waits in this browser until you sign in.
        </EmptyState>
      </>
    );
  }
  const signIn = (
    <Link to={loginPathFor({ pathname: '/cart', search: '' })} className="button primary">
      Sign in to check out
    </Link>
  );
  if (!result.data) {
    return (
      <>
        <h1>Your cart</h1>
        {result.error ? <ErrorNotice error={result.error} /> : <p className="meta">Loading your cart…</p>}
        {signIn}
      </>
    );
  }
  const bySku = new Map(result.data.skuSummaries.map((sku) => [sku.skuId, sku]));
  const total = lines.reduce((sum, l) => sum + (bySku.get(l.skuId)?.price ?? 0) * l.quantity, 0);
  return (
    <CurrencyProvider currency={result.data.currency}>
      <h1>Your cart</h1>
      <p className="meta">Kept in this browser until you sign in; prices as the shops sell now.</p>
      <table className="lines" aria-label="Your cart">
        <LinesHead />
        <tbody>
          {lines.map((line) => {
            const sku = bySku.get(line.skuId);
            return (
              <tr key={line.skuId} data-testid="guest-cart-line">
                <td className="line-item">
                  {sku ? (
                    <>
                      <Link to={`/products/${sku.productId}`} className="line-product">
                        <Image src={sku.imageUrl} alt="" className="line-thumb" width={64} height={48} />
                        <span>{sku.productName}</span>
                      </Link>{' '}
                      <span className="meta">
                        {sku.name} · {sku.shopName}
                      </span>
                      {line.quantity > sku.stock ? <p className="warning">Only {sku.stock} in stock</p> : null}
                    </>
                  ) : (
                    <p className="warning">No longer on sale</p>
                  )}
                </td>
                <td data-label="Price">{sku ? <Money amount={sku.price} /> : '—'}</td>
                <td data-label="Quantity">{line.quantity}</td>
                <td data-label="Total" className="line-total">
                  {sku ? <Money amount={sku.price * line.quantity} /> : '—'}
                </td>
                <td>
                  <button type="button" className="link-button" onClick={() => removeFromGuestCart(line.skuId)}>
                    Remove<span className="visually-hidden"> {sku ? `${sku.productName} ${sku.name}` : 'this line'}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              Subtotal
            </th>
            <td className="line-total">
              <Money amount={total} />
            </td>
            <td />
          </tr>
        </tfoot>
      </table>
      <p className="meta">Coupons and freight are applied at checkout.</p>
      {signIn}
    </CurrencyProvider>
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
      {({ currency, cart, myCoupons }) => (
        <CurrencyProvider currency={currency}>
          <CartView cart={cart} coupons={myCoupons.items} />
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}
