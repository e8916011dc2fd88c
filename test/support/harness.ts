import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { loadConfig, type AppConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { openOrm, type MikroORM } from '../../src/db/orm.js';
import { InProcessEventBus } from '../../src/events/in-process-bus.js';
import { startApp, type RunningApp } from '../../src/server/app.js';
import { adminQuery, databaseUrl, PREFIX, TEMPLATE_DB } from './databases.js';
import { ensureTemplate } from './template.js';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export interface TestApp {
  baseUrl: string;
  orm: MikroORM;
  config: AppConfig;
  events: InProcessEventBus;
  app: RunningApp;
  dbName: string;
  dbUrl: string;
  /** Every SQL statement the server ran since the last `resetQueryLog()`. */
  queries: string[];
  resetQueryLog(): void;
  em(): EntityManager;
  sql<T = any>(text: string, params?: unknown[]): Promise<T[]>;
  api<T = any>(method: string, path: string, options?: { body?: unknown; token?: string; headers?: Record<string, string>; raw?: string }): Promise<ApiResponse<T>>;
  gql<T = any>(query: string, variables?: Record<string, unknown>, token?: string): Promise<{ status: number; data: T; errors?: any[] }>;
  close(): Promise<void>;
}

/**
 * One fresh database (cloned from the migrated template) and one in-process server per test file.
 * Call in `beforeAll`, close in `afterAll`.
 */
export async function startTestApp(
  overrides: Partial<AppConfig> = {},
  options: { connectVia?: (dbUrl: string) => string } = {},
): Promise<TestApp> {
  await ensureTemplate();
  const dbName = `${PREFIX}_${process.env.JEST_WORKER_ID ?? 0}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${dbName} template ${TEMPLATE_DB}`);
  const dbUrl = databaseUrl(dbName);
  const queries: string[] = [];
  const orm = await openOrm({ clientUrl: options.connectVia ? options.connectVia(dbUrl) : dbUrl, poolSize: 10, onQuery: (line) => queries.push(line) });
  const config = { ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', SWEEP_INTERVAL_SECONDS: '0' }), databaseUrl: dbUrl, ...overrides };
  const log = createLogger(config);
  const events = new InProcessEventBus();
  const app = await startApp({ config, orm, log, events }, 0);
  const baseUrl = `http://127.0.0.1:${app.port}`;

  return {
    baseUrl, orm, config, events, app, dbName, dbUrl, queries,
    resetQueryLog: () => void queries.splice(0),
    em: () => orm.em.fork(),
    sql: (text, params = []) => orm.em.fork().execute(text, params as any[]),
    async api(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | undefined = options.raw;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      } else if (body !== undefined) headers['content-type'] ??= 'application/json';
      const res = await fetch(baseUrl + path, { method, headers, body });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
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
      await orm.close();
      await adminQuery(`drop database if exists ${dbName} with (force)`);
    },
  };
}
