import type { Request, Response, NextFunction, RequestHandler } from 'express';

/**
 * CORS for the API doors (`/api`, `/graphql`): a page on one of `CORS_ORIGINS` may call them from a
 * browser. No credentials mode: the doors authenticate by bearer token, which the page sends itself,
 * never by cookie, so `Access-Control-Allow-Credentials` is never sent. An origin not on the list
 * gets no CORS header at all (the browser then keeps the answer from the page), and its preflight
 * goes on to the route like any OPTIONS request.
 */
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
const REQUEST_HEADERS = 'Authorization, Content-Type, Idempotency-Key, X-Shop-Id';
/** Answer headers a page may read besides the CORS-safelisted ones. */
const EXPOSED_HEADERS = 'X-Request-Id, X-Trace-Id, Retry-After';
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

export function corsPolicy(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction) => {
    // The answer depends on Origin whichever origin asks: a shared cache must not hand one origin's to another.
    res.vary('Origin');
    const origin = req.header('origin');
    if (origin === undefined || !allowed.has(origin)) return next();
    res.set('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.header('access-control-request-method') !== undefined) {
      res
        .status(204)
        .set({
          'Access-Control-Allow-Methods': METHODS,
          'Access-Control-Allow-Headers': REQUEST_HEADERS,
          'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_SECONDS),
        })
        .end();
      return;
    }
    res.set('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    next();
  };
}
