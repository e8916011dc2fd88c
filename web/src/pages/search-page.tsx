import { useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ProductListing } from '../ui/product-listing';
import { listingVariables, useListingParams } from '../ui/listing-params';
import { usePageTitle } from '../ui/page-title';
import { searchableKeyword } from '../search/keyword';
import { useSearchFilters } from '../search/search-filters';
import { ChosenFilterList, FacetPanel, type ChosenFilters } from '../search/facet-panel';
import { EmptyState } from '../ui/empty-state';

/**
 * One request for the whole page: a page of results and the facets of the same keyword and filters
 * (`sort`, `order` and the page do not change facet counts, so the facets get the filters only).
 */
const SearchPageQuery = graphql(`
  query SearchPage(
    $q: String
    $category: Int
    $brandId: Int
    $shopId: Int
    $priceMin: Int
    $priceMax: Int
    $sort: ProductSort
    $order: SortOrder
    $page: Int
    $pageSize: Int
  ) {
    currency {
      ...CurrencyFields
    }
    products(
      q: $q
      category: $category
      brandId: $brandId
      shopId: $shopId
      priceMin: $priceMin
      priceMax: $priceMax
      sort: $sort
      order: $order
      page: $page
      pageSize: $pageSize
    ) {
      page
      total
      items {
        ...ListingProduct
      }
    }
    productFacets(q: $q, category: $category, brandId: $brandId, shopId: $shopId, priceMin: $priceMin, priceMax: $priceMax) {
      total
      categories {
        id
        parentId
        name
        depth
        count
      }
      brands {
        id
        name
        count
      }
      shops {
        id
        slug
        name
        count
      }
      prices {
        min
        max
        count
      }
    }
  }
`);

function NoResults({ q, filtered }: { q: string; filtered: boolean }) {
  const [params] = useSearchParams();
  if (filtered) {
    const keywordOnly = params.get('q') ? `/search?${new URLSearchParams({ q: params.get('q') ?? '' }).toString()}` : '/search';
    return (
      <EmptyState picture="search" title={`No products match ${q ? `“${q}” ` : ''}with these filters`} action={{ to: keywordOnly, label: 'Search without filters' }}>
        Fewer filters find more.
      </EmptyState>
    );
  }
  if (!q) return <EmptyState picture="search" title="No products yet" />;
  return (
    <EmptyState picture="search" title={`No products match “${q}”`} action={{ to: '/', label: 'Browse the storefront' }}>
      Check the spelling, or try fewer or shorter words.
    </EmptyState>
  );
}

/**
 * The search page: results for the keyword (most relevant first unless sorted) with facets to
 * narrow them (category, brand, shop, price), sort and pages; every choice is in the URL.
 */
export default function SearchPage() {
  const [search] = useSearchParams();
  const q = search.get('q')?.trim() ?? '';
  const params = useListingParams();
  const filters = useSearchFilters();
  const chosen: ChosenFilters = { ...filters, brandId: params.brandId };
  // The API refuses a keyword over 200 characters or without a letter or digit: the page searches
  // by the first 200, and lists everything for punctuation alone.
  const keyword = searchableKeyword(q);
  const [result] = useQuery({ query: SearchPageQuery, variables: { ...listingVariables(params), ...filters, q: keyword } });
  usePageTitle(q ? `Search: ${q}` : 'All products');
  const filtered = Object.values(chosen).some((v) => v !== null);
  return (
    <>
      <h1>{q ? `Results for “${q}”` : 'All products'}</h1>
      <QueryResult result={result} what="Loading products">
        {({ currency, products, productFacets }) => (
          <CurrencyProvider currency={currency}>
            <div className="search-layout">
              <FacetPanel facets={productFacets} chosen={chosen} />
              {/* The last results stay while the next ones load (a facet click), marked busy. */}
              <div className="search-results" aria-busy={result.fetching}>
                <ChosenFilterList facets={productFacets} chosen={chosen} />
                <ProductListing
                  products={products}
                  brands={[]}
                  showBrandFilter={false}
                  defaultSortLabel={keyword ? 'Most relevant' : undefined}
                  empty={<NoResults q={q} filtered={filtered} />}
                />
              </div>
            </div>
          </CurrencyProvider>
        )}
      </QueryResult>
    </>
  );
}
