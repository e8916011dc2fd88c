import { useCallback, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useClient, useMutation, useQuery } from 'urql';
import { refusalOf, type ApiRefusal } from '../api/errors';
import { graphql } from '../gql';
import type { ProductPageQuery as ProductPageData } from '../gql/graphql';
import { CurrencyProvider, Money } from '../money/currency-context';
import { Missing, QueryResult } from '../ui/query-result';
import { ErrorNotice } from '../ui/query-state';
import { Countdown } from '../ui/countdown';
import { Stars } from '../ui/stars';
import { usePageTitle } from '../ui/page-title';
import { useSession } from '../auth/session';
import { loginPathFor } from '../auth/require-sign-in';
import { addToGuestCart } from '../cart/guest-cart';
import { addToCart } from '../cart/add-to-cart';
import { GroupBuyPanel } from './product/group-buy-panel';
import { ReviewList } from './product/review-list';
import { Image } from '../ui/image';
import { QuantityStepper } from './product/quantity-stepper';
import { ShopCard } from './product/shop-card';

/** One request: the product with SKUs and rating, its latest reviews, its live flash sales and group buys. */
const ProductPageQuery = graphql(`
  query ProductPage($id: Int!) {
    currency {
      ...CurrencyFields
    }
    product(id: $id) {
      id
      name
      description
      imageUrl
      priceFrom
      soldCount
      favorited
      shop {
        id
        slug
        name
        profile {
          logoUrl
          description
        }
      }
      brand {
        id
        name
      }
      categoryPath {
        id
        name
      }
      skus {
        id
        name
        price
        stock
      }
      rating {
        count
        average
        perStar {
          rating
          count
        }
      }
    }
    productReviews(productId: $id, pageSize: 5) {
      total
      items {
        ...ReviewFields
      }
    }
    flashSales(productId: $id, includeUpcoming: true, pageSize: 5) {
      items {
        id
        name
        state
        startsAt
        endsAt
        items {
          id
          skuId
          productId
          activityPrice
          remainingStock
          perCustomerLimit
        }
      }
    }
    groupBuys(productId: $id, pageSize: 5) {
      items {
        ...GroupBuyFields
      }
    }
  }
`);

const FavoriteProduct = graphql(`
  mutation FavoriteProduct($input: FavoriteProductInput!) {
    favoriteProduct(input: $input) {
      favorite {
        favoritedAt
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);
const UnfavoriteProduct = graphql(`
  mutation UnfavoriteProduct($input: UnfavoriteProductInput!) {
    unfavoriteProduct(input: $input) {
      productId
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

type FlashSales = ProductPageData['flashSales']['items'];

/** The flash-sale offer on one SKU: active first, else the next upcoming one. */
function flashOffer(sales: FlashSales, skuId: number) {
  for (const state of ['ACTIVE', 'UPCOMING'] as const) {
    for (const sale of sales) {
      const item = sale.items.find((i) => i.skuId === skuId);
      if (sale.state === state && item) return { sale, item };
    }
  }
  return null;
}

function FlashPrice({ offer, standard, onChange }: { offer: NonNullable<ReturnType<typeof flashOffer>>; standard: number; onChange: () => void }) {
  const { sale, item } = offer;
  if (sale.state === 'UPCOMING') {
    return (
      <p className="flash-upcoming">
        Flash sale <strong>{sale.name}</strong>: <Money amount={item.activityPrice} /> — <Countdown until={sale.startsAt} label="starts in" onEnd={onChange} />
      </p>
    );
  }
  return (
    <div className="flash-price" aria-label="Flash sale price">
      <p>
        <span className="badge">Flash sale</span> <Money amount={item.activityPrice} className="money price-now" /> <s><Money amount={standard} /></s>
      </p>
      <p className="meta">
        <Countdown until={sale.endsAt} onEnd={onChange} /> · {item.remainingStock} left at this price · up to {item.perCustomerLimit} per customer
      </p>
    </div>
  );
}

/** The page's data once the product is there (a missing or hidden product is null). */
type ProductData = ProductPageData & { product: NonNullable<ProductPageData['product']> };

function ProductView({ data, refresh }: { data: ProductData; refresh: () => void }) {
  const { product } = data;
  const { session } = useSession();
  const client = useClient();
  const firstInStock = product.skus.find((s) => s.stock > 0) ?? product.skus[0];
  const [skuId, setSkuId] = useState(firstInStock?.id ?? 0);
  const [quantity, setQuantity] = useState(1);
  const [adding, setAdding] = useState(false);
  const [added, setAdded] = useState(false);
  const [addError, setAddError] = useState<ApiRefusal | null>(null);
  const [favorite, favoriteProduct] = useMutation(FavoriteProduct);
  const [unfavorite, unfavoriteProduct] = useMutation(UnfavoriteProduct);
  const [favorited, setFavorited] = useState(product.favorited);
  const sku = product.skus.find((s) => s.id === skuId);
  const offer = sku ? flashOffer(data.flashSales.items, sku.id) : null;

  const navigate = useNavigate();
  /** Adds the chosen SKU; true when it is in the cart. */
  const put = async (): Promise<boolean> => {
    if (!sku) return false;
    if (!session) {
      // Kept in this browser; sign-in merges it into the account's cart (nothing is lost).
      addToGuestCart({ skuId: sku.id, quantity });
      setAddError(null);
      return true;
    }
    setAdding(true);
    setAdded(false);
    const error = await addToCart(client, { skuId: sku.id, quantity });
    setAdding(false);
    setAddError(error);
    return !error;
  };
  const add = async () => setAdded(await put());
  // "Buy now": into the cart and on to checkout (through sign-in when signed out, which merges the guest cart first).
  const buyNow = async () => {
    if (await put()) navigate(session ? '/checkout' : loginPathFor({ pathname: '/checkout', search: '' }));
  };
  const toggleFavorite = async () => {
    const input = { input: { productId: product.id } };
    const refusal = favorited
      ? await unfavoriteProduct(input).then((r) => refusalOf(r.error, r.data?.unfavoriteProduct))
      : await favoriteProduct(input).then((r) => refusalOf(r.error, r.data?.favoriteProduct));
    if (!refusal) setFavorited(!favorited);
  };
  const favoriteError = refusalOf(favorite.error, favorite.data?.favoriteProduct) ?? refusalOf(unfavorite.error, unfavorite.data?.unfavoriteProduct);

  return (
    <article className="product-detail">
      <nav aria-label="Breadcrumb" className="breadcrumb">
        <ol>
          {product.categoryPath.map((c) => (
            <li key={c.id}>
              <Link to={`/categories/${c.id}`}>{c.name}</Link>
            </li>
          ))}
        </ol>
      </nav>
      <div className="product-main">
        <Image src={product.imageUrl} alt={product.name} className="product-image" width={800} height={600} lazy={false} sizes="(max-width: 720px) 100vw, 560px" />
        <div className="product-buy">
          <h1>{product.name}</h1>
          {product.brand ? (
            <p className="meta">
              Brand <Link to={`/brands/${product.brand.id}`}>{product.brand.name}</Link>
            </p>
          ) : null}
          <p className="meta">
            {product.soldCount} sold
            {product.rating.average !== null && product.rating.average !== undefined ? (
              <>
                {' '}
                · <Stars average={product.rating.average} count={product.rating.count} />
              </>
            ) : (
              ' · No reviews yet'
            )}
          </p>
          {sku ? (
            <p className="price">
              <Money amount={sku.price} className="money price-now" />
            </p>
          ) : null}
          {offer && sku ? <FlashPrice offer={offer} standard={sku.price} onChange={refresh} /> : null}
          <fieldset className="sku-picker">
            <legend>Options</legend>
            <div className="sku-chips">
              {product.skus.map((s) => (
                <label key={s.id} className={s.stock === 0 ? 'sku-chip sold-out' : 'sku-chip'}>
                  <input type="radio" name="sku" value={s.id} checked={s.id === skuId} onChange={() => setSkuId(s.id)} />
                  <span className="sku-chip-name">{s.name}</span> <Money amount={s.price} /> <span className="sku-chip-stock">{s.stock > 0 ? `${s.stock} in stock` : 'sold out'}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="buy-row">
            <QuantityStepper value={quantity} max={Math.max(1, sku?.stock ?? 1)} onChange={setQuantity} />
            <button type="button" onClick={add} disabled={adding || !sku || sku.stock === 0} className="add-button">
              {adding ? 'Adding…' : 'Add to cart'}
            </button>
            <button type="button" className="primary" onClick={buyNow} disabled={adding || !sku || sku.stock === 0}>
              Buy now
            </button>
            {session?.user.role === 'CUSTOMER' ? (
              <button type="button" onClick={toggleFavorite} aria-pressed={favorited}>
                {favorited ? '♥ Favorited' : '♡ Favorite'}
              </button>
            ) : null}
          </div>
          {added ? (
            <p className="notice notice-ok" role="status">
              {session ? (
                <>
                  Added to your cart. <Link to="/cart">View cart</Link>
                </>
              ) : (
                <>
                  Added to your cart. <Link to={loginPathFor({ pathname: '/cart', search: '' })}>Sign in to check out</Link>: your cart comes with you.
                </>
              )}
            </p>
          ) : null}
          {addError ? <ErrorNotice error={addError} title="Not added" /> : null}
          {favoriteError ? <ErrorNotice error={favoriteError} /> : null}
          <ShopCard shop={product.shop} />
          {data.groupBuys.items.map((g) => (
            <GroupBuyPanel key={g.id} groupBuy={g} />
          ))}
        </div>
      </div>
      {product.description ? (
        <section aria-labelledby="about-heading">
          <h2 id="about-heading">About this product</h2>
          <p>{product.description}</p>
        </section>
      ) : null}
      <ReviewList rating={product.rating} reviews={data.productReviews?.items ?? []} total={data.productReviews?.total ?? 0} />
    </article>
  );
}

export default function ProductPage() {
  const id = Number(useParams().id);
  const [result, reexecute] = useQuery({ query: ProductPageQuery, variables: { id } });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  usePageTitle(result.data?.product?.name);
  return (
    <QueryResult result={result} what="Loading the product">
      {(data) => (
        <CurrencyProvider currency={data.currency}>
          {data.product ? <ProductView key={data.product.id} data={{ ...data, product: data.product }} refresh={refresh} /> : <Missing error={result.error} what="product" />}
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}
