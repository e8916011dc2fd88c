import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { QueryResult } from '../ui/query-result';
import { usePageTitle } from '../ui/page-title';

/** Every category, two levels deep: the phone's "Categories" tab, and a page any shopper can open. */
const CategoriesPageQuery = graphql(`
  query CategoriesPage {
    categories {
      id
      name
      children {
        id
        name
      }
    }
  }
`);

export default function CategoriesPage() {
  usePageTitle('Categories');
  const [result] = useQuery({ query: CategoriesPageQuery });
  return (
    <QueryResult result={result} what="Loading the categories">
      {({ categories }) => (
        <section aria-labelledby="categories-page-heading">
          <h1 id="categories-page-heading">Categories</h1>
          <ul className="category-list category-index">
            {categories.map((c) => (
              <li key={c.id}>
                <Link to={`/categories/${c.id}`}>{c.name}</Link>
                {c.children.length > 0 ? (
                  <ul>
                    {c.children.map((child) => (
                      <li key={child.id}>
                        <Link to={`/categories/${child.id}`}>{child.name}</Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      )}
    </QueryResult>
  );
}
