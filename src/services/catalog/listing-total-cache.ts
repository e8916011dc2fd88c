import type { EntityManager } from '@mikro-orm/postgresql';
import { perConnectionMap } from '../../db/per-connection.js';

/**
 * Totals of the product listing, remembered per filter at the catalog version they were counted at.
 *
 * Counting the published products of a filter is the listing's dearest part: an index-only scan of
 * every match, where the page stops at its limit (docs/performance.md). `catalog_version` moves, by
 * trigger and in the same transaction, whenever the set of published products that some filter
 * matches may change (see the CatalogVersion migration). The listing reads the version in the same
 * statement, hence the same snapshot, as its page; a total counted at that same version is exactly
 * what a count in that statement would return. So this never serves a stale total: on a version
 * change it counts again. It holds totals only (never sold_count, stock or any product data).
 */
interface Counted {
  version: string;
  total: number;
}

/** Per database connection, per filter key. */
const totalsOf = perConnectionMap<Counted>();

/** The total of `filter` counted at `version`, if known. */
export function totalAt(em: EntityManager, filter: string, version: string): number | undefined {
  const counted = totalsOf(em).get(filter);
  return counted?.version === version ? counted.total : undefined;
}

/** Whether a total of `filter` was counted at some version (then the page is read without a count first). */
export function hasTotal(em: EntityManager, filter: string): boolean {
  return totalsOf(em).has(filter);
}

/**
 * Filters are few (category x brand x shop); `maxFilters` (LISTING_TOTALS_CACHE_FILTERS) only guards
 * against a crawler's variety: past it the map starts again.
 */
export function rememberTotal(em: EntityManager, filter: string, version: string, total: number, maxFilters: number): void {
  const map = totalsOf(em);
  if (map.size >= maxFilters && !map.has(filter)) map.clear();
  map.set(filter, { version, total });
}

/** Filters whose totals this process holds for the database (tests, operations). */
export function totalsHeld(em: EntityManager): number {
  return totalsOf(em).size;
}
