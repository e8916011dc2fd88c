import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { openOrm, servingPool, type MikroORM } from '../../src/db/orm.js';
import { PostgresEventBus } from '../../src/services/events/postgres-event-bus.js';
import type { ReadRouting } from '../../src/db/read-routing.js';
import { startApp, type RunningApp } from '../../src/server/app.js';
import { createServiceContext, type AppDeps } from '../../src/server/request-context.js';
import type { ServiceContext, ServiceWiring } from '../../src/shared/context.js';
import { serviceWiring } from '../../src/services/wiring.js';
import { adminQuery, databaseUrl, PREFIX, TEMPLATE_DB } from './databases.js';
import { ensureTemplate } from './template.js';
import { expectDocumentedAnswer } from './contract.js';
import { checkoutWriter } from './checkout-writer.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  baseUrl: string;
  orm: MikroORM;
  config: AppConfig;
  /** The real cross-process bus (LISTEN/NOTIFY): two apps on one database see each other's events. */
  events: PostgresEventBus;
  app: RunningApp;
  /** `ws://.../graphql`, for graphql-ws subscriptions. */
  wsUrl: string;
  dbName: string;
  dbUrl: string;
  /** Every SQL statement the server ran since the last `resetQueryLog()`. */
  queries: string[];
  resetQueryLog(): void;
  /** What the app's requests are served with (config, ORM, log, events, service wiring). */
  deps: AppDeps;
  em(): EntityManager;
  /** A service context as a request of this app would get it (with the token's actor, if given). */
  context(token?: string): Promise<ServiceContext>;
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  api<T = any>(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string | Buffer }): Promise<ApiResponse<T>>;
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; data: T; errors?: any[] }>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Reach the database through another address (a proxy the test can cut). */
  connectVia?: (dbUrl: string) => string;
  /** Serve an existing database (another app's) instead of a fresh clone; it is not dropped on close. */
  database?: string;
  /**
   * The service wiring from this app's config, with some parts replaced (a fault test's writer or
   * transition subscriber that breaks the database at the point it hurts most).
   */
  wiring?: (wiring: ServiceWiring) => Partial<ServiceWiring>;
  /** The server's logger (to read what it logs); by default one at TEST_LOG_LEVEL. */
  log?: Logger;
  /** Read replicas for the app (src/db/read-routing.ts), made on its primary ORM; closed with the app. */
  reads?: (orm: MikroORM, config: AppConfig, log: Logger) => Promise<ReadRouting>;
}

const ISO_UTC = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/**
 * Every `*_at` value of every REST answer the suite receives is ISO 8601 in UTC (`...Z`) or null:
 * checked here once, so a view that lets database text through fails whichever test meets it.
 */
function expectIsoTimestamps(value: unknown, where: string, path = '$'): void {
  if (Array.isArray(value)) return value.forEach((item, i) => expectIsoTimestamps(item, where, `${path}[${i}]`));
  if (value === null || typeof value !== 'object') return;
  for (const [key, inner] of Object.entries(value)) {
    if (key.endsWith('_at') && inner !== null && !(typeof inner === 'string' && ISO_UTC.test(inner))) {
      throw new Error(`${where}: ${path}.${key} is ${JSON.stringify(inner)}, not an ISO 8601 UTC timestamp`);
    }
    expectIsoTimestamps(inner, where, `${path}.${key}`);
  }
}

/**
 * One fresh database (cloned from the migrated template) and one in-process server per test file.
 * Call in `beforeAll`, close in `afterAll`.
 */
export async function startTestApp(overrides: Partial<AppConfig> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  let dbName = options.database;
  if (!dbName) {
    await ensureTemplate();
    dbName = `${PREFIX}_${process.env.VITEST_POOL_ID ?? 0}_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${dbName} template ${TEMPLATE_DB}`);
  }
  const ownsDatabase = !options.database;
  const dbUrl = databaseUrl(dbName);
  const clientUrl = options.connectVia ? options.connectVia(dbUrl) : dbUrl;
  const queries: string[] = [];
  // DB_ACQUIRE_TIMEOUT_MS is 30 s here, not 5: the suite runs several files at once on two cores, and a race
  // test's 200 checkouts queue for a pool of 5. A queued checkout waits; the tests of the timeout
  // itself (faults, database restart, resilience) set theirs.
  // GRAPHQL_COMPILE_AFTER 1: every GraphQL test runs the compiled executor, not only repeated documents.
  // WEBHOOK_DISPATCH off: the dispatcher polls for due deliveries, which would show in the query log of
  // tests that count statements; the webhook tests turn it on with their own settings.
  const env = {
    NODE_ENV: 'test', LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent', SWEEP_INTERVAL_SECONDS: '0', DB_ACQUIRE_TIMEOUT_MS: '30000',
    CHECKOUT_WRITER: checkoutWriter(), GRAPHQL_COMPILE_AFTER: '1', WEBHOOK_DISPATCH: 'false',
  };
  const config = { ...loadConfig(env), databaseUrl: dbUrl, ...overrides };
  const orm = await openOrm({ clientUrl, ...servingPool(config), poolSize: overrides.dbPoolSize ?? 10, onQuery: (line) => queries.push(line) });
  const log = options.log ?? createLogger(config);
  const events = new PostgresEventBus({ connectionString: clientUrl, log, pollMs: config.outbox.pollMs });
  await events.start();
  const base = serviceWiring(config);
  const reads = await options.reads?.(orm, config, log);
  const deps: AppDeps = { config, orm, log, events, wiring: serviceWiring(config, options.wiring?.(base)), reads };
  const app = await startApp(deps, 0);
  const baseUrl = `http://127.0.0.1:${app.port}`;

  return {
    baseUrl, orm, config, events, app, dbName, dbUrl, queries, deps,
    wsUrl: `ws://127.0.0.1:${app.port}/graphql`,
    resetQueryLog: () => void queries.splice(0),
    em: () => orm.em.fork(),
    context: (token) => createServiceContext(deps, token, `test-${randomBytes(4).toString('hex')}`),
    sql: (text, params = []) => orm.em.fork().execute(text, params as any[]),
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | Buffer | undefined = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      } else if (body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(baseUrl + path, { method, headers, body });
      const text = await res.text();
      const json = text ? JSON.parse(text) : undefined;
      expectIsoTimestamps(json, `${method} ${path}`);
      expectDocumentedAnswer(method.toUpperCase(), path, res.status, json, res.headers);
      return { status: res.status, body: json, headers: res.headers };
    },
    async gql(query, variables, token) {
      const res = await fetch(`${baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const json: any = await res.json();
      return { status: res.status, data: json.data, errors: json.errors };
    },
    async close() {
      await app.stop();
      await events.stop();
      await reads?.close();
      await orm.close();
      if (ownsDatabase) await adminQuery(`drop database if exists ${dbName} with (force)`);
    },
  };
}

/**
 * A second server "process" on the same database as `first`: its own pool, its own events
 * connection and port, as a second instance behind a load balancer would have. Close it before `first`.
 */
export function startSecondApp(first: TestApp, overrides: Partial<AppConfig> = {}): Promise<TestApp> {
  return startTestApp(overrides, { database: first.dbName });
}
