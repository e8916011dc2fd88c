import pg from 'pg';
import { startTestApp, type TestApp, type ApiResponse } from './support/harness.js';
import { SERVER_URL } from './support/databases.js';
import { newAdmin, newCustomer } from './support/fixtures.js';
import { shopWithProduct, checkoutBody } from './support/shopping.js';
import { expectNothingLost, shopThroughFaults } from './support/faulty-shoppers.js';
import { subscribe, waitFor, PAYLOAD_FIELDS, type LiveSubscription } from './support/subscriptions.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { PGBOUNCER, pgbouncerVersion, startPgBouncer, type RunningPgBouncer } from './support/pgbouncer.js';
import { sessionSettings } from '../src/db/orm.js';

/**
 * Two compiled server processes behind Debian's PgBouncer in transaction pooling, with fewer
 * server sessions than the processes have pool connections, so every server session serves
 * transactions of many clients in turn: whatever one left in its session (a named prepared
 * statement, a SET) would reach another. LISTEN goes to the primary directly (DATABASE_LISTEN_URL).
 */
const SERVER_SESSIONS = 2;
const TIMEOUTS = { statementTimeoutMs: 30_000, idleInTransactionTimeoutMs: 10_000, lockTimeoutMs: 2_000 };

if (!PGBOUNCER) {
  // .ci/run installs it; only a machine that cannot install Debian packages gets here.
  console.warn('test/pgbouncer.test.ts skipped: pgbouncer is not installed (apt-get install pgbouncer)');
}
const describeWithPgBouncer = PGBOUNCER ? describe : describe.skip;

describeWithPgBouncer(`behind PgBouncer ${pgbouncerVersion() ?? ''} in transaction pooling`, () => {
  let t: TestApp;
  let bouncer: RunningPgBouncer;
  const servers: ServerProcess[] = [];
  let sub: LiveSubscription | undefined;

  beforeAll(async () => {
    t = await startTestApp();
    const connectQuery = Object.entries(sessionSettings(TIMEOUTS))
      .map(([name, value]) => `SET ${name}=${value}`)
      .join('; ');
    bouncer = await startPgBouncer({ server: SERVER_URL, database: t.dbName, poolSize: SERVER_SESSIONS, connectQuery });
    const env = {
      DATABASE_URL: bouncer.url,
      DATABASE_LISTEN_URL: t.dbUrl,
      DATABASE_POOL_MODE: 'transaction',
      NODE_ENV: 'production',
      DEVICE_TOKEN_SECRET: 'b'.repeat(48),
      DB_POOL_SIZE: '4',
      DB_STATEMENT_TIMEOUT_MS: String(TIMEOUTS.statementTimeoutMs),
      DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: String(TIMEOUTS.idleInTransactionTimeoutMs),
      DB_LOCK_TIMEOUT_MS: String(TIMEOUTS.lockTimeoutMs),
    };
    servers.push(await startServerProcess(env), await startServerProcess(env));
  }, 120_000);
  afterAll(async () => {
    await sub?.close();
    for (const server of servers) if (server.child.exitCode === null) await server.stop();
    await bouncer?.remove();
    await t?.close();
  });

  /** `t` with its HTTP calls sent to the server processes in turn (fixtures still go straight to the database). */
  function throughProcesses(): TestApp {
    let turn = 0;
    const api = async (method: string, path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<ApiResponse> => {
      const server = servers[turn++ % servers.length];
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const res = await fetch(server.baseUrl + path, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
    };
    return { ...t, api: api as TestApp['api'] };
  }

  /** One statement on each of PgBouncer's server sessions at once (each holds one in a transaction meanwhile). */
  async function onEveryServerSession<Row extends pg.QueryResultRow>(sql: string): Promise<Row[][]> {
    const clients = Array.from({ length: SERVER_SESSIONS }, () => new pg.Client({ connectionString: bouncer.url }));
    await Promise.all(clients.map((client) => client.connect()));
    try {
      await Promise.all(clients.map((client) => client.query('begin')));
      const answers = await Promise.all(clients.map((client) => client.query<Row>(sql)));
      const pids = await Promise.all(clients.map((client) => client.query<{ pid: number }>('select pg_backend_pid() as pid')));
      expect(new Set(pids.map((r) => r.rows[0].pid)).size).toBe(SERVER_SESSIONS);
      await Promise.all(clients.map((client) => client.query('rollback')));
      return answers.map((answer) => answer.rows);
    } finally {
      await Promise.all(clients.map((client) => client.end()));
    }
  }

  it('checks out and pays through both processes sharing two server sessions, leaving no session state behind', async () => {
    const initial = 1_000;
    const { product } = await shopWithProduct(t, [{ price: 100, stock: initial }]);
    const skuId = product.skuIds[0];
    const app = throughProcesses();
    // Storefront reads (prepared statements in session mode) alongside the checkouts.
    const browsing = (async () => {
      let pages = 0;
      for (const until = Date.now() + 3_000; Date.now() < until; pages++) {
        const [list, detail] = await Promise.all([app.api('GET', '/api/products?page_size=5'), app.api('GET', `/api/products/${product.id}`)]);
        expect([list.status, detail.status]).toEqual([200, 200]);
      }
      return pages;
    })();
    const record = await shopThroughFaults(app, { skuId, clients: 8, shopForMs: 3_000, answerWithinMs: 10_000 });
    expect(await browsing).toBeGreaterThan(0);
    expect(record.failures).toBe(0);
    expect(record.paid.size).toBeGreaterThan(0);
    await expectNothingLost(t, record, { skuId, initial });

    // PgBouncer held only its two server sessions for the 8 pool connections of the processes.
    expect((await bouncer.serverPids()).length).toBeLessThanOrEqual(SERVER_SESSIONS);
    // No named statement was left in a server session, and each has the settings the server asked for.
    const sessions = await onEveryServerSession<{ prepared: number; lock_timeout: string; statement_timeout: string; plan_cache_mode: string }>(
      `select (select count(*)::int from pg_prepared_statements) as prepared, current_setting('lock_timeout') as lock_timeout,
              current_setting('statement_timeout') as statement_timeout, current_setting('plan_cache_mode') as plan_cache_mode`,
    );
    for (const [session] of sessions) expect(session).toEqual({ prepared: 0, lock_timeout: '2s', statement_timeout: '30s', plan_cache_mode: 'force_generic_plan' });
  }, 60_000);

  it('delivers an event caused through one process to a subscriber of the other (LISTEN on a direct session)', async () => {
    const admin = await newAdmin(t);
    const { product } = await shopWithProduct(t, [{ price: 100, stock: 50 }]);
    sub = await subscribe(servers[0], `subscription { events { type ${PAYLOAD_FIELDS} } }`, { token: admin.token });
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    // Through the second process: its NOTIFY reaches the first's LISTEN.
    const cart = await fetch(`${servers[1].baseUrl}/api/cart/items/${product.skuIds[0]}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ quantity: 1 }),
    });
    expect(cart.status).toBe(200);
    const placed = await fetch(`${servers[1].baseUrl}/api/checkout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(checkoutBody()),
    });
    expect(placed.status).toBe(201);
    const orderId = ((await placed.json()) as { orders: { id: number }[] }).orders[0].id;
    await waitFor(() => sub!.results.some((r) => r.data?.events?.type === 'ORDER_PLACED' && r.data.events.payload?.orderId === orderId), 10_000, 'ORDER_PLACED on the other process');
  }, 60_000);

  it('refuses to serve behind a pooler whose server sessions lack the settings, naming the connect_query', async () => {
    const bare = await startPgBouncer({ server: SERVER_URL, database: t.dbName, poolSize: 1 });
    try {
      const refused = startServerProcess({ DATABASE_URL: bare.url, DATABASE_LISTEN_URL: t.dbUrl, DATABASE_POOL_MODE: 'transaction', NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'b'.repeat(48) });
      await expect(refused).rejects.toThrow(/server exited early[\s\S]*run with .*lock_timeout=0 instead of .*lock_timeout=2000[\s\S]*connect_query='SET jit=off; SET plan_cache_mode=force_generic_plan/);
    } finally {
      await bare.remove();
    }
  }, 60_000);

  it('rides out killed server sessions and a PgBouncer restart, losing nothing', async () => {
    const initial = 10_000;
    const { product } = await shopWithProduct(t, [{ price: 100, stock: initial }]);
    const skuId = product.skuIds[0];
    const app = throughProcesses();
    let faults: Promise<void> = Promise.resolve();
    const shopping = shopThroughFaults(app, {
      skuId,
      clients: 6,
      shopForMs: 5_000,
      answerWithinMs: 20_000,
      onShopping: () => {
        faults = (async () => {
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          const pids = await bouncer.serverPids();
          expect(pids.length).toBeGreaterThan(0);
          await t.sql('select pg_terminate_backend(pid) from unnest(?::int[]) as pid', [`{${pids.join(',')}}`]);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          await bouncer.stop();
          await new Promise((resolve) => setTimeout(resolve, 500));
          await bouncer.start();
        })();
      },
    });
    const record = await shopping;
    await faults;
    expect(record.failures).toBeGreaterThan(0);
    for (const server of servers) expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
    await expectNothingLost(t, record, { skuId, initial });
    // Still one process's event reaches the other: the events connections never went through PgBouncer.
    for (const server of servers) expect(server.output()).not.toMatch(/events connection lost/);
  }, 90_000);
});
