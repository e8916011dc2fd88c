import type pg from 'pg';
import type { Database } from '../db/typed-sql.js';
import type { CountExchange, SharedCount } from './attempt-counts.js';

/** A row as the exchange reads it: the window's end in epoch milliseconds. */
interface CountRow {
  key: Database['AuthAttemptCount']['key'];
  count: Database['AuthAttemptCount']['count'];
  windowEndsAt: number;
}

const toCount = (row: CountRow): SharedCount => ({ key: row.key, count: row.count, windowEndsAt: row.windowEndsAt });

/**
 * Adds one exchange's changes: a key whose window has ended starts a new one. Keys go in sorted, so
 * two processes exchanging at once lock their common rows in the same order (no deadlock).
 */
const ADD = `
with input as (select * from unnest($1::text[], $2::int[]) as i(key, delta))
insert into auth_attempt as a (key, count, window_ends_at, updated_at)
select key, greatest(delta, 0), now() + make_interval(secs => $3), clock_timestamp() from input order by key
on conflict (key) do update set
  count = greatest(0, (case when a.window_ends_at > now() then a.count else 0 end) + (select i.delta from input i where i.key = excluded.key)),
  window_ends_at = case when a.window_ends_at > now() then a.window_ends_at else excluded.window_ends_at end,
  updated_at = excluded.updated_at
returning key, count, (extract(epoch from window_ends_at) * 1000)::float8 as "windowEndsAt"`;

/** The live rows changed since `$1` (all live rows when null), and the time of this read. */
const CHANGED = `
select (extract(epoch from n.at) * 1000)::float8 as at, a.key, a.count, (extract(epoch from a.window_ends_at) * 1000)::float8 as "windowEndsAt"
  from (select clock_timestamp() as at) n
  left join auth_attempt a on a.window_ends_at > n.at and ($1::float8 is null or a.updated_at > to_timestamp($1::float8 / 1000))`;

/** The exchange over table `auth_attempt`, on a small pool of its own (never the use cases' connections). */
export function postgresCountExchange(pool: pg.Pool, windowSeconds: number): CountExchange {
  return {
    async exchange(cleared, changes, since) {
      const client = await pool.connect();
      let failed: unknown;
      try {
        if (cleared.length > 0) await client.query('delete from auth_attempt where key = any($1::text[])', [cleared]);
        const counts: SharedCount[] = [];
        if (changes.length > 0) {
          const added = await client.query<CountRow>(ADD, [changes.map((c) => c.key), changes.map((c) => c.delta), windowSeconds]);
          counts.push(...added.rows.map(toCount));
        }
        const changed = await client.query<{ at: number } & { [K in keyof CountRow]: CountRow[K] | null }>(CHANGED, [since]);
        for (const row of changed.rows) if (row.key !== null && row.count !== null && row.windowEndsAt !== null) counts.push(toCount(row as CountRow));
        return { counts, at: changed.rows[0].at };
      } catch (error) {
        failed = error;
        throw error;
      } finally {
        // A connection that failed is dropped, not handed to the next exchange.
        client.release(failed instanceof Error ? failed : undefined);
      }
    },
  };
}
