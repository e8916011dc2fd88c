import { execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { expectNothingLost, poolSettles, shopThroughFaults } from './support/faulty-shoppers.js';
import { shopWithProduct } from './support/shopping.js';
import { openOrm, migrate } from '../src/db/orm.js';
import { poolOf } from '../src/db/prepared-statements.js';

/**
 * A real database restart, on a throwaway PostgreSQL cluster of this test's own (initdb on a free
 * port): the server answers 503 while it is down, keeps liveness green (a database outage must not
 * make an orchestrator restart every server), becomes ready again by itself, and loses nothing.
 */
const DATABASE = 'mallfront_restart';
const asRoot = process.getuid?.() === 0;
const bin = (tool: string) => path.join(execFileSync('pg_config', ['--bindir']).toString().trim(), tool);

/** Runs a PostgreSQL tool, as the `postgres` user when the test runs as root (PostgreSQL refuses root). */
function pgTool(tool: string, args: string[]) {
  const command = asRoot ? ['runuser', ['-u', 'postgres', '--', bin(tool), ...args]] as const : [bin(tool), args] as const;
  execFileSync(command[0], [...command[1]], { stdio: 'pipe' });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

let dataDir: string;
let port: number;
let t: TestApp;
const url = () => `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;
const pgCtl = (action: 'start' | 'stop') =>
  pgTool('pg_ctl', ['-D', dataDir, '-l', path.join(dataDir, 'server.log'), '-w', '-m', 'fast', '-o', `-p ${port} -k ${dataDir} -c listen_addresses=127.0.0.1`, action]);

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'mallfront-restart-'));
  if (asRoot) chownSync(dataDir, Number(execFileSync('id', ['-u', 'postgres'])), Number(execFileSync('id', ['-g', 'postgres'])));
  port = await freePort();
  pgTool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '--no-sync']);
  pgCtl('start');
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query(`create database ${DATABASE}`);
  await admin.end();
  const orm = await openOrm({ clientUrl: url(), poolSize: 2 });
  await migrate(orm);
  await orm.close();
  t = await startTestApp({ dbPoolSize: 4, dbAcquireTimeoutMs: 1_000 }, { database: DATABASE, connectVia: url });
}, 60_000);
afterAll(async () => {
  await t?.close();
  try {
    pgCtl('stop');
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('serves 503 while the database restarts, stays live, recovers by itself, and loses nothing', async () => {
  const initial = 10_000;
  const { product } = await shopWithProduct(t, [{ price: 100, stock: initial }]);
  const skuId = product.skuIds[0];
  const pool = await poolOf(t.em());

  const shopping = shopThroughFaults(t, { skuId, clients: 6, shopForMs: 5_000, answerWithinMs: 20_000 });
  await sleep(1_000);
  pgCtl('stop');
  const down = { ready: await t.api('GET', '/readyz'), live: await t.api('GET', '/healthz') };
  await sleep(1_000);
  pgCtl('start');
  const record = await shopping;

  expect(down.ready.status).toBe(503);
  expect(down.ready.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(down.live.status).toBe(200);
  expect(record.failures).toBeGreaterThan(0);
  expect((await t.api('GET', '/readyz')).status).toBe(200);
  expect((await t.api('GET', '/healthz')).status).toBe(200);
  expect(await poolSettles(t, pool)).toEqual({ checkedOut: 0, waiting: 0, total: expect.any(Number) });
  await expectNothingLost(t, record, { skuId, initial });
});
