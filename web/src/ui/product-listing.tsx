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

/** Controls, grid and pages of a product listing (category, brand, search and shop pages). */
export function ProductListing({ products, brands, showBrandFilter = true }: { products: ListingPage; brands: BrandOption[]; showBrandFilter?: boolean }) {
  return (
    <section aria-label="Products" className="listing">
      <div className="listing-head">
        <p className="result-count" role="status">
          {products.total} {products.total === 1 ? 'product' : 'products'}
        </p>
        <ListingControls brands={brands} showBrandFilter={showBrandFilter} />
      </div>
      <ProductGrid products={products.items} empty="No products match." />
      <Pagination page={products.page} pageSize={LISTING_PAGE_SIZE} total={products.total} />
    </section>
  );
}
