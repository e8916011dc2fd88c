import type { Response } from 'express';
import type { ServiceContext } from '../shared/context.js';

/**
 * What the request pipeline keeps on `res.locals` (Express types them `any`): the request id from
 * the first middleware on, the service context on REST routes. The server sets them; the REST door
 * reads them.
 */
export interface RequestLocals {
  requestId: string;
  /**
   * The request's trace id, answered in `X-Trace-Id` and carried by its log lines: with tracing on,
   * the OpenTelemetry trace's (the caller's `traceparent` continued); off, `traceIdOf`'s.
   */
  traceId: string;
  /** With tracing on, the id of the request's HTTP span (its log lines carry it); unset when off. */
  spanId?: string;
  ctx?: ServiceContext;
  /**
   * Why the body could not be read (malformed JSON, too deep, too large...): kept, not answered, until
   * the route has checked who calls (route.ts), so that a caller who may not call learns 401 or 403.
   */
  bodyError?: unknown;
  /** The JSON body's bytes as received (kept by the body parser, no copy): signed notifications are checked over them. */
  rawBody?: Buffer;
  /** An upload's body, the file's bytes as received (media routes only: src/rest/media.routes.ts). */
  fileBody?: Buffer;
  /** The route template that took the request (`/api/products/:productId`), set once per route (route.ts): the metrics' label. */
  route?: string;
  /** The GraphQL operation's metrics label and type, noted by the GraphQL door's plugin (app.ts). */
  graphqlOperation?: string;
  graphqlType?: string;
}

export const requestLocals = (res: Response) => res.locals as RequestLocals;
