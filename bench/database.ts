import pg from 'pg';
import { openOrm, migrate } from '../src/db/orm.js';
import { BENCH_IMAGE_PREFIX, loadBenchData, type DataSize, type LoadReport } from './load-data.js';

/** The PostgreSQL server the bench works on, and the URL of one of its databases. */
export const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function databaseUrl(name: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

async function loaded(name: string, size: DataSize): Promise<boolean> {
  try {
    return await withClient(databaseUrl(name), async (client) => {
      const { rows } = await client.query(`select count(*)::int n from product where image_url like '${BENCH_IMAGE_PREFIX}%'`);
      return rows[0].n === size.products;
    });
  } catch {
    return false;
  }
}

/**
 * A fresh database with the scale data set (dropped first), or with `reuse` one already loaded at
 * this size. Returns how long loading took, or null when it was reused.
 */
export async function prepareDatabase(name: string, size: DataSize, reuse: boolean, log: (line: string) => void): Promise<LoadReport | null> {
  if (reuse && (await loaded(name, size))) {
    log(`reusing the loaded database ${name}`);
    return null;
  }
  await withClient(serverUrl, async (admin) => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  });
  const url = databaseUrl(name);
  const orm = await openOrm({ clientUrl: url, poolSize: 4 });
  try {
    const started = performance.now();
    await migrate(orm);
    const migrated = Number(((performance.now() - started) / 1000).toFixed(1));
    const report = await loadBenchData(orm, url, size, log);
    return { seconds: Number((migrated + report.seconds).toFixed(1)), steps: { migrations: migrated, ...report.steps } };
  } finally {
    await orm.close();
  }
}

export interface DatabaseSize {
  bytes: number;
  pretty: string;
  /** The largest tables, indexes and TOAST included. */
  tables: Record<string, string>;
}

export async function databaseSize(name: string): Promise<DatabaseSize> {
  return withClient(databaseUrl(name), async (client) => {
    const total = (await client.query(`select pg_database_size(current_database())::bigint bytes, pg_size_pretty(pg_database_size(current_database())) pretty`)).rows[0];
    const tables = (await client.query(
      `select relname, pg_size_pretty(pg_total_relation_size(oid)) size from pg_class
        where relkind = 'r' and relnamespace = 'public'::regnamespace order by pg_total_relation_size(oid) desc limit 6`,
    )).rows;
    return { bytes: Number(total.bytes), pretty: total.pretty, tables: Object.fromEntries(tables.map((t) => [t.relname, t.size])) };
  });
}
