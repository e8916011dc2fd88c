import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { fixtures, type BenchContext, type Fixtures } from './context.js';
import { cpuMeter } from './cpu.js';
import { databaseUrl, prepareDatabase } from './database.js';
import type { DataSize } from './load-data.js';
import type { Figures } from './load.js';
import { CHECKOUT, CHECKOUT_AND_PAY, selected, type BenchOptions } from './options.js';
import { READS, measureRead, type ReadTarget } from './reads.js';
import { startServer } from './server-process.js';
import { checkoutAndPayRate, checkoutRate } from './writes.js';

/**
 * The write scenarios compare mode runs too, each measured per checkout or per purchase (cart,
 * checkout and payment). They add orders to each side's database; the sides alternate, so each gets
 * the same number of runs on data grown alike.
 */
const WRITES: { name: string; measure(ctx: BenchContext): Promise<Figures> }[] = [
  {
    name: CHECKOUT,
    measure: async (ctx) => {
      const f: Awaited<ReturnType<typeof checkoutRate>> & { serverUsPerCheckout?: number; dbUsPerCheckout?: number } = await checkoutRate(ctx);
      return { requestsPerSecond: f.checkoutsPerSecond, p50Ms: 0, p99Ms: f.p99Ms, errors: f.errors, non2xx: f.non2xx, requests: 0, serverUsPerRequest: f.serverUsPerCheckout, dbUsPerRequest: f.dbUsPerCheckout };
    },
  },
  {
    name: CHECKOUT_AND_PAY,
    measure: async (ctx) => {
      const f = await checkoutAndPayRate(ctx);
      return { requestsPerSecond: f.paymentsPerSecond, p50Ms: 0, p99Ms: f.p99Ms, errors: f.errors, non2xx: 0, requests: 0, serverUsPerRequest: f.serverUsPerPurchase, dbUsPerRequest: f.dbUsPerPurchase };
    },
  },
];

/**
 * Compare mode (`npm run bench -- --against <commit>`, issue 43): this checkout (A) against another
 * commit (B), each built, each on a database of its own loaded at the same size, the two servers run
 * in turn (A, B, A, B, ...) on the same machine, and each read scenario's median server and database
 * CPU per request side by side. On a shared machine requests per second move with the neighbours;
 * CPU per request moves far less, and alternating spreads what is left over both sides alike.
 */

/** A scenario whose median server CPU per request rose by more than this is flagged. */
export const FLAG_ABOVE_PERCENT = 10;

export interface Side {
  /** What the table calls it: `A <short hash>` for this checkout, `B <short hash>` for the other. */
  label: string;
  root: string;
  dbName: string;
  /** This side's own settings (`--env-a`, `--env-b`). */
  env: Record<string, string>;
}

export interface ScenarioComparison {
  scenario: string;
  /** Medians over the pairs, µs per request. */
  a: { serverUs: number; dbUs: number };
  b: { serverUs: number; dbUs: number };
  /** A against B in percent (positive: A costs more). */
  serverChangePercent: number;
  dbChangePercent: number;
  /**
   * The lowest and highest change of server CPU within one pair (A's run against the B run after it):
   * when they differ in sign, the pairs disagree and the median's change is within the machine's
   * noise (seen: product detail from -21% to +16% in one run, issue 43).
   */
  serverPairChanges: { low: number; high: number };
  flagged: boolean;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const percentChange = (now: number, before: number) => (before === 0 ? (now === 0 ? 0 : Infinity) : Math.round(((now - before) / before) * 1000) / 10);

/** Each scenario's medians and change, from every run of both sides (runs without CPU figures are left out). */
export function compareRuns(runs: Record<string, { a: Figures[]; b: Figures[] }>): ScenarioComparison[] {
  return Object.entries(runs).map(([scenario, { a, b }]) => {
    const med = (figures: Figures[], key: 'serverUsPerRequest' | 'dbUsPerRequest') =>
      Math.round(median(figures.map((f) => f[key]).filter((v): v is number => v !== undefined)));
    const sideA = { serverUs: med(a, 'serverUsPerRequest'), dbUs: med(a, 'dbUsPerRequest') };
    const sideB = { serverUs: med(b, 'serverUsPerRequest'), dbUs: med(b, 'dbUsPerRequest') };
    const serverChangePercent = percentChange(sideA.serverUs, sideB.serverUs);
    // A run without CPU figures, or an A run whose B run is missing, makes no pair.
    const pairChanges = a.flatMap((runA, i) => {
      const serverB = b[i]?.serverUsPerRequest;
      return runA.serverUsPerRequest === undefined || serverB === undefined ? [] : [percentChange(runA.serverUsPerRequest, serverB)];
    });
    return {
      scenario,
      a: sideA,
      b: sideB,
      serverChangePercent,
      dbChangePercent: percentChange(sideA.dbUs, sideB.dbUs),
      serverPairChanges: { low: Math.min(...pairChanges), high: Math.max(...pairChanges) },
      flagged: serverChangePercent > FLAG_ABOVE_PERCENT,
    };
  });
}

/** The pairs disagree in sign (one cheaper on A, another dearer): the median's change is within the noise. */
export const pairsDisagree = (row: ScenarioComparison) => row.serverPairChanges.low < 0 && row.serverPairChanges.high > 0;

const signed = (p: number) => (Number.isFinite(p) ? `${p > 0 ? '+' : ''}${p.toFixed(1)}%` : 'n/a');

/** The side-by-side table: one line per scenario, flagged ones marked. */
export function comparisonTable(rows: ScenarioComparison[], a: string, b: string): string {
  const head = ['Scenario', `server µs ${b}`, `server µs ${a}`, 'change', 'pairs', `db µs ${b}`, `db µs ${a}`, 'change', ''];
  const lines = rows.map((r) => [
    r.scenario, String(r.b.serverUs), String(r.a.serverUs), signed(r.serverChangePercent), `${signed(r.serverPairChanges.low)}..${signed(r.serverPairChanges.high)}`,
    String(r.b.dbUs), String(r.a.dbUs), signed(r.dbChangePercent),
    r.flagged ? `<< worse by more than ${FLAG_ABOVE_PERCENT}%` : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ').trimEnd();
  return [format(head), ...lines.map(format)].join('\n');
}

const git = (args: string[], cwd = '.') => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function run(command: string, args: string[], cwd: string, log: (line: string) => void): void {
  log(`${path.basename(cwd)}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} in ${cwd} failed (${result.status ?? result.signal})`);
}

/**
 * The other commit, checked out in a worktree under the temporary directory and compiled there
 * (server and bench, not the web app): reused when a previous compare left it built. Its packages are
 * this checkout's when both lock files are the same, else installed from its own lock file.
 */
export function buildOther(commit: string, log: (line: string) => void): { root: string; sha: string } {
  const sha = git(['rev-parse', '--verify', `${commit}^{commit}`]);
  const root = path.join(os.tmpdir(), `mallfront-against-${sha.slice(0, 10)}`);
  if (!existsSync(root)) {
    git(['worktree', 'prune']);
    git(['worktree', 'add', '--detach', root, sha]);
  } else if (git(['rev-parse', 'HEAD'], root) !== sha) {
    throw new Error(`${root} is not at ${sha}: remove it (git worktree remove ${root}) and run again`);
  }
  if (!existsSync(path.join(root, 'node_modules'))) {
    const sameLock = readFileSync('package-lock.json', 'utf8') === readFileSync(path.join(root, 'package-lock.json'), 'utf8');
    if (sameLock) symlinkSync(realpathSync('node_modules'), path.join(root, 'node_modules'), 'dir');
    else run('npm', ['ci', '--no-audit', '--no-fund'], root, log);
  }
  // Written after a build that finished: a build cut off half way is built again.
  const built = path.join(root, 'dist', '.built');
  if (!existsSync(built) || readFileSync(built, 'utf8') !== sha) {
    run(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], root, log);
    writeFileSync(built, sha);
  }
  return { root, sha };
}

/**
 * The other commit's database, loaded by that commit's own bench at the same size (its schema and
 * loader are its own): its bench run with no scenario selected loads and stops.
 */
function loadOther(root: string, dbName: string, size: DataSize, options: BenchOptions, log: (line: string) => void): void {
  run(process.execPath, [
    'dist/bench/run.js', '--db', dbName, '--products', String(size.products), '--shops', String(size.shops), '--customers', String(size.customers),
    '--order-lines', String(size.orderLines), '--workers', '1', '--port', String(options.port), '--only', '^no scenario$', ...(options.reuse ? ['--reuse'] : []),
  ], root, log);
}

/** What the read scenarios need from a side's database (no tokens: only the write scenarios need customers). */
async function readFixtures(db: pg.Client): Promise<Fixtures> {
  const topCategory = (await db.query<{ id: number }>(`select id from category where depth = 0 order by id limit 1`)).rows[0].id;
  const productIds = (await db.query<{ id: number }>(`select id from product where status = 'published' order by id`)).rows.map((r) => r.id);
  return { topCategory, productIds, tokens: [], customers: [], skus: [] };
}

/** This checkout's name in the table: its commit, `+changes` when the work tree differs from it. */
function thisCheckout(): string {
  const head = git(['rev-parse', '--short=7', 'HEAD']);
  return git(['status', '--porcelain', '--untracked-files=no']) === '' ? head : `${head}+changes`;
}

export async function compare(options: BenchOptions, log: (line: string) => void): Promise<{ rows: ScenarioComparison[]; runs: Record<string, { a: Figures[]; b: Figures[] }>; a: string; b: string }> {
  const size = options.sizes[0];
  const reads: ReadTarget[] = READS.filter((r) => selected(options, r.name));
  const writes = WRITES.filter((w) => selected(options, w.name));
  if (reads.length === 0 && writes.length === 0) {
    throw new Error(`--only matches no scenario compare mode runs (these: ${[...READS.map((r) => r.name), ...WRITES.map((w) => w.name)].join('; ')})`);
  }
  // A write scenario runs for a time, so the faster side places more orders: the reads of the next
  // pair would then compare a bigger database with a smaller one (seen: +18% on the listing, all of it
  // from the data). Reads and writes are compared in runs of their own.
  if (reads.length > 0 && writes.length > 0) {
    throw new Error(`compare mode runs read scenarios or write scenarios, not both: --only selects ${reads.length} read and ${writes.length} write scenario(s); run them apart`);
  }
  const other = buildOther(options.against!, log);
  const withSettings = (label: string, env: Record<string, string>) => [label, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(' ');
  const sides: Side[] = [
    { label: withSettings(`A ${thisCheckout()}`, options.sideEnv.a), root: '.', dbName: options.db, env: options.sideEnv.a },
    { label: withSettings(`B ${other.sha.slice(0, 7)}`, options.sideEnv.b), root: other.root, dbName: `${options.db}_${other.sha.slice(0, 7)}`, env: options.sideEnv.b },
  ];
  const loadA = await prepareDatabase(sides[0].dbName, size, options.reuse, log);
  if (loadA) log(`${sides[0].label}: loaded ${JSON.stringify(size)} in ${loadA.seconds} s`);
  loadOther(other.root, sides[1].dbName, size, options, log);

  const runs: Record<string, { a: Figures[]; b: Figures[] }> = Object.fromEntries([...reads, ...writes].map((r) => [r.name, { a: [], b: [] }]));
  for (let pair = 1; pair <= options.pairs; pair++) {
    for (const [i, side] of sides.entries()) {
      log(`pair ${pair} of ${options.pairs}: ${side.label} (${options.workers} server process(es))`);
      const dbUrl = databaseUrl(side.dbName);
      const db = new pg.Client({ connectionString: dbUrl });
      await db.connect();
      const server = await startServer({ databaseUrl: dbUrl, port: options.port, workers: options.workers, root: side.root, env: side.env });
      try {
        const ctx: BenchContext = {
          // Write scenarios need customers with tokens (written into the side's database); reads need none.
          options, base: `http://127.0.0.1:${options.port}`, db, dbUrl, dbName: side.dbName, fixtures: writes.length > 0 ? await fixtures(db, options) : await readFixtures(db), log,
          meter: cpuMeter(server.pid, db, side.dbName),
        };
        for (const read of reads) {
          const figures = await measureRead(ctx, read);
          if (figures.non2xx > 0 || figures.errors > 0) log(`${side.label}: ${read.name}: ${figures.non2xx} non-2xx, ${figures.errors} errors`);
          runs[read.name][i === 0 ? 'a' : 'b'].push(figures);
          log(`${side.label}: ${read.name}: ${figures.requestsPerSecond} req/s, server ${figures.serverUsPerRequest} µs, db ${figures.dbUsPerRequest} µs per request`);
        }
        for (const write of writes) {
          const figures = await write.measure(ctx);
          if (figures.errors > 0) log(`${side.label}: ${write.name}: ${figures.errors} errors`);
          runs[write.name][i === 0 ? 'a' : 'b'].push(figures);
          log(`${side.label}: ${write.name}: ${figures.requestsPerSecond}/s, server ${figures.serverUsPerRequest} µs, db ${figures.dbUsPerRequest} µs each`);
        }
        // Requests the load generator cut off at the end of the last run are still being served.
        await new Promise((r) => setTimeout(r, 1000));
      } finally {
        await server.stop();
        await db.end();
      }
    }
  }
  return { rows: compareRuns(runs), runs, a: sides[0].label, b: sides[1].label };
}
