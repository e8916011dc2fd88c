import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { checkoutWriter } from './support/checkout-writer.js';
import { newCustomer, newGroupBuy } from './support/fixtures.js';
import { addToCart, checkoutBody, shopWithProduct } from './support/shopping.js';
import { expectNothingLost, poolSettles, shopThroughFaults } from './support/faulty-shoppers.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { SERVER_URL } from './support/databases.js';
import { poolOf } from '../src/db/prepared-statements.js';
import type { ServiceContext } from '../src/shared/context.js';
import { withSubscriber } from '../src/services/wiring.js';
import { expectStockAudited } from './support/inventory-audit.js';

/**
 * Faults are part of the contract: a killed session or a database that goes away mid-request loses
 * nothing committed, never does a keyed request twice, and leaves the server healthy.
 */
let t: TestApp;
let proxy: TcpProxy;
let admin: pg.Client;
/**
 * What the next use case reaching its fault point suffers; each fault strikes once. The points are
 * this app's own wiring, not the production path: checkout's writer right after it wrote the orders
 * (inside the checkout's transaction before COMMIT, or just after its one statement committed), and
 * a subscriber of `order.paid` (inside the payment's transaction).
 */
let nextFault: ((tx: ServiceContext, useCase: string) => Promise<void>) | undefined;

async function strike(tx: ServiceContext, useCase: string) {
  const fault = nextFault;
  nextFault = undefined;
  await fault?.(tx, useCase);
}

beforeAll(async () => {
  const server = new URL(SERVER_URL);
  proxy = new TcpProxy(server.hostname, Number(server.port || 5432));
  await proxy.start();
  t = await startTestApp(
    { dbPoolSize: 4, dbAcquireTimeoutMs: 1_000, dbStuckAfterMs: 1_000 },
    {
      wiring: (base) => ({
        orderWriter: {
          ...base.orderWriter,
          async placeOrders(tx, placement) {
            const placed = await base.orderWriter.placeOrders(tx, placement);
            await strike(tx, 'checkout');
            return placed;
          },
        },
        orderTransitions: withSubscriber(base.orderTransitions, 'order.paid', (tx) => strike(tx, 'order.pay')),
      }),
      // The app reaches its database through the proxy, so a test can take the database away.
      connectVia: (dbUrl) => {
        const url = new URL(dbUrl);
        url.hostname = '127.0.0.1';
        url.port = String(proxy.port);
        return url.toString();
      },
    },
  );
  admin = new pg.Client({ connectionString: t.dbUrl });
  await admin.connect();
});
afterAll(async () => {
  try {
    // Every stock change of the suite, faults and all, came with its movement.
    await expectStockAudited(t);
  } finally {
    await admin.end();
    await t.close();
    await proxy.stop();
  }
});

/** Kills the session of the transaction the use case runs in, so its COMMIT fails. */
async function killOwnSession(tx: ServiceContext) {
  const [{ pid }] = await tx.em.execute<{ pid: number }[]>('select pg_backend_pid() as pid');
  await admin.query('select pg_terminate_backend($1)', [pid]);
}

const count = async (sql: string, params: unknown[]) => (await t.sql<{ n: number }>(sql, params))[0].n;

describe('an Idempotency-Key across a killed connection', () => {
  it('payment killed before COMMIT: the client is told 503, nothing was charged, and the retry pays once', async () => {
    const { product } = await shopWithProduct(t, [{ price: 700, stock: 5 }]);
    const customer = await newCustomer(t, { available: 5_000, points: 0 });
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const placed = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    const orderId: number = placed.body.orders[0].id;
    const headers = { 'idempotency-key': 'pay-killed' };

    nextFault = (tx, useCase) => (useCase === 'order.pay' ? killOwnSession(tx) : Promise.resolve());
    const failed = await t.api('POST', `/api/orders/${orderId}/pay`, { token: customer.token, headers });
    expect(failed.status).toBe(503);
    expect(failed.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(await count(`select count(*)::int as n from shop_order where id = ? and status = 'pending_payment'`, [orderId])).toBe(1);
    expect(await count(`select count(*)::int as n from idempotency_key where user_id = ?`, [customer.id])).toBe(0);

    const retried = await t.api('POST', `/api/orders/${orderId}/pay`, { token: customer.token, headers });
    expect(retried.status).toBe(200);
    expect(retried.body.status).toBe('paid');
    // The customer's side of the payment's transfer (its other side is the shop's pending balance).
    expect(await count(`select count(*)::int as n from ledger_entry l join balance b on b.id = l.balance_id where b.user_id is not null and reference_type = 'order' and reference_id = ?`, [orderId])).toBe(1);
    const again = await t.api('POST', `/api/orders/${orderId}/pay`, { token: customer.token, headers });
    expect(again.body).toEqual(retried.body);
  });

  it('checkout in a transaction (group buying) killed before COMMIT: no order, no group opened, and the retry orders once', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 2_000, stock: 5 }]);
    const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], groupPrice: 1_500 });
    const customer = await newCustomer(t);
    const body = checkoutBody({ group_buy: { activity_id: activity.id } });
    const headers = { 'idempotency-key': 'group-checkout-killed' };
    const groups = () => count('select count(*)::int as n from group_buy_group where activity_id = ?', [activity.id]);

    nextFault = (tx, useCase) => (useCase === 'checkout' ? killOwnSession(tx) : Promise.resolve());
    const failed = await t.api('POST', '/api/checkout', { token: customer.token, body, headers });
    expect(failed.status).toBe(503);
    expect(await count('select count(*)::int as n from shop_order where customer_id = ?', [customer.id])).toBe(0);
    expect(await groups()).toBe(0);

    const retried = await t.api('POST', '/api/checkout', { token: customer.token, body, headers });
    expect(retried.status).toBe(201);
    expect(retried.body.orders[0].total).toBe(1_500);
    const replay = await t.api('POST', '/api/checkout', { token: customer.token, body, headers });
    expect(replay.body).toEqual(retried.body);
    expect(await count('select count(*)::int as n from shop_order where customer_id = ?', [customer.id])).toBe(1);
    expect(await groups()).toBe(1);
  });

  // The combined writer's statement commits on its own before its writer returns; the transactional
  // writer has not committed there (its kill-before-COMMIT case is the group checkout above).
  const combinedWriter = checkoutWriter() === 'combined';
  (combinedWriter ? it : it.skip)('one-statement checkout committed but the database went away before the answer: 503, then the same key answers that order', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1_000, stock: 5 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const headers = { 'idempotency-key': 'checkout-answer-lost' };

    nextFault = async (_tx, useCase) => {
      if (useCase !== 'checkout') return;
      await proxy.stop();
      throw new Error('Connection terminated unexpectedly');
    };
    const failed = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody(), headers });
    expect(failed.status).toBe(503);
    await proxy.start();
    expect(await count('select count(*)::int as n from shop_order where customer_id = ?', [customer.id])).toBe(1);

    // The cart is refilled, as a shopper might before retrying: the key still makes no second order.
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const retried = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody(), headers });
    expect(retried.status).toBe(201);
    expect(await count('select count(*)::int as n from shop_order where customer_id = ?', [customer.id])).toBe(1);
    const [order] = await t.sql<{ id: number }>('select id from shop_order where customer_id = ?', [customer.id]);
    expect(retried.body.orders.map((o: { id: number }) => o.id)).toEqual([order.id]);
  });
});

describe('sessions killed under load', () => {
  it('checkout and pay in a loop with 8 clients while sessions are killed every 250 ms: nothing lost, no connection leaked, healthy after', async () => {
    const initial = 10_000;
    const { product } = await shopWithProduct(t, [{ price: 100, stock: initial }]);
    const skuId = product.skuIds[0];
    const pool = await poolOf(t.em());

    let killed = 0;
    let killing = true;
    let shopping!: () => void;
    const shoppersReady = new Promise<void>((resolve) => (shopping = resolve));
    const killer = (async () => {
      await shoppersReady;
      while (killing) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        const { rowCount } = await admin.query(
          `select pg_terminate_backend(pid) from pg_stat_activity
            where datname = $1 and pid <> pg_backend_pid() and state in ('idle in transaction', 'active')`,
          [t.dbName],
        );
        killed += rowCount ?? 0;
      }
    })();
    const record = await shopThroughFaults(t, { skuId, clients: 8, shopForMs: 4_000, answerWithinMs: 15_000, onShopping: () => shopping() }).finally(() => {
      killing = false;
      shopping();
    });
    await killer;

    // More sessions died than the pool has connections: before the fix, /readyz stayed 503 for good.
    expect(killed).toBeGreaterThan(t.config.dbPoolSize);
    expect(record.ordered.size).toBeGreaterThan(0);
    // The faults reached requests (each retried with its key until answered).
    expect(record.failures).toBeGreaterThan(0);
    expect(await poolSettles(t, pool)).toEqual({ checkedOut: 0, waiting: 0, total: expect.any(Number) });
    expect(pool.totalCount).toBeLessThanOrEqual(t.config.dbPoolSize);
    expect((await t.api('GET', '/readyz')).status).toBe(200);
    expect((await t.api('GET', '/healthz')).status).toBe(200);
    await expectNothingLost(t, record, { skuId, initial });
  });
});

describe('liveness and readiness', () => {
  it('liveness fails while the pool gives no connection though the database answers, and recovers when it gives again', async () => {
    const pool = await poolOf(t.em());
    const held = await Promise.all(Array.from({ length: t.config.dbPoolSize }, () => pool.connect()));
    try {
      await new Promise((resolve) => setTimeout(resolve, t.config.dbStuckAfterMs + 100));
      const live = await t.api('GET', '/healthz');
      expect(live.status).toBe(503);
      expect(live.body.error.code).toBe('DATABASE_POOL_STUCK');
      // A request waiting for a connection gets 503 after its deadline instead of hanging (how soon:
      // test/bounded-waits.test.ts, in the timing project).
      const me = await t.api('GET', '/api/products');
      expect(me.status).toBe(503);
      expect(me.body.error.code).toBe('SERVICE_UNAVAILABLE');
      // Readiness asks the database on a connection of its own: it answers, so the server stays in
      // its load balancer (a pool that waits is not a database that is away).
      expect((await t.api('GET', '/readyz')).status).toBe(200);
    } finally {
      for (const client of held) client.release();
    }
    expect((await t.api('GET', '/healthz')).status).toBe(200);
    expect((await t.api('GET', '/readyz')).status).toBe(200);
  });

  it('a database outage fails readiness but never liveness, however long it lasts', async () => {
    await proxy.stop();
    try {
      await new Promise((resolve) => setTimeout(resolve, t.config.dbStuckAfterMs + 100));
      expect((await t.api('GET', '/readyz')).status).toBe(503);
      expect((await t.api('GET', '/healthz')).status).toBe(200);
    } finally {
      await proxy.start();
    }
    for (let i = 0; i < 50 && (await t.api('GET', '/readyz')).status !== 200; i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await t.api('GET', '/readyz')).status).toBe(200);
  });
});
