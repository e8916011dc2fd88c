import type { EntityManager } from '@mikro-orm/postgresql';
import { perConnectionMap } from '../../../db/per-connection.js';

/**
 * Facet counts, remembered per set of filters at the catalog version they were counted at (the same
 * reasoning as listing-total-cache.ts). Facets read the matching products' category, brand, shop and
 * lowest price, and the names of those categories, brands and shops. The catalog version moves, in the
 * writing transaction, when any of these may change for a published product: publishing, category,
 * brand, shop or lowest price, any category change, and a brand or shop rename (it rewrites their
 * products' search documents; migration Search). Shop slugs never change. So facets counted at the
 * version a later read finds are exactly what counting again would give; the read costs one look at
 * the version instead of a pass over every match (a common word matches tens of thousands).
 */
interface Counted<F> {
  version: string;
  facets: F;
}

const facetsOf = perConnectionMap<Counted<unknown>>();

/** Whether facets of `filter` were counted at some version (else the count reads the version itself). */
export function hasFacets(em: EntityManager, filter: string): boolean {
  return facetsOf(em).has(filter);
}

export function facetsAt<F>(em: EntityManager, filter: string, version: string): F | undefined {
  const counted = facetsOf(em).get(filter);
  return counted?.version === version ? (counted.facets as F) : undefined;
}

/** Keyword searches vary more than category filters: `maxFilters` (FACETS_CACHE_FILTERS) keeps memory small. */
export function rememberFacets<F>(em: EntityManager, filter: string, version: string, facets: F, maxFilters: number): void {
  const map = facetsOf(em);
  if (map.size >= maxFilters && !map.has(filter)) map.clear();
  map.set(filter, { version, facets });
}

/** Filters whose facets this process holds for the database (tests, operations). */
export function facetsHeld(em: EntityManager): number {
  return facetsOf(em).size;
}
