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
  // An anonymous read (most of a storefront's traffic) is told apart by two field reads.
  const authorization = req.headers.authorization;
  if ((req.method !== 'GET' && req.method !== 'HEAD') || (authorization !== undefined && bearerToken(authorization))) res.setHeader('Cache-Control', 'no-store');
  next();
}

export const securityHeaders: RequestHandler[] = [helmetHeaders, noStore];
