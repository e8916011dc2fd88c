import type { EntityManager } from '@mikro-orm/postgresql';
import type { CacheSizes } from '../../metrics.js';
import { totalsHeld } from './listing-total-cache.js';
import { rankingsHeld } from './sales-ranking-cache.js';
import { salesTallyBytes } from './sales-tally.js';
import { facetsHeld } from './search/facets-cache.js';

/** What the catalog's per-process caches hold for `em`'s database, for the cache metrics. */
export function cacheSizes(em: EntityManager): CacheSizes {
  return { listingTotals: totalsHeld(em), facets: facetsHeld(em), rankings: rankingsHeld(em), salesTallyBytes: salesTallyBytes(em) };
}
