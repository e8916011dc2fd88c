import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { SearchPageQuery } from '../gql/graphql';
import { useCurrency } from '../money/currency-context';
import { clearing, withParams, type FacetName, type SearchFilters } from './search-filters';
import { priceRangeLabel } from './price-range';

type Facets = SearchPageQuery['productFacets'];
type CategoryFacet = Facets['categories'][number];

/** The filters chosen on the search page: the facets' own, and the listing's brand. */
export type ChosenFilters = SearchFilters & { brandId: number | null };

const searchLink = (params: URLSearchParams, changes: Record<string, string | null>) => `/search${withParams(params, changes)}`;

/**
 * The categories worth showing: the top level, and the children of the chosen category and of each
 * of its ancestors, so the tree opens along the shopper's path (the list arrives in tree order).
 */
function visibleCategories(categories: CategoryFacet[], chosen: number | null): CategoryFacet[] {
  const byId = new Map(categories.map((c) => [c.id, c]));
  const open = new Set<number>();
  for (let c = chosen === null ? undefined : byId.get(chosen); c; c = c.parentId === null ? undefined : byId.get(c.parentId)) open.add(c.id);
  return categories.filter((c) => c.parentId === null || open.has(c.parentId));
}

/** What each chosen filter is called, for the chips above the results. */
function chosenLabels(facets: Facets, chosen: ChosenFilters, currency: ReturnType<typeof useCurrency>): { facet: FacetName; label: string }[] {
  const labels: { facet: FacetName; label: string }[] = [];
  if (chosen.category !== null) labels.push({ facet: 'category', label: `Category: ${facets.categories.find((c) => c.id === chosen.category)?.name ?? `#${chosen.category}`}` });
  if (chosen.brandId !== null) labels.push({ facet: 'brand', label: `Brand: ${facets.brands.find((b) => b.id === chosen.brandId)?.name ?? `#${chosen.brandId}`}` });
  if (chosen.shopId !== null) labels.push({ facet: 'shop', label: `Shop: ${facets.shops.find((s) => s.id === chosen.shopId)?.name ?? `#${chosen.shopId}`}` });
  if (chosen.priceMin !== null || chosen.priceMax !== null) labels.push({ facet: 'price', label: `Price: ${priceRangeLabel(chosen.priceMin, chosen.priceMax, currency)}` });
  return labels;
}

/** The chosen filters as removable chips, and "Clear all". Nothing when none is chosen. */
export function ChosenFilterList({ facets, chosen }: { facets: Facets; chosen: ChosenFilters }) {
  const [params] = useSearchParams();
  const currency = useCurrency();
  const labels = chosenLabels(facets, chosen, currency);
  if (labels.length === 0) return null;
  const all = Object.assign({}, ...labels.map((l) => clearing(l.facet))) as Record<string, null>;
  return (
    <ul className="chips chosen-filters" aria-label="Chosen filters">
      {labels.map(({ facet, label }) => (
        <li key={facet}>
          <Link to={searchLink(params, clearing(facet))} className="chip" aria-label={`Remove ${label}`}>
            {label} <span aria-hidden="true">×</span>
          </Link>
        </li>
      ))}
      {labels.length > 1 ? (
        <li>
          <Link to={searchLink(params, all)}>Clear all</Link>
        </li>
      ) : null}
    </ul>
  );
}

function FacetGroup({ title, facet, active, children }: { title: string; facet: FacetName; active: boolean; children: ReactNode }) {
  const [params] = useSearchParams();
  const headingId = `facet-${facet}`;
  return (
    <section className="facet" aria-labelledby={headingId}>
      <div className="facet-head">
        <h2 id={headingId}>{title}</h2>
        {active ? (
          <Link to={searchLink(params, clearing(facet))} className="facet-clear" aria-label={`Clear ${title.toLowerCase()}`}>
            Clear
          </Link>
        ) : null}
      </div>
      <ul>{children}</ul>
    </section>
  );
}

/** One value: a link that chooses it (replacing the facet's other value), or the chosen value itself. */
function FacetValue({ label, count, to, chosen, depth = 0 }: { label: string; count: number; to: string; chosen: boolean; depth?: number }) {
  return (
    <li className={depth > 0 ? `depth-${Math.min(depth, 4)}` : undefined}>
      {chosen ? (
        <strong aria-current="true">
          {label} <span className="count">({count})</span>
        </strong>
      ) : (
        <Link to={to}>
          {label} <span className="count">({count})</span>
        </Link>
      )}
    </li>
  );
}

/**
 * The facets of a search: category (a tree, rolled-up counts), brand, shop and price. Each facet's
 * counts ignore its own filter (the API's disjunctive facets), so a chosen brand still lists the
 * other brands to switch to. Every choice is a link: the URL holds the filters.
 */
export function FacetPanel({ facets, chosen }: { facets: Facets; chosen: ChosenFilters }) {
  const [params] = useSearchParams();
  const currency = useCurrency();
  // Open beside the results on a wide screen; folded above them on a phone.
  const [wide] = useState(() => window.matchMedia('(min-width: 721px)').matches);
  const chosenCount = chosenLabels(facets, chosen, currency).length;
  const price = (min: number, max: number | null) => ({ price_min: String(min), price_max: max === null ? null : String(max) });
  return (
    <aside className="facets" aria-label="Filters">
      <details open={wide}>
        <summary>Filters{chosenCount > 0 ? ` (${chosenCount} chosen)` : ''}</summary>
        {facets.categories.length > 0 || chosen.category !== null ? (
          <FacetGroup title="Category" facet="category" active={chosen.category !== null}>
            {visibleCategories(facets.categories, chosen.category).map((c) => (
              <FacetValue key={c.id} label={c.name} count={c.count} depth={c.depth} chosen={c.id === chosen.category} to={searchLink(params, { category: String(c.id) })} />
            ))}
          </FacetGroup>
        ) : null}
        {facets.brands.length > 0 || chosen.brandId !== null ? (
          <FacetGroup title="Brand" facet="brand" active={chosen.brandId !== null}>
            {facets.brands.map((b) => (
              <FacetValue key={b.id} label={b.name} count={b.count} chosen={b.id === chosen.brandId} to={searchLink(params, { brand: String(b.id) })} />
            ))}
          </FacetGroup>
        ) : null}
        {facets.shops.length > 0 || chosen.shopId !== null ? (
          <FacetGroup title="Shop" facet="shop" active={chosen.shopId !== null}>
            {facets.shops.map((s) => (
              <FacetValue key={s.id} label={s.name} count={s.count} chosen={s.id === chosen.shopId} to={searchLink(params, { shop: String(s.id) })} />
            ))}
          </FacetGroup>
        ) : null}
        {facets.prices.length > 0 || chosen.priceMin !== null || chosen.priceMax !== null ? (
          <FacetGroup title="Price" facet="price" active={chosen.priceMin !== null || chosen.priceMax !== null}>
            {facets.prices.map((p) => (
              <FacetValue
                key={p.min}
                label={priceRangeLabel(p.min, p.max, currency)}
                count={p.count}
                chosen={(chosen.priceMin ?? 0) === p.min && chosen.priceMax === p.max}
                to={searchLink(params, price(p.min, p.max))}
              />
            ))}
          </FacetGroup>
        ) : null}
      </details>
    </aside>
  );
}
