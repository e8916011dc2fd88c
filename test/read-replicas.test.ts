import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator, newProduct } from './support/fixtures.js';
import { addToCart, checkoutOk, payOk, shopWithProduct } from './support/shopping.js';
import { waitFor } from './support/subscriptions.js';
import { startStreamingReplica, startThrowawayCluster, type ThrowawayCluster } from './support/throwaway-cluster.js';
import { ReplicaRouter } from '../src/db/read-routing.js';
import { servingPool } from '../src/db/orm.js';
import type { AppConfig } from '../src/config.js';

/**
 * A real streaming replica: a throwaway primary cluster of this test's own and a standby made from it
 * with `pg_basebackup -R`, on another port. Replaying is paused on the standby
 * (`pg_wal_replay_pause()`) to make it visibly stale: a read that does not see a row the primary has
 * was served by the replica.
 *
 * `lax` uses the replica while it is up to a minute behind, and keeps a customer on the primary for
 * 2 s after a write: a configuration the server refuses (READ_YOUR_WRITES_MS must exceed the lag
 * limit), used here only so the replica stays in use while paused and the routing can be seen.
 * `strict` has a 300 ms lag limit, as a server would be run.
 */
const DATABASE = 'mallfront_replicas';
let primary: ThrowawayCluster;
let replica: ThrowawayCluster;
let lax: TestApp;
let strict: TestApp;
const routers: Record<'lax' | 'strict', ReplicaRouter | undefined> = { lax: undefined, strict: undefined };

function appWithReplica(name: 'lax' | 'strict', overrides: Partial<AppConfig>): Promise<TestApp> {
  return startTestApp(
    { ...overrides, databaseReadUrls: [replica.url], dbPoolSize: 4 },
    {
      database: DATABASE,
      connectVia: () => primary.url,
      reads: async (orm, config, log) => {
        const router = new ReplicaRouter({ primary: orm, urls: config.databaseReadUrls, pool: { ...servingPool(config), poolSize: 4 }, maxLagMs: config.readReplicaMaxLagMs, log, probeEveryMs: 50 });
        await router.start();
        routers[name] = router;
        return router;
      },
    },
  );
}

async function onReplica(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: replica.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const pauseReplay = () => onReplica('select pg_wal_replay_pause()');
const resumeReplay = () => onReplica('select pg_wal_replay_resume()');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the replica shows product `id` (it has replayed up to there). */
async function replicated(id: number): Promise<void> {
  const client = new pg.Client({ connectionString: replica.url });
  await client.connect();
  try {
    await waitFor(async () => (await client.query('select 1 from product where id = $1', [id])).rowCount === 1, 10_000, `product ${id} on the replica`);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  primary = await startThrowawayCluster(DATABASE);
  replica = await startStreamingReplica(primary);
  lax = await appWithReplica('lax', { readReplicaMaxLagMs: 60_000, readYourWritesMs: 2_000 });
  strict = await appWithReplica('strict', { readReplicaMaxLagMs: 300, readYourWritesMs: 1_000 });
}, 120_000);
afterAll(async () => {
  await resumeReplay().catch(() => {});
  await strict?.close();
  await lax?.close();
  // Either may be stopped already when a test failed half way.
  for (const cluster of [replica, primary]) {
    try {
      cluster?.remove();
    } catch {
      // Its folder is removed regardless (remove's finally).
    }
  }
});

it('serves anonymous storefront reads from the replica, and writes and shop operators from the primary', async () => {
  const { shop, category, product: seen } = await shopWithProduct(lax, [{ price: 100, stock: 10 }]);
  await replicated(seen.id);
  expect(routers.lax!.status()).toEqual([expect.objectContaining({ up: true, usable: true })]);
  await pauseReplay();
  try {
    const fresh = await newProduct(lax, { shopId: shop.id, categoryId: category.id, skus: [{ price: 100, stock: 10 }] });
    // Anonymous: the replica, which has not replayed the new product (REST and GraphQL alike).
    expect((await lax.api('GET', `/api/products/${fresh.id}`)).status).toBe(404);
    expect((await lax.api('GET', `/api/products/${seen.id}`)).status).toBe(200);
    const listed = await lax.api('GET', `/api/products?shop_id=${shop.id}`);
    expect(listed.body.items.map((p: { id: number }) => p.id)).toEqual([seen.id]);
    expect((await lax.gql(`{ product(id: ${fresh.id}) { id } }`)).data.product).toBeNull();
    // A shop operator: the primary.
    const operator = await newOperator(lax, shop.id);
    expect((await lax.api('GET', `/api/products/${fresh.id}`, { token: operator.token })).status).toBe(200);
    // Writes go to the primary while the replica is stale: a customer buys the new product.
    const customer = await newCustomer(lax, { available: 10_000, points: 0 });
    await addToCart(lax, customer.token, fresh.skuIds[0], 1);
    const [order] = await checkoutOk(lax, customer.token);
    expect(order.id).toEqual(expect.any(Number));
  } finally {
    await resumeReplay();
  }
  await waitFor(async () => (await lax.api('GET', `/api/products?shop_id=${shop.id}`)).body.items.length === 2, 10_000, 'replica caught up');
});

it("keeps a customer's reads on the primary for READ_YOUR_WRITES_MS after their write, in every server process", async () => {
  const { product } = await shopWithProduct(lax, [{ price: 100, stock: 10 }]);
  const customer = await newCustomer(lax, { available: 10_000, points: 0 });
  await replicated(product.id);
  await pauseReplay();
  try {
    await addToCart(lax, customer.token, product.skuIds[0], 1);
    const [order] = await checkoutOk(lax, customer.token);
    await payOk(lax, customer.token, order.id);
    // Right after paying, through this process and another (its own pool, its own router): the paid order.
    for (const app of [lax, strict]) {
      const seen = await app.api('GET', `/api/orders/${order.id}`, { token: customer.token });
      expect({ status: seen.status, orderStatus: seen.body.status }).toEqual({ status: 200, orderStatus: 'paid' });
    }
    // Once the window is over their reads go back to the replica, which (paused) has not seen the order:
    // with a lag limit below the window, as the server requires, it would have.
    await sleep(2_100);
    expect((await lax.api('GET', `/api/orders/${order.id}`, { token: customer.token })).status).toBe(404);
  } finally {
    await resumeReplay();
  }
});

it('skips a replica more than READ_REPLICA_MAX_LAG_MS behind, and uses it again once it has caught up', async () => {
  const { shop, category, product: seen } = await shopWithProduct(strict, [{ price: 100, stock: 10 }]);
  await replicated(seen.id);
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable');
  await pauseReplay();
  try {
    const fresh = await newProduct(strict, { shopId: shop.id, categoryId: category.id, skus: [{ price: 100, stock: 10 }] });
    // Within the limit the replica still serves (stale)...
    await waitFor(() => !routers.strict!.status()[0].usable, 5_000, 'replica skipped for its lag');
    expect(routers.strict!.status()[0]).toEqual(expect.objectContaining({ up: true, usable: false, lagMs: expect.any(Number) }));
    expect(routers.strict!.status()[0].lagMs).toBeGreaterThan(300);
    // ... past it, anonymous reads go to the primary and see the new product.
    expect((await strict.api('GET', `/api/products/${fresh.id}`)).status).toBe(200);
    // The lax app (a minute's limit) still reads the replica: the row is missing there.
    expect((await lax.api('GET', `/api/products/${fresh.id}`)).status).toBe(404);
  } finally {
    await resumeReplay();
  }
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable again');
  expect(routers.strict!.status()[0].lagMs).toBeLessThanOrEqual(300);
});

it('falls back to the primary when the replica stops, and goes back to it once it is up again', async () => {
  const { product } = await shopWithProduct(strict, [{ price: 100, stock: 10 }]);
  await replicated(product.id);
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable');
  const statuses: number[] = [];
  let reading = true;
  const reader = (async () => {
    while (reading) statuses.push((await strict.api('GET', `/api/products/${product.id}`)).status);
  })();
  await sleep(300);
  replica.stop();
  // pg_ctl ran synchronously; the router learns of the stop when the event loop handles its probe
  // connection's end: at once on a quiet machine, later under the whole suite's load (hence 5 s).
  await waitFor(() => !routers.strict!.status()[0].up, 5_000, 'router saw the replica stop');
  const stoppedAt = statuses.length;
  expect(routers.strict!.status()[0]).toEqual(expect.objectContaining({ up: false, usable: false }));
  await sleep(1_000);
  reading = false;
  await reader;
  // Reads while it was down (once the router knew) were all answered, by the primary. The few in
  // flight at the moment it stopped may have failed (503): their statement was cut.
  expect(statuses.slice(stoppedAt).filter((s) => s !== 200)).toEqual([]);
  expect(statuses.slice(stoppedAt).length).toBeGreaterThan(0);
  expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);

  replica.start();
  await waitFor(() => routers.strict!.status()[0].usable, 10_000, 'replica back in use');
  expect((await strict.api('GET', `/api/products/${product.id}`)).status).toBe(200);
}, 60_000);
