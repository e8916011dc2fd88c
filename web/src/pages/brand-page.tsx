import { useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ProductListing } from '../ui/product-listing';
import { listingVariables, useListingParams } from '../ui/listing-params';
import { usePageTitle } from '../ui/page-title';

const BrandPageQuery = graphql(`
  query BrandPage($brandId: Int!, $sort: ProductSort, $order: SortOrder, $page: Int, $pageSize: Int) {
    currency {
      ...CurrencyFields
    }
    brands {
      id
      name
      logoUrl
    }
    products(brandId: $brandId, sort: $sort, order: $order, page: $page, pageSize: $pageSize) {
      page
      total
      items {
        ...ListingProduct
      }
    }
  }
`);

export default function BrandPage() {
  const brandId = Number(useParams().id);
  const params = useListingParams();
  const [result] = useQuery({ query: BrandPageQuery, variables: { ...listingVariables(params), brandId } });
  const brand = result.data?.brands.find((b) => b.id === brandId);
  usePageTitle(brand?.name);
  return (
    <QueryResult result={result} what="Loading products">
      {({ currency, products }) => (
        <CurrencyProvider currency={currency}>
          <h1>{brand ? brand.name : 'Unknown brand'}</h1>
          {brand ? <ProductListing products={products} brands={[]} showBrandFilter={false} /> : <p>This brand is not in the mall.</p>}
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}
