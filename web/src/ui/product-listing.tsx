import { useId, type ReactNode } from 'react';
import type { ListingProductFragment } from '../gql/graphql';
import { ListingControls, type BrandOption } from './listing-controls';
import { Pagination } from './pagination';
import { ProductGrid } from './product-grid';
import { LISTING_PAGE_SIZE } from './listing-params';

export interface ListingPage {
  items: ListingProductFragment[];
  page: number;
  total: number;
}

export interface ProductListingProps {
  products: ListingPage;
  brands: BrandOption[];
  showBrandFilter?: boolean;
  /** What the order is when no sort is chosen (search: most relevant). */
  defaultSortLabel?: string;
  /** Shown instead of the grid when nothing matches. */
  empty?: ReactNode;
}

/** Controls, grid and pages of a product listing (category, brand, search and shop pages). */
export function ProductListing({ products, brands, showBrandFilter = true, defaultSortLabel, empty = 'No products match.' }: ProductListingProps) {
  const heading = useId();
  return (
    // A heading of its own (for screen readers: the page's title says what is listed), so the cards' titles come under it.
    <section aria-labelledby={heading} className="listing">
      <h2 id={heading} className="visually-hidden">
        Products
      </h2>
      <div className="listing-head">
        <p className="result-count" role="status">
          {products.total} {products.total === 1 ? 'product' : 'products'}
        </p>
        <ListingControls brands={brands} showBrandFilter={showBrandFilter} defaultSortLabel={defaultSortLabel} />
      </div>
      <ProductGrid products={products.items} empty={empty} />
      <Pagination page={products.page} pageSize={LISTING_PAGE_SIZE} total={products.total} />
    </section>
  );
}
