import { Link, useParams } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { CurrencyProvider } from '../money/currency-context';
import { Missing, QueryResult } from '../ui/query-result';
import { ProductListing } from '../ui/product-listing';
import { listingVariables, useListingParams } from '../ui/listing-params';
import { usePageTitle } from '../ui/page-title';

/** One request: the category, the brands for the filter, a page of products and the currency. */
const CategoryPageQuery = graphql(`
  query CategoryPage($id: Int!, $sort: ProductSort, $order: SortOrder, $brandId: Int, $page: Int, $pageSize: Int) {
    currency {
      ...CurrencyFields
    }
    category(id: $id) {
      id
      name
      children {
        id
        name
      }
    }
    brands {
      id
      name
    }
    products(category: $id, sort: $sort, order: $order, brandId: $brandId, page: $page, pageSize: $pageSize) {
      page
      total
      items {
        ...ListingProduct
      }
    }
  }
`);

export default function CategoryPage() {
  const id = Number(useParams().id);
  const params = useListingParams();
  const [result] = useQuery({ query: CategoryPageQuery, variables: { id, ...listingVariables(params) } });
  usePageTitle(result.data?.category?.name);
  return (
    <QueryResult result={result} what="Loading products">
      {({ currency, category, brands, products }) =>
        !category ? (
          <Missing error={result.error} what="category" />
        ) : (
        <CurrencyProvider currency={currency}>
          <h1>{category.name}</h1>
          {category.children.length > 0 ? (
            <nav aria-label="Subcategories">
              <ul className="chips">
                {category.children.map((c) => (
                  <li key={c.id}>
                    <Link to={`/categories/${c.id}`}>{c.name}</Link>
                  </li>
                ))}
              </ul>
            </nav>
          ) : null}
          <ProductListing products={products} brands={brands} />
        </CurrencyProvider>
        )
      }
    </QueryResult>
  );
}
