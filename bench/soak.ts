import { BENCH_VOCABULARY } from './load-data.js';
import { once, percentile, type LoadOptions } from './load.js';
import { GRAPHQL_LISTING } from './reads.js';
import { sampleResident, soakGrowth } from './memory.js';
import type { BenchContext } from './context.js';

/** A small deterministic generator (mulberry32): the same soak asks the same things on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Issue 33, item 7: the server's processes under a long read load must not grow without bound. The
 * load is a storefront's, varied so that whatever a process remembers per request shape (listing
 * totals, sales and relevance rankings, facets, prepared statements) meets many shapes: listings of
 * every category and brand in each order and over several pages, searches and facets of every word
 * of the catalog, suggestions of their prefixes, product pages all over the catalog, and the GraphQL
 * listing. RSS of each process is sampled every 5 seconds; the verdict is its slope (soakGrowth).
 */
export async function soak(ctx: BenchContext, serverPid: number, seconds: number) {
  const categories = (await ctx.db.query('select id from category order by id')).rows.map((r) => r.id as number);
  const brands = (await ctx.db.query('select id from brand order by id')).rows.map((r) => r.id as number);
  const products = ctx.fixtures.productIds;
  const next = random(33);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const q = encodeURIComponent;
  const paths: (() => string)[] = [
    () => `/api/products?page_size=20&page=${1 + Math.floor(next() * 5)}${pick(['', '&sort=price', '&sort=sales', '&sort=price&order=desc'])}`
      + (next() < 0.7 ? `&category=${pick(categories)}` : '') + (next() < 0.3 ? `&brand_id=${pick(brands)}` : ''),
    () => `/api/products?page_size=20&q=${q(pick(BENCH_VOCABULARY))}${next() < 0.3 ? '&sort=sales' : ''}`,
    () => `/api/products/facets?q=${q(pick(BENCH_VOCABULARY))}`,
    () => `/api/search/suggest?q=${q(pick(BENCH_VOCABULARY).slice(0, 1 + Math.floor(next() * 3)))}`,
    () => `/api/products/${pick(products)}`,
  ];
  const graphql = JSON.stringify({ query: GRAPHQL_LISTING });
  const latencies: number[] = [];
  let failed = 0;
  const sampler = sampleResident(serverPid, 5000);
  const result = await once(
    {
      url: ctx.base,
      connections: ctx.options.connections,
      duration: seconds,
      requests: [{
        method: 'GET',
        setupRequest: (req: any) => (next() < 1 / 6
          ? { ...req, method: 'POST', path: '/graphql', headers: { 'content-type': 'application/json' }, body: graphql }
          : { ...req, method: 'GET', path: pick(paths)(), headers: {}, body: undefined }),
      }],
    } as LoadOptions,
    (status, latencyMs) => {
      if (status >= 200 && status < 300) latencies.push(latencyMs);
      else failed++;
    },
  );
  const samples = sampler.stop();
  const idle = await idleBreakdown(ctx.base);
  return {
    seconds,
    connections: ctx.options.connections,
    requestsPerSecond: Math.round(latencies.length / seconds),
    p99Ms: Math.round(percentile(latencies, 0.99)),
    non2xx: failed,
    errors: result.errors + result.timeouts,
    residentMemory: soakGrowth(samples),
    ...(idle ? { idleBreakdown: idle } : {}),
    samples,
  };
}

/** The series of /metrics that say where a process's memory is (issue 42), in MB, or entries for the caches' counts. */
const BREAKDOWN: Record<string, string> = {
  'process_resident_memory_bytes': 'resident',
  'nodejs_heap_size_total_bytes': 'V8 heap committed',
  'nodejs_heap_size_used_bytes': 'V8 heap used',
  'nodejs_external_memory_bytes': 'external (array buffers, native)',
  'mallfront_cache_bytes{cache="sales_rankings"}': 'sales rankings (typed arrays)',
  'mallfront_cache_bytes{cache="sales_tally"}': 'sales tally',
  'mallfront_cache_entries{cache="sales_rankings"}': 'rankings held (entries)',
  'mallfront_cache_entries{cache="ranking_candidates"}': 'ranked products held (entries)',
  'mallfront_cache_entries{cache="listing_totals"}': 'listing totals held (entries)',
  'mallfront_cache_entries{cache="facets"}': 'facets held (entries)',
};

/**
 * Where the memory of an idle process is, after the soak: read from the server's own /metrics (the
 * server must serve them to the bench: METRICS=public in the bench's environment), after a quiet
 * moment. Undefined when /metrics does not answer. Bytes in MB; the caches' counts as they are.
 */
async function idleBreakdown(base: string): Promise<Record<string, number> | undefined> {
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const res = await fetch(`${base}/metrics`).catch(() => undefined);
  if (!res?.ok) return undefined;
  const text = await res.text();
  const out: Record<string, number> = {};
  for (const [series, name] of Object.entries(BREAKDOWN)) {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    if (line === undefined) continue;
    const value = Number(line.slice(series.length + 1).split(' ')[0]);
    out[name] = series.includes('_bytes') ? Math.round(value / 104857.6) / 10 : value;
  }
  return out;
}
