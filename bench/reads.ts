import { BENCH_WORDS } from './load-data.js';
import { measure, type Figures, type LoadOptions } from './load.js';
import type { BenchContext } from './context.js';

export const GRAPHQL_LISTING = `{ products(pageSize: 20) { items { id name soldCount shop { id name profile { logoUrl } } skus { id price stock } } } }`;

/** The REST listing's page, field for field: GraphQL's cost against REST's for the same answer (issue 33). */
export const GRAPHQL_REST_FIELDS = `{ products(pageSize: 20) { items { id name description imageUrl status priceFrom shop { id slug name } categoryId brandId createdAt updatedAt soldCount } page pageSize total } }`;

/** A read the bench measures: what to ask for, without the connection count. */
export interface ReadTarget {
  name: string;
  request: (ctx: BenchContext) => Omit<LoadOptions, 'connections'>;
}

const get = (path: string): ReadTarget['request'] => (ctx) => ({ url: ctx.base + path });

/** Product pages in a fixed spread over the whole catalog (the same sequence on every run). */
function detail(ctx: BenchContext): Omit<LoadOptions, 'connections'> {
  const ids = ctx.fixtures.productIds;
  let next = 0;
  return {
    url: ctx.base,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/api/products/${ids[(next = (next * 7919 + 1) % ids.length)]}` }) }],
  };
}

const graphql = (query: string): ReadTarget['request'] => (ctx) => ({
  url: `${ctx.base}/graphql`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ query }),
});

const q = encodeURIComponent;
export const LISTING: ReadTarget = { name: 'REST listing (default order)', request: get('/api/products?page_size=20') };
/**
 * The same listing for a client that accepts compressed answers (autocannon sends no
 * `Accept-Encoding`, so the other scenarios get plain JSON): what compression costs per request.
 */
const compressedListing = (encoding: 'gzip' | 'br'): ReadTarget => ({
  name: `REST listing (default order), Accept-Encoding: ${encoding}`,
  request: (ctx) => ({ url: `${ctx.base}/api/products?page_size=20`, headers: { 'accept-encoding': encoding } }),
});
export const SALES_IN_TOP_CATEGORY: ReadTarget = {
  name: 'REST listing sort=sales in a top-level category',
  request: (ctx) => ({ url: `${ctx.base}/api/products?page_size=20&sort=sales&category=${ctx.fixtures.topCategory}` }),
};
export const DETAIL: ReadTarget = { name: 'REST product detail', request: detail };
export const GRAPHQL: ReadTarget = { name: 'GraphQL listing (20 products, shops, profiles, SKUs, sold_count)', request: graphql(GRAPHQL_LISTING) };
export const GRAPHQL_AS_REST: ReadTarget = { name: "GraphQL listing, the REST listing's fields", request: graphql(GRAPHQL_REST_FIELDS) };
export const SEARCH_COMMON: ReadTarget = { name: 'REST search, common word', request: get(`/api/products?page_size=20&q=${q(BENCH_WORDS.common)}`) };

/** The read scenarios, each alone at the bench's connection count: the points of the cost curves. */
export const READS: ReadTarget[] = [
  LISTING,
  compressedListing('gzip'),
  compressedListing('br'),
  { name: 'REST listing sort=price', request: get('/api/products?page_size=20&sort=price&order=asc') },
  SALES_IN_TOP_CATEGORY,
  DETAIL,
  { name: 'REST home content', request: get('/api/content/home') },
  SEARCH_COMMON,
  { name: 'REST search, rare word', request: get(`/api/products?page_size=20&q=${q(BENCH_WORDS.rare)}`) },
  { name: 'REST search, partial CJK word', request: get(`/api/products?page_size=20&q=${q(BENCH_WORDS.cjkPart)}`) },
  { name: 'REST facets, common word', request: get(`/api/products/facets?q=${q(BENCH_WORDS.common)}`) },
  { name: 'REST suggestions, 2-letter prefix', request: get(`/api/search/suggest?q=${q(BENCH_WORDS.prefix)}`) },
  GRAPHQL,
  GRAPHQL_AS_REST,
];

/** The reads of the mixed-traffic scenario (issue 33): what a storefront serves while a sale writes. */
export const MIXED_READS: ReadTarget[] = [LISTING, SALES_IN_TOP_CATEGORY, DETAIL, GRAPHQL, SEARCH_COMMON];

export function measureRead(ctx: BenchContext, target: ReadTarget): Promise<Figures> {
  const { connections, seconds, warmup, rate } = ctx.options;
  return measure({ ...target.request(ctx), connections, ...(rate === undefined ? {} : { overallRate: rate }) } as LoadOptions, seconds, warmup, ctx.meter);
}
