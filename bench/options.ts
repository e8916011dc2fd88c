import os from 'node:os';
import { parseArgs } from 'node:util';
import { DEFAULT_SIZE, sizeFor, type DataSize } from './load-data.js';

/** Customers of a flash-sale burst, each with the hot SKU in the cart, against 100 units. */
export const BURST_BUYERS = 500;
export const BURST_STOCK = 100;
/** Mixed traffic: read connections, and customers checking out and paying beside them. */
export const MIXED_READERS = 40;
export const MIXED_WRITERS = 10;
/** Webhook fan-out: events committed to the outbox, each delivered to every one of the local endpoints. */
export const WEBHOOK_EVENTS = 10_000;
export const WEBHOOK_ENDPOINTS = 3;

/** Scenario names: `--only` matches them (a regular expression, case-insensitive). */
export const CHECKOUT = 'Checkout, customers buying distinct SKUs';
/** The same customers, each paying the order just placed from their balance (the payment path, issue 40). */
export const CHECKOUT_AND_PAY = 'Checkout and pay, customers buying distinct SKUs';
/** Stripe webhooks verified by the SDK, each capturing one pending payment (the notification path, issue 40). */
export const NOTIFICATIONS = 'Payment notifications, Stripe webhooks through the SDK';
export const BURST = `Flash-sale burst: ${BURST_BUYERS} customers, activity stock ${BURST_STOCK}, one SKU (median)`;
export const MIXED = 'Mixed traffic';
export const SOAK = 'Soak';
export const WEBHOOKS = `Webhook fan-out: ${WEBHOOK_EVENTS} events to ${WEBHOOK_ENDPOINTS} local endpoints`;
/** Webhook drain: one endpoint's backlog, in order (WEBHOOK_MAX_CONCURRENCY=1) and not, to receivers of several paces. */
export const WEBHOOK_DRAIN_EVENTS = 300;
export const WEBHOOK_DRAIN = `Webhook drain: ${WEBHOOK_DRAIN_EVENTS} events to one endpoint`;

export interface BenchOptions {
  /** One data set per entry: `--sizes` gives several, the size options one. */
  sizes: DataSize[];
  /** Database name; with `--sizes`, each size's database is `<db>_<products>`. */
  db: string;
  perSizeDatabases: boolean;
  seconds: number;
  warmup: number;
  connections: number;
  /**
   * Read scenarios at this many requests per second in all (`--rate`), instead of as fast as the
   * connections go: at saturation a server that costs more per request also answers later, keeps
   * each request's objects alive longer and so costs more again, which hides what a change costs by
   * itself (docs/performance.md, issue 43). Undefined: saturation.
   */
  rate: number | undefined;
  port: number;
  bursts: number;
  workers: number;
  reuse: boolean;
  only: RegExp | undefined;
  soakSeconds: number | undefined;
  /** Said of the machine in the JSON and on the chart (`--note "shared machine"`). */
  note: string | undefined;
  /** Compare mode (`--against <commit>`): the other commit, built in a worktree of its own (bench/compare.ts). */
  against: string | undefined;
  /** Compare mode: how many A, B pairs of runs (at least 3: a median of fewer is one run's noise). */
  pairs: number;
  /**
   * Compare mode: settings for each side's server only (`--env-a`, `--env-b`, `KEY=value,KEY=value`),
   * to compare one commit with itself under two settings (`--against HEAD --env-a METRICS=public`).
   */
  sideEnv: { a: Record<string, string>; b: Record<string, string> };
}

/** Compare mode's fewest pairs: a median needs three of each side. */
export const MIN_PAIRS = 3;

/** A bench run that cannot give figures at the size asked; the message says what to change. */
export class BenchRefused extends Error {}

const positiveInteger = (name: string, value: string | undefined, fallback: number, min = 1): number => {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min) throw new BenchRefused(`--${name} must be an integer of at least ${min}, not ${JSON.stringify(value)}`);
  return Number(value);
};

/** `KEY=value,KEY=value` as settings; a value may not hold a comma. */
function settingsList(name: string, value: string | undefined): Record<string, string> {
  if (value === undefined) return {};
  const settings: Record<string, string> = {};
  for (const item of value.split(',')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(item.trim());
    if (!match) throw new BenchRefused(`--${name} takes KEY=value pairs separated by commas, not ${JSON.stringify(item)}`);
    settings[match[1]] = match[2];
  }
  return settings;
}

export function parseOptions(argv: string[]): BenchOptions {
  const { values: args } = parseArgs({
    args: argv,
    options: {
      products: { type: 'string' }, shops: { type: 'string' }, customers: { type: 'string' }, 'order-lines': { type: 'string' },
      // Cost curves: one data set per product count, order lines and the rest in proportion (sizeFor).
      sizes: { type: 'string' },
      seconds: { type: 'string' }, warmup: { type: 'string' }, connections: { type: 'string' }, rate: { type: 'string' },
      port: { type: 'string' }, bursts: { type: 'string' }, workers: { type: 'string' },
      // For profiling runs: keep an already loaded bench database, and run only the scenarios whose name matches.
      reuse: { type: 'boolean', default: false }, only: { type: 'string' },
      // The database the bench creates (and drops first): one per person on a shared server.
      db: { type: 'string', default: process.env.BENCH_DB ?? 'mallfront_bench' },
      soak: { type: 'boolean', default: false }, 'soak-seconds': { type: 'string' },
      note: { type: 'string' },
      against: { type: 'string' }, pairs: { type: 'string' }, 'env-a': { type: 'string' }, 'env-b': { type: 'string' },
    },
  });
  const db = args.db;
  if (!/^[a-z_][a-z0-9_]*$/.test(db)) throw new BenchRefused(`--db (or BENCH_DB) must be a plain lower-case database name, not ${db}`);

  const single = ['products', 'shops', 'customers', 'order-lines'] as const;
  let sizes: DataSize[];
  if (args.sizes !== undefined) {
    const given = single.filter((name) => args[name] !== undefined);
    if (given.length > 0) throw new BenchRefused(`--sizes sets every size of each data set itself; leave out --${given.join(', --')}`);
    sizes = args.sizes.split(',').map((n) => sizeFor(positiveInteger('sizes', n.trim().replace(/_/g, ''), 0, 100)));
  } else {
    sizes = [{
      products: positiveInteger('products', args.products, DEFAULT_SIZE.products),
      shops: positiveInteger('shops', args.shops, DEFAULT_SIZE.shops),
      customers: positiveInteger('customers', args.customers, DEFAULT_SIZE.customers),
      orderLines: positiveInteger('order-lines', args['order-lines'], DEFAULT_SIZE.orderLines, 0),
    }];
  }

  const options: BenchOptions = {
    sizes,
    db,
    perSizeDatabases: args.sizes !== undefined,
    seconds: positiveInteger('seconds', args.seconds, 10),
    warmup: positiveInteger('warmup', args.warmup, 3, 0),
    connections: positiveInteger('connections', args.connections, 50),
    rate: args.rate === undefined ? undefined : positiveInteger('rate', args.rate, 0),
    port: positiveInteger('port', args.port, 4900),
    bursts: positiveInteger('bursts', args.bursts, 5),
    // Compare mode measures one server process unless told otherwise: CPU per request, not throughput.
    workers: positiveInteger('workers', args.workers, args.against === undefined ? os.availableParallelism() : 1),
    reuse: args.reuse,
    only: args.only === undefined ? undefined : new RegExp(args.only, 'i'),
    soakSeconds: args.soak ? positiveInteger('soak-seconds', args['soak-seconds'], 300) : undefined,
    note: args.note,
    against: args.against,
    pairs: positiveInteger('pairs', args.pairs, MIN_PAIRS, MIN_PAIRS),
    sideEnv: { a: settingsList('env-a', args['env-a']), b: settingsList('env-b', args['env-b']) },
  };
  if (options.against !== undefined) {
    if (!/^[\w./^~-]+$/.test(options.against) || options.against.startsWith('-')) throw new BenchRefused(`--against takes a commit (hash, branch or tag), not ${JSON.stringify(options.against)}`);
    if (options.perSizeDatabases) throw new BenchRefused('--against compares at one data size: give --products (and the rest) instead of --sizes');
    if (args.soak) throw new BenchRefused('--against compares the read scenarios; run the soak on its own');
  } else if (args.pairs !== undefined || args['env-a'] !== undefined || args['env-b'] !== undefined) {
    throw new BenchRefused(`--${args.pairs !== undefined ? 'pairs' : args['env-a'] !== undefined ? 'env-a' : 'env-b'} is for compare mode: give --against <commit> too`);
  }
  // Compare mode runs only the read scenarios, which work at any size.
  if (options.against === undefined) for (const size of options.sizes) refuseUnworkable(size, options);
  return options;
}

export const selected = (options: Pick<BenchOptions, 'only'>, name: string) => options.only === undefined || options.only.test(name);
export const databaseOf = (options: BenchOptions, size: DataSize) => (options.perSizeDatabases ? `${options.db}_${size.products}` : options.db);

/**
 * Refuses, before anything is dropped or loaded, a size at which a selected scenario cannot work.
 * The write scenarios need customers of their own: a burst's buyers, then one customer per checkout
 * connection (two connections sharing a customer would empty each other's carts); with too few, the
 * checkout connections got no customer at all and every request was refused (401), which the bench
 * once reported as 0 checkouts/s.
 */
export function refuseUnworkable(size: DataSize, options: Pick<BenchOptions, 'only' | 'connections'>): void {
  const writes = [CHECKOUT, BURST, MIXED].filter((name) => selected(options, name));
  if (writes.length > 0) {
    const writers = Math.max(options.connections, MIXED_WRITERS);
    const customers = BURST_BUYERS + writers;
    if (size.customers < customers) {
      throw new BenchRefused(
        `--customers ${size.customers} is too few for the write scenarios (${writes.join('; ')}): they need ${customers} bench customers ` +
          `(${BURST_BUYERS} flash-sale buyers, then one per checkout connection: ${writers}). ` +
          `Give --customers ${customers} or more, or leave the write scenarios out (--only 'REST|GraphQL').`,
      );
    }
    // One distinct SKU per checkout connection; every product has at least two.
    if (size.products * 2 < writers) {
      throw new BenchRefused(`--products ${size.products} is too few for the write scenarios: ${writers} checkout connections need ${writers} distinct SKUs (at least ${Math.ceil(writers / 2)} products).`);
    }
  }
}
