import { Link } from 'react-router';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { ContentFieldsFragment } from '../gql/graphql';
import { CurrencyProvider } from '../money/currency-context';
import { QueryResult } from '../ui/query-result';
import { ProductGrid } from '../ui/product-grid';
import { usePageTitle } from '../ui/page-title';
import { Image } from '../ui/image';

const HomePageQuery = graphql(`
  query HomePage {
    currency {
      ...CurrencyFields
    }
    homeContent {
      banners {
        ...ContentFields
      }
      promos {
        ...ContentFields
      }
      quickLinks {
        ...ContentFields
      }
      floorAdverts {
        ...ContentFields
      }
    }
    categories {
      id
      name
      children {
        id
        name
      }
    }
    bestSellers: products(sort: SALES, pageSize: 8) {
      items {
        ...ListingProduct
      }
    }
  }

  fragment ContentFields on ContentItem {
    id
    title
    subtitle
    imageUrl
    destination
  }
`);

function ContentCard({ item, className, first }: { item: ContentFieldsFragment; className: string; first: boolean }) {
  return (
    <Link to={item.destination} className={className}>
      {item.imageUrl ? <Image src={item.imageUrl} alt="" width={800} height={400} lazy={!first} priority={first && className === 'banner'} /> : null}
      <strong>{item.title}</strong>
      {item.subtitle ? <span>{item.subtitle}</span> : null}
    </Link>
  );
}

function ContentList({ items, label, className }: { items: ContentFieldsFragment[]; label: string; className: string }) {
  if (items.length === 0) return null;
  return (
    <section aria-label={label} className={`${className}-list`}>
      <ul>
        {items.map((item, i) => (
          <li key={item.id}>
            <ContentCard item={item} className={className} first={i === 0} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export default function HomePage() {
  usePageTitle(null);
  const [result] = useQuery({ query: HomePageQuery });
  return (
    <QueryResult result={result} what="Loading the storefront">
      {({ currency, homeContent, categories, bestSellers }) => (
        <CurrencyProvider currency={currency}>
          <h1 className="visually-hidden">Mallfront</h1>
          <ContentList items={homeContent.banners} label="Featured" className="banner" />
          {/* The product feed right under the banner, so a phone's first screen shows things to buy. */}
          <section aria-labelledby="best-heading" className="home-feed">
            <h2 id="best-heading">Best sellers</h2>
            <ProductGrid products={bestSellers.items} />
          </section>
          <ContentList items={homeContent.quickLinks} label="Quick links" className="quick-link" />
          <ContentList items={homeContent.promos} label="Promotions" className="promo" />
          <section aria-labelledby="categories-heading" className="below-fold">
            <h2 id="categories-heading">Categories</h2>
            <ul className="category-list">
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
          <ContentList items={homeContent.floorAdverts} label="More to explore" className="floor-advert" />
        </CurrencyProvider>
      )}
    </QueryResult>
  );
}
