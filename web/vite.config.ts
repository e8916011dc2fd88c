import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { defineConfig, type IndexHtmlTransformContext, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { formatDocument, stringifyDocument, type TypedDocumentNode } from '@urql/core';
import { documentImports } from './vite-document-imports.js';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The API server `npm run dev:web` proxies to (start it with `npm start`). */
const api = process.env.MALLFRONT_API ?? 'http://localhost:4000';

/** Text files worth compressing; smaller ones are sent as they are (the headers would outweigh the saving). */
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;
const MIN_BYTES = 1024;

/**
 * Writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9) twin of every built text file, once
 * at build time, so the server sends them with `Content-Encoding` and spends no CPU per request
 * (src/server/precompressed.ts).
 */
function precompress(): Plugin {
  return {
    name: 'mallfront-precompress',
    apply: 'build',
    writeBundle(options) {
      const dir = options.dir!;
      const walk = (at: string): string[] => readdirSync(at, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(at, e.name)) : [join(at, e.name)]));
      for (const file of walk(dir).filter((f) => COMPRESSIBLE.test(f))) {
        const body = readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        writeFileSync(`${file}.br`, brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }));
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * A route whose data the page starts loading itself: while the app's code downloads, `index.html`
 * preloads the route's page chunk and, when it has one, sends its first GraphQL query, which the app
 * then takes instead of asking again (web/src/api/preloaded-query.ts). Paths as in web/src/app/router.tsx.
 */
interface PreloadRoute {
  /** The path, anchored, with groups for the query's variables. */
  path: string;
  /** The page module the route loads lazily. */
  page: string;
  query?: {
    /** The page's first query, by its operation name (its generated document). */
    operation: string;
    /** Variables read from the path: name -> group of `path`, as an integer. */
    fromPath?: Record<string, number>;
    /**
     * The one query-string parameter the page may have been opened with for the preload to apply, as
     * a keyword: trimmed, at most 200 characters, with a letter or digit (web/src/search/keyword.ts).
     * Any other parameter, or none, and the app asks itself.
     */
    keyword?: string;
    /** The page's other variables, as it sets them when the URL has nothing else. */
    constants?: Record<string, string | number | null>;
    /** The generated documents holding the operation, when not the storefront's (`src/gql/graphql.ts`). */
    documents?: string;
  };
}

const PRELOAD_ROUTES: PreloadRoute[] = [
  { path: '^/$', page: 'src/pages/home-page.tsx', query: { operation: 'HomePage' } },
  { path: '^/products/(\\d+)$', page: 'src/pages/product-page.tsx', query: { operation: 'ProductPage', fromPath: { id: 1 } } },
  {
    path: '^/search$',
    page: 'src/pages/search-page.tsx',
    // listingVariables() and useSearchFilters() of a URL holding only `q` (web/src/ui/listing-params.ts: 12 a page).
    query: {
      operation: 'SearchPage',
      keyword: 'q',
      constants: { sort: null, order: null, brandId: null, page: 1, pageSize: 12, category: null, shopId: null, priceMin: null, priceMax: null },
    },
  },
  // The consoles: their chunks and stylesheet come with the page, and the frame's query (who the
  // member is, in which shop, with which permissions) leaves with it.
  { path: '^/merchant(/.*)?$', page: 'src/console/merchant/merchant-console.tsx', query: { operation: 'ConsoleShell', documents: 'src/console/gql/graphql.ts' } },
  { path: '^/admin(/.*)?$', page: 'src/console/admin/admin-console.tsx', query: { operation: 'ConsoleShell', documents: 'src/console/gql/graphql.ts' } },
];

/**
 * The text the app sends for an operation: urql's own formatting (with `__typename`, which its cache
 * reads) of the generated document, read from the codegen output (`npm run codegen:web` runs first).
 */
function operationText(operation: string, documents = 'src/gql/graphql.ts'): string {
  const generated = readFileSync(join(root, documents), 'utf8');
  const line = generated.split('\n').find((l) => l.startsWith(`export const ${operation}Document = `));
  if (!line) throw new Error(`route preload: no generated document for ${operation}`);
  const json = line.slice(`export const ${operation}Document = `.length, line.lastIndexOf(' as unknown as '));
  return stringifyDocument(formatDocument(JSON.parse(json) as TypedDocumentNode));
}

/** Runs before the app's code: starts the route's query (no dependencies, old syntax: it is inline). */
const BOOTSTRAP = `(function (routes) {
  var path = location.pathname;
  for (var i = 0; i < routes.length; i++) {
    var route = routes[i], match = new RegExp(routes[i].path).exec(path);
    if (!match) continue;
    var query = route.query;
    if (!query) return;
    var variables = {}, headers = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' }, token = null;
    for (var name in query.constants) variables[name] = query.constants[name];
    for (name in query.fromPath) variables[name] = Number(match[query.fromPath[name]]);
    if (query.keyword) {
      var params = new URLSearchParams(location.search), names = [];
      params.forEach(function (value, key) { names.push(key); });
      var keyword = (params.get(query.keyword) || '').trim();
      if (names.length !== 1 || names[0] !== query.keyword || Array.from(keyword).length > 200 || !/[\\p{L}\\p{M}\\p{N}]/u.test(keyword)) return;
      variables[query.keyword] = keyword;
    }
    // The session as web/src/auth/session.tsx keeps it; an expired one is not sent (the app drops it).
    try { var session = JSON.parse(localStorage.getItem('mallfront.session') || 'null'); if (session && Date.parse(session.expiresAt) > Date.now()) token = session.token; } catch (e) { token = null; }
    if (typeof token === 'string') headers.authorization = 'Bearer ' + token;
    // The shop a member of several works in, as web/src/api/client.ts sends it.
    var shop = token ? Number(localStorage.getItem('mallfront.shop')) : 0;
    if (shop > 0) headers['x-shop-id'] = String(shop);
    window.__mallfrontPreload = {
      operationName: query.operation, variables: variables, authorization: headers.authorization || null, shop: headers['x-shop-id'] || null,
      response: fetch('/graphql', { method: 'POST', headers: headers, body: JSON.stringify({ operationName: query.operation, query: query.text, variables: variables }) })
    };
    return;
  }
})`;

/** Where the build lists the route pages for the server: `[{ path, page }]` (src/server/web-app.ts). */
const ROUTE_PAGES = 'route-pages.json';

/**
 * Route data loading, and the first screen in the page itself (build only):
 * - the page's stylesheet is inlined (one request less before the first paint);
 * - an inline script sends the route's first query in parallel with the app's code;
 * - each preloaded route gets its own copy of the page, `route-<n>.html`, with `<link rel="modulepreload">`
 *   tags for the route's page chunk and its imports: the browser's preload scanner fetches them while
 *   the page is parsed. (Made by a script instead, they cost 50 ms of the phone's main thread before
 *   the first paint.) The server sends the copy whose path matches, and `index.html` otherwise.
 * The server allows exactly these inline blocks by their hashes (src/server/web-app.ts).
 */
function routePreload(): Plugin {
  let routeFiles: string[][] = [];
  let routeStyles: string[][] = [];
  return {
    name: 'mallfront-route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html: string, ctx: IndexHtmlTransformContext) {
        const bundle = ctx.bundle;
        if (!bundle || !ctx.chunk || !ctx.filename.endsWith('index.html')) return html;
        const chunks = Object.values(bundle).flatMap((item) => (item.type === 'chunk' ? [item] : []));
        // What the entry loads anyway is not preloaded again.
        const loaded = new Set([ctx.chunk.fileName, ...ctx.chunk.imports]);
        const withImports = (fileName: string, seen = new Set<string>()): string[] => {
          if (seen.has(fileName) || loaded.has(fileName)) return [];
          seen.add(fileName);
          const chunk = chunks.find((c) => c.fileName === fileName);
          return [fileName, ...(chunk?.imports ?? []).flatMap((f) => withImports(f, seen))];
        };
        routeFiles = PRELOAD_ROUTES.map((route) => {
          const page = chunks.find((c) => c.facadeModuleId === join(root, route.page));
          if (!page) throw new Error(`route preload: no chunk for ${route.page}`);
          return withImports(page.fileName).map((f) => `/${f}`);
        });
        // The stylesheets those chunks import: linked in the route's page, so the first paint does not
        // wait for the app to ask for them after its code has run (the app then finds them there).
        routeStyles = routeFiles.map((files) => [
          ...new Set(files.flatMap((file) => [...(chunks.find((c) => `/${c.fileName}` === file)?.viteMetadata?.importedCss ?? [])].map((css) => `/${css}`))),
        ]);
        const routes = PRELOAD_ROUTES.map((route) => ({ path: route.path, query: route.query ? { ...route.query, text: operationText(route.query.operation, route.query.documents) } : null }));
        const script = `${BOOTSTRAP}(${JSON.stringify(routes).replace(/</g, '\\u003c')});`;
        // Before the app's module script, so its query is on its way while the app's code downloads.
        let out = html.replace(/<script type="module"/, (tag) => `<script>${script}</script>\n    ${tag}`);
        // The stylesheet in the page: its link becomes a <style> block.
        for (const [fileName, asset] of Object.entries(bundle)) {
          if (asset.type !== 'asset' || !fileName.endsWith('.css')) continue;
          const link = out.match(/<link rel="stylesheet"[^>]*>/g)?.find((tag) => tag.includes(`href="/${fileName}"`));
          if (!link) continue;
          const css = typeof asset.source === 'string' ? asset.source : Buffer.from(asset.source).toString('utf8');
          out = out.replace(link, () => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`);
        }
        return out;
      },
    },
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const index = bundle['index.html'];
        if (!index || index.type !== 'asset') return;
        const html = String(index.source);
        const pages = PRELOAD_ROUTES.map((route, n) => {
          const links = [...routeStyles[n].map((file) => `<link rel="stylesheet" crossorigin href="${file}">`), ...routeFiles[n].map((file) => `<link rel="modulepreload" crossorigin href="${file}">`)].join('\n    ');
          const fileName = `route-${n}.html`;
          const page = html.replace('</head>', () => `  ${links}\n  </head>`);
          this.emitFile({ type: 'asset', fileName, source: page });
          return { path: route.path, page: fileName };
        });
        this.emitFile({ type: 'asset', fileName: ROUTE_PAGES, source: `${JSON.stringify(pages, null, 2)}\n` });
      },
    },
  };
}

export default defineConfig({
  root,
  plugins: [documentImports(), react(), precompress(), routePreload()],
  build: {
    // Served by the API server at `/` (src/server/web-app.ts).
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    // The build prints each chunk with its gzip size; the first page's total is checked by a test.
    reportCompressedSize: true,
    rollupOptions: {
      // GraphiQL is a page of its own (served at GET /graphql), never part of the storefront's bundle.
      input: { main: fileURLToPath(new URL('index.html', import.meta.url)), graphiql: fileURLToPath(new URL('graphiql.html', import.meta.url)) },
      output: {
        codeSplitting: {
          // Only the modules named: their libraries stay in the chunks they were in.
          includeDependenciesRecursively: false,
          // The small pieces every storefront page draws with, in one chunk: split by module they were
          // 8-14 requests of under 2 kB before a page could render, and a phone's connection takes 6
          // at a time (Lighthouse's simulated phone queued the page's query behind them).
          groups: [{ name: 'page-kit', test: /\/web\/src\/(ui|money|auth)\/[\w-]+\.tsx?$/ }],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/graphql': { target: api, ws: true, changeOrigin: true },
      '/api': { target: api, changeOrigin: true },
    },
  },
});
