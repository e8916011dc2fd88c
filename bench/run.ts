import 'reflect-metadata';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import pg from 'pg';
import { costCurveSvg, type CurvePoint } from './chart.js';
import { compare, comparisonTable, FLAG_ABOVE_PERCENT, pairsDisagree } from './compare.js';
import { fixtures, type BenchContext } from './context.js';
import { cpuMeter } from './cpu.js';
import { databaseSize, databaseUrl, prepareDatabase } from './database.js';
import type { DataSize } from './load-data.js';
import type { Figures } from './load.js';
import { peakAndMean, residentOfServer, sampleResident } from './memory.js';
import { mixedTraffic } from './mixed.js';
import { BURST, BenchRefused, CHECKOUT, CHECKOUT_AND_PAY, MIXED, NOTIFICATIONS, SOAK, WEBHOOK_DRAIN, WEBHOOK_DRAIN_EVENTS, WEBHOOKS, databaseOf, parseOptions, selected, type BenchOptions } from './options.js';
import { LISTING, READS, measureRead } from './reads.js';
import { startServer } from './server-process.js';
import { soak } from './soak.js';
import { checkoutAndPayRate, checkoutRate, flashSaleBursts, rawDecrementRate } from './writes.js';
import { webhookDrain, webhookFanOut, type ReceiverPace } from './webhooks.js';
import { notificationGateway, notificationRate } from './notifications.js';

/**
 * `npm run bench`: a fresh database with the scale data set (one per size with `--sizes`), the
 * compiled server in production mode in its own process, and autocannon from this process on
 * loopback. Prints a table per size and writes the figures as JSON under bench/results/, with a
 * chart of the read scenarios against data size (SVG) beside it. It measures; it does not fail on
 * targets. Options: docs/performance.md.
 */
const log = (message: string) => console.log(`[bench] ${message}`);

function table(rows: [string, object][]) {
  for (const [name, figures] of rows) {
    const cells = Object.entries(figures).map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : v}`).join('  ');
    console.log(`${name.padEnd(66)} ${cells}`);
  }
}

/** Every scenario at one data size, with each server process count. */
async function benchAt(options: BenchOptions, size: DataSize, dbName: string, soakHere: boolean) {
  const dbUrl = databaseUrl(dbName);
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  const out: Record<string, unknown> = {};
  try {
    const ctx: BenchContext = { options, base: `http://127.0.0.1:${options.port}`, db, dbUrl, dbName, fixtures: await fixtures(db, options), log };
    for (const workers of [...new Set([1, options.workers])]) {
      log(`${size.products} products: scenarios with ${workers} server process(es)`);
      // The fan-out's receivers listen on 127.0.0.1, which the sender refuses unless allowed.
      const env: Record<string, string> = selected(options, WEBHOOKS) ? { WEBHOOK_ALLOW_PRIVATE: 'true' } : {};
      // Stripe offered, its SDK pointed at the stand-in, for the notifications scenario.
      const gateway = workers === 1 && selected(options, NOTIFICATIONS) ? await notificationGateway() : undefined;
      const server = await startServer({ databaseUrl: dbUrl, port: options.port, workers, env: { ...env, ...gateway?.env } });
      ctx.meter = cpuMeter(server.pid, db, dbName);
      const rows: [string, object][] = [];
      const memory: Record<string, unknown> = { atRest: residentOfServer(server.pid) };
      try {
        for (const read of READS.filter((r) => selected(options, r.name))) {
          // Resident memory under the listing load (issue 33, item 7), sampled through the run.
          const sampler = read === LISTING ? sampleResident(server.pid, 250) : undefined;
          rows.push([read.name, await measureRead(ctx, read)]);
          if (sampler) memory.underListingLoad = peakAndMean(sampler.stop());
        }
        if (workers === 1 && selected(options, CHECKOUT)) rows.push([CHECKOUT, await checkoutRate(ctx)]);
        if (workers === 1 && selected(options, CHECKOUT_AND_PAY)) rows.push([CHECKOUT_AND_PAY, await checkoutAndPayRate(ctx)]);
        if (gateway) rows.push([NOTIFICATIONS, await notificationRate(ctx, gateway.standIn)]);
        if (workers === 1 && selected(options, BURST)) {
          const burst = await flashSaleBursts(ctx);
          const raw = await rawDecrementRate(ctx);
          rows.push([BURST, burst]);
          rows.push(['Raw PostgreSQL single-row conditional decrement', { perSecond: raw }]);
          rows.push(['Flash-sale checkout rate / raw decrement rate', { fraction: Number((burst.flashCheckoutsPerSecond / raw).toFixed(3)) }]);
        }
        if (selected(options, MIXED)) {
          const mixed = await mixedTraffic(ctx);
          out[`mixed_${workers}`] = mixed;
          rows.push([`${MIXED}: reads alone`, pick(mixed.readsAlone)]);
          rows.push([`${MIXED}: reads while flash-sale bursts run`, { ...pick(mixed.withFlashSaleBursts.reads), whileSellingP99Ms: mixed.withFlashSaleBursts.readsWhileSelling.p99Ms }]);
          rows.push([`${MIXED}: the bursts beside the reads`, {
            bursts: mixed.withFlashSaleBursts.bursts, sellOutMs: mixed.withFlashSaleBursts.sellOutMs,
            flashCheckoutsPerSecond: mixed.withFlashSaleBursts.flashCheckoutsPerSecond, soldBeyondStock: mixed.withFlashSaleBursts.soldBeyondStock,
          }]);
          rows.push([`${MIXED}: reads while customers check out and pay`, pick(mixed.withCheckoutAndPay.reads)]);
          rows.push([`${MIXED}: checkouts and payments beside the reads`, {
            checkoutsPerSecond: mixed.withCheckoutAndPay.checkoutsPerSecond, paymentsPerSecond: mixed.withCheckoutAndPay.paymentsPerSecond,
            writeP99Ms: mixed.withCheckoutAndPay.writeP99Ms, refusals: mixed.withCheckoutAndPay.writeRefusals,
          }]);
        }
        // After the request scenarios: nothing else runs while it drains, and its endpoints are removed after it.
        if (selected(options, WEBHOOKS)) {
          log(`webhook fan-out with ${workers} server process(es)`);
          rows.push([WEBHOOKS, await webhookFanOut(ctx)]);
        }
        if (soakHere && workers === 1) {
          log(`soak: ${options.soakSeconds} s of varied storefront reads at ${options.connections} connections`);
          const soaked = await soak(ctx, server.pid, options.soakSeconds!);
          out.soak = soaked;
          rows.push([SOAK, { requestsPerSecond: soaked.requestsPerSecond, p99Ms: soaked.p99Ms, non2xx: soaked.non2xx, residentMemory: soaked.residentMemory }]);
        }
        // Requests the load generator cut off at the end of the last run are still being served.
        await new Promise((r) => setTimeout(r, 1000));
        memory.afterScenarios = residentOfServer(server.pid);
      } finally {
        await server.stop();
        await gateway?.standIn.close();
      }
      rows.push(['Resident memory (MB)', memory]);
      table(rows);
      out[`processes_${workers}`] = Object.fromEntries(rows.filter(([name]) => !name.startsWith(MIXED) && name !== SOAK && !name.startsWith('Resident')));
      out[`memory_${workers}`] = memory;
    }
    if (selected(options, WEBHOOK_DRAIN)) out.webhookDrain = await webhookDrains(ctx);
  } finally {
    await db.end();
  }
  return out;
}

/** The receivers of the drain: answering at once, in 20-100 ms (the probe's), in 100 ms. */
const DRAIN_PACES: ReceiverPace[] = [
  { name: 'at once', fromMs: 0, toMs: 0 },
  { name: '20-100 ms', fromMs: 20, toMs: 100 },
  { name: '100 ms', fromMs: 100, toMs: 100 },
];

/**
 * One endpoint's backlog drained by one server process in order (WEBHOOK_MAX_CONCURRENCY=1), to each
 * receiver pace, then not in order (the default cap, 4) to the 20-100 ms receiver: what a receiver's
 * own time costs an endpoint's throughput (docs/operations.md, "Webhook receivers").
 */
async function webhookDrains(ctx: BenchContext) {
  const rows: [string, object][] = [];
  let firstEvent = 2_000_000;
  for (const cap of [1, 4]) {
    const server = await startServer({ databaseUrl: ctx.dbUrl, port: ctx.options.port, workers: 1, env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_MAX_CONCURRENCY: String(cap) } });
    try {
      for (const pace of cap === 1 ? DRAIN_PACES : DRAIN_PACES.filter((p) => p.name === '20-100 ms')) {
        log(`webhook drain: ${WEBHOOK_DRAIN_EVENTS} events, cap ${cap}, receiver ${pace.name}`);
        rows.push([`${WEBHOOK_DRAIN}, cap ${cap}, receiver ${pace.name}`, await webhookDrain(ctx, pace, WEBHOOK_DRAIN_EVENTS, firstEvent)]);
        firstEvent += WEBHOOK_DRAIN_EVENTS;
      }
    } finally {
      await server.stop();
    }
  }
  table(rows);
  return Object.fromEntries(rows);
}

const pick = (reads: { requestsPerSecond: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number }) => ({
  requestsPerSecond: reads.requestsPerSecond, p50Ms: reads.p50Ms, p99Ms: reads.p99Ms, non2xx: reads.non2xx, errors: reads.errors,
});

/** The chart's points: the read scenarios' figures per size and process count. */
function curvePoints(sizes: { size: DataSize; [key: string]: unknown }[]): CurvePoint[] {
  const readNames = new Set(READS.map((r) => r.name));
  return sizes.map((entry) => ({
    products: entry.size.products,
    orderLines: entry.size.orderLines,
    processes: Object.fromEntries(Object.entries(entry)
      .filter(([key]) => key.startsWith('processes_'))
      .map(([key, scenarios]) => [key.slice('processes_'.length), Object.fromEntries(Object.entries(scenarios as Record<string, Figures>).filter(([name]) => readNames.has(name)))])),
  }));
}

async function main() {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof BenchRefused)) throw error;
    console.error(`[bench] refused: ${error.message}`);
    process.exit(2);
  }
  const started = new Date();
  const stamp = started.toISOString().replace(/[:.]/g, '-');
  const results = {
    startedAt: started.toISOString(),
    note: options.note,
    seconds: options.seconds,
    connections: options.connections,
    rate: options.rate,
    cores: os.availableParallelism(),
    node: process.version,
    sizes: [] as { size: DataSize; [key: string]: unknown }[],
  };
  await mkdir('bench/results', { recursive: true });
  if (options.against !== undefined) {
    const compared = await compare(options, log);
    console.log(`\nMedians of ${options.pairs} alternated runs per side, ${options.rate === undefined ? 'at saturation' : `reads at ${options.rate} requests per second`}, CPU per request (${compared.a}: this checkout; ${compared.b}: --against ${options.against}):`);
    console.log(comparisonTable(compared.rows, compared.a, compared.b));
    const flagged = compared.rows.filter((r) => r.flagged);
    console.log(flagged.length === 0 ? `\nNo scenario costs more than ${FLAG_ABOVE_PERCENT}% more server CPU per request.` : `\n${flagged.length} scenario(s) cost more than ${FLAG_ABOVE_PERCENT}% more server CPU per request.`);
    const unsettled = compared.rows.filter(pairsDisagree);
    if (unsettled.length > 0) {
      console.log(`Pairs that disagree (one cheaper on A, another dearer): ${unsettled.map((r) => r.scenario).join('; ')}. Their change is within this machine's noise: run more pairs, or at a fixed --rate.`);
    }
    const file = `bench/results/compare-${stamp}.json`;
    await writeFile(file, JSON.stringify({ ...results, size: options.sizes[0], against: options.against, sides: [compared.a, compared.b], pairs: options.pairs, comparison: compared.rows, runs: compared.runs }, null, 2));
    log(`figures written to ${file}`);
    return;
  }
  const file = `bench/results/${stamp}.json`;
  const largest = Math.max(...options.sizes.map((s) => s.products));
  for (const size of options.sizes) {
    const dbName = databaseOf(options, size);
    log(`${dbName}: ${JSON.stringify(size)}`);
    const load = await prepareDatabase(dbName, size, options.reuse, log);
    const database = await databaseSize(dbName);
    if (load) log(`loaded ${JSON.stringify(size)} in ${load.seconds} s`);
    log(`database ${dbName}: ${database.pretty} (${Object.entries(database.tables).map(([t, s]) => `${t} ${s}`).join(', ')})`);
    const soakHere = options.soakSeconds !== undefined && selected(options, SOAK) && size.products === largest;
    results.sizes.push({ size, database: dbName, load, databaseSize: database, ...(await benchAt(options, size, dbName, soakHere)) });
    // Written after every size: a long run that fails at its largest size keeps the others.
    await writeFile(file, JSON.stringify(results, null, 2));
  }
  log(`figures written to ${file}`);
  const points = curvePoints(results.sizes);
  if (points.some((p) => Object.values(p.processes).some((scenarios) => Object.keys(scenarios).length > 0))) {
    const chart = file.replace(/\.json$/, '.svg');
    await writeFile(chart, costCurveSvg(points, {
      title: 'Mallfront: read scenarios against data size',
      subtitle: `${results.startedAt.slice(0, 10)}, ${results.cores} cores, load generator on the same machine, ${options.connections} connections${options.rate === undefined ? '' : ` at ${options.rate} requests/s`}, ${options.seconds} s per run${options.note ? `; ${options.note}` : ''}`,
    }));
    log(`chart written to ${chart}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
