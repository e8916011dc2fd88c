import 'reflect-metadata';
import pg from 'pg';
import { MikroORM, defineConfig, type Options } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from '../entities/index.js';
import { routines } from '../entities/routines.js';
import { migrationsList } from '../../migrations/index.js';
import type { AppConfig } from '../config.js';
import { LeakProofPostgreSqlDriver } from './leak-proof-driver.js';
import { DeadlineClient, KEEPALIVE } from './deadline-client.js';
import { ChangeCapture } from './change-capture.js';

export type { MikroORM };

export interface OrmOptions {
  clientUrl: string;
  poolSize?: number;
  /** Log every SQL statement through this function (tests count statements with it). */
  onQuery?: (sql: string) => void;
  /** A request waiting longer than this for a pool connection fails (503) instead of hanging. */
  acquireTimeoutMs?: number;
  /** PostgreSQL's `statement_timeout` for the pool's sessions; 0 is none. */
  statementTimeoutMs?: number;
  /** PostgreSQL's `idle_in_transaction_session_timeout` for the pool's sessions; 0 is none. */
  idleInTransactionTimeoutMs?: number;
  /** PostgreSQL's `lock_timeout` for the pool's sessions; 0 is none. */
  lockTimeoutMs?: number;
  /**
   * `transaction`: `clientUrl` is a transaction-pooling PgBouncer. The session settings below cannot
   * travel as a startup `options` parameter then (PgBouncer refuses it, and a server session serves
   * many clients anyway): the pooler sets them on its server sessions (`connect_query`, or
   * `ALTER ROLE ... SET`), and `checkSessionSettings` verifies them at start.
   */
  poolMode?: 'session' | 'transaction';
  /** Hot reads as named prepared statements (prepared-statements.ts); off behind a pooler that does not keep them. */
  preparedStatements?: boolean;
}

/** The pool settings of a serving process, from its configuration. */
export function servingPool(
  config: AppConfig,
): Pick<OrmOptions, 'poolSize' | 'acquireTimeoutMs' | 'statementTimeoutMs' | 'idleInTransactionTimeoutMs' | 'lockTimeoutMs' | 'poolMode' | 'preparedStatements'> {
  return {
    poolMode: config.databasePoolMode,
    preparedStatements: config.dbPreparedStatements,
    poolSize: config.dbPoolSize,
    acquireTimeoutMs: config.dbAcquireTimeoutMs,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    idleInTransactionTimeoutMs: config.dbIdleInTransactionTimeoutMs,
    lockTimeoutMs: config.dbLockTimeoutMs,
  };
}

/**
 * How long a statement outside any request may wait for its answer before its connection is cut:
 * a little longer than `statement_timeout`, so a slow statement is ended by the server (and its
 * connection kept) and only a server that cannot answer at all (frozen, or the network silently
 * gone) is cut off here. None when statements have no timeout (migrations, the seed).
 */
const ANSWER_MARGIN_MS = 1_000;

export function ormConfig({
  clientUrl,
  poolSize = 10,
  onQuery,
  acquireTimeoutMs = 0,
  statementTimeoutMs = 0,
  idleInTransactionTimeoutMs = 0,
  lockTimeoutMs = 0,
  poolMode = 'session',
  preparedStatements = true,
}: OrmOptions): Options {
  const settings = sessionSettings({ statementTimeoutMs, idleInTransactionTimeoutMs, lockTimeoutMs });
  return defineConfig({
    clientUrl,
    // Releases the connection of a transaction that failed to end (see leak-proof-driver.ts).
    driver: LeakProofPostgreSqlDriver,
    entities,
    // Stored functions the schema comparator must know (created by migrations, like everything else).
    routines,
    metadataProvider: ReflectMetadataProvider,
    // Reads the rows an audited use case's flushes write (change-capture.ts); others pay a map lookup.
    subscribers: [new ChangeCapture()],
    extensions: [Migrator],
    // Connections stay open once made (min = max): a new one starts with no prepared statements, and
    // planning the checkout statements again delayed the start of a sale after a quiet spell
    // (docs/performance.md, "Pool connections kept").
    pool: { min: poolSize, max: poolSize },
    // Short OLTP statements: JIT compilation costs far more than it saves, so it is off for the
    // server's sessions (docs/performance.md, "JIT off").
    // Generic plans: the prepared storefront reads (src/db/prepared-statements.ts) carry
    // parameters, and re-planning them on every call cost more than running them; their generic plans
    // are checked in docs/performance.md. The ORM inlines its own values, but typed SQL binds them as
    // parameters, so its statements get generic plans too: a condition a partial index depends on
    // (`status = 'published'`) has to be a literal there (`sql.lit`), not a parameter.
    // The timeouts bound what one session can hold or wait for: a statement that runs away, a
    // transaction left open by a process that stopped talking (its locks and its pool slot), a row
    // lock someone else holds (a clear 409 instead of a wait as long as theirs).
    driverOptions: {
      ...(poolMode === 'session' ? { options: Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`).join(' ') } : {}),
      // Read by prepared-statements.ts (pg ignores it).
      namedStatements: preparedStatements,
      // pg-pool applies it to waiting for a free connection as well as to opening one; a request's
      // own deadline (request-scope.ts) is usually shorter.
      connectionTimeoutMillis: acquireTimeoutMs,
      // Client side: an answer that never comes (frozen server, silent network) ends in time too.
      Client: DeadlineClient,
      answerTimeoutMs: statementTimeoutMs > 0 ? statementTimeoutMs + ANSWER_MARGIN_MS : 0,
      ...KEEPALIVE,
    },
    // Timestamps are timestamptz and compared in UTC everywhere.
    forceUtcTimezone: true,
    migrations: {
      migrationsList,
      path: 'migrations',
      pathTs: 'migrations',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
    debug: onQuery ? ['query'] : false,
    logger: onQuery ? (message: string) => onQuery(message) : undefined,
    // Services always work on an explicit fork; the global manager is refused.
    allowGlobalContext: false,
  });
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormConfig(options));
}

/** The PostgreSQL settings every session of a serving pool runs with (see `ormConfig`). */
export function sessionSettings(timeouts: { statementTimeoutMs?: number; idleInTransactionTimeoutMs?: number; lockTimeoutMs?: number }): Record<string, string> {
  return {
    jit: 'off',
    plan_cache_mode: 'force_generic_plan',
    // Milliseconds (the unit these settings take by default).
    statement_timeout: String(timeouts.statementTimeoutMs ?? 0),
    idle_in_transaction_session_timeout: String(timeouts.idleInTransactionTimeoutMs ?? 0),
    lock_timeout: String(timeouts.lockTimeoutMs ?? 0),
  };
}

/**
 * Behind a transaction pooler the pool's sessions get their settings from the pooler, not from us:
 * checks a few of them (each statement may land on another server session, all made alike) and
 * refuses to serve with the wrong ones, naming the `connect_query` that sets them. Without it a lock
 * wait would run to `statement_timeout` (503) instead of `lock_timeout` (409), or forever.
 */
export async function checkSessionSettings(orm: MikroORM, expected: Record<string, string>, samples = 3): Promise<void> {
  const names = Object.keys(expected);
  const wanted = Object.fromEntries(names.map((name) => [name, normalizedSetting(expected[name])]));
  for (let i = 0; i < samples; i++) {
    const [row] = await orm.em.fork().execute<Record<string, string>[]>(`select ${names.map((name) => `current_setting('${name}') as ${name}`).join(', ')}`);
    const wrong = names.filter((name) => normalizedSetting(row[name]) !== wanted[name]);
    if (wrong.length > 0) {
      const connectQuery = names.map((name) => `SET ${name}=${expected[name]}`).join('; ');
      throw new Error(
        `The database sessions behind the pooler run with ${wrong.map((name) => `${name}=${row[name]}`).join(', ')} instead of ${wrong.map((name) => `${name}=${expected[name]}`).join(', ')}. ` +
          `Set them on PgBouncer's server sessions: connect_query='${connectQuery}' on the database's line in pgbouncer.ini (README, "Deployment")`,
      );
    }
  }
}

/** `2s`, `2000ms` and `2000` are the same timeout; PostgreSQL shows whichever unit is whole. */
function normalizedSetting(value: string): string {
  const match = /^(\d+)\s*(ms|s|min|h)?$/.exec(value.trim());
  if (!match) return value.trim();
  const factor = { ms: 1, s: 1_000, min: 60_000, h: 3_600_000 }[match[2] ?? 'ms'] ?? 1;
  return String(Number(match[1]) * factor);
}

/** Advisory lock key held while migrating ("mallfront migrate"). */
const MIGRATION_LOCK = 771_003;

/**
 * Applies pending migrations. Several server processes may start at once on one database: they take
 * turns under an advisory lock (on a connection of its own), so the second finds nothing to do
 * instead of failing on tables the first is creating.
 */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const lock = new pg.Client({ connectionString: orm.config.get('clientUrl') });
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await orm.migrator.up();
    return applied.map((m) => m.name);
  } finally {
    await lock.end().catch(() => {});
  }
}
