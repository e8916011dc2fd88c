import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ProductListing } from '../ui/product-listing';
import { listingVariables, useListingParams } from '../ui/listing-params';
import { usePageTitle } from '../ui/page-title';

/**
 * The search page on today's listing: sort, brand filter and pages. Keyword matching, facets and
 * suggestions come with the API's search (issue 21); until then the page says so instead of
 * pretending to match the words.
 */
const SearchPageQuery = graphql(`
  query SearchPage($sort: ProductSort, $order: SortOrder, $brandId: Int, $page: Int, $pageSize: Int) {
    currency {
      ...CurrencyFields
    }
    brands {
      id
      name
    }
    products(sort: $sort, order: $order, brandId: $brandId, page: $page, pageSize: $pageSize) {
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
  const [result] = useQuery({ query: SearchPageQuery, variables: listingVariables(params) });
  usePageTitle(q ? `Search: ${q}` : 'All products');
  return (
    <>
      <h1>{q ? `Results for “${q}”` : 'All products'}</h1>
      {q ? (
        <p className="notice" role="note">
          Keyword search is not available yet: these are all products, which you can sort and filter by brand.
        </p>
      ) : null}
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
