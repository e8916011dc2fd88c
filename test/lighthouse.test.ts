import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './support/harness.js';
import { CHROMIUM, SCREENSHOT_DIR } from './support/browser.js';
import { seedDemoData } from '../src/seed/demo-seed.js';

/**
 * Lighthouse 12 (pinned) on the phone profile, against the production build served by the server with
 * the demo data: home, a product and a search. The floors are issue 31's: Performance 90,
 * Accessibility 98, Best Practices 100, SEO 100, layout shift at most 0.05. Since the first query
 * leaves with the page, a machine running only this suite scores 96-98 on each page (inside the whole
 * suite and alone: docs/performance.md); a machine shared with other sessions' builds scored 79-97
 * (load 11-14), which this floor does not allow for. One run per page, only the
 * four categories: Lighthouse costs about half a minute a page on the 2-core machine.
 * Scores go to test-output/lighthouse.json.
 */
const run = promisify(execFile);
const FLOORS = { performance: 0.9, accessibility: 0.98, 'best-practices': 1, seo: 1 } as const;
const MAX_CLS = 0.05;
const CHROME_FLAGS = '--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  expect(await seedDemoData(t.orm, 'development')).toBe('seeded');
}, 120_000);
afterAll(() => t?.close());

interface Report {
  categories: Record<keyof typeof FLOORS, { score: number }>;
  audits: Record<string, { numericValue?: number }>;
  /** Lighthouse could not measure the page at all (its own trace failed, e.g. `NO_NAVSTART`): no score. */
  runtimeError?: { code: string; message: string };
}

/**
 * A page's scores. When Lighthouse reports that it could not measure (a runtime error, with no
 * scores and a failed exit: seen in CI as NO_NAVSTART, "Something went wrong with recording the
 * trace"), the page is measured once more; a low score is never measured again.
 */
async function lighthouse(path: string, name: string): Promise<{ scores: Record<string, number>; cls: number }> {
  const first = await lighthouseRun(path, name);
  const report = first.runtimeError ? await lighthouseRun(path, name) : first;
  if (report.runtimeError) throw new Error(`Lighthouse could not measure ${name} twice: ${report.runtimeError.code} ${report.runtimeError.message}`);
  const scores = Object.fromEntries(Object.keys(FLOORS).map((k) => [k, report.categories[k as keyof typeof FLOORS].score]));
  return { scores, cls: report.audits['cumulative-layout-shift'].numericValue ?? 0 };
}

async function lighthouseRun(path: string, name: string): Promise<Report> {
  const out = join(SCREENSHOT_DIR, '..', `lighthouse-${name}.json`);
  mkdirSync(join(SCREENSHOT_DIR, '..'), { recursive: true });
  const measured = run(
    process.execPath,
    [
      join(process.cwd(), 'node_modules', 'lighthouse', 'cli', 'index.js'),
      `${t.baseUrl}${path}`,
      `--chrome-flags=${CHROME_FLAGS}`,
      `--only-categories=${Object.keys(FLOORS).join(',')}`,
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

it('scores at least 90 / 98 / 100 / 100 with CLS at most 0.05 on home, product and search (mobile)', async () => {
  const [product] = await t.sql(`select id from product where status = 'published' order by id limit 1`);
  const pages = { home: '/', product: `/products/${product.id}`, search: `/search?q=${encodeURIComponent('咖啡')}` };
  const results: Record<string, { scores: Record<string, number>; cls: number }> = {};
  for (const [name, path] of Object.entries(pages)) results[name] = await lighthouse(path, name);
  writeFileSync(join(SCREENSHOT_DIR, '..', 'lighthouse.json'), JSON.stringify(results, null, 2));
  const below = Object.entries(results).flatMap(([name, r]) => [
    ...Object.entries(FLOORS).filter(([k, floor]) => r.scores[k] < floor).map(([k, floor]) => `${name} ${k} ${r.scores[k]} < ${floor}`),
    ...(r.cls > MAX_CLS ? [`${name} CLS ${r.cls} > ${MAX_CLS}`] : []),
  ]);
  expect(below).toEqual([]);
}, 600_000);
