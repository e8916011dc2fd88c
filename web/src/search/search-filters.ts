import { useSearchParams } from 'react-router';

/**
 * The search page's facet filters in the URL, named like the listing's `brand` (web/src/ui/listing-params.ts):
 * `category`, `shop`, `price_min` and `price_max` (minor units, both inclusive). The brand is the
 * listing's own `brand`. A value that is not a plain number is no filter.
 */
export interface SearchFilters {
  category: number | null;
  shopId: number | null;
  priceMin: number | null;
  priceMax: number | null;
}

/** The URL parameter of each facet (price has two). */
export const FACET_PARAMS = { category: ['category'], brand: ['brand'], shop: ['shop'], price: ['price_min', 'price_max'] } as const;
export type FacetName = keyof typeof FACET_PARAMS;

const number = (value: string | null, min: number) => {
  const n = value && /^\d{1,9}$/.test(value) ? Number(value) : null;
  return n !== null && n >= min ? n : null;
};

export function useSearchFilters(): SearchFilters {
  const [params] = useSearchParams();
  const priceMin = number(params.get('price_min'), 0);
  const priceMax = number(params.get('price_max'), 0);
  // The API refuses a minimum above the maximum: such a range is no price filter at all.
  const crossed = priceMin !== null && priceMax !== null && priceMin > priceMax;
  return {
    category: number(params.get('category'), 1),
    shopId: number(params.get('shop'), 1),
    priceMin: crossed ? null : priceMin,
    priceMax: crossed ? null : priceMax,
  };
}

/**
 * The query string with some parameters set (a string) or removed (null), back to page 1: a facet
 * change shows the first page of the new results. The keyword and sort stay.
 */
export function withParams(search: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) next.delete(name);
    else next.set(name, value);
  }
  next.delete('page');
  const query = next.toString();
  return query ? `?${query}` : '';
}

/** The changes that clear one facet. */
export function clearing(facet: FacetName): Record<string, null> {
  return Object.fromEntries(FACET_PARAMS[facet].map((name) => [name, null]));
}
