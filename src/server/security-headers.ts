import type { Request, Response, NextFunction, RequestHandler } from 'express';
import helmet from 'helmet';
import { bearerToken } from './request-context.js';

/**
 * Helmet's standard headers (nosniff, no framing, `Referrer-Policy: no-referrer`, HSTS, same-origin
 * resource and opener policies, no `X-Powered-By`), with the Content-Security-Policy an API wants:
 * its answers are JSON, so nothing may load, run or frame it.
 */
const helmetHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  xFrameOptions: { action: 'deny' },
});

/**
 * No cache may keep an answer given to a signed-in caller (it holds their data), nor any answer to
 * a request that changes something, which covers every answer carrying a new token: login and
 * registration are POSTs, over REST and GraphQL alike.
 */
function noStore(req: Request, res: Response, next: NextFunction) {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || bearerToken(req.header('authorization'))) res.set('Cache-Control', 'no-store');
  next();
}

export const securityHeaders: RequestHandler[] = [helmetHeaders, noStore];

/**
 * Apollo's landing page (`GET /graphql` from a browser, outside production) loads Apollo's Sandbox
 * from its CDN and frames it, which the API's `default-src 'none'` would block. That page carries
 * its own nonce-based policy (a `<meta>` Content-Security-Policy allowing exactly Apollo's CDN), so
 * our header is dropped for it alone; JSON answers on the same path keep theirs.
 */
export function landingPagePolicy(req: Request, res: Response, next: NextFunction) {
  if (req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html') {
    res.removeHeader('Content-Security-Policy');
  }
  next();
}
