import type { EntityManager } from '@mikro-orm/postgresql';
import { perConnection } from '../../db/per-connection.js';
import { runInScope } from '../../db/request-scope.js';
import { salesTally, salesTallyChanges } from './sales-changes.repository.js';

/**
 * Every product's sold_count at one sales version, per database, read once from the order lines and
 * kept current from the sales-change log (migration SalesChangeLog), so that ranking a filter by
 * sales reads its candidates and not their sold lines.
 *
 * Why: a ranking ordered in SQL sums the sold lines of every candidate, which for a large catalog is
 * most of a common word's first search and far more for a big category, paid by every process for
 * every filter it has not ranked yet (docs/performance.md). The tally is read once per process,
 * and a filter's ranking is then its candidates (one statement that reads no sold line) ordered here.
 *
 * Exactness, within the rule that sold_count is computed from order lines: the tally is what one
 * statement summed from the order lines, at the sales version that statement saw, plus exactly the
 * changes logged since, which are the order lines' own changes (the log is written by their triggers).
 * A ranking built from it is held at the tally's counters (whatever snapshot its candidates came
 * from: the candidates are fixed by the catalog version alone), and every page read from it brings
 * it to the page statement's own snapshot from the log, as for a ranking ordered in SQL
 * (sales-ranking-cache.ts). That needs only that the tally's counters were seen by a statement that
 * ended before the page statement began, which holds for every counter it holds: it is read and
 * caught up only outside transactions (a transaction's own uncommitted lines, or its older snapshot,
 * would make it wrong), and a counter seen lower than the tally's (a restored or failed-over
 * database) makes it read again.
 *
 * When the log cannot tell what moved (a bulk statement, a prune past the tally's counters, a counter
 * that went back), the tally is read again in the background and rankings are ordered in SQL until it
 * is back.
 */
export class SalesTally {
  /** sold_count by product id (a product past the end sold nothing). */
  private sold: Int32Array;
  /** When it was read or last caught up (epoch ms): its age is a metric (`mallfront_sales_tally_age_seconds`). */
  upToDateAt = Date.now();

  constructor(
    /** The sales version's shard counters it holds at, as PostgreSQL writes them (`{3,0,...}`). */
    public vector: string,
    /** (product id, sold_count) pairs of big-endian 32-bit integers, as the tally statement sends them. */
    pairs: Buffer,
  ) {
    let top = 0;
    for (let at = 0; at < pairs.length; at += 8) top = Math.max(top, pairs.readInt32BE(at));
    this.sold = new Int32Array(top + 1);
    for (let at = 0; at < pairs.length; at += 8) this.sold[pairs.readInt32BE(at)] = pairs.readInt32BE(at + 4);
  }

  /** The bytes it holds: 4 per product id up to the highest sold one (the cache metrics). */
  get bytes(): number {
    return this.sold.byteLength;
  }

  soldOf(productId: number): number {
    return productId < this.sold.length ? this.sold[productId] : 0;
  }

  /** Adds what the log says moved (`ids` ascending), and holds at `vector` from now on. */
  advance(vector: string, ids: readonly number[], deltas: readonly number[]): void {
    // Grown first, so nothing is added unless everything is.
    if (ids.length > 0 && ids[ids.length - 1] >= this.sold.length) this.grow(ids[ids.length - 1]);
    for (let i = 0; i < ids.length; i++) this.sold[ids[i]] += deltas[i];
    this.vector = vector;
    this.upToDateAt = Date.now();
  }

  private grow(id: number): void {
    const bigger = new Int32Array(Math.max(id + 1, this.sold.length * 2));
    bigger.set(this.sold);
    this.sold = bigger;
  }
}

interface TallyState {
  tally?: SalesTally;
  loading?: Promise<SalesTally | undefined>;
  catchingUp?: Promise<SalesTally | undefined>;
}

const stateOf = perConnection((): TallyState => ({}));

/**
 * Reads the database's tally (a process does it before it serves, so its first ranking is already
 * fast); concurrent callers share one read. It runs outside the request that started it (no request
 * deadline: at a large catalog it takes longer than a request may wait, and it serves every request
 * after). Undefined when the read failed (the database away): the next ranking tries again and
 * orders in SQL meanwhile.
 */
export function loadSalesTally(em: EntityManager): Promise<SalesTally | undefined> {
  const state = stateOf(em);
  state.loading ??= runInScope({ deadline: null, writing: false }, () => salesTally.run(em, {}, {}))
    .then(([row]) => (state.tally = new SalesTally(row.salesVector, row.pairs)))
    .catch(() => undefined)
    .finally(() => (state.loading = undefined));
  return state.loading;
}

/**
 * The tally brought up to the log's present (one statement that reads only what moved), or
 * undefined while it is not loaded, in which case its read starts in the background, and inside a
 * transaction (see the class's comment). Concurrent callers share one catch-up: any counters the
 * tally reaches serve.
 */
export function currentSalesTally(em: EntityManager): Promise<SalesTally | undefined> {
  if (em.isInTransaction()) return Promise.resolve(undefined);
  const state = stateOf(em);
  const tally = state.tally;
  if (!tally) {
    void loadSalesTally(em);
    return Promise.resolve(undefined);
  }
  state.catchingUp ??= salesTallyChanges
    .run(em, {}, { since: tally.vector })
    .then(([row]) => {
      if (row.resetSince) {
        if (state.tally === tally) state.tally = undefined;
        void loadSalesTally(em);
        return undefined;
      }
      // Catch-ups of one tally run one at a time, so it still holds at the counters this one read from.
      tally.advance(row.salesVector, row.changedIds, row.changedBy);
      return tally;
    })
    .catch(() => undefined)
    .finally(() => (state.catchingUp = undefined));
  return state.catchingUp;
}

/** Seconds since the tally of `em`'s database was last brought up to date; null while none is loaded. */
export function salesTallyAge(em: EntityManager, now = Date.now()): number | null {
  const tally = stateOf(em).tally;
  return tally ? (now - tally.upToDateAt) / 1000 : null;
}

/** Bytes the tally of `em`'s database holds; 0 while none is loaded (the cache metrics). */
export function salesTallyBytes(em: EntityManager): number {
  return stateOf(em).tally?.bytes ?? 0;
}
