import type { EntityManager, PostgreSqlConnection } from '@mikro-orm/postgresql';
import type pg from 'pg';
import { LeakProofPostgreSqlConnection } from './leak-proof-driver.js';
import { acquireWithin } from './write-slots.js';
import { DeadlineClient } from './deadline-client.js';
import { ReadQuery, type ReadStatement } from './read-query.js';
import { currentScope, withinDeadline } from './request-scope.js';
import { dbAcquireDuration, measuring } from '../metrics.js';

/** A connection that came after the deadline goes back to the pool. */
const giveBack = (late: pg.PoolClient) => late.release();

/**
 * Hot statements (storefront reads: listing, detail, catalog loaders, token lookup; checkout's reads
 * and its one write statement) as named prepared statements on the ORM's own `pg` pool.
 * `em.execute` inlines every parameter into the SQL text, so PostgreSQL plans each call afresh
 * (planning cost more than running a listing page: docs/performance.md); a prepared statement is
 * planned once per connection. Same pool, same type parsers (timestamps stay text: `toDate`), and the
 * statement goes through the ORM's query log like any other. Inside a transaction the call goes
 * through `em.execute` on the transaction's connection instead, so reads there still see the
 * transaction's own writes.
 *
 * Placeholders are `?` as for `em.execute` (or `$n` with `numbered`, as Kysely compiles them); arrays
 * are bound as literals (`intArray`) cast in SQL.
 * `Row` has no default: the caller names the exact shape of its rows (nothing checks it at run time).
 *
 * Behind a transaction pooler without prepared-statement support every statement is sent unnamed
 * (`namedStatements` below).
 *
 * With `replan`, the statement is sent unnamed: PostgreSQL plans it with its values on every call.
 * For statements whose best plan depends on the values (a keyword search: a rare word is best read
 * from its text index, a common one along the price index), a generic plan would fit one and ruin
 * the other.
 */
export async function queryRows<Row extends object>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[] = [],
  options: { replan?: boolean; numbered?: boolean } = {},
): Promise<Row[]> {
  if (em.isInTransaction()) return em.execute<Row[]>(sql, [...params]);
  const pool = await poolOf(em);
  const statement = prepared(sql, options.numbered ?? false);
  const named = !options.replan && namedStatements(em);
  const result = await pooledQuery<Row>(em, pool, { name: named ? statement.name : undefined, text: statement.text, values: params as unknown[] });
  em.config.getLogger().logQuery({ query: statement.text, level: 'info' });
  return result.rows;
}

/**
 * `pool.query` within the request's deadline and, for writing work, a write slot of the ORM's
 * connection: the same bounds as the ORM's own statements (leak-proof-driver.ts). A connection whose
 * statement failed is dropped, as `pool.query` does.
 */
async function pooledQuery<Row extends object>(em: EntityManager, pool: pg.Pool, statement: ReadStatement): Promise<pg.QueryResult<Row & pg.QueryResultRow>> {
  const orm = em.getConnection();
  const slots = orm instanceof LeakProofPostgreSqlConnection ? orm.writeSlots : null;
  // Reads take no write slot: their connection is bounded by the deadline alone (no closure made for the slot's turn).
  // No clock is read unless metrics are served (METRICS=off costs nothing here).
  const started = measuring ? performance.now() : 0;
  const { connection: client, releaseSlot } =
    slots !== null && currentScope()?.writing === true
      ? await acquireWithin(slots, () => pool.connect(), giveBack)
      : { connection: await withinDeadline(pool.connect(), 'connection', giveBack), releaseSlot: null };
  // acquireWithin times its own; the read path is timed here.
  if (measuring && releaseSlot === null) dbAcquireDuration.observe((performance.now() - started) / 1000);
  // The connection goes back before the rows are handed on (DeadlineClient.answer says why).
  return new Promise((resolve, reject) => {
    const done = (error: Error | undefined, result: pg.QueryResult | undefined) => {
      client.release(error);
      releaseSlot?.();
      if (error) reject(error);
      else resolve(result as pg.QueryResult<Row & pg.QueryResultRow>);
    };
    const query = new ReadQuery(statement);
    try {
      if (client instanceof DeadlineClient) client.answer(query, done);
      // pg takes a callback after a Query object too; its types do not say so.
      else (client.query as unknown as (query: ReadQuery, callback: typeof done) => void).call(client, query, done);
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}

const pools = new WeakMap<PostgreSqlConnection, Promise<pg.Pool>>();

/**
 * False when the ORM was opened with `preparedStatements: false` (orm.ts): behind a transaction
 * pooler that does not track them, a statement prepared on one server session is missing (or
 * already there) on the next, so every statement goes unnamed, planned at each call.
 */
function namedStatements(em: EntityManager): boolean {
  return (em.config.get('driverOptions') as { namedStatements?: boolean } | undefined)?.namedStatements ?? true;
}

/** The ORM's own `pg` pool (one per ORM instance). */
export function poolOf(em: EntityManager): Promise<pg.Pool> {
  const connection = em.getConnection();
  let pool = pools.get(connection);
  if (!pool) {
    pool = connection.getNativeClient();
    pools.set(connection, pool);
  }
  return pool;
}

interface Prepared {
  name: string;
  text: string;
}

/** One name per distinct SQL text (a bounded set: the texts are built from fixed fragments). */
const statements = new Map<string, Prepared>();

/** `numbered`: the text has `$1, $2, ...` already (compiled by Kysely). */
function prepared(sql: string, numbered: boolean): Prepared {
  let statement = statements.get(sql);
  if (!statement) {
    statement = { name: `mf_read_${statements.size + 1}`, text: numbered ? sql : numberedPlaceholders(sql) };
    statements.set(sql, statement);
  }
  return statement;
}

/** `?` placeholders to `$1, $2, ...`, leaving quoted literals and identifiers alone. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  let out = '';
  let quote: string | null = null;
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else if (ch === '?') {
      out += `$${++n}`;
    } else {
      out += ch;
    }
  }
  return out;
}
