import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { loadConfig } from '../src/config.js';
import { totalsHeld } from '../src/services/catalog/listing-total-cache.js';
import { facetsHeld } from '../src/services/catalog/search/facets-cache.js';
import { rankingCandidatesHeld, rankingsHeld } from '../src/services/catalog/sales-ranking-cache.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { shopWithProduct } from './support/shopping.js';

/**
 * The per-process memories that grow with traffic are each bound by a setting (issue 42): listing
 * totals (LISTING_TOTALS_CACHE_FILTERS), search facets (FACETS_CACHE_FILTERS), the rankings' products
 * (RANKING_CACHE_PRODUCTS). The sign-in counts' bound (SIGN_IN_COUNTS_MAX_KEYS) is held in
 * test/auth-throttle.test.ts, where two processes' counts are exchanged.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ memoryBounds: { listingTotalFilters: 2, facetFilters: 2, rankingProducts: 3, signInCountKeys: 5 }, metrics: { exposure: 'public', token: undefined } });
});
afterAll(() => t?.close());

describe('memory bounds', () => {
  it('are read from the settings, with their defaults, and refuse nonsense', () => {
    expect(loadConfig({}).memoryBounds).toEqual({ listingTotalFilters: 10_000, facetFilters: 2_000, rankingProducts: 4_000_000, signInCountKeys: 200_000 });
    expect(loadConfig({ LISTING_TOTALS_CACHE_FILTERS: '50', FACETS_CACHE_FILTERS: '60', RANKING_CACHE_PRODUCTS: '70', SIGN_IN_COUNTS_MAX_KEYS: '80' }).memoryBounds)
      .toEqual({ listingTotalFilters: 50, facetFilters: 60, rankingProducts: 70, signInCountKeys: 80 });
    for (const name of ['LISTING_TOTALS_CACHE_FILTERS', 'FACETS_CACHE_FILTERS', 'RANKING_CACHE_PRODUCTS', 'SIGN_IN_COUNTS_MAX_KEYS']) {
      expect(() => loadConfig({ [name]: '0' })).toThrow(name);
      expect(() => loadConfig({ [name]: 'lots' })).toThrow(name);
    }
  });

  it('hold no more listing totals, facets and ranked products than their settings say, however many filters are asked', async () => {
    const shops = await Promise.all([1, 2, 3, 4, 5].map(() => shopWithProduct(t, [{ price: 100, stock: 5 }])));
    for (const { shop } of shops) {
      expect((await t.api('GET', `/api/products?shop_id=${shop.id}`)).status).toBe(200);
      expect((await t.api('GET', `/api/products/facets?shop_id=${shop.id}`)).status).toBe(200);
      expect((await t.api('GET', `/api/products?shop_id=${shop.id}&sort=sales`)).status).toBe(200);
    }
    const em = t.em();
    expect(totalsHeld(em)).toBeGreaterThan(0);
    expect(totalsHeld(em)).toBeLessThanOrEqual(2);
    expect(facetsHeld(em)).toBeGreaterThan(0);
    expect(facetsHeld(em)).toBeLessThanOrEqual(2);
    expect(rankingCandidatesHeld(em)).toBeGreaterThan(0);
    expect(rankingCandidatesHeld(em)).toBeLessThanOrEqual(3);
  });

  it('are reported at /metrics as what each cache holds, in entries and, for the typed arrays, in bytes', async () => {
    const { shop } = await shopWithProduct(t, [{ price: 100, stock: 5 }]);
    // Fills each cache with this shop's filter (the test before may have left them at their bound).
    expect((await t.api('GET', `/api/products?shop_id=${shop.id}`)).status).toBe(200);
    expect((await t.api('GET', `/api/products/facets?shop_id=${shop.id}`)).status).toBe(200);
    expect((await t.api('GET', `/api/products?shop_id=${shop.id}&sort=sales`)).status).toBe(200);
    const em = t.em();
    const text = await (await fetch(`${t.baseUrl}/metrics`)).text();
    const sample = (name: string, cache: string) => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}{cache="${cache}"} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };
    const rankings = rankingsHeld(em);
    expect(rankings.entries).toBeGreaterThan(0);
    expect(sample('mallfront_cache_entries', 'listing_totals')).toBe(totalsHeld(em));
    expect(sample('mallfront_cache_entries', 'facets')).toBe(facetsHeld(em));
    expect(sample('mallfront_cache_entries', 'sales_rankings')).toBe(rankings.entries);
    expect(sample('mallfront_cache_entries', 'ranking_candidates')).toBe(rankings.candidates);
    // A ranking of a filter holds an id and a sold count (4 bytes each) per candidate.
    expect(sample('mallfront_cache_bytes', 'sales_rankings')).toBe(rankings.candidates * 8);
    // The tally: 4 bytes per product id up to the highest sold (0 while not loaded), never more than the catalog's ids.
    const tally = sample('mallfront_cache_bytes', 'sales_tally');
    const [{ top }] = await em.getConnection().execute<{ top: number }[]>('select max(id)::int as top from product');
    expect(tally).toBeGreaterThanOrEqual(0);
    expect(tally! % 4).toBe(0);
    expect(tally!).toBeLessThanOrEqual((top + 1) * 4 * 2);
  });
});

describe('what a process carries from the start', () => {
  it('leaves sharp (libvips, about 24 MB resident) unloaded until a picture comes', async () => {
    // The compiled server, as production starts it, in a process of its own (this one has loaded sharp for other tests).
    const app = pathToFileURL(join(process.cwd(), 'dist/src/server/app.js')).href;
    const probe = `await import(${JSON.stringify(app)});
      const { createRequire } = await import('node:module');
      const cache = createRequire(import.meta.url).cache;
      console.log(Object.keys(cache).filter((file) => file.includes('/node_modules/sharp/')).length);
      process.exit(0);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', probe]);
    expect(stdout.trim()).toBe('0');
    // And the first picture loads it: the upload path still works (test/media.test.ts covers it whole).
    const { readPicture } = await import('../src/services/media/thumbnails.js');
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');
    expect(await readPicture(png)).toEqual({ format: 'png', width: 1, height: 1 });
  });
});

