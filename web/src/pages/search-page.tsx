import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ProductListing } from '../ui/product-listing';
import { listingVariables, useListingParams } from '../ui/listing-params';
import { usePageTitle } from '../ui/page-title';

/**
 * The search page: the listing with the keyword (most relevant first unless sorted), brand filter
 * and pages. Facets and suggestions are in the API (docs/api.md) and not shown here yet.
 */
const SearchPageQuery = graphql(`
  query SearchPage($q: String, $sort: ProductSort, $order: SortOrder, $brandId: Int, $page: Int, $pageSize: Int) {
    currency {
      ...CurrencyFields
    }
    brands {
      id
      name
    }
    products(q: $q, sort: $sort, order: $order, brandId: $brandId, page: $page, pageSize: $pageSize) {
      page
      total
      items {
        ...ListingProduct
      }
    }
  }
`);

export default function SearchPage() {
  const [search] = useSearchParams();
  const q = search.get('q')?.trim() ?? '';
  const params = useListingParams();
  // The API refuses a keyword over 200 characters or without a letter or digit: the page searches
  // by the first 200, and lists everything for punctuation alone.
  const keyword = /[\p{L}\p{M}\p{N}]/u.test(q) ? [...q].slice(0, 200).join('') : null;
  const [result] = useQuery({ query: SearchPageQuery, variables: { ...listingVariables(params), q: keyword } });
  usePageTitle(q ? `Search: ${q}` : 'All products');
  return (
    <>
      <h1>{q ? `Results for “${q}”` : 'All products'}</h1>
      <QueryResult result={result} what="Loading products">
        {({ currency, brands, products }) => (
          <CurrencyProvider currency={currency}>
            <ProductListing products={products} brands={brands} />
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}
