import { startTestApp, type TestApp } from './support/harness.js';
import { expectNothingLost, poolSettles, shopThroughFaults } from './support/faulty-shoppers.js';
import { shopWithProduct } from './support/shopping.js';
import { startThrowawayCluster, type ThrowawayCluster } from './support/throwaway-cluster.js';
import { poolOf } from '../src/db/prepared-statements.js';

/**
 * A real database restart, on a throwaway PostgreSQL cluster of this test's own (initdb on a free
 * port): the server answers 503 while it is down, keeps liveness green (a database outage must not
 * make an orchestrator restart every server), becomes ready again by itself, and loses nothing.
 */
let cluster: ThrowawayCluster;
let t: TestApp;

beforeAll(async () => {
  cluster = await startThrowawayCluster('mallfront_restart');
  t = await startTestApp({ dbPoolSize: 4, dbAcquireTimeoutMs: 1_000 }, { database: 'mallfront_restart', connectVia: () => cluster.url });
}, 60_000);
afterAll(async () => {
  await t?.close();
  cluster?.remove();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

it('serves 503 while the database restarts, stays live, recovers by itself, and loses nothing', async () => {
  const initial = 10_000;
  const { product } = await shopWithProduct(t, [{ price: 100, stock: initial }]);
  const skuId = product.skuIds[0];
  const pool = await poolOf(t.em());

  const shopping = shopThroughFaults(t, { skuId, clients: 6, shopForMs: 5_000, answerWithinMs: 20_000 });
  await sleep(1_000);
  cluster.stop();
  const down = { ready: await t.api('GET', '/readyz'), live: await t.api('GET', '/healthz') };
  await sleep(1_000);
  cluster.start();
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
