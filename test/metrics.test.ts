import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, ConfigError } from '../src/config.js';
import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { ADDRESS, addToCart, placeOrder, shopWithProduct } from './support/shopping.js';
import { twoShopCheckout } from './support/payment-flows.js';
import { PROMETHEUS, PROMTOOL, startPrometheus, until, type RunningPrometheus } from './support/prometheus.js';
import { pino } from 'pino';
import { GraphQLError } from 'graphql';
import { formatError } from '../src/graphql/errors.js';
import { requestScope, runInScope } from '../src/db/request-scope.js';
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import http from 'node:http';
import { startServerProcess } from './support/server-process.js';
import { newFlashSale } from './support/flash-sales.js';
import { FIXED_STATEMENTS, PREPARED_QUERIES } from '../src/db/prepared-queries.js';
import '../src/services/repositories.js';

const TOKEN = `metrics-${randomBytes(12).toString('hex')}`;
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    metrics: { exposure: 'token', token: TOKEN },
    payments: { ...loadConfig({ NODE_ENV: 'test' }).payments, sandbox: { delayMs: 20, secret: 'test-sandbox-secret' } },
  });
});

afterAll(async () => {
  await t?.close();
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The Prometheus text format's samples (comments left out). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key] = value;
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

async function scrape(app: TestApp = t, token: string | null = TOKEN): Promise<Sample[]> {
  const res = await fetch(`${app.baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parse(await res.text());
}

/** The value of one series (0 when it does not exist yet). */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found.reduce((sum, s) => sum + s.value, 0);
}

/** The label sets of a histogram (its `_count` series), as stable keys. */
const seriesOf = (samples: Sample[], histogram: string) =>
  new Set(samples.filter((s) => s.name === `${histogram}_count`).map((s) => JSON.stringify(Object.entries(s.labels).sort())));

const get = (path: string) => fetch(`${t.baseUrl}${path}`).then(async (res) => (await res.arrayBuffer(), res.status));

describe('GET /metrics access (METRICS, METRICS_TOKEN)', () => {
  it('token: 401 in the error shape without the token or with another one; the metrics with it', async () => {
    for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all' }, { authorization: TOKEN }] as Record<string, string>[]) {
      const res = await fetch(`${t.baseUrl}/metrics`, { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    }
    const samples = await scrape();
    // Node's own metrics are there too.
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_seconds')).toBe(true);
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(valueOf(samples, 'mallfront_db_pool_connections', { state: 'max' })).toBeGreaterThanOrEqual(10);
    expect(valueOf(samples, 'mallfront_ready')).toBe(1);
  });

  it('public answers anyone; off answers 404 as an unknown path', async () => {
    const open = await startSecondApp(t, { metrics: { exposure: 'public', token: undefined } });
    const closed = await startSecondApp(t, { metrics: { exposure: 'off', token: TOKEN } });
    try {
      expect((await scrape(open, null)).length).toBeGreaterThan(0);
      const res = await fetch(`${closed.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('ROUTE_NOT_FOUND');
    } finally {
      await closed.close();
      await open.close();
    }
  });

  it('is never public by default in production, and a token setting must be usable', () => {
    const production = { NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'd'.repeat(40) };
    expect(loadConfig(production).metrics).toEqual({ exposure: 'off', token: undefined });
    expect(loadConfig({ ...production, METRICS_TOKEN: TOKEN }).metrics).toEqual({ exposure: 'token', token: TOKEN });
    expect(loadConfig({ ...production, METRICS: 'public' }).metrics.exposure).toBe('public');
    expect(loadConfig({ NODE_ENV: 'development' }).metrics.exposure).toBe('public');
    expect(() => loadConfig({ METRICS: 'token' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS: 'token' })).toThrow(/METRICS=token needs METRICS_TOKEN/);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 16 or more/);
    expect(() => loadConfig({ METRICS: 'yes' })).toThrow(/METRICS must be one of off, public, token/);
  });
});

describe('label cardinality', () => {
  it('requests to 200 product ids and 50 unknown paths add a bounded set of series, none naming an id or a path', async () => {
    const { product } = await shopWithProduct(t);
    const ids = [product.id, ...Array.from({ length: 199 }, () => 1_000_000 + Math.floor(Math.random() * 1e9))];
    const junk = Array.from({ length: 50 }, (_, i) => (i % 2 ? `/api/${randomBytes(6).toString('hex')}/${i}` : `/${randomBytes(6).toString('hex')}`));
    const before = seriesOf(await scrape(), 'mallfront_http_request_duration_seconds');
    for (const id of ids.slice(0, 100)) await get(`/api/products/${id}`);
    for (const path of junk.slice(0, 25)) await get(path);
    const middle = await scrape();
    const afterFirst = seriesOf(middle, 'mallfront_http_request_duration_seconds');
    // The product route answers 200 and 404; unknown paths are one label whatever they were.
    const added = [...afterFirst].filter((key) => !before.has(key));
    expect(added.length).toBeLessThanOrEqual(4);
    expect(valueOf(middle, 'mallfront_http_request_duration_seconds_count', { route: '/api/products/:id', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(middle, 'mallfront_http_request_duration_seconds_count', { route: '/api/products/:id', status_class: '4xx' })).toBeGreaterThanOrEqual(99);

    // The next hundred ids and 25 paths add no series at all.
    for (const id of ids.slice(100)) await get(`/api/products/${id}`);
    for (const path of junk.slice(25)) await get(path);
    const after = await scrape();
    expect(seriesOf(after, 'mallfront_http_request_duration_seconds')).toEqual(afterFirst);

    const labelValues = after.filter((s) => s.name.startsWith('mallfront_')).flatMap((s) => Object.values(s.labels));
    for (const value of labelValues) {
      expect(ids.slice(1).some((id) => value.includes(String(id)))).toBe(false);
      expect(junk.some((path) => value.includes(path.split('/')[path.startsWith('/api/') ? 2 : 1]))).toBe(false);
    }
  });

  it('GraphQL operations are labelled by name up to a cap; unnamed ones and names past it share one label', async () => {
    // The metrics live in the process, which other test files of this worker share (isolate: false):
    // every figure here is a change, and the cap may already be reached when this test starts.
    const operation = (name: string) =>
      fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `query ${name} { __typename }` }) }).then((r) => r.json());
    const before = await scrape();
    const named = `StorefrontHome_${randomBytes(4).toString('hex')}`;
    await operation('');
    await operation(named);
    const first = await scrape();
    const labels = (samples: Sample[]) => new Set(samples.filter((x) => x.name === 'mallfront_graphql_operation_duration_seconds_count').map((x) => x.labels.operation));
    const countOf = (samples: Sample[], operationName: string) => valueOf(samples, 'mallfront_graphql_operation_duration_seconds_count', { operation: operationName });
    // Its own label while the cap is not reached; else counted under "other" with the unnamed one.
    if (labels(first).has(named)) expect(countOf(first, named)).toBe(1);
    expect(countOf(first, 'other') - countOf(before, 'other')).toBe(labels(first).has(named) ? 1 : 2);
    expect(valueOf(first, 'mallfront_http_request_duration_seconds_count', { route: '/graphql', method: 'POST', status_class: '2xx' }) - valueOf(before, 'mallfront_http_request_duration_seconds_count', { route: '/graphql', method: 'POST', status_class: '2xx' })).toBe(2);
    expect(valueOf(first, 'mallfront_http_request_duration_seconds_count', { route: 'web' })).toBe(valueOf(before, 'mallfront_http_request_duration_seconds_count', { route: 'web' }));
    for (let i = 0; i < 150; i++) await operation(`Op_${randomBytes(4).toString('hex')}`);
    const full = seriesOf(await scrape(), 'mallfront_graphql_operation_duration_seconds');
    expect(labels(await scrape()).size).toBeLessThanOrEqual(101);
    for (let i = 0; i < 50; i++) await operation(`Late_${randomBytes(4).toString('hex')}`);
    expect(seriesOf(await scrape(), 'mallfront_graphql_operation_duration_seconds')).toEqual(full);
  });
});

describe('series stay bounded under 10,000 requests', () => {
  it('random ids in paths and random operation names: the first half adds a bounded set of series, the second half none', async () => {
    const { product } = await shopWithProduct(t);
    const random = () => randomBytes(6).toString('hex');
    const requests = (n: number) =>
      Array.from({ length: n }, (_, i): (() => Promise<unknown>) => {
        switch (i % 4) {
          case 0:
            return () => get(`/api/products/${1_000_000 + Math.floor(Math.random() * 1e9)}`);
          case 1:
            return () => get(`/api/products/${product.id}/reviews?after=${random()}`);
          case 2:
            return () => get(`/${random()}/${random()}`);
          default:
            return () =>
              fetch(`${t.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `query Op_${random()} { __typename }` }) }).then((r) => r.arrayBuffer());
        }
      });
    /** Runs the requests 16 at a time. */
    const run = async (work: (() => Promise<unknown>)[]) => {
      let next = 0;
      await Promise.all(Array.from({ length: 16 }, async () => {
        while (next < work.length) await work[next++]();
      }));
    };
    const series = (samples: Sample[]) => new Set(samples.filter((s) => s.name.startsWith('mallfront_')).map((s) => `${s.name}${JSON.stringify(Object.entries(s.labels).sort())}`));
    const before = series(await scrape());
    await run(requests(5_000));
    const half = series(await scrape());
    // At most the operation names' cap (100) of new GraphQL series, a few route and status-class
    // series, and the histogram buckets of each; the statement histogram's names are the code's.
    const added = [...half].filter((key) => !before.has(key) && !key.includes('_bucket'));
    expect(added.length).toBeLessThanOrEqual(2 * (100 + 30));
    await run(requests(5_000));
    const after = series(await scrape());
    // Gauges read at scrape (the backlog per endpoint, the pool) may move between their bounded label values, never beyond them.
    const grown = [...after].filter((key) => !half.has(key) && !key.startsWith('mallfront_webhook_backlog_by_endpoint'));
    expect(grown).toEqual([]);
    // No id of a path is a label value; operation names are at most the cap, plus "other".
    const samples = await scrape();
    const operations = new Set(samples.filter((x) => x.name === 'mallfront_graphql_operation_duration_seconds_count').map((x) => x.labels.operation));
    expect(operations.size).toBeLessThanOrEqual(101);
    // Routes are templates or fixed labels: no id and no path as sent.
    const routes = new Set(samples.filter((x) => x.name === 'mallfront_http_request_duration_seconds_count').map((x) => x.labels.route));
    for (const route of routes) expect(route).not.toMatch(/\d{7,}|[0-9a-f]{12}/);
  }, 300_000);
});

describe('the database and the background work, per statement, endpoint and sale', () => {
  it('times named statements under their names, one of the code\'s', async () => {
    const { product } = await shopWithProduct(t);
    expect(await get(`/api/products/${product.id}`)).toBe(200);
    const samples = await scrape();
    const names = new Set(samples.filter((x) => x.name === 'mallfront_db_statement_duration_seconds_count').map((x) => x.labels.statement));
    expect(names.size).toBeGreaterThan(0);
    for (const name of names) expect(FIXED_STATEMENTS.has(name) || PREPARED_QUERIES.has(name)).toBe(true);
  });

  it('webhook backlog: the ten endpoints with the most waiting by id, the rest as other; sold-out items of running flash sales; the sales tally\'s age', async () => {
    const endpoints = await t.sql<{ id: number }>(
      `insert into webhook_endpoint (url, event_types, secret, created_at)
       select 'http://127.0.0.1:9/backlog-' || g, array['payment.captured'], 'whsec_backlog', now() from generate_series(1, 12) g returning id`,
    );
    const events = await t.sql<{ id: string }>(
      `insert into event (type, shop_ids, customer_id, payload, occurred_at) select 'stock.low', '{}', null, '{}', now() from generate_series(1, 12) returning id::text as id`,
    );
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }, { price: 1000, stock: 5 }]);
    const before = await scrape();
    // Endpoint n (1..12) has n deliveries waiting.
    await t.sql(
      `insert into webhook_delivery (endpoint_id, event_id, position, state, next_attempt_at, created_at)
       select e.id, v.id::bigint, v.id::bigint, 'pending', now() + interval '1 hour', now()
         from unnest(?::int[]) with ordinality as e(id, n), unnest(?::bigint[]) with ordinality as v(id, m) where v.m <= e.n`,
      [`{${endpoints.map((e) => e.id).join(',')}}`, `{${events.map((e) => e.id).join(',')}}`],
    );
    const sale = await newFlashSale(t, { shopId: shop.id, items: product.skuIds.map((skuId) => ({ skuId, activityPrice: 500, reservedStock: 2 })) });
    await t.sql('update flash_sale_item set remaining_stock = 0 where id = ?', [sale.itemIds[0]]);
    try {
      // Scrapes within a second share one read of the backlog: wait for a fresh one.
      const after = await until('a fresh backlog read', async () => {
        const samples = await scrape();
        return valueOf(samples, 'mallfront_webhook_backlog_deliveries') >= valueOf(before, 'mallfront_webhook_backlog_deliveries') + 78 ? samples : undefined;
      });
      const byEndpoint = after.filter((x) => x.name === 'mallfront_webhook_backlog_by_endpoint');
      expect(byEndpoint.length).toBeLessThanOrEqual(11);
      // Ours with 3..12 waiting are the top ten (no other test leaves more than 2 waiting at one endpoint).
      for (const [i, endpoint] of endpoints.entries()) {
        const series = byEndpoint.find((x) => x.labels.endpoint === String(endpoint.id));
        if (i < 2) expect(series).toBeUndefined();
        else expect(series?.value).toBe(i + 1);
      }
      const other = byEndpoint.find((x) => x.labels.endpoint === 'other')!.value;
      expect(other + byEndpoint.filter((x) => x.labels.endpoint !== 'other').reduce((sum, x) => sum + x.value, 0)).toBe(valueOf(after, 'mallfront_webhook_backlog_deliveries'));
      expect(other).toBeGreaterThanOrEqual(3);
      expect(valueOf(after, 'mallfront_flash_sale_items_sold_out') - valueOf(before, 'mallfront_flash_sale_items_sold_out')).toBe(1);
      // The tally was read before serving: its age is there, and not negative.
      expect(after.find((x) => x.name === 'mallfront_sales_tally_age_seconds')?.value).toBeGreaterThanOrEqual(0);
    } finally {
      await t.sql('delete from webhook_delivery where endpoint_id = any(?::int[])', [`{${endpoints.map((e) => e.id).join(',')}}`]);
      await t.sql('update flash_sale set enabled = false where id = ?', [sale.id]);
      await t.sql('update flash_sale_item set enabled = false where flash_sale_id = ?', [sale.id]);
    }
  });
});

describe('business counters', () => {
  it('a checkout, a gateway payment and a refused login move their counters, once each', async () => {
    const before = await scrape();
    const { customer, orderIds } = await twoShopCheckout(t);
    const started = await t.api<{ id: number }>('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'sandbox' } });
    expect(started.status).toBe(201);
    await until('the sandbox payment to be captured', async () =>
      (await t.sql<{ status: string }>('select status from payment where id = ?', [started.body.id]))[0].status === 'captured' ? true : undefined);
    const refused = await t.api('POST', '/api/auth/login', { body: { email: customer.email, password: `${PASSWORD} but wrong` } });
    expect(refused.status).toBe(401);
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(delta('mallfront_checkouts_total')).toBe(1);
    expect(delta('mallfront_orders_placed_total')).toBe(2);
    expect(delta('mallfront_payments_total', { outcome: 'captured' })).toBe(1);
    expect(delta('mallfront_payments_total', { outcome: 'failed' })).toBe(0);
    expect(delta('mallfront_events_committed_total', { type: 'payment.captured' })).toBe(1);
    expect(delta('mallfront_sign_in_refusals_total', { reason: 'INVALID_CREDENTIALS' })).toBe(1);
    expect(delta('mallfront_db_pool_acquire_seconds_count')).toBeGreaterThan(0);
  });
});

const describeWithPrometheus = PROMETHEUS ? describe : describe.skip;
if (!PROMETHEUS) console.warn('test/metrics.test.ts: the Prometheus scrape skipped: prometheus is not installed (apt-get install prometheus)');

describeWithPrometheus("Debian's Prometheus scraping a running server", () => {
  let prometheus: RunningPrometheus;
  beforeAll(async () => {
    prometheus = await startPrometheus(new URL(t.baseUrl).host, TOKEN);
  });
  afterAll(async () => {
    await prometheus?.stop();
  });

  /** The one value of an instant query, once it satisfies `accept`. */
  const seen = (expression: string, accept: (value: number) => boolean) =>
    until(`${expression} in Prometheus`, async () => {
      const [sample] = await prometheus.query(expression);
      return sample && accept(sample.value) ? sample.value : undefined;
    });

  it('reads back as many requests of a route as were made', async () => {
    const { product } = await shopWithProduct(t);
    const query = 'sum(mallfront_http_request_duration_seconds_count{route="/api/products/:productId/reviews"})';
    await seen('up{job="mallfront"}', (up) => up === 1);
    const before = valueOf(await scrape(), 'mallfront_http_request_duration_seconds_count', { route: '/api/products/:productId/reviews' });
    for (let i = 0; i < 7; i++) expect(await get(`/api/products/${product.id}/reviews`)).toBe(200);
    expect(await seen(query, (n) => n >= before + 7)).toBe(before + 7);
  });

  it('sees the outbox lag rise while the relay is held and fall once it runs', async () => {
    const { product } = await shopWithProduct(t);
    const customer = await newCustomer(t);
    await seen('mallfront_outbox_lag_events', (n) => n === 0);
    // The relay's rounds take this advisory lock (RELAY_LOCK): held here, no event gets a position.
    const holder = new pg.Client({ connectionString: t.dbUrl });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock(7883404617358583928)');
      await placeOrder(t, customer.token, product.skuIds[0]);
      expect(await seen('mallfront_outbox_lag_events', (n) => n >= 1)).toBeGreaterThanOrEqual(1);
      await seen('mallfront_outbox_lag_seconds', (s) => s > 0);
    } finally {
      await holder.query('select pg_advisory_unlock(7883404617358583928)').catch(() => undefined);
      await holder.end();
    }
    expect(await seen('mallfront_outbox_lag_events', (n) => n === 0)).toBe(0);
  });
});

describe('trace ids in answers and logs', () => {
  it("answers the caller's trace (traceparent) or a new one in X-Trace-Id, and the request's log lines carry it, its errors' too", async () => {
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    // Row locks are waited for 200 ms here: the held one below answers 409 RESOURCE_LOCKED, an error that is logged.
    const traced = await startTestApp({ metrics: { exposure: 'token', token: TOKEN }, dbLockTimeoutMs: 200 }, { database: t.dbName, log });
    try {
      const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await fetch(`${traced.baseUrl}/api/categories`, { headers: { traceparent: `00-${caller}-00f067aa0ba902b7-01` } });
      expect(res.headers.get('x-trace-id')).toBe(caller);
      const own = await fetch(`${traced.baseUrl}/api/categories`, { headers: { traceparent: `00-${'0'.repeat(32)}-00f067aa0ba902b7-01` } });
      const ownTrace = own.headers.get('x-trace-id');
      expect(ownTrace).toMatch(/^[0-9a-f]{32}$/);
      expect(ownTrace).not.toBe('0'.repeat(32));
      await until('the request lines', () => Promise.resolve(lines.filter((l) => l.msg === 'request').length >= 2 ? true : undefined));
      expect(lines.find((l) => l.msg === 'request' && l.traceId === caller)).toMatchObject({ path: '/api/categories', status: 200, requestId: res.headers.get('x-request-id') });
      expect(lines.find((l) => l.msg === 'request' && l.traceId === ownTrace)).toBeDefined();

      const { product } = await shopWithProduct(t);
      const customer = await newCustomer(t);
      await addToCart(traced, customer.token, product.skuIds[0], 1);
      const before = await scrape(traced);
      const holder = new pg.Client({ connectionString: t.dbUrl });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('select 1 from sku where id = $1 for update', [product.skuIds[0]]);
        const locked = await fetch(`${traced.baseUrl}/api/checkout`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${customer.token}`, traceparent: `00-${'ab'.repeat(16)}-00f067aa0ba902b7-01` },
          body: JSON.stringify({ shipping_address: ADDRESS }),
        });
        expect(locked.status).toBe(409);
        expect(((await locked.json()) as { error: { code: string } }).error.code).toBe('RESOURCE_LOCKED');
        expect(locked.headers.get('x-trace-id')).toBe('ab'.repeat(16));
      } finally {
        await holder.query('rollback');
        await holder.end();
      }
      expect(lines.find((l) => l.msg === 'request failed')).toMatchObject({ traceId: 'ab'.repeat(16), level: 50 });
      // GraphQL's error formatting gets no request context from Apollo: it finds the trace id in the request's scope.
      runInScope(requestScope(1000, false, 'cd'.repeat(16)), () => formatError(log)({ message: 'x' }, new GraphQLError('x', { originalError: new Error('boom') })));
      expect(lines.find((l) => l.msg === 'graphql operation failed')).toMatchObject({ traceId: 'cd'.repeat(16), level: 50 });
      const after = await scrape(traced);
      expect(valueOf(after, 'mallfront_db_refusals_total', { reason: 'lock' }) - valueOf(before, 'mallfront_db_refusals_total', { reason: 'lock' })).toBe(1);
    } finally {
      await traced.close();
    }
  });
});

describe('the dashboard and the alert rules (ops/)', () => {
  const files = ['../ops/prometheus/mallfront-alerts.yml', '../ops/grafana/mallfront-dashboard.json'].map((f) => new URL(f, import.meta.url));

  it('name only metrics a scrape of the server declares', async () => {
    const res = await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const declared = new Map([...(await res.text()).matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1], m[2]]));
    const named = new Set<string>();
    for (const file of files) for (const [name] of (await readFile(file, 'utf8')).matchAll(/\b(?:mallfront|nodejs|process)_[a-z0-9_]+/g)) named.add(name);
    expect(named.size).toBeGreaterThan(15);
    const missing = [...named].filter((name) => {
      if (declared.has(name)) return false;
      const histogram = /^(.*)_(bucket|count|sum)$/.exec(name);
      return !(histogram && declared.get(histogram[1]) === 'histogram');
    });
    expect(missing).toEqual([]);
  });

  it('has a dashboard Grafana can load: every panel has a query, ids are unique', async () => {
    const dashboard = JSON.parse(await readFile(files[1], 'utf8')) as { uid: string; panels: { id: number; targets: { expr: string }[] }[] };
    expect(dashboard.uid).toBe('mallfront');
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) expect(panel.targets.length).toBeGreaterThan(0);
  });

  it.skipIf(!PROMTOOL)('has alert rules promtool accepts, for each signal the operators watch', async () => {
    const { stdout } = await promisify(execFile)(PROMTOOL!, ['check', 'rules', files[0].pathname]);
    expect(stdout).toMatch(/SUCCESS: \d+ rules found/);
    const rules = await readFile(files[0], 'utf8');
    for (const alert of ['MallfrontNotReady', 'MallfrontHigh5xxRate', 'MallfrontSlowRequests', 'MallfrontPoolWaits', 'MallfrontOutboxLag', 'MallfrontWebhookBacklog', 'MallfrontPaymentFailures']) {
      expect(rules).toContain(`alert: ${alert}`);
    }
  });
});

describe('a cluster (CLUSTER_WORKERS=2)', () => {
  /** One GET on a connection of its own (no keep-alive): the primary hands each connection to a worker in turn. */
  const once = (url: string) =>
    new Promise<number>((resolve, reject) => {
      http.get(url, { agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });

  it('answers every worker in one scrape, whichever worker takes it', async () => {
    const server = await startServerProcess({ DATABASE_URL: t.dbUrl, NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'p'.repeat(48), CLUSTER_WORKERS: '2', METRICS_TOKEN: TOKEN, SWEEP_INTERVAL_SECONDS: '0' });
    try {
      for (let i = 0; i < 20; i++) expect(await once(`${server.baseUrl}/api/categories`)).toBe(200);
      for (let i = 0; i < 4; i++) {
        const text = await new Promise<string>((resolve, reject) => {
          http.get(`${server.baseUrl}/metrics`, { agent: false, headers: { authorization: `Bearer ${TOKEN}` } }, (res) => {
            let body = '';
            res.on('data', (chunk: Buffer) => (body += chunk.toString()));
            res.on('end', () => (res.statusCode === 200 ? resolve(body) : reject(new Error(`${res.statusCode}: ${body}`))));
          }).on('error', reject);
        });
        const samples = parse(text);
        expect(valueOf(samples, 'mallfront_http_request_duration_seconds_count', { route: '/api/categories' })).toBe(20);
        // Each worker's pool: DB_POOL_SIZE once or twice (a scrape seen once in CI counted one pool: see issue 45's note).
        const poolMax = valueOf(samples, 'mallfront_db_pool_connections', { state: 'max' });
        expect([1, 2].map((n) => n * loadConfig({ CLUSTER_WORKERS: '2' }).dbPoolSize)).toContain(poolMax);
      }
    } finally {
      await server.stop();
    }
  });
});
