import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useMutation, useQuery, type UseQueryState } from 'urql';
import { graphql } from '../gql';
import type { RegionCode, CheckoutPageQuery as CheckoutData, CheckoutPreviewQuery as CheckoutPreviewData, PlacedOrderFieldsFragment } from '../gql/graphql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ErrorNotice } from '../ui/query-state';
import { refusalOf } from '../api/errors';
import { usePageTitle } from '../ui/page-title';
import { AddressFields, readAddress, regionOf } from '../ui/address-fields';
import { regionLabel } from '../ui/region-label';
import { RequireSignIn } from '../auth/require-sign-in';
import { useIdempotencyKey } from '../api/idempotency-key';
import { linesByShop } from './cart-page';
import { PlacedOrders } from './checkout/placed-orders';
import { partsBySku, partsTotal, PricedUnits, standardParts } from '../cart/priced-units';

const CheckoutPageQuery = graphql(`
  query CheckoutPage($groupBuyId: Int!, $withGroupBuy: Boolean!) {
    currency {
      ...CurrencyFields
    }
    cart @skip(if: $withGroupBuy) {
      ...CartFields
    }
    myAddresses {
      id
      recipient
      phone
      region
      address
      isDefault
    }
    myCoupons(status: AVAILABLE, pageSize: 100) @skip(if: $withGroupBuy) {
      items {
        id
        name
        minOrderAmount
        shop {
          id
        }
      }
    }
    groupBuy(id: $groupBuyId) @include(if: $withGroupBuy) {
      id
      productName
      skuName
      groupPrice
      capacity
      active
    }
  }
`);

const CheckoutPreviewQuery = graphql(`
  query CheckoutPreview($region: RegionCode!, $coupons: [CouponChoiceInput!]) {
    checkoutPreview(region: $region, coupons: $coupons) {
      total
      orders {
        shop {
          id
          name
        }
        items {
          ...PricedItemFields
        }
        itemsTotal
        discount
        freightFee
        total
      }
    }
  }
`);

/** What the customer has chosen so far: the region prices the freight (none yet: no totals), the coupons the discounts. */
interface Choice {
  region: RegionCode | null;
  coupons: { shopId: number; couponId: number }[];
}

function couponsOf(form: FormData): Choice['coupons'] {
  return [...form.entries()]
    .filter(([name, value]) => name.startsWith('coupon-') && value !== '')
    .map(([name, value]) => ({ shopId: Number(name.slice('coupon-'.length)), couponId: Number(value) }));
}

function choiceOf(form: HTMLFormElement): Choice {
  const data = new FormData(form);
  return { region: regionOf(data.get('region')), coupons: couponsOf(data) };
}

type Preview = NonNullable<CheckoutPreviewData['checkoutPreview']>;

/** The server's totals for the current choice, per shop order and to pay, once the preview is there. */
function ServerTotals({ result, regionChosen }: { result: UseQueryState<CheckoutPreviewData>; regionChosen: boolean }) {
  if (!regionChosen) return <p className="meta">Choose the region you ship to: the freight, and so the totals, depend on it.</p>;
  if (result.error) return <ErrorNotice error={result.error} title="These choices cannot be checked out" />;
  const preview = result.data?.checkoutPreview;
  if (!preview) return <p className="meta">Computing totals…</p>;
  return (
    <table className="checkout-totals" aria-label="Totals">
      <thead>
        <tr>
          <th scope="col">Shop</th>
          <th scope="col">Items</th>
          <th scope="col">Discount</th>
          <th scope="col">Freight</th>
          <th scope="col">Total</th>
        </tr>
      </thead>
      <tbody>
        {preview.orders.map((order) => (
          <tr key={order.shop.id}>
            <th scope="row">{order.shop.name}</th>
            <td><Money amount={order.itemsTotal} /></td>
            <td><Money amount={-order.discount} /></td>
            <td><Money amount={order.freightFee} /></td>
            <td><Money amount={order.total} /></td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row" colSpan={4}>To pay</th>
          <td><strong><Money amount={preview.total} /></strong></td>
        </tr>
      </tfoot>
    </table>
  );
}

const SaveAddress = graphql(`
  mutation SaveAddress($input: AddAddressInput!) {
    addAddress(input: $input) {
      address {
        id
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type SavedAddress = CheckoutData['myAddresses'][number];

/** Saved addresses to pick from (the default first), or a new one, which may be saved for next time. */
function AddressChoice({ saved, picked, onPick }: { saved: SavedAddress[]; picked: SavedAddress | null; onPick: (address: SavedAddress | null) => void }) {
  return (
    <>
      {saved.length > 0 ? (
        <fieldset className="saved-addresses">
          <legend>Ship to</legend>
          {saved.map((a) => (
            <label key={a.id} className="saved-address">
              <input type="radio" name="saved-address" value={a.id} checked={picked?.id === a.id} onChange={() => onPick(a)} />
              <span>
                <strong>{a.recipient}</strong> {a.phone} · {a.address} ({regionLabel(a.region)}){a.isDefault ? <span className="badge">Default</span> : null}
              </span>
            </label>
          ))}
          <label className="saved-address">
            <input type="radio" name="saved-address" value="" checked={picked === null} onChange={() => onPick(null)} /> A new address
          </label>
        </fieldset>
      ) : null}
      <AddressFields key={picked?.id ?? 'new'} initial={picked ?? undefined} />
      {picked === null ? (
        <label className="inline-check">
          <input type="checkbox" name="save-address" defaultChecked={saved.length === 0} /> Save to my address book
        </label>
      ) : null}
    </>
  );
}

const Checkout = graphql(`
  mutation Checkout($input: CheckoutInput!) {
    checkout(input: $input) {
      orders {
        ...PlacedOrderFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

/**
 * One box per shop order: its lines priced as the server prices them (flash-sale units apart), the
 * coupon chosen for it with the discount it gives, so the box's lines add up to its row of the totals.
 */
function CartSummary({ data, preview }: { data: CheckoutData; preview: Preview | undefined }) {
  const cart = data.cart;
  if (!cart) return null;
  const coupons = data.myCoupons?.items ?? [];
  const parts = partsBySku(preview?.orders ?? []);
  return (
    <>
      {linesByShop(cart.lines).map(({ shop, lines }) => {
        const usable = coupons.filter((c) => c.shop.id === shop.id);
        const discount = preview?.orders.find((o) => o.shop.id === shop.id)?.discount ?? 0;
        return (
          <fieldset key={shop.id} className="checkout-shop">
            <legend>{shop.name}</legend>
            <ul aria-label={`Lines from ${shop.name}`} className="checkout-lines">
              {lines.map((l) => {
                const priced = parts.get(l.skuId) ?? standardParts(l);
                return (
                  <li key={l.skuId}>
                    <span>
                      {l.productName} ({l.skuName}) <PricedUnits parts={priced} standardPrice={l.unitPrice} />
                    </span>
                    <span className="line-total">
                      <Money amount={partsTotal(priced)} />
                    </span>
                  </li>
                );
              })}
              {discount > 0 ? (
                <li className="coupon-line">
                  <span>Coupon</span>
                  <span className="line-total">
                    <Money amount={-discount} />
                  </span>
                </li>
              ) : null}
            </ul>
            <label>
              Coupon{' '}
              <select name={`coupon-${shop.id}`} defaultValue="">
                <option value="">No coupon</option>
                {usable.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </select>
            </label>
          </fieldset>
        );
      })}
    </>
  );
}

function CheckoutForm({ data, groupBuy }: { data: CheckoutData; groupBuy: { activityId: number; groupId: number | null } | null }) {
  const [state, checkout] = useMutation(Checkout);
  const idempotency = useIdempotencyKey();
  const [saving, saveAddress] = useMutation(SaveAddress);
  const [orders, setOrders] = useState<PlacedOrderFieldsFragment[] | null>(null);
  const initial = data.myAddresses.find((a) => a.isDefault) ?? null;
  const [picked, setPicked] = useState<SavedAddress | null>(initial);
  const [choice, setChoice] = useState<Choice>({ region: initial?.region ?? null, coupons: [] });
  // Asked only once a region is chosen (the placeholder region below is never sent).
  const [preview] = useQuery({
    query: CheckoutPreviewQuery,
    variables: { coupons: choice.coupons, region: choice.region ?? ('' as RegionCode) },
    requestPolicy: 'network-only',
    pause: groupBuy !== null || choice.region === null,
  });
  if (orders) return <PlacedOrders orders={orders} />;
  if (!groupBuy && data.cart?.lines.length === 0) {
    return (
      <p className="empty">
        Your cart is empty. <Link to="/">Start shopping</Link>
      </p>
    );
  }
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const coupons = couponsOf(form);
    if (picked === null && form.get('save-address') === 'on') {
      const result = await saveAddress({ input: readAddress(form) });
      // A refused save is shown; the order itself does not depend on it.
      if (refusalOf(result.error, result.data?.addAddress)) return;
    }
    const result = await checkout({
      input: {
        shippingAddress: readAddress(form),
        coupons: groupBuy ? null : coupons,
        groupBuy: groupBuy ? { activityId: groupBuy.activityId, groupId: groupBuy.groupId } : null,
        idempotencyKey: idempotency.key(),
      },
    });
    if (!result.error?.networkError) idempotency.answered();
    const placed = result.data?.checkout.orders;
    if (placed) setOrders(placed);
  };
  const refused = refusalOf(state.error, state.data?.checkout) ?? refusalOf(saving.error, saving.data?.addAddress);
  const pick = (address: SavedAddress | null) => {
    setPicked(address);
    // A new address starts with no region chosen: no totals until the shopper chooses one.
    setChoice((c) => ({ ...c, region: address?.region ?? null }));
  };
  return (
    <form onSubmit={submit} onChange={(event) => setChoice(choiceOf(event.currentTarget))} className="checkout-form">
      {data.groupBuy ? (
        <p>
          {groupBuy?.groupId ? 'Joining a group' : 'Opening a group'} for {data.groupBuy.productName} ({data.groupBuy.skuName}) at <Money amount={data.groupBuy.groupPrice} />, {data.groupBuy.capacity} seats.
        </p>
      ) : (
        <CartSummary data={data} preview={preview.data?.checkoutPreview ?? undefined} />
      )}
      <AddressChoice saved={data.myAddresses} picked={picked} onPick={pick} />
      {groupBuy ? null : <ServerTotals result={preview} regionChosen={choice.region !== null} />}
      {refused ? <ErrorNotice error={refused} title="Order not placed" /> : null}
      <button type="submit" className="primary" disabled={state.fetching}>
        {state.fetching ? 'Placing…' : 'Place order'}
      </button>
    </form>
  );
}

function CheckoutContent() {
  const [params] = useSearchParams();
  const activityId = Number(params.get('groupBuy')) || 0;
  const groupId = Number(params.get('group')) || null;
  const groupBuy = activityId > 0 ? { activityId, groupId } : null;
  const [result] = useQuery({ query: CheckoutPageQuery, variables: { groupBuyId: activityId, withGroupBuy: groupBuy !== null }, requestPolicy: 'network-only' });
  return (
    <QueryResult result={result} what="Loading checkout">
      {(data) => (
        <CurrencyProvider currency={data.currency}>
          <CheckoutForm data={data} groupBuy={groupBuy} />
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}

export default function CheckoutPage() {
  usePageTitle('Checkout');
  return (
    <RequireSignIn roles={['CUSTOMER']}>
      <h1>Checkout</h1>
      <CheckoutContent />
    </RequireSignIn>
  );
}
