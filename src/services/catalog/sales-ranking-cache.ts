import type { EntityManager } from '@mikro-orm/postgresql';
import { perConnection } from '../../db/per-connection.js';
import { pruneSalesChanges } from './sales-changes.repository.js';

/**
 * `sort=sales` rankings, remembered per filter at the catalog version and sales-version shard
 * counters they hold at, and brought up to date from the sales-change log when a sale moves them.
 *
 * Ranking a filter's products by sold_count aggregates the sold lines of every candidate, while
 * reading one page by id reads only the page (figures in docs/performance.md). `catalog_version`
 * moves whenever the set of published products matching a filter may change, the sales version's
 * sixteen shard counters whenever an order line enters or leaves sold_count (both by trigger, in the
 * writing transaction; see their migrations). A listing reads both in the same statement, hence the
 * same snapshot, as its page: when they equal the versions a ranking holds at, the candidates and every
 * sold_count are what they were, so the ranking is exactly the one this statement would compute. The
 * ranking keeps each candidate's sold_count too, so the page statement does not sum the sold lines of
 * its best sellers again.
 *
 * When only the sales counters moved, the same page statement also returns what moved since the
 * ranking's counters (migration SalesChangeLog): each bump of a shard logs its product and quantity
 * under the counter it reached, and the shard's row is locked from the bump to commit, so within a
 * shard the counters follow commit order, and a snapshot that sees a shard at counter n sees exactly
 * that shard's log rows up to n. The changes between the ranking's counters and the statement's are
 * therefore exactly those of the transactions the statement sees and the ranking did not: added to the
 * candidates' sold counts (products that are not candidates are not in this filter: the catalog
 * version did not move), with the moved products placed again, the ranking is exactly the statement's.
 * A bulk statement logs no product, and the sweep prunes the log behind a per-shard horizon: a ranking
 * that spans either is ranked again, as is one whose catalog version moved.
 *
 * A keyword's relevance order (relevance, then sold_count) is remembered the same way, under its own
 * key: relevance is a function of the search document, and the catalog version also moves whenever a
 * published product's search document changes (migration Search). Common words are both the dearest
 * to rank (every match is ranked) and the most repeated, so they are the ones this serves.
 *
 * One store per database (the ORM's connection: its whole pool, so every pool connection shares it;
 * a replica has its own, at its own versions), bounded by the candidates it holds, least recently
 * used first out.
 */
export interface Ranking {
  catalogVersion: string;
  /** The sales version's shard counters, as PostgreSQL writes a bigint[] (`{3,0,...}`), compared for equality. */
  salesVector: string;
  /** Product ids, first in order first (ties: higher id first). Ascending order is this reversed. */
  ids: Int32Array;
  /** sold_count of each product of `ids`, at the same index. */
  sold: Int32Array;
  /** A keyword ranking's relevance of each product (its first key), at the same index. */
  rank?: Float64Array;
}

/**
 * Candidates held per database (RANKING_CACHE_PRODUCTS, 4,000,000 by default): 4 bytes each for the
 * id and for sold_count, 8 more for a keyword ranking's relevance, so at most 32-64 MB per database
 * by default. Counted in candidates, not rankings: at 1,000,000 products one whole-catalog ranking
 * holds as many as a thousand small ones.
 */
/** A database's remembered rankings, least recently used first. */
export class RankingStore {
  private readonly rankings = new Map<string, Ranking>();
  private held = 0;
  private heldBytes = 0;

  get(filter: string): Ranking | undefined {
    const ranking = this.rankings.get(filter);
    if (ranking) {
      this.rankings.delete(filter);
      this.rankings.set(filter, ranking);
    }
    return ranking;
  }

  /** Keeps `ranking` unless the one kept is newer (a computation that started earlier may end later). */
  /** Keeps at most `maxCandidates` (the setting, read by the caller), dropping the least recently used. */
  remember(filter: string, ranking: Ranking, maxCandidates: number): void {
    const kept = this.rankings.get(filter);
    if (kept && isNewer(kept, ranking)) return;
    if (kept) this.drop(filter, kept);
    if (ranking.ids.length > maxCandidates) return;
    this.rankings.set(filter, ranking);
    this.held += ranking.ids.length;
    this.heldBytes += bytesOf(ranking);
    for (const [oldest, old] of this.rankings) {
      if (this.held <= maxCandidates) break;
      this.drop(oldest, old);
    }
  }

  /** Candidates held (tests, operations). */
  get candidates(): number {
    return this.held;
  }

  /** What the store holds, for the cache metrics: rankings, their candidates, and their arrays' bytes. */
  get sizes(): HeldSizes {
    return { entries: this.rankings.size, candidates: this.held, bytes: this.heldBytes };
  }

  private drop(filter: string, ranking: Ranking): void {
    this.rankings.delete(filter);
    this.held -= ranking.ids.length;
    this.heldBytes -= bytesOf(ranking);
  }
}

export interface HeldSizes {
  entries: number;
  candidates: number;
  /** The typed arrays' bytes: a ranking's memory is nearly all in them (two or three numbers per candidate). */
  bytes: number;
}

function bytesOf(ranking: Ranking): number {
  return ranking.ids.byteLength + ranking.sold.byteLength + (ranking.rank?.byteLength ?? 0);
}

/**
 * Whether `a` holds at a later snapshot than `b`. Snapshots of one database are ordered, and both
 * versions only grow, so the catalog version then the sum of the shard counters order them.
 */
function isNewer(a: Ranking, b: Ranking): boolean {
  const catalog = BigInt(a.catalogVersion) - BigInt(b.catalogVersion);
  if (catalog !== 0n) return catalog > 0n;
  return vectorSum(a.salesVector) > vectorSum(b.salesVector);
}

function vectorSum(vector: string): bigint {
  return vector
    .replace(/[{}]/g, '')
    .split(',')
    .reduce((sum, n) => sum + BigInt(n || '0'), 0n);
}

const storeOf = perConnection(() => new RankingStore());

export function rankingOf(em: EntityManager, filter: string): Ranking | undefined {
  return storeOf(em).get(filter);
}

/** Products held by the database's remembered rankings (tests, operations). */
export function rankingCandidatesHeld(em: EntityManager): number {
  return storeOf(em).candidates;
}

/** What the database's remembered rankings hold (the cache metrics). */
export function rankingsHeld(em: EntityManager): HeldSizes {
  return storeOf(em).sizes;
}

export function rememberRanking(em: EntityManager, filter: string, ranking: Ranking, maxCandidates: number): void {
  storeOf(em).remember(filter, ranking, maxCandidates);
}

/** Rankings being computed, per filter key: concurrent listings of one filter wait for one computation. */
const computingOf = perConnection(() => new Map<string, Promise<Ranking>>());

/**
 * The filter's ranking from `compute`, or from the computation of it already running: when a catalog
 * change or a bulk load makes a popular filter's ranking unusable (or a process starts cold), every
 * request of that filter finds it so at once, and each would rank the same candidates on its own pool
 * connection (seconds each at 1,000,000 products), holding every connection while the listings queue
 * behind them. A joined computation may be older than the caller's snapshot: the caller's page
 * statement checks the versions, as for a remembered ranking. If the computation it joined fails (that
 * request's deadline, a killed session), the caller computes on its own.
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

/**
 * A ranking from a filter's candidates (with a keyword, their relevance) and their sold counts
 * (`soldOf`, the sales tally at `salesVector`): by relevance first, then sold_count, then id, each
 * descending, the order the ranking statement gives.
 */
export function rankCandidates(
  at: { catalogVersion: string; salesVector: string },
  candidates: { ids: readonly number[]; rank?: readonly number[] },
  soldOf: (productId: number) => number,
): Ranking {
  const n = candidates.ids.length;
  const ids = Int32Array.from(candidates.ids);
  const sold = new Int32Array(n);
  for (let i = 0; i < n; i++) sold[i] = soldOf(ids[i]);
  const rank = candidates.rank ? Float64Array.from(candidates.rank) : undefined;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort(rank ? (a, b) => rank[b] - rank[a] || sold[b] - sold[a] || ids[b] - ids[a] : (a, b) => sold[b] - sold[a] || ids[b] - ids[a]);
  const ranked = { ids: new Int32Array(n), sold: new Int32Array(n), rank: rank ? new Float64Array(n) : undefined };
  for (let i = 0; i < n; i++) {
    ranked.ids[i] = ids[order[i]];
    ranked.sold[i] = sold[order[i]];
    if (rank && ranked.rank) ranked.rank[i] = rank[order[i]];
  }
  return { ...at, ...ranked };
}

/** One page of a ranking in the requested direction: product ids and their sold_count. */
export function pageOfRanking(ranking: Ranking, direction: 'asc' | 'desc', offset: number, size: number): { ids: number[]; sold: number[] } {
  const { ids, sold } = ranking;
  if (direction === 'desc') return { ids: Array.from(ids.subarray(offset, offset + size)), sold: Array.from(sold.subarray(offset, offset + size)) };
  const end = Math.max(0, ids.length - offset);
  const start = Math.max(0, end - size);
  return { ids: Array.from(ids.subarray(start, end)).reverse(), sold: Array.from(sold.subarray(start, end)).reverse() };
}

/** What moved sold_count between two snapshots: products and the sum of their changes. */
export interface SalesChanges {
  ids: readonly number[];
  deltas: readonly number[];
}

/** Above this many moved products, the ranking is rebuilt in one pass instead of moving each. */
const MOVES_ONE_BY_ONE = 16;

/**
 * Adds `changes` to the ranking's sold counts, in place, and places the moved products again (their
 * order: relevance first for a keyword ranking, then sold_count, then id, each descending). Products
 * that are not candidates are left out. A few moved products are each found and moved by a shift of
 * the products between their old and new places; many, by one pass that sets them aside and merges
 * them back in sorted.
 */
export function applySalesChanges(ranking: Ranking, changes: SalesChanges): void {
  const moves = new Map<number, number>();
  for (let i = 0; i < changes.ids.length; i++) {
    if (changes.deltas[i] !== 0) moves.set(changes.ids[i], (moves.get(changes.ids[i]) ?? 0) + changes.deltas[i]);
  }
  if (moves.size === 0) return;
  if (moves.size <= MOVES_ONE_BY_ONE) {
    for (const [id, delta] of moves) if (delta !== 0) moveOne(ranking, id, delta);
  } else {
    mergeMoved(ranking, moves);
  }
}

/** Whether the product at `i` comes before one of relevance `rank`, `sold` and `id`. */
function comesBefore(ranking: Ranking, i: number, rank: number, sold: number, id: number): boolean {
  if (ranking.rank && ranking.rank[i] !== rank) return ranking.rank[i] > rank;
  if (ranking.sold[i] !== sold) return ranking.sold[i] > sold;
  return ranking.ids[i] > id;
}

function moveOne(ranking: Ranking, id: number, delta: number): void {
  const { ids, sold, rank } = ranking;
  const from = ids.indexOf(id);
  if (from < 0) return;
  const relevance = rank ? rank[from] : 0;
  const now = sold[from] + delta;
  // Products that come before the new place: a prefix of the ranking (its order is by the same key,
  // the moved product still at its old one), which counts the moved product itself if it is in it.
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comesBefore(ranking, mid, relevance, now, id)) lo = mid + 1;
    else hi = mid;
  }
  const to = from < lo ? lo - 1 : lo;
  for (const column of rank ? [ids, sold, rank] : [ids, sold]) {
    const value = column[from];
    if (to < from) column.copyWithin(to + 1, to, from);
    else column.copyWithin(from, from + 1, to + 1);
    column[to] = value;
  }
  sold[to] = now;
}

function mergeMoved(ranking: Ranking, moves: Map<number, number>): void {
  const { ids, sold, rank } = ranking;
  const n = ids.length;
  const moved: { id: number; sold: number; rank: number }[] = [];
  const keptIds = new Int32Array(n);
  const keptSold = new Int32Array(n);
  const keptRank = rank ? new Float64Array(n) : undefined;
  let kept = 0;
  for (let i = 0; i < n; i++) {
    const delta = moves.get(ids[i]);
    if (delta === undefined) {
      keptIds[kept] = ids[i];
      keptSold[kept] = sold[i];
      if (keptRank) keptRank[kept] = rank![i];
      kept++;
    } else {
      moved.push({ id: ids[i], sold: sold[i] + delta, rank: rank ? rank[i] : 0 });
    }
  }
  moved.sort((a, b) => b.rank - a.rank || b.sold - a.sold || b.id - a.id);
  const keptOnly: Ranking = { catalogVersion: ranking.catalogVersion, salesVector: ranking.salesVector, ids: keptIds, sold: keptSold, rank: keptRank };
  let k = 0;
  let m = 0;
  for (let out = 0; out < n; out++) {
    const next = moved[m];
    if (k < kept && (m === moved.length || comesBefore(keptOnly, k, next.rank, next.sold, next.id))) {
      ids[out] = keptIds[k];
      sold[out] = keptSold[k];
      if (rank) rank[out] = keptRank![k];
      k++;
    } else {
      ids[out] = next.id;
      sold[out] = next.sold;
      if (rank) rank[out] = next.rank;
      m++;
    }
  }
}

/**
 * How long the sales-change log keeps a change: a remembered ranking read less often than this while
 * sales move is ranked again instead of brought up to date. Every popular filter is read far more often.
 */
export const SALES_CHANGE_RETENTION_SECONDS = 900;

/** The retention sweep of the sales-change log (src/server/jobs.ts); `retentionSeconds` for tests. */
export async function pruneSalesChangeLog({ em }: { em: EntityManager }, retentionSeconds = SALES_CHANGE_RETENTION_SECONDS): Promise<number> {
  const [result] = await pruneSalesChanges.run(em, [retentionSeconds]);
  return result?.pruned ?? 0;
}
