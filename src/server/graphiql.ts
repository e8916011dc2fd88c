import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Request, Response, NextFunction, RequestHandler } from 'express';
import type { Logger } from '../logger.js';
import { sendPage, webAppDir } from './web-app.js';

/**
 * GraphiQL's page (web/graphiql.html, built with the web app into `dist/web`), answered at
 * `GET /graphql` to a browser: a request that prefers HTML. Every other request on the path (JSON,
 * GraphQL over GET) goes on to Apollo. Its scripts, styles, fonts and Monaco's workers are files of
 * our own origin under `/assets`, served by the web app's handler.
 */

/**
 * Own origin only, as for the storefront, except styles: Monaco (GraphiQL's editor) writes `<style>`
 * elements and style attributes as it lays out, which a policy without 'unsafe-inline' blocks.
 */
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self' ws: wss:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const GRAPHQL_TYPES = ['application/json', 'application/graphql-response+json', 'text/html'];

/** The handler, or null (logged) when the web app, GraphiQL's page included, has not been built. */
export function graphiqlPage(log: Logger, dir = webAppDir()): RequestHandler | null {
  const file = join(dir, 'graphiql.html');
  if (!existsSync(file)) {
    log.warn({ dir }, 'GraphiQL not built (run `npm run build`): GET /graphql serves no page');
    return null;
  }
  const page = readFileSync(file);
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.accepts(GRAPHQL_TYPES) !== 'text/html') return next();
    sendPage(res, 200, page, CSP);
  };
}
