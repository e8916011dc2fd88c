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

export function ProductCard({ product }: { product: ListingProductFragment }) {
  return (
    <article className="product-card">
      <Link to={`/products/${product.id}`} className="product-card-link">
        <Image src={product.imageUrl} alt="" width={240} height={180} />
        <h3>{product.name}</h3>
      </Link>
      <p className="price">
        From <Money amount={product.priceFrom} />
      </p>
      <p className="meta">
        <span>{product.soldCount} sold</span>
        {product.rating.count > 0 && product.rating.average !== null && product.rating.average !== undefined ? (
          <Stars average={product.rating.average} count={product.rating.count} />
        ) : null}
      </p>
      <p className="meta">
        <Link to={`/shops/${product.shop.slug}`}>{product.shop.name}</Link>
      </p>
    </article>
  );
}

export function ProductGrid({ products, empty = 'No products here yet.' }: { products: ListingProductFragment[]; empty?: ReactNode }) {
  if (products.length === 0) return typeof empty === 'string' ? <p className="empty">{empty}</p> : <div className="empty">{empty}</div>;
  return (
    <ul className="product-grid">
      {products.map((p) => (
        <li key={p.id}>
          <ProductCard product={p} />
        </li>
      ))}
    </ul>
  );
}
