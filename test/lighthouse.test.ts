import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './support/harness.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { chromium } from 'playwright-core';
import { CHROMIUM, SCREENSHOT_DIR, sessionFor } from './support/browser.js';
import { addToCart } from './support/shopping.js';
import { ADMIN_EMAIL, CUSTOMERS, DEMO_PASSWORD, SHOPS, operatorEmail } from '../src/seed/demo-data.js';
import { seedDemoData } from '../src/seed/demo-seed.js';

/**
 * Lighthouse 12 (pinned) on the phone profile, against the production build served by the server with
 * the demo data: home, a product, a search, and a signed-in customer's cart with two lines (the
 * session is put in a Chromium profile of its own before Lighthouse opens it there, without resetting
 * its storage: `signedIn`), and the landings of the shop console (a shop's owner) and the platform
 * console (an admin), signed in the same way. The floors are issue 44's: Performance 90,
 * Accessibility 100, Best Practices 100, SEO 100, and no layout shift at all (CLS 0: the header's
 * cart count, which arrives after the signed-in cart's first frame, was the last thing that moved,
 * 0.0007; its place is now kept). One run per page, only the
 * four categories: Lighthouse costs about half a minute a page on the 2-core machine.
 *
 * The machine these floors assume: Lighthouse simulates a phone 4x slower than its host, and expects
 * a host whose benchmark index (its own CPU measure, reported in every report) is 1000 or more; the
 * 2-core machines of this project measure 1,900-2,100, where the three pages score 96-98 quiet
 * (docs/performance.md). On a slower host Lighthouse's throttling guide says to lower the multiplier
 * in proportion, so that the simulated phone stays the same phone: each report's own index is checked,
 * and a run made with a multiplier its host did not call for is measured again with the fitting one.
 * What no multiplier corrects is a host busy with other work while it measures (79-97 at load 11-14,
 * 55-82 beside the other suites), so the vitest project `timing, alone` runs this file after the rest
 * of the suite, on its own. Even alone, one run varies (CI once measured 0.81 and 0.72 on a host whose
 * index read 1,689 and 2,323 within the same minute): a page that misses a floor is measured four times
 * more and judged by the median of its five runs (CI's product page read 0.88, 0.87 and 0.91 in a row), as Lighthouse's variability guide advises; a page
 * that meets every floor on its first run is not measured again. Scores, index and multiplier go to
 * test-output/lighthouse.json.
 */
const run = promisify(execFile);
const FLOORS = { performance: 0.9, accessibility: 1, 'best-practices': 1, seo: 1 } as const;
const MAX_CLS = 0;
/**
 * The host the floors were set on: this machine kind when quiet reads a benchmark index of 2,000 to
 * 2,500 (2026-12-02: 2,128, 2,276 and 2,480 alone). The same kind read 1,589 to 1,760 at the end of a
 * full CI run, and the same pages then scored 0.78-0.89 with the same 4x: a slower moment of the host
 * made a slower phone. Below this index the multiplier shrinks in proportion, so the simulated phone
 * stays the phone the floors assume (Lighthouse's own line for a slow host is 1,000,
 * `SLOW_CPU_BENCHMARK_INDEX_THRESHOLD`; it only warns there).
 */
const REFERENCE_HOST_INDEX = 2000;
/** Lighthouse's mobile profile: the phone it simulates is this many times slower than the reference host. */
const PHONE_SLOWDOWN = 4;
/**
 * A run whose own host reading calls for a multiplier this far from the one it ran with is measured
 * again with the fitting one: the machines of this kind are shared, and their index moved from 2,643 to
 * 1,190 between two runs a minute apart (2026-12-02), so the first page's reading does not hold for
 * the rest.
 */
const RECALIBRATE_AT = 0.4;

/** The CPU multiplier that simulates the same phone on a host of benchmark index `index`. */
function slowdownFor(index: number): number {
  return index >= REFERENCE_HOST_INDEX ? PHONE_SLOWDOWN : Math.max(1, Math.round((PHONE_SLOWDOWN * index * 10) / REFERENCE_HOST_INDEX) / 10);
}
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  expect(await seedDemoData(t.orm, 'development', t.deps.wiring.mediaStore)).toBe('seeded');
}, 120_000);
afterAll(() => t?.close());

interface Report {
  categories: Record<keyof typeof FLOORS, { score: number }>;
  audits: Record<string, { numericValue?: number }>;
  environment: { benchmarkIndex: number };
  /** Lighthouse could not measure the page at all (its own trace failed, e.g. `NO_NAVSTART`): no score. */
  runtimeError?: { code: string; message: string };
}

/**
 * A page's scores. When Lighthouse reports that it could not measure (a runtime error, with no
 * scores and a failed exit: seen in CI as NO_NAVSTART, "Something went wrong with recording the
 * trace"), the page is measured once more (a low score is judged by the median of three runs, below).
 */
async function lighthouse(path: string, name: string, slowdown: number, profile?: string): Promise<Measured> {
  const first = await lighthouseRun(path, name, slowdown, profile);
  const report = first.runtimeError ? await lighthouseRun(path, name, slowdown, profile) : first;
  if (report.runtimeError) throw new Error(`Lighthouse could not measure ${name} twice: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const scores = Object.fromEntries(Object.keys(FLOORS).map((k) => [k, report.categories[k as keyof typeof FLOORS].score]));
  return { scores, cls: report.audits['cumulative-layout-shift'].numericValue ?? 0, benchmarkIndex: report.environment.benchmarkIndex, slowdown };
}

interface Measured {
  scores: Record<string, number>;
  cls: number;
  benchmarkIndex: number;
  slowdown: number;
  /** The performance score of each run, where the page was judged by the median of several. */
  runs?: number[];
}

async function lighthouseRun(path: string, name: string, slowdown: number, profile?: string): Promise<Report> {
  const out = join(SCREENSHOT_DIR, '..', `lighthouse-${name}.json`);
  mkdirSync(join(SCREENSHOT_DIR, '..'), { recursive: true });
  const measured = run(
    process.execPath,
    [
      join(process.cwd(), 'node_modules', 'lighthouse', 'cli', 'index.js'),
      `${t.baseUrl}${path}`,
      `--chrome-flags=${CHROME_FLAGS}${profile ? ` --user-data-dir=${profile}` : ''}`,
      ...(profile ? ['--disable-storage-reset'] : []),
      `--only-categories=${Object.keys(FLOORS).join(',')}`,
      `--throttling.cpuSlowdownMultiplier=${slowdown}`,
      '--output=json',
      `--output-path=${out}`,
      '--quiet',
    ],
    { env: { ...process.env, CHROME_PATH: CHROMIUM }, timeout: 150_000, maxBuffer: 64 * 1024 * 1024 },
  );
  try {
    await measured;
  } catch (error) {
    const runtime = /Runtime error encountered: (.*)\((\w+)\)/.exec(String((error as Error).message));
    if (!runtime) throw error;
    return { runtimeError: { code: runtime[2], message: runtime[1].trim() } } as Report;
  }
  return JSON.parse(readFileSync(out, 'utf8')) as Report;
}

/**
 * A Chromium profile signed in as `session`: the app keeps its session in localStorage, which
 * Lighthouse keeps when told not to reset the page's storage. The profile is made on a JSON answer of
 * the same origin, so none of the app's files are in its cache: Lighthouse still measures a first visit.
 */
async function signedInProfile(session: unknown): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'lighthouse-profile-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  const page = await context.newPage();
  await page.goto(`${t.baseUrl}/api/currency`);
  await page.evaluate((value) => localStorage.setItem('mallfront.session', JSON.stringify(value)), session);
  await context.close();
  return dir;
}

/** Each floor a measured page misses, in words. */
function misses(r: Measured): string[] {
  return [
    ...Object.entries(FLOORS).filter(([k, floor]) => r.scores[k] < floor).map(([k, floor]) => `${k} ${r.scores[k]} < ${floor} (host index ${r.benchmarkIndex}, phone ${r.slowdown}x slower${r.runs ? `, median of ${r.runs.join(' / ')}` : ''})`),
    ...(r.cls > MAX_CLS ? [`CLS ${r.cls} > ${MAX_CLS}`] : []),
  ];
}

/** Three runs of a page as one: the median of each category and of CLS (a run's other scores do not vary). */
function medianRun(runs: Measured[]): Measured {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const scores = Object.fromEntries(Object.keys(FLOORS).map((k) => [k, median(runs.map((r) => r.scores[k]))]));
  return { scores, cls: median(runs.map((r) => r.cls)), benchmarkIndex: median(runs.map((r) => r.benchmarkIndex)), slowdown: runs[0].slowdown, runs: runs.map((r) => r.scores.performance) };
}

it('judges a page that misses by the median of three runs, each category and CLS on its own', () => {
  const run = (performance: number, cls: number): Measured => ({ scores: { performance, accessibility: 1, 'best-practices': 1, seo: 1 }, cls, benchmarkIndex: 2000, slowdown: 4 });
  const judged = medianRun([run(0.72, 0), run(0.95, 0.2), run(0.93, 0)]);
  expect(judged).toMatchObject({ scores: { performance: 0.93 }, cls: 0, runs: [0.72, 0.95, 0.93] });
  expect(misses(judged)).toEqual([]);
  // Any shift at all in the median run is a miss: the floor is CLS 0.
  expect(misses(medianRun([run(0.95, 0.01), run(0.95, 0.2), run(0.95, 0)]))).toEqual(['CLS 0.01 > 0']);
  expect(misses(medianRun([run(0.72, 0), run(0.95, 0), run(0.8, 0)]))).toEqual([expect.stringMatching(/^performance 0.8 < 0.9 .*median of 0.72 \/ 0.95 \/ 0.8\)$/)]);
});

it('calibrates the simulated phone to the host: 4x on the reference host, less in proportion below it', () => {
  expect([2500, 2000, 1600, 1000, 400, 100].map(slowdownFor)).toEqual([4, 4, 3.2, 2, 1, 1]);
});

it("scores at least 90 / 100 / 100 / 100 with CLS 0 on home, product, search, a signed-in cart and both consoles' landings (mobile)", async () => {
  const [product] = await t.sql(`select id from product where status = 'published' order by id limit 1`);
  const session = (await sessionFor(t, CUSTOMERS[1].email, DEMO_PASSWORD)) as { token: string };
  const skus = await t.sql<{ id: number }>(`select s.id from sku s join product p on p.id = s.product_id where p.status = 'published' and s.stock > 2 order by s.id limit 2`);
  for (const sku of skus) await addToCart(t, session.token, sku.id, 2);
  const cartProfile = await signedInProfile(session);
  // The consoles' landings, each as its staff opens it: a shop's owner on the dashboard, an admin on live operations.
  const ownerProfile = await signedInProfile(await sessionFor(t, operatorEmail(SHOPS[0].slug), DEMO_PASSWORD));
  const adminProfile = await signedInProfile(await sessionFor(t, ADMIN_EMAIL, DEMO_PASSWORD));
  const pages: Record<string, { path: string; profile?: string }> = {
    home: { path: '/' },
    product: { path: `/products/${product.id}` },
    search: { path: `/search?q=${encodeURIComponent('咖啡')}` },
    cart: { path: '/cart', profile: cartProfile },
    shopConsole: { path: '/merchant', profile: ownerProfile },
    adminConsole: { path: '/admin', profile: adminProfile },
  };
  const results: Record<string, Measured> = {};
  let slowdown = PHONE_SLOWDOWN;
  for (const [name, { path, profile }] of Object.entries(pages)) {
    const runs: Measured[] = [];
    let recalibrated = 0;
    while (runs.length < 5) {
      const measured = await lighthouse(path, name, slowdown, profile);
      // Each run measures the host as it loads the page. A run whose host read another speed than the
      // phone it simulated assumed is measured again on the phone that host calls for (at most 6 times a
      // page: CI's host read 1,599 to 2,410 within one page's five runs).
      const fitting = slowdownFor(measured.benchmarkIndex);
      if (Math.abs(fitting - slowdown) >= RECALIBRATE_AT && recalibrated < 6) {
        recalibrated++;
        slowdown = fitting;
        continue;
      }
      runs.push(measured);
      if (runs.length === 1 && misses(measured).length === 0) break;
    }
    results[name] = runs.length === 1 ? runs[0] : medianRun(runs);
  }
  writeFileSync(join(SCREENSHOT_DIR, '..', 'lighthouse.json'), JSON.stringify(results, null, 2));
  const below = Object.entries(results).flatMap(([name, r]) => misses(r).map((miss) => `${name} ${miss}`));
  expect(below).toEqual([]);
}, 1_200_000);
