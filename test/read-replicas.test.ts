import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator, newProduct } from './support/fixtures.js';
import { addToCart, checkoutOk, payOk, shopWithProduct } from './support/shopping.js';
import { waitFor } from './support/subscriptions.js';
import { startStreamingReplica, startThrowawayCluster, type ThrowawayCluster } from './support/throwaway-cluster.js';
import { ReplicaRouter } from '../src/db/read-routing.js';
import { servingPool } from '../src/db/orm.js';
import { requestScope, runInScope, runWriting } from '../src/db/request-scope.js';
import { connectionLost } from '../src/errors.js';
import { primaryRetryOf } from '../src/shared/replica-reads.js';
import { freePort } from './support/server-process.js';
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
 *
 * Reads are held in flight on the replica by a lock taken on the primary (replayed, it makes the
 * replica's reads of products wait), so the tests of a replica lost under its reads are not left to
 * timing: those reads are there when its sessions end or it stops.
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

/** Runs one statement on a cluster (autocommit), on a connection of its own. */
async function runOn(cluster: ThrowawayCluster, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

const onReplica = (sql: string) => runOn(replica, sql);
const onPrimary = (sql: string) => runOn(primary, sql);

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
  // A lock_timeout longer than the tests hold reads on a lock (holdProducts), so they wait, not fail 409.
  strict = await appWithReplica('strict', { readReplicaMaxLagMs: 300, readYourWritesMs: 1_000, dbLockTimeoutMs: 20_000 });
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


/** `select count(*) as n ...` on the replica. */
async function countOnReplica(sql: string, params: unknown[] = []): Promise<number> {
  const client = new pg.Client({ connectionString: replica.url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(sql, params)).rows[0].n);
  } finally {
    await client.end();
  }
}

/** Reads of the strict app waiting on the replica for a lock. */
const readsWaitingOnReplica = () => countOnReplica(`select count(*) as n from pg_stat_activity where datname = $1 and wait_event_type = 'Lock'`, [DATABASE]);

/**
 * Keeps reads in flight on the replica for as long as a test needs: an ACCESS EXCLUSIVE lock on
 * `product` taken on the primary is replayed by the replica, whose reads of products then wait for
 * it (and so do the primary's). Returns its release.
 */
async function holdProducts(): Promise<() => Promise<void>> {
  const holder = new pg.Client({ connectionString: primary.url });
  await holder.connect();
  await holder.query('begin');
  await holder.query('lock table product in access exclusive mode');
  // The lock's WAL record is sent once flushed: a commit elsewhere flushes it.
  await onPrimary('select txid_current()');
  await waitFor(
    async () => (await countOnReplica(`select count(*) as n from pg_locks where relation = 'product'::regclass and mode = 'AccessExclusiveLock'`)) > 0,
    10_000,
    'lock replayed on the replica',
  );
  return async () => {
    await holder.query('rollback');
    await holder.end();
  };
}

/** Storefront reads of one product and its shop over both doors, each as its status and body. */
function storefrontReads(app: TestApp, shopId: number, productId: number): (() => Promise<unknown>)[] {
  const rest = (path: string) => async () => {
    const answer = await app.api('GET', path);
    return { status: answer.status, body: answer.body as unknown };
  };
  const query = `{ product(id: ${productId}) { id name priceFrom skus { id price stock } } products(shopId: ${shopId}) { total items { id name soldCount shop { id name } } } }`;
  return [rest(`/api/products/${productId}`), rest(`/api/products?shop_id=${shopId}`), () => app.gql(query)];
}

const readsLost = () => routers.strict!.status()[0].readsLost;

it('answers every read a replica loses under it (its sessions terminated) from the primary, exactly, over both doors', async () => {
  const { shop, product } = await shopWithProduct(strict, [{ price: 100, stock: 10 }, { price: 250, stock: 3 }]);
  await replicated(product.id);
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable');
  const reads = storefrontReads(strict, shop.id, product.id);
  // The answers, from the replica that has replayed everything (the primary's answers too).
  const expected = await Promise.all(reads.map((read) => read()));
  expect(expected.map((answer) => (answer as { status: number }).status)).toEqual([200, 200, 200]);
  const lostBefore = readsLost();

  const release = await holdProducts();
  // Three of each read: more than the replica pool's 4 connections.
  const answers = Promise.all([...reads, ...reads, ...reads].map((read) => read()));
  try {
    await waitFor(async () => (await readsWaitingOnReplica()) >= 4, 10_000, 'reads waiting on the replica');
    // Every session of the app on the replica, as a restarted pooler or an operator would end them;
    // the router's probe keeps its own (so what marks the replica down is the reads' loss).
    await onReplica(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${DATABASE}' and backend_type = 'client backend' and pid <> pg_backend_pid() and application_name <> 'mallfront-replica-probe'`,
    );
    // Each request counts once, however many of its statements were cut (a GraphQL operation's root
    // fields read on connections of their own).
    await waitFor(() => readsLost() - lostBefore >= 2, 10_000, 'the reads in flight lost and run again');
  } finally {
    await release();
  }
  // Not one read failed, and each answered what the replica answered before.
  expect(await answers).toEqual([...expected, ...expected, ...expected]);
  // Each request ran again at most once.
  expect(readsLost() - lostBefore).toBeLessThanOrEqual(9);
  // The replica answers its probes: back in use, and the reads on it answer the same.
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica back in use');
  expect(await Promise.all(reads.map((read) => read()))).toEqual(expected);
}, 60_000);

it('runs a read again only when its connection was lost: not for its own error, a timeout of ours, or a request that wrote', async () => {
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable');
  const failure = async (work: () => Promise<unknown>): Promise<unknown> => {
    try {
      await work();
    } catch (error) {
      return error;
    }
    throw new Error('expected a failure');
  };
  const client = new pg.Client({ connectionString: primary.url });
  await client.connect();
  const victim = new pg.Client({ connectionString: primary.url });
  victim.on('error', () => {});
  await victim.connect();
  const timed = new pg.Client({ connectionString: primary.url, statement_timeout: 50 });
  await timed.connect();
  try {
    const statementError = await failure(() => client.query('select * from no_such_table'));
    const statementTimeout = await failure(() => timed.query('select pg_sleep(1)'));
    const [{ pid }] = (await victim.query<{ pid: number }>('select pg_backend_pid() as pid')).rows;
    // Caught from the start: the victim's error can arrive before pg_terminate_backend's own answer,
    // and a rejection with no handler yet is an unhandled error to the runner.
    const sleeping = failure(() => victim.query('select pg_sleep(10)'));
    await waitFor(async () => (await client.query(`select 1 from pg_stat_activity where pid = $1 and query like 'select pg_sleep%'`, [pid])).rowCount === 1, 5_000, 'statement running');
    await client.query('select pg_terminate_backend($1)', [pid]);
    const terminated = await sleeping;
    const closedPort = await freePort();
    const refused = await failure(() => new pg.Client({ host: '127.0.0.1', port: closedPort, user: 'postgres', database: DATABASE }).connect());
    // The request's own deadline, through the ORM's pool (its connection is cut: db/deadline-client.ts).
    const deadline = await failure(() => runInScope(requestScope(100), () => strict.em().execute('select pg_sleep(2)')));
    expect([statementError, statementTimeout, terminated, refused, deadline].map(connectionLost)).toEqual([false, false, true, true, false]);

    const lostBefore = readsLost();
    await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable');
    const ctx = await strict.context();
    // Not yet read from a replica: nothing to run again.
    expect(primaryRetryOf(ctx, terminated)).toBeNull();
    const replicaEm = ctx.em;
    expect(replicaEm.config.get('clientUrl')).toBe(replica.url);
    expect(primaryRetryOf(ctx, statementError)).toBeNull();
    expect(primaryRetryOf(ctx, deadline)).toBeNull();
    const again = primaryRetryOf(ctx, terminated);
    expect(again?.em).not.toBe(replicaEm);
    expect(again?.em.config.get('clientUrl')).toBe(strict.orm.config.get('clientUrl'));
    // Once: the context read from the primary has no second retry.
    expect(primaryRetryOf(ctx, terminated)).toBeNull();
    expect(primaryRetryOf(again!, terminated)).toBeNull();
    expect(readsLost()).toBe(lostBefore + 1);
    expect(routers.strict!.status()[0]).toEqual(expect.objectContaining({ up: false, usable: false }));

    // A request that did writing work is never run again, whatever the replica lost.
    await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable again');
    const wrote = await strict.context();
    const read = wrote.em;
    expect(runWriting(() => wrote.em)).not.toBe(read);
    expect(primaryRetryOf(wrote, terminated)).toBeNull();
    expect(readsLost()).toBe(lostBefore + 1);
  } finally {
    await client.end();
    await timed.end();
    await victim.end().catch(() => {});
  }
});

it('falls back to the primary when the replica stops, losing no read in flight, and goes back to it once it is up again', async () => {
  const { shop, product } = await shopWithProduct(strict, [{ price: 100, stock: 10 }]);
  await replicated(product.id);
  await waitFor(() => routers.strict!.status()[0].usable, 5_000, 'replica usable');
  const reads = storefrontReads(strict, shop.id, product.id);
  const expected = await Promise.all(reads.map((read) => read()));
  const answers: unknown[] = [];
  let reading = true;
  const reader = (async () => {
    while (reading) answers.push(...(await Promise.all(reads.map((read) => read()))));
  })();
  const release = await holdProducts();
  try {
    await waitFor(async () => (await readsWaitingOnReplica()) >= 1, 10_000, 'reads waiting on the replica');
    replica.stop();
    // pg_ctl ran synchronously; the router learns of the stop when the event loop handles its probe
    // connection's end or a read's loss: at once on a quiet machine, later under the whole suite's load.
    await waitFor(() => !routers.strict!.status()[0].up, 5_000, 'router saw the replica stop');
    expect(routers.strict!.status()[0]).toEqual(expect.objectContaining({ up: false, usable: false }));
  } finally {
    await release();
  }
  const stoppedAt = answers.length;
  await sleep(1_000);
  reading = false;
  await reader;
  // Every read answered exactly, those in flight on the replica when it stopped included.
  expect(answers.length).toBeGreaterThan(stoppedAt);
  expect(answers).toEqual(answers.map((_, i) => expected[i % expected.length]));

  replica.start();
  await waitFor(() => routers.strict!.status()[0].usable, 10_000, 'replica back in use');
  expect(await Promise.all(reads.map((read) => read()))).toEqual(expected);
}, 60_000);
