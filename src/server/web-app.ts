import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type Request, type Response, type NextFunction, type RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { pageBody, precompressedTwin, readEncodedPage, type EncodedPage } from './precompressed.js';

/**
 * Serves the storefront web app (`web/`, built by `npm run build` into `dist/web`) at `/`.
 * - `/assets/...`: the hashed bundles, cached for a year; their brotli or gzip twin (written by the
 *   build) when the client accepts it, with `Content-Encoding` and `Vary: Accept-Encoding`.
 * - a storefront route (`/`, `/products/12`, `/cart`...): `index.html` with 200 (history fallback), or
 *   the build's copy of it for that route (`route-pages.json`: the copy names the route's chunks for
 *   the browser to fetch while it parses the page).
 * - any other path asked for as HTML: `index.html` with 404 (the app shows its not-found page).
 * `/api`, `/graphql`, `/healthz` and `/readyz` are never answered here: they keep their own answers,
 * including the JSON 404s of the common error shape; so do non-HTML requests for unknown paths.
 */

/** First path segments of the web app's routes (web/src/app/router.tsx). */
const APP_ROUTES = new Set([
  'products', 'shops', 'categories', 'brands', 'search', 'flash-sales', 'group-buys', 'points', 'coupons',
  'login', 'register', 'cart', 'checkout', 'orders', 'account', 'favorites', 'ops', 'join-shop', 'join-staff', 'open-shop',
  // The shop and platform consoles.
  'merchant', 'admin',
]);
const ASSET_NAME = /^\/assets\/[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.[a-z0-9]+$/;
const RESERVED = /^\/(api|graphql|healthz|readyz|demo-images)(\/|$)/;

/**
 * The page's Content-Security-Policy: scripts and styles of our own origin only, plus the page's own
 * inline blocks by their hashes (the build inlines the stylesheet and the route preload script,
 * web/vite.config.ts); API calls to our origin (HTTP and websocket). With Stripe offered, the origins
 * Stripe.js documents for its script, its card frames and its API (https://docs.stripe.com/security/guide#content-security-policy):
 * the card is typed into Stripe's frame and never reaches this server.
 */
export function pageCsp(html: string, options: { stripe?: boolean } = {}): string {
  const stripe = options.stripe ?? false;
  const hashes = (tag: 'script' | 'style') =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map(([, body]) => ` 'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`).join('');
  return [
    "default-src 'self'",
    `script-src 'self'${hashes('script')}${stripe ? ' https://js.stripe.com' : ''}`,
    `style-src 'self'${hashes('style')}`,
    "img-src 'self' https: data:",
    `connect-src 'self' ws: wss:${stripe ? ' https://api.stripe.com' : ''}`,
    ...(stripe ? ['frame-src https://js.stripe.com https://hooks.stripe.com'] : []),
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function isAppRoute(path: string): boolean {
  if (path === '/') return true;
  const first = path.split('/')[1];
  return APP_ROUTES.has(first);
}

/** The project folder: the nearest folder above this file holding package.json (from `src/` or `dist/src/`). */
function projectRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('package.json not found above src/server');
    dir = parent;
  }
  return dir;
}

export function webAppDir(): string {
  return join(projectRoot(), 'dist', 'web');
}

/** A built HTML page of the web app: never cached without asking (its asset names change with each build). */
export function sendPage(res: Response, status: number, html: Buffer, csp: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-cache',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
    })
    .send(html);
}

/** A route the build made its own copy of `index.html` for (web/vite.config.ts, its route preload plugin). */
interface RoutePage {
  path: RegExp;
  page: EncodedPage;
  csp: string;
}

function readRoutePages(dir: string, options: { stripe?: boolean }): RoutePage[] {
  const file = join(dir, 'route-pages.json');
  if (!existsSync(file)) return [];
  const listed = JSON.parse(readFileSync(file, 'utf8')) as { path: string; page: string }[];
  return listed.map(({ path, page }) => {
    const encoded = readEncodedPage(join(dir, page));
    return { path: new RegExp(path), page: encoded, csp: pageCsp(encoded.plain.toString('utf8'), options) };
  });
}

/** The handler, or null (logged) when the app has not been built. */
export function webApp(log: Logger, dir = webAppDir(), options: { stripe?: boolean } = {}): RequestHandler | null {
  const indexFile = join(dir, 'index.html');
  if (!existsSync(indexFile)) {
    log.warn({ dir }, 'web app not built (run `npm run build`): / is not served');
    return null;
  }
  const index = readEncodedPage(indexFile);
  const csp = pageCsp(index.plain.toString('utf8'), options);
  const assets = express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true });
  const routePages = readRoutePages(dir, options);
  const sendIndex = (req: Request, res: Response, status: number) => {
    const route = status === 200 ? routePages.find((r) => r.path.test(req.path)) : undefined;
    if (route) return sendPage(res, status, pageBody(req, res, route.page), route.csp);
    sendPage(res, status, pageBody(req, res, index), csp);
  };
  return (req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || RESERVED.test(req.path)) return next();
    if (req.path.startsWith('/assets/')) {
      res.vary('Accept-Encoding');
      // Built names are flat and plain (`index-1a2b3c.js`): anything else is left to the static handler's own checks.
      const twin = ASSET_NAME.test(req.path) ? precompressedTwin(req, join(dir, req.path)) : null;
      if (twin) {
        res.type(extname(req.path)).set({ 'Content-Encoding': twin.encoding, 'Cache-Control': 'public, max-age=31536000, immutable' });
        res.sendFile(twin.path, { acceptRanges: false, cacheControl: false }, (error) => {
          if (error) next(error);
        });
        return;
      }
      req.url = req.url.slice('/assets'.length);
      assets(req, res, () => {
        req.url = `/assets${req.url}`;
        next();
      });
      return;
    }
    if (isAppRoute(req.path)) return sendIndex(req, res, 200);
    if (req.accepts(['json', 'html']) === 'html') return sendIndex(req, res, 404);
    next();
  };
}
