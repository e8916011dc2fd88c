import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type LabelValues } from 'prom-client';

/**
 * The process's Prometheus metrics (`GET /metrics`, docs/operations.md "Metrics"). They live with the
 * foundation (like the logger) because every layer counts something: the database layer its pool
 * waits, the services their business moves, the doors their requests.
 *
 * Every label takes values from a bounded set: route templates, operation names folded past a cap,
 * status classes, event types, sweep names. Never an id, a path as sent or an email.
 */
export const metricsRegistry = new Registry();
const registers = [metricsRegistry];

/** Few buckets: each is a series per label set, and observing walks them. */
const REQUEST_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 10];

export const httpRequestDuration = new Histogram({
  name: 'mallfront_http_request_duration_seconds',
  help: 'HTTP requests by method, route template and status class, from arrival to the end of the answer',
  labelNames: ['method', 'route', 'status_class'] as const,
  buckets: REQUEST_BUCKETS,
  registers,
});

export const graphqlOperationDuration = new Histogram({
  name: 'mallfront_graphql_operation_duration_seconds',
  help: 'GraphQL operations over HTTP by operation name (unnamed and past the cap: "other"), type and status class',
  labelNames: ['operation', 'type', 'status_class'] as const,
  buckets: REQUEST_BUCKETS,
  registers,
});

export const dbAcquireDuration = new Histogram({
  name: 'mallfront_db_pool_acquire_seconds',
  help: 'Time to get a pool connection (writing work: its write slot included)',
  buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 2.5],
  registers,
});

export const dbStatementDuration = new Histogram({
  name: 'mallfront_db_statement_duration_seconds',
  help: 'Named hot statements (the repositories\' prepared and fixed statements) from the call to their rows, connection wait included, by statement name',
  labelNames: ['statement'] as const,
  buckets: [0.001, 0.005, 0.025, 0.1, 0.5, 2.5],
  registers,
});

type StatementChild = ReturnType<typeof dbStatementDuration.labels>;
const statementChildren = new Map<string, StatementChild>();

/**
 * The statement histogram's child of a statement name, made once per name. Names come from the code
 * (`preparedQuery` and `fixedStatement` definitions), never from a request: the set is bounded by it.
 */
export function statementTimer(name: string): StatementChild {
  let child = statementChildren.get(name);
  if (!child) statementChildren.set(name, (child = dbStatementDuration.labels(name)));
  return child;
}

export const dbRefusalCount = new Counter({
  name: 'mallfront_db_refusals_total',
  help: 'Requests refused because of the database: deadline (503, the request deadline passed), lock (409 RESOURCE_LOCKED, lock_timeout), unavailable (503, not reachable)',
  labelNames: ['reason'] as const,
  registers,
});

export const checkoutsPlaced = new Counter({ name: 'mallfront_checkouts_total', help: 'Checkouts committed (one per checkout call that placed orders)', registers });
export const ordersPlaced = new Counter({ name: 'mallfront_orders_placed_total', help: 'Orders placed by checkouts (one checkout places one order per shop)', registers });

export const eventsCommitted = new Counter({
  name: 'mallfront_events_committed_total',
  help: 'Domain events committed by use cases that emit them in their transaction, by type',
  labelNames: ['type'] as const,
  registers,
});

export const paymentsSettled = new Counter({
  name: 'mallfront_payments_total',
  help: 'Gateway payments that reached an end: captured, or failed (failed, cancelled, expired)',
  labelNames: ['outcome'] as const,
  registers,
});

export const paymentRefunds = new Counter({
  name: 'mallfront_payment_refunds_total',
  help: 'Refunds to a gateway that reached an end, by outcome (succeeded, failed)',
  labelNames: ['outcome'] as const,
  registers,
});

export const signInRefusalCount = new Counter({
  name: 'mallfront_sign_in_refusals_total',
  help: 'Logins refused, by reason (INVALID_CREDENTIALS, RATE_LIMITED, SERVICE_BUSY, other)',
  labelNames: ['reason'] as const,
  registers,
});

export const webhookAttempts = new Counter({
  name: 'mallfront_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome: delivered, retry (failed, tried again later), failed (given up or 410)',
  labelNames: ['outcome'] as const,
  registers,
});

export const sweepLastRun = new Gauge({
  name: 'mallfront_sweep_last_run_timestamp_seconds',
  help: 'When each sweep last finished (Unix time)',
  labelNames: ['sweep'] as const,
  registers,
  aggregator: 'max',
});

export const sweepDuration = new Gauge({
  name: 'mallfront_sweep_duration_seconds',
  help: 'How long the last run of each sweep took',
  labelNames: ['sweep'] as const,
  registers,
  aggregator: 'max',
});

export const sweepFailures = new Counter({ name: 'mallfront_sweep_failures_total', help: 'Sweep rounds that failed (run again next interval)', labelNames: ['sweep'] as const, registers });

/** What a pool says of itself (pg.Pool has these). */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { max?: number };
}

const pools = new Set<PoolCounts>();

/** Counts a pool in the pool gauges until the returned function is called. */
export function watchPool(pool: PoolCounts): () => void {
  pools.add(pool);
  return () => pools.delete(pool);
}

new Gauge({
  name: 'mallfront_db_pool_connections',
  help: 'Connections of the serving pools by state: in_use, idle; max is the pool size',
  labelNames: ['state'] as const,
  registers,
  collect() {
    let total = 0, idle = 0, max = 0;
    for (const pool of pools) {
      total += pool.totalCount;
      idle += pool.idleCount;
      max += pool.options.max ?? 0;
    }
    this.set({ state: 'in_use' }, total - idle);
    this.set({ state: 'idle' }, idle);
    this.set({ state: 'max' }, max);
  },
});

new Gauge({
  name: 'mallfront_db_pool_waiting',
  help: 'Callers waiting for a connection of the serving pools',
  registers,
  collect() {
    let waiting = 0;
    for (const pool of pools) waiting += pool.waitingCount;
    this.set(waiting);
  },
});

/** What the background work looks like from the database, read at each scrape (`watchBacklog`). */
export interface Backlog {
  /** Events committed that no relay has given a position yet, and the age of the oldest. */
  outboxEvents: number;
  outboxSeconds: number;
  /** Webhook deliveries waiting (pending), the endpoints they wait for, and the age of the oldest. */
  webhookPending: number;
  webhookEndpoints: number;
  webhookOldestSeconds: number;
  /** The WEBHOOK_BACKLOG_TOP endpoints with the most deliveries waiting, most first (`mallfront_webhook_backlog_by_endpoint`). */
  webhookTop: { endpointId: number; pending: number }[];
  /** Items of the flash sales running now with no activity stock left. */
  flashSaleItemsSoldOut: number;
}

/**
 * Endpoints given a series of their own in `mallfront_webhook_backlog_by_endpoint`; the rest are summed
 * as `other`. It is the `limit` of the backlog statement's top endpoints (outbox.repository.ts
 * `BACKLOG_SQL`, one complete text): test/metrics-off.test.ts holds the two equal.
 */
export const WEBHOOK_BACKLOG_TOP = 10;

const backlogProbes = new Set<() => Promise<Backlog>>();

/** Reads the backlog through `probe` at each scrape until the returned function is called. */
export function watchBacklog(probe: () => Promise<Backlog>): () => void {
  backlogProbes.add(probe);
  return () => backlogProbes.delete(probe);
}

/** One read per scrape, shared by the gauges below (each gauge's collect asks for it). */
let reading: { at: number; answer: Promise<Backlog | null> } | null = null;

function backlog(): Promise<Backlog | null> {
  const now = Date.now();
  if (reading && now - reading.at < 1000) return reading.answer;
  const probes = [...backlogProbes];
  // Every process of a database reads the same rows: the largest answer is the database's.
  const answer = Promise.all(probes.map((probe) => probe().catch(() => null))).then((answers) => {
    let best: Backlog | null = null;
    for (const a of answers) if (a && (!best || a.outboxEvents + a.webhookPending >= best.outboxEvents + best.webhookPending)) best = a;
    return best;
  });
  reading = { at: now, answer };
  return answer;
}

function backlogGauge(name: string, help: string, pick: (b: Backlog) => number) {
  return new Gauge({
    name,
    help,
    registers,
    // The same value in every process of the server: the aggregated scrape keeps one, not their sum.
    aggregator: 'max',
    async collect() {
      const b = await backlog();
      if (b) this.set(pick(b));
    },
  });
}

backlogGauge('mallfront_outbox_lag_events', 'Events committed and not yet relayed (given a position)', (b) => b.outboxEvents);
backlogGauge('mallfront_outbox_lag_seconds', 'Age of the oldest event not yet relayed (0: none waiting)', (b) => b.outboxSeconds);
backlogGauge('mallfront_webhook_backlog_deliveries', 'Webhook deliveries waiting to be sent (first attempts and retries)', (b) => b.webhookPending);
backlogGauge('mallfront_webhook_backlog_endpoints', 'Webhook endpoints with deliveries waiting', (b) => b.webhookEndpoints);
backlogGauge('mallfront_flash_sale_items_sold_out', 'Items of the flash sales running now whose activity stock is gone (sold out)', (b) => b.flashSaleItemsSoldOut);

/**
 * The backlog per endpoint, bounded: the WEBHOOK_BACKLOG_TOP endpoints with the most deliveries
 * waiting each get a series labelled with their id, all others one series, `other` (shops add
 * endpoints freely: a series each would grow without end). Each scrape sets the series afresh, so an
 * endpoint that left the top is gone from the next scrape: at most WEBHOOK_BACKLOG_TOP + 1 series.
 */
new Gauge({
  name: 'mallfront_webhook_backlog_by_endpoint',
  help: `Webhook deliveries waiting, for the ${WEBHOOK_BACKLOG_TOP} endpoints with the most (label: the endpoint id), and all other endpoints together (other)`,
  labelNames: ['endpoint'] as const,
  registers,
  aggregator: 'max',
  async collect() {
    const b = await backlog();
    if (!b) return;
    this.reset();
    let top = 0;
    for (const { endpointId, pending } of b.webhookTop) {
      this.set({ endpoint: String(endpointId) }, pending);
      top += pending;
    }
    this.set({ endpoint: 'other' }, Math.max(0, b.webhookPending - top));
  },
});

const salesTallies = new Set<() => number | null>();

/** Reads the age of a sales tally (seconds since it was last brought up to date; null: not loaded) at each scrape until the returned function is called. */
export function watchSalesTally(age: () => number | null): () => void {
  salesTallies.add(age);
  return () => salesTallies.delete(age);
}

new Gauge({
  name: 'mallfront_sales_tally_age_seconds',
  help: "Seconds since the process's sales tally (rankings by sales) was last brought up to date from the sales log; absent while it is not loaded",
  registers,
  // The oldest of the cluster's processes.
  aggregator: 'max',
  collect() {
    this.reset();
    let oldest: number | null = null;
    for (const age of salesTallies) {
      const seconds = age();
      if (seconds !== null && (oldest === null || seconds > oldest)) oldest = seconds;
    }
    if (oldest !== null) this.set(oldest);
  },
});

backlogGauge('mallfront_webhook_backlog_oldest_seconds', 'Age of the oldest webhook delivery waiting (0: none)', (b) => b.webhookOldestSeconds);

/**
 * What a process's memories that grow with traffic hold (issue 42: where the idle memory goes), read at
 * each scrape. Each is bounded by a setting (docs/configuration.md "Memory"). Bytes are given where they
 * are exact (typed arrays); the per-filter maps are counted in entries (docs/performance.md has their
 * measured cost per entry).
 */
export interface CacheSizes {
  listingTotals: number;
  facets: number;
  rankings: { entries: number; candidates: number; bytes: number };
  salesTallyBytes: number;
}

const cacheReaders = new Set<() => CacheSizes>();

/** Reads a server's cache sizes at each scrape until the returned function is called. */
export function watchCaches(read: () => CacheSizes): () => void {
  cacheReaders.add(read);
  return () => cacheReaders.delete(read);
}

function eachCacheSizes(): CacheSizes[] {
  return [...cacheReaders].map((read) => read());
}

new Gauge({
  name: 'mallfront_cache_entries',
  help: 'Entries held by the per-process caches: listing_totals and facets (filters), sales_rankings (rankings), ranking_candidates (products ranked)',
  labelNames: ['cache'] as const,
  registers,
  collect() {
    this.reset();
    const all = eachCacheSizes();
    if (all.length === 0) return;
    const sum = (pick: (s: CacheSizes) => number) => all.reduce((total, s) => total + pick(s), 0);
    this.set({ cache: 'listing_totals' }, sum((s) => s.listingTotals));
    this.set({ cache: 'facets' }, sum((s) => s.facets));
    this.set({ cache: 'sales_rankings' }, sum((s) => s.rankings.entries));
    this.set({ cache: 'ranking_candidates' }, sum((s) => s.rankings.candidates));
  },
});

new Gauge({
  name: 'mallfront_cache_bytes',
  help: 'Bytes held by the per-process caches made of typed arrays: sales_rankings (ids, sold counts, relevance) and sales_tally (sold count per product)',
  labelNames: ['cache'] as const,
  registers,
  collect() {
    this.reset();
    const all = eachCacheSizes();
    if (all.length === 0) return;
    this.set({ cache: 'sales_rankings' }, all.reduce((total, s) => total + s.rankings.bytes, 0));
    this.set({ cache: 'sales_tally' }, all.reduce((total, s) => total + s.salesTallyBytes, 0));
  },
});

const readinessProbes = new Set<() => Promise<boolean>>();

/** Reads readiness (the database answers) through `probe` at each scrape until the returned function is called. */
export function watchReadiness(probe: () => Promise<boolean>): () => void {
  readinessProbes.add(probe);
  return () => readinessProbes.delete(probe);
}

new Gauge({
  name: 'mallfront_ready',
  help: 'What GET /readyz answers: 1 when the database answers, 0 when not',
  registers,
  // One process that cannot reach the database makes the server not ready.
  aggregator: 'min',
  async collect() {
    const probes = [...readinessProbes];
    if (probes.length === 0) return;
    const answers = await Promise.all(probes.map((probe) => probe().catch(() => false)));
    this.set(answers.every(Boolean) ? 1 : 0);
  },
});

/**
 * Whether this process measures what happens per query (connection waits, statement times): false
 * until a server of the process serves metrics (`measureProcess`), so with METRICS=off the database
 * layer reads no clock and observes nothing on its hot path. A live binding: importers see it change.
 */
export let measuring = false;

/**
 * Metrics are served (METRICS is not off): the per-query measures start, and Node's own metrics
 * (event loop lag, heap, GC, CPU) are collected, once per process.
 */
export function measureProcess(): void {
  if (measuring) return;
  measuring = true;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** The counter of an event type, when the event type is one the business counters follow. */
export function countCommittedEvent(type: string, payload: unknown): void {
  eventsCommitted.inc({ type });
  switch (type) {
    case 'payment.captured':
      paymentsSettled.inc(CAPTURED);
      break;
    case 'payment.failed':
      paymentsSettled.inc(FAILED);
      break;
    case 'payment.refunded':
      paymentRefunds.inc((payload as { status?: unknown } | null)?.status === 'succeeded' ? SUCCEEDED : FAILED);
      break;
  }
}

// Label objects made once: counting allocates none.
const CAPTURED: LabelValues<'outcome'> = { outcome: 'captured' };
const FAILED: LabelValues<'outcome'> = { outcome: 'failed' };
const SUCCEEDED: LabelValues<'outcome'> = { outcome: 'succeeded' };
