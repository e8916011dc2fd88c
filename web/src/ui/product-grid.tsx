import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { graphql } from '../gql';
import type { ListingProductFragment } from '../gql/graphql';
import { Money } from '../money/currency-context';
import { Stars } from './stars';
import { Image } from './image';

export const ListingProduct = graphql(`
  fragment ListingProduct on Product {
    id
    name
    imageUrl
    priceFrom
    soldCount
    shop {
      id
      slug
      name
    }
    rating {
      count
      average
    }
  }
`);

/**
 * A product as a mall lists it: picture and name (one link, never underlined), the price in the
 * accent colour, then how many sold, the rating and the shop as quiet text.
 */
export function ProductCard({ product, eager = false }: { product: ListingProductFragment; eager?: boolean }) {
  return (
    <article className="product-card">
      <Link to={`/products/${product.id}`} className="product-card-link">
        <Image src={product.imageUrl} alt="" width={240} height={180} lazy={!eager} sizes="(max-width: 720px) 50vw, 240px" />
        <h3>{product.name}</h3>
      </Link>
      <p className="price">
        <span className="price-from">from</span> <Money amount={product.priceFrom} className="money price-now" />
      </p>
      <p className="card-meta">
        <span>{product.soldCount} sold</span>
        {product.rating.count > 0 && product.rating.average !== null && product.rating.average !== undefined ? (
          <Stars average={product.rating.average} count={product.rating.count} />
        ) : null}
      </p>
      <p className="card-shop">{product.shop.name}</p>
    </article>
  );
}

/** The first row of a grid is on the first screen: its pictures load at once, the rest when scrolled to. */
const EAGER_CARDS = 2;

export function ProductGrid({ products, empty = 'No products here yet.' }: { products: ListingProductFragment[]; empty?: ReactNode }) {
  if (products.length === 0) return typeof empty === 'string' ? <p className="empty">{empty}</p> : <>{empty}</>;
  return (
    <ul className="product-grid">
      {products.map((p, i) => (
        <li key={p.id}>
          <ProductCard product={p} eager={i < EAGER_CARDS} />
        </li>
      ))}
    </ul>
  );
}
