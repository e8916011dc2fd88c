import { useState } from 'react';
import { useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { Missing, QueryResult } from '../ui/query-result';
import { refusalOf } from '../api/errors';
import { ErrorNotice } from '../ui/query-state';
import { ProductListing } from '../ui/product-listing';
import { listingVariables, useListingParams } from '../ui/listing-params';
import { usePageTitle } from '../ui/page-title';
import { useSession } from '../auth/session';
import { CouponTerms } from '../ui/coupon-terms';
import { Image } from '../ui/image';

const ShopPageQuery = graphql(`
  query ShopPage($slug: String!) {
    currency {
      ...CurrencyFields
    }
    shop(slug: $slug) {
      id
      name
      favorited
      profile {
        logoUrl
        description
        bannerUrl
        contactPhone
        address
      }
    }
    shopCouponTemplates(slug: $slug, pageSize: 20) {
      items {
        id
        name
        discountKind
        amountOff
        percentOff
        maxDiscount
        minOrderAmount
        validUntil
        validDays
        claimStock
      }
    }
  }
`);

/** The listing needs the shop's id, which the slug in the URL does not give: a second request. */
const ShopProducts = graphql(`
  query ShopProducts($shopId: Int!, $sort: ProductSort, $order: SortOrder, $page: Int, $pageSize: Int) {
    products(shopId: $shopId, sort: $sort, order: $order, page: $page, pageSize: $pageSize) {
      page
      total
      items {
        ...ListingProduct
      }
    }
  }
`);

const ClaimCoupon = graphql(`
  mutation ClaimCoupon($input: ClaimCouponInput!) {
    claimCoupon(input: $input) {
      coupon {
        id
        name
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const FavoriteShop = graphql(`
  mutation FavoriteShop($input: FavoriteShopInput!) {
    favoriteShop(input: $input) {
      favorite {
        favoritedAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function ShopProductList({ shopId }: { shopId: number }) {
  const params = useListingParams();
  const [result] = useQuery({ query: ShopProducts, variables: { shopId, ...listingVariables(params) } });
  return <QueryResult result={result}>{({ products }) => <ProductListing products={products} brands={[]} showBrandFilter={false} />}</QueryResult>;
}

export default function ShopPage() {
  const slug = useParams().slug ?? '';
  const { session } = useSession();
  const [result] = useQuery({ query: ShopPageQuery, variables: { slug } });
  const [claim, claimCoupon] = useMutation(ClaimCoupon);
  const [fav, favoriteShop] = useMutation(FavoriteShop);
  const [claimed, setClaimed] = useState<number[]>([]);
  usePageTitle(result.data?.shop?.name);
  const isCustomer = session?.user.role === 'CUSTOMER';
  const favRefused = refusalOf(fav.error, fav.data?.favoriteShop);
  const favorited = !!fav.data?.favoriteShop.favorite;
  const claimRefused = refusalOf(claim.error, claim.data?.claimCoupon);
  return (
    <QueryResult result={result} what="Loading the shop">
      {({ currency, shop, shopCouponTemplates }) =>
        !shop ? (
          <Missing error={result.error} what="shop" />
        ) : (
        <CurrencyProvider currency={currency}>
          <header className="shop-header">
            {shop.profile ? <Image src={shop.profile.logoUrl} alt="" width={64} height={64} className="shop-logo" lazy={false} /> : null}
            <div>
              <h1>{shop.name}</h1>
              {shop.profile?.description ? <p>{shop.profile.description}</p> : null}
              {shop.profile?.contactPhone ? <p className="meta">Phone {shop.profile.contactPhone}</p> : null}
            </div>
            {isCustomer ? (
              <button type="button" onClick={() => favoriteShop({ input: { shopId: shop.id } })} disabled={shop.favorited || favorited}>
                {shop.favorited || favorited ? '♥ Favorite shop' : '♡ Add shop to favorites'}
              </button>
            ) : null}
          </header>
          {favRefused ? <ErrorNotice error={favRefused} /> : null}
          <section aria-labelledby="coupons-heading">
            <h2 id="coupons-heading">Coupons</h2>
            {claimRefused ? <ErrorNotice error={claimRefused} title="Not claimed" /> : null}
            {!shopCouponTemplates || shopCouponTemplates.items.length === 0 ? (
              <p className="empty">This shop has no coupons to claim right now.</p>
            ) : (
              <ul className="coupon-list">
                {shopCouponTemplates.items.map((t) => (
                  <li key={t.id} className="coupon">
                    <CouponTerms coupon={t} />
                    <p className="meta">{t.claimStock} left</p>
                    {claimed.includes(t.id) ? (
                      <p role="status">Claimed: it is in your coupons.</p>
                    ) : (
                      <button
                        type="button"
                        disabled={!isCustomer || claim.fetching}
                        title={isCustomer ? undefined : 'Sign in as a customer to claim'}
                        onClick={async () => {
                          const r = await claimCoupon({ input: { templateId: t.id } });
                          if (r.data?.claimCoupon.coupon) setClaimed([...claimed, t.id]);
                        }}
                      >
                        Claim
                      </button>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </section>
          <section aria-labelledby="shop-products-heading">
            <h2 id="shop-products-heading">Products</h2>
            <ShopProductList shopId={shop.id} />
          </section>
        </CurrencyProvider>
        )
      }
    </QueryResult>
  );
}
