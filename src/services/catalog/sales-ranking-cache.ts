import type { EntityManager } from '@mikro-orm/postgresql';
import { perConnectionMap } from '../../db/per-connection.js';

/**
 * `sort=sales` rankings, remembered per filter at the catalog and sales versions they were computed at.
 *
 * Ranking a filter's products by sold_count aggregates the sold lines of every candidate, while
 * reading one page by id reads only the page (figures in docs/performance.md). `catalog_version`
 * moves whenever the set of published products matching a filter may change, `sales_version`
 * whenever an order line enters or leaves sold_count (both by trigger, in the writing transaction;
 * see their migrations). A listing reads both in the same statement, hence the same snapshot, as its
 * page: when they equal the versions a ranking was computed at, the candidates and every sold_count
 * are what they were, so the ranking is exactly the one this statement would compute. Otherwise the
 * ranking is computed again. The same reasoning holds for each candidate's sold_count, so the
 * ranking keeps them too and the page statement does not sum the sold lines of its best sellers
 * again (most of a page's time when it did).
 *
 * A keyword's relevance order (relevance, then sold_count) is remembered the same way, under its own
 * key: relevance is a function of the search document, and the catalog version also moves whenever a
 * published product's search document changes (migration Search). Common words are both the dearest
 * to rank (every match is ranked) and the most repeated, so they are the ones this serves.
 */
export interface Ranking {
  catalogVersion: string;
  salesVersion: string;
  /** Product ids, best sellers first (ties: higher id first). Ascending order is this reversed. */
  ids: number[];
  /** sold_count of each product of `ids`, at the same index. */
  sold: number[];
}

/** Per database connection, per filter key. */
const rankingsOf = perConnectionMap<Ranking>();
/** Rankings hold every candidate id (10,000 for the whole catalog); the bound keeps memory small. */
const MAX_RANKINGS = 500;

export function rankingOf(em: EntityManager, filter: string): Ranking | undefined {
  return rankingsOf(em).get(filter);
}

export function rememberRanking(em: EntityManager, filter: string, ranking: Ranking): void {
  const map = rankingsOf(em);
  if (map.size >= MAX_RANKINGS && !map.has(filter)) map.clear();
  map.set(filter, ranking);
}

/** Rankings being computed, per filter key: concurrent listings of one filter wait for one computation. */
const computingOf = perConnectionMap<Promise<Ranking>>();

/**
 * The filter's ranking from `compute`, or from the computation of it already running: when a sale
 * moves the sales version (or a process starts cold), every request of a popular filter finds its
 * ranking stale at once, and each would rank the same candidates on its own pool connection (seconds
 * each at 1,000,000 products), holding every connection while the listings queue behind them. A
 * joined computation may be older than the caller's snapshot: the caller's page statement checks the
 * versions, as for a remembered ranking. If the computation it joined fails (that request's deadline,
 * a killed session), the caller computes on its own.
 */
export async function sharedRanking(em: EntityManager, filter: string, compute: () => Promise<Ranking>): Promise<Ranking> {
  const computing = computingOf(em);
  const running = computing.get(filter);
  if (running) {
    try {
      return await running;
    } catch {
      return compute();
    }
  }
  const started = compute();
  computing.set(filter, started);
  try {
    return await started;
  } finally {
    if (computing.get(filter) === started) computing.delete(filter);
  }
}

/** One page of a ranking in the requested direction: product ids and their sold_count. */
export function pageOfRanking(ranking: Ranking, direction: 'asc' | 'desc', offset: number, size: number): { ids: number[]; sold: number[] } {
  const { ids, sold } = ranking;
  if (direction === 'desc') return { ids: ids.slice(offset, offset + size), sold: sold.slice(offset, offset + size) };
  const end = Math.max(0, ids.length - offset);
  const start = Math.max(0, end - size);
  return { ids: ids.slice(start, end).reverse(), sold: sold.slice(start, end).reverse() };
}
