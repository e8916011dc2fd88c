import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { openOrm, migrate } from '../src/db/orm.js';
import { hashToken } from '../src/services/accounts/auth.service.js';
import { BENCH_IMAGE_PREFIX, BENCH_WORDS, DEFAULT_SIZE, loadBenchData, type DataSize } from './load-data.js';
import { startServer } from './server-process.js';
import { measure, once, type Figures } from './load.js';
import { cpuMeter, perRequest, type CpuMeter } from './cpu.js';

/**
 * `npm run bench`: a fresh database with the scale data set, the compiled server in production mode
 * in its own process, and autocannon from this process on loopback. Prints a table and writes the
 * same figures as JSON under bench/results/. It measures; it does not fail on targets.
 */
const { values: args } = parseArgs({
  options: {
    products: { type: 'string' }, shops: { type: 'string' }, customers: { type: 'string' }, 'order-lines': { type: 'string' },
    seconds: { type: 'string', default: '10' }, warmup: { type: 'string', default: '3' }, connections: { type: 'string', default: '50' },
    port: { type: 'string', default: '4900' }, bursts: { type: 'string', default: '5' }, workers: { type: 'string', default: String(os.availableParallelism()) },
    // For profiling runs: keep an already loaded bench database, and run only the scenarios whose name matches.
    reuse: { type: 'boolean', default: false }, only: { type: 'string' },
    // The database the bench creates (and drops first): one per person on a shared server.
    db: { type: 'string', default: process.env.BENCH_DB ?? 'mallfront_bench' },
  },
});
const size: DataSize = {
  products: Number(args.products ?? DEFAULT_SIZE.products),
  shops: Number(args.shops ?? DEFAULT_SIZE.shops),
  customers: Number(args.customers ?? DEFAULT_SIZE.customers),
  orderLines: Number(args['order-lines'] ?? DEFAULT_SIZE.orderLines),
};
const SECONDS = Number(args.seconds);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const PORT = Number(args.port);
const WORKERS = Number(args.workers);
const BASE = `http://127.0.0.1:${PORT}`;

const serverUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const dbName = args.db;
if (!/^[a-z_][a-z0-9_]*$/.test(dbName)) throw new Error(`--db (or BENCH_DB) must be a plain lower-case database name, not ${dbName}`);
const dbUrl = (() => {
  const u = new URL(serverUrl);
  u.pathname = `/${dbName}`;
  return u.toString();
})();

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

async function databaseLoaded(): Promise<boolean> {
  const client = new pg.Client({ connectionString: dbUrl });
  try {
    await client.connect();
    const { rows } = await client.query(`select count(*)::int n from product where image_url like '${BENCH_IMAGE_PREFIX}%'`);
    return rows[0].n === size.products;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const log = (message: string) => console.log(`[bench] ${message}`);

async function prepare() {
  if (args.reuse && (await databaseLoaded())) {
    log(`reusing the loaded database ${dbName}`);
    return;
  }
  await admin(`drop database if exists ${dbName} with (force)`);
  await admin(`create database ${dbName}`);
  const orm = await openOrm({ clientUrl: dbUrl, poolSize: 4 });
  const started = Date.now();
  await migrate(orm);
  await loadBenchData(orm, size);
  log(`loaded ${JSON.stringify(size)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await orm.close();
}

/** Facts the scenarios need: ids to request, and customers with tokens for the write scenarios. */
async function fixtures(db: pg.Client) {
  const topCategory = (await db.query(`select id from category where depth = 0 order by id limit 1`)).rows[0].id as number;
  const productIds = (await db.query(`select id from product where status = 'published' order by id`)).rows.map((r) => r.id as number);
  const customers = (await db.query(`select id from app_user where email like 'bench-%' order by id limit $1`, [BURST_BUYERS + CONNECTIONS])).rows.map((r) => r.id as number);
  const tokens: string[] = [];
  for (const id of customers) {
    const token = `bench-token-${id}-${Date.now()}`;
    await db.query(`insert into auth_token (token_hash, user_id, expires_at, created_at) values ($1, $2, now() + interval '1 day', now())`, [hashToken(token), id]);
    tokens.push(token);
  }
  // One distinct SKU per checkout connection, each with plenty of stock.
  const skus = (await db.query(`select s.id from sku s join product p on p.id = s.product_id where p.status = 'published' order by s.id desc limit $1`, [CONNECTIONS])).rows.map((r) => r.id as number);
  return { topCategory, productIds, tokens, skus };
}

type Scenario = { name: string; run: () => Promise<Figures | Record<string, number>> };

function readScenarios(f: Awaited<ReturnType<typeof fixtures>>): Scenario[] {
  const get = (path: string) => () => measure({ url: BASE + path, connections: CONNECTIONS }, SECONDS, WARMUP, meter);
  let next = 0;
  const randomProduct = () => f.productIds[(next = (next * 7919 + 1) % f.productIds.length)];
  return [
    { name: 'REST listing (default order)', run: get('/api/products?page_size=20') },
    { name: 'REST listing sort=price', run: get('/api/products?page_size=20&sort=price&order=asc') },
    { name: 'REST listing sort=sales in a top-level category', run: get(`/api/products?page_size=20&sort=sales&category=${f.topCategory}`) },
    {
      name: 'REST product detail',
      run: () => measure({ url: BASE, connections: CONNECTIONS, requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/products/${randomProduct()}` }) }] }, SECONDS, WARMUP, meter),
    },
    { name: 'REST home content', run: get('/api/content/home') },
    { name: 'REST search, common word', run: get(`/api/products?page_size=20&q=${encodeURIComponent(BENCH_WORDS.common)}`) },
    { name: 'REST search, rare word', run: get(`/api/products?page_size=20&q=${encodeURIComponent(BENCH_WORDS.rare)}`) },
    { name: 'REST search, partial CJK word', run: get(`/api/products?page_size=20&q=${encodeURIComponent(BENCH_WORDS.cjkPart)}`) },
    { name: 'REST facets, common word', run: get(`/api/products/facets?q=${encodeURIComponent(BENCH_WORDS.common)}`) },
    { name: 'REST suggestions, 2-letter prefix', run: get(`/api/search/suggest?q=${encodeURIComponent(BENCH_WORDS.prefix)}`) },
    {
      name: 'GraphQL listing (20 products, shops, profiles, SKUs, sold_count)',
      run: () =>
        measure(
          {
            url: `${BASE}/graphql`,
            connections: CONNECTIONS,
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ query: GRAPHQL_LISTING }),
          },
          SECONDS,
          WARMUP,
          meter,
        ),
    },
  ];
}

export const GRAPHQL_LISTING = `{ products(pageSize: 20) { items { id name soldCount shop { id name profile { logoUrl } } skus { id price stock } } } }`;

const CHECKOUT_BODY = JSON.stringify({ shipping_address: { recipient: 'Bench Buyer', phone: '+86 138 0000 0000', region: 'CN-SH', address: '1 Bench Road' } });

/**
 * Customers buying distinct SKUs: each connection is one customer putting one SKU in the cart and
 * checking out. They are other customers than the burst's, whose carts it fills.
 */
async function checkoutRate(f: Awaited<ReturnType<typeof fixtures>>) {
  const tokens = f.tokens.slice(BURST_BUYERS);
  let clients = 0;
  let placed = 0;
  await meter?.start();
  const figures = await measure(
    {
      url: BASE,
      connections: CONNECTIONS,
      // Each connection is one customer for the whole run (autocannon clears a request sequence's
      // context after every round, so the customer is bound to the connection here): two connections
      // sharing a customer would empty each other's carts.
      setupClient: (client: any) => {
        const i = clients++ % tokens.length;
        const headers = { 'content-type': 'application/json', authorization: `Bearer ${tokens[i]}` };
        client.setRequests([
          { method: 'PUT', path: `/api/cart/items/${f.skus[i]}`, body: '{"quantity":1}', headers },
          {
            method: 'POST',
            path: '/api/checkout',
            body: CHECKOUT_BODY,
            headers,
            onResponse: (status: number) => {
              if (status === 201) placed++;
            },
          },
        ]);
      },
    } as any,
    SECONDS,
    0,
  );
  const cpu = await meter?.stop();
  // Requests cut off when the run ends are still being served: let them finish before the next scenario.
  await new Promise((r) => setTimeout(r, 1000));
  // Per checkout, its cart request included.
  return { checkoutsPerSecond: Math.round(placed / SECONDS), p99Ms: figures.p99Ms, errors: figures.errors, non2xx: figures.non2xx, ...perCheckout(cpu, placed) };
}

/**
 * The flash-sale burst: `buyers` customers, each with one unit of the hot SKU in the cart, check out
 * at once (at most CONNECTIONS in flight) against activity stock `stock`. Reports how long selling
 * out took, how many units sold at the activity price (must equal the stock) and any oversell.
 *
 * The clock starts when the load generator sends the first checkout (its own start-up, before any
 * request, is not the server's time) and stops at the response that completes the activity stock.
 */
async function flashSaleBurst(db: pg.Client, f: Awaited<ReturnType<typeof fixtures>>, buyers = BURST_BUYERS, stock = 100) {
  // A SKU with stock for every buyer (the demo catalog's SKUs have little), not in an earlier burst.
  const [sku] = (await db.query(`select s.id, s.price, p.shop_id from sku s join product p on p.id = s.product_id where p.status = 'published'
       and s.stock >= $1 and not exists (select 1 from flash_sale_item i where i.sku_id = s.id) order by s.id limit 1`, [buyers])).rows;
  const skuStockBefore = (await db.query('select stock from sku where id = $1', [sku.id])).rows[0].stock as number;
  const [sale] = (await db.query(
    `insert into flash_sale (shop_id, name, starts_at, ends_at, enabled, created_at, updated_at)
     values ($1, 'Bench burst', now() - interval '1 minute', now() + interval '1 hour', true, now(), now()) returning id`, [sku.shop_id])).rows;
  const [item] = (await db.query(
    `insert into flash_sale_item (flash_sale_id, sku_id, activity_price, reserved_stock, remaining_stock, per_customer_limit, enabled, sale_window)
     values ($1, $2, $3, $4, $4, 1, true, tstzrange(now() - interval '1 minute', now() + interval '1 hour', '[)')) returning id`,
    [sale.id, sku.id, Math.max(1, Math.floor(sku.price / 2)), stock])).rows;
  const tokens = f.tokens.slice(0, buyers);
  const users = (await db.query(`select id from app_user where email like 'bench-%' order by id limit $1`, [buyers])).rows.map((r) => r.id);
  await db.query(`delete from cart_item where customer_id = any($1::int[])`, [users]);
  await db.query(`insert into cart_item (customer_id, sku_id, quantity, added_at) select u, $2, 1, now() from unnest($1::int[]) u`, [users, sku.id]);

  let next = 0;
  let started = 0;
  let soldOutAt = 0;
  let lastResponseAt = 0;
  let flashUnits = 0;
  let failures = 0;
  const failureCodes = new Map<string, number>();
  const firstOrderId = Number((await db.query('select coalesce(max(id), 0) + 1 as id from shop_order')).rows[0].id);
  await meter?.start();
  // autocannon, as for every other scenario: exactly `buyers` requests over CONNECTIONS connections,
  // each with the next buyer's token.
  await once({
    url: BASE,
    connections: CONNECTIONS,
    amount: tokens.length,
    requests: [
      {
        method: 'POST',
        path: '/api/checkout',
        body: CHECKOUT_BODY,
        setupRequest: (req: any) => {
          started ||= performance.now();
          return { ...req, headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[next++ % tokens.length]}` } };
        },
        onResponse: (status: number, text: string) => {
          lastResponseAt = performance.now();
          const body = JSON.parse(text);
          if (status !== 201) {
            failures++;
            const code = `${status} ${body?.error?.code ?? ''}`.trim();
            failureCodes.set(code, (failureCodes.get(code) ?? 0) + 1);
            return;
          }
          const units = body.orders.flatMap((o: any) => o.items).filter((i: any) => i.pricing === 'flash_sale').reduce((n: number, i: any) => n + i.quantity, 0);
          flashUnits += units;
          if (units > 0 && flashUnits >= stock && soldOutAt === 0) soldOutAt = lastResponseAt;
        },
      },
    ],
  } as any);
  const cpu = await meter?.stop();
  const soldAtActivityPrice = Number((await db.query(`select coalesce(sum(quantity), 0) n from order_item where flash_sale_item_id = $1`, [item.id])).rows[0].n);
  const remaining = (await db.query('select remaining_stock from flash_sale_item where id = $1', [item.id])).rows[0].remaining_stock as number;
  const skuSold = Number((await db.query(`select coalesce(sum(oi.quantity), 0) n from order_item oi where oi.sku_id = $1 and oi.order_id >= $2`, [sku.id, firstOrderId])).rows[0].n);
  const skuStockAfter = (await db.query('select stock from sku where id = $1', [sku.id])).rows[0].stock as number;
  if (failureCodes.size > 0) log(`flash-sale burst failures: ${JSON.stringify(Object.fromEntries(failureCodes))}`);
  return {
    successes: soldAtActivityPrice,
    soldBeyondStock: Math.max(0, soldAtActivityPrice - stock) + Math.max(0, -remaining),
    skuStockConsistent: skuStockBefore - skuStockAfter === skuSold,
    sellOutMs: (soldOutAt || lastResponseAt) - started,
    allMs: lastResponseAt - started,
    failures,
    cpu,
  };
}

/**
 * Several bursts, each on a SKU and flash sale of its own with the same buyers: a burst sells out
 * in a fraction of a second, so one alone moves with whatever else the machine did in that moment.
 * Reports the median sell-out time (and the range), and the correctness figures of every burst.
 */
async function flashSaleBursts(db: pg.Client, f: Awaited<ReturnType<typeof fixtures>>, stock = 100) {
  // Vacuumed once before the series, not before each burst: an ANALYZE invalidates every cached
  // plan on these tables, and re-planning the checkout statements on each connection is then part
  // of the burst (it is, once, in the first burst of the series).
  await standInForAutovacuum(db);
  const runs = [];
  for (let i = 0; i < BURSTS; i++) runs.push(await flashSaleBurst(db, f, BURST_BUYERS, stock));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const sellOutMs = runs.map((r) => r.sellOutMs);
  const cpu = runs.every((r) => r.cpu) ? { serverUs: runs.reduce((n, r) => n + r.cpu!.serverUs, 0), dbUs: runs.reduce((n, r) => n + r.cpu!.dbUs, 0) } : null;
  return {
    bursts: runs.length,
    buyers: BURST_BUYERS,
    activityStock: stock,
    successesMin: Math.min(...runs.map((r) => r.successes)),
    successesMax: Math.max(...runs.map((r) => r.successes)),
    soldBeyondStock: Math.max(...runs.map((r) => r.soldBeyondStock)),
    skuStockConsistent: runs.every((r) => r.skuStockConsistent) ? 1 : 0,
    sellOutMs: Math.round(median(sellOutMs)),
    sellOutMsMin: Math.round(Math.min(...sellOutMs)),
    sellOutMsMax: Math.round(Math.max(...sellOutMs)),
    flashCheckoutsPerSecond: Math.round(stock / (median(sellOutMs) / 1000)),
    allCheckoutsPerSecond: Math.round(BURST_BUYERS / (median(runs.map((r) => r.allMs)) / 1000)),
    failures: runs.reduce((n, r) => n + r.failures, 0),
    ...perCheckout(cpu, BURST_BUYERS * runs.length),
  };
}

/**
 * Checkouts churn the cart, order and stock tables. A server with autovacuum on cleans up behind
 * them; with it off (as on some development machines) dead rows pile up from run to run, the
 * planner's row estimates go astray (a 500-row cart table read as thousands of rows turns the cart
 * read into a sequential scan of every SKU) and the write figures measure that instead. So when
 * autovacuum is off the bench vacuums those tables before each write scenario, as autovacuum would.
 */
async function standInForAutovacuum(db: pg.Client): Promise<void> {
  const { rows } = await db.query(`select setting from pg_settings where name = 'autovacuum'`);
  if (rows[0]?.setting !== 'off') return;
  log('autovacuum is off on this server: vacuuming the tables checkouts churn before the next write scenario');
  await db.query('vacuum analyze cart_item, sku, shop_order, order_item, flash_sale_item, flash_sale_purchase, auth_token');
}

/** The database's own ceiling: a single-row conditional decrement at the same concurrency. */
async function rawDecrementRate(): Promise<number> {
  const pool = new pg.Pool({ connectionString: dbUrl, max: CONNECTIONS });
  await pool.query('create table if not exists bench_counter (id int primary key, n bigint not null)');
  await pool.query('insert into bench_counter values (1, 1000000000) on conflict (id) do update set n = excluded.n');
  let done = 0;
  const until = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < until) {
        await pool.query('update bench_counter set n = n - 1 where id = 1 and n >= 1');
        done++;
      }
    }),
  );
  await pool.end();
  return Math.round(done / SECONDS);
}

const CHECKOUT = 'Checkout, customers buying distinct SKUs';
const BURST_BUYERS = 500;
const BURSTS = Number(args.bursts);
/** The CPU meter of the server being measured. */
let meter: CpuMeter | undefined;
const perCheckout = (cpu: Parameters<typeof perRequest>[0], checkouts: number): Record<string, number> => {
  const { serverUsPerRequest, dbUsPerRequest } = perRequest(cpu, checkouts);
  return serverUsPerRequest === undefined ? {} : { serverUsPerCheckout: serverUsPerRequest, dbUsPerCheckout: dbUsPerRequest! };
};
const BURST = 'Flash-sale burst: 500 customers, activity stock 100, one SKU (median)';
const selected = (name: string) => args.only === undefined || new RegExp(args.only, 'i').test(name);

function table(rows: [string, object][]) {
  for (const [name, figures] of rows) {
    const cells = Object.entries(figures).map(([k, v]) => `${k}=${v}`).join('  ');
    console.log(`${name.padEnd(66)} ${cells}`);
  }
}

async function main() {
  await prepare();
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const f = await fixtures(db);
  const results: Record<string, unknown> = { size, seconds: SECONDS, connections: CONNECTIONS, cores: os.availableParallelism(), node: process.version };

  for (const workers of [...new Set([1, WORKERS])]) {
    log(`read benchmarks with ${workers} server process(es)`);
    const server = await startServer({ databaseUrl: dbUrl, port: PORT, workers });
    meter = cpuMeter(server.pid, db, dbName);
    const rows: [string, Figures | Record<string, number>][] = [];
    try {
      for (const scenario of readScenarios(f).filter((s) => selected(s.name))) rows.push([scenario.name, await scenario.run()]);
      if (workers === 1) {
        if (selected(CHECKOUT)) {
          await standInForAutovacuum(db);
          rows.push([CHECKOUT, await checkoutRate(f)]);
        }
        if (selected(BURST)) {
          const burst = await flashSaleBursts(db, f);
          const raw = await rawDecrementRate();
          rows.push([BURST, burst]);
          rows.push(['Raw PostgreSQL single-row conditional decrement', { perSecond: raw }]);
          rows.push(['Flash-sale checkout rate / raw decrement rate', { fraction: Number((burst.flashCheckoutsPerSecond / raw).toFixed(3)) }]);
          results.rawDecrementPerSecond = raw;
        }
      }
    } finally {
      // Requests the load generator cut off at the end of the last run are still being served.
      await new Promise((r) => setTimeout(r, 1000));
      await server.stop();
    }
    table(rows);
    results[`processes_${workers}`] = Object.fromEntries(rows);
  }
  await db.end();
  await mkdir('bench/results', { recursive: true });
  const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
  await writeFile(file, JSON.stringify(results, null, 2));
  log(`figures written to ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
