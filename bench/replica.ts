import { parseArgs } from 'node:util';
import pg from 'pg';
import { openOrm } from '../src/db/orm.js';
import { loadBenchData, sizeFor } from './load-data.js';
import { measure, type Figures } from './load.js';
import { startServer } from './server-process.js';
import { startStreamingReplica, startThrowawayCluster } from '../test/support/throwaway-cluster.js';
import { freePort } from '../test/support/server-process.js';
import { PGBOUNCER, startPgBouncer, type RunningPgBouncer } from '../test/support/pgbouncer.js';
import { sessionSettings } from '../src/db/orm.js';

/**
 * `node dist/bench/replica.js [--products 10000] [--seconds 10] [--connections 50]`: the REST listing
 * served by one process from the primary alone, then with one streaming replica (DATABASE_READ_URLS),
 * both clusters made here (initdb, pg_basebackup) with PostgreSQL's default settings, on this machine;
 * then from the primary without named prepared statements, and through PgBouncer in transaction
 * pooling (when installed), to tell the pooler's cost from that of planning every statement.
 * Prints the figures and how many transactions each cluster ran meanwhile (pg_stat_database), which
 * shows where the reads went. On one machine both clusters share its cores: this measures what the
 * routing costs and that reads move, not the capacity a replica on its own machine adds.
 */
const { values: args } = parseArgs({
  options: { products: { type: 'string', default: '10000' }, seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' }, warmup: { type: 'string', default: '3' } },
});
const size = sizeFor(Number(args.products));
const seconds = Number(args.seconds);
const connections = Number(args.connections);
const warmup = Number(args.warmup);
const log = (line: string) => console.log(`[replica bench] ${line}`);

async function transactions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()');
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
}

const primary = await startThrowawayCluster('mallfront_replica_bench');
let replica: Awaited<ReturnType<typeof startStreamingReplica>> | undefined;
let bouncer: RunningPgBouncer | undefined;
try {
  log(`loading ${size.products} products, ${size.orderLines} order lines into the primary`);
  const orm = await openOrm({ clientUrl: primary.url, poolSize: 4 });
  const report = await loadBenchData(orm, primary.url, size, log);
  await orm.close();
  log(`loaded in ${report.seconds} s; making the replica (pg_basebackup)`);
  replica = await startStreamingReplica(primary);

  const results: Record<string, Figures & { primaryTransactions: number; replicaTransactions: number }> = {};
  const settings = sessionSettings({ statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 10_000, lockTimeoutMs: 2_000 });
  const connectQuery = Object.entries(settings).map(([name, value]) => `SET ${name}=${value}`).join('; ');
  if (PGBOUNCER) bouncer = await startPgBouncer({ server: primary.url, database: 'mallfront_replica_bench', poolSize: 5, connectQuery });
  const configurations: [string, Record<string, string>][] = [
    ['primary only', {}],
    ['primary + 1 replica', { DATABASE_READ_URLS: replica.url }],
    ['primary only, no named prepared statements', { DATABASE_PREPARED_STATEMENTS: 'false' }],
  ];
  if (bouncer) configurations.push(['through PgBouncer (transaction pooling, no named statements)', { DATABASE_URL: bouncer.url, DATABASE_LISTEN_URL: primary.url, DATABASE_POOL_MODE: 'transaction' }]);
  for (const [name, env] of configurations) {
    const port = await freePort();
    const server = await startServer({ databaseUrl: env.DATABASE_URL ?? primary.url, port, workers: 1, env });
    try {
      const before = { primary: await transactions(primary.url), replica: await transactions(replica.url) };
      const figures = await measure({ url: `http://127.0.0.1:${port}/api/products?page_size=20`, connections }, seconds, warmup);
      const after = { primary: await transactions(primary.url), replica: await transactions(replica.url) };
      results[name] = { ...figures, primaryTransactions: after.primary - before.primary, replicaTransactions: after.replica - before.replica };
      log(`${name}: ${figures.requestsPerSecond} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, errors ${figures.errors + figures.non2xx}; transactions (warm-up included): primary ${results[name].primaryTransactions}, replica ${results[name].replicaTransactions}`);
    } finally {
      await server.stop();
    }
  }
  console.log(JSON.stringify({ size, seconds, connections, results }, null, 2));
} finally {
  await bouncer?.remove();
  replica?.remove();
  primary.remove();
}
