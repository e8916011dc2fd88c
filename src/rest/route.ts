import type { Request, Response, NextFunction, Router } from 'express';
import { AppError } from '../errors.js';
import type { ServiceContext } from '../shared/context.js';
import { primaryRetryOf } from '../shared/replica-reads.js';
import { requestLocals } from './request-locals.js';
import { camelKeys, snakeKeys } from '../shared/case.js';
import { requestRefused } from './errors.js';
import { queryParameters, registerOperation, type Method, type OperationDoc } from './openapi/operation.js';
import { requestProblems } from './request-rules.js';
import { doorGuard } from './access.js';
import { operationName } from './operation-names.js';

/** The service context the `/api` middleware made for this request (src/server/app.ts). */
function routeContext(res: Response): ServiceContext {
  const { ctx } = requestLocals(res);
  if (!ctx) throw new Error('no service context: the /api context middleware did not run');
  return ctx;
}

/** What a route handler sees: the service context, path params, query and the camelCased body. */
export interface RestCall {
  ctx: ServiceContext;
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  header: (name: string) => string | undefined;
  /**
   * Every request header, by lower-case name (a provider's notification carries its signature in
   * one). A function: only the routes that need them all pay for the copy.
   */
  headers: () => Record<string, string | undefined>;
  /** The body exactly as it arrived (signatures cover the bytes); empty without a JSON body. */
  rawBody: () => string;
  /** An upload's bytes (a media route's body, any media type but JSON); undefined for a JSON body or none. */
  fileBody: () => Buffer | undefined;
}

/** A handler returns the body (sent as snake_case JSON), or `{ status, body }` for another status. */
export type RestHandler = (call: RestCall) => Promise<unknown>;

/** One method of a route: its OpenAPI description (see openapi/operation.ts) and its handler. */
export interface RestOperation {
  doc: OperationDoc;
  handle: RestHandler;
}

export class Reply {
  constructor(readonly status: number, readonly body: unknown, readonly headers: Record<string, string> = {}) {}
}

/** A success body that is not JSON (a CSV export), sent as it is with its media type. */
export class TextReply {
  constructor(readonly contentType: string, readonly body: string, readonly headers: Record<string, string> = {}) {}
}

/** The methods a path answers, as its `Allow` header lists them: Express answers HEAD wherever GET is. */
export function allowedMethods(methods: string[]): string[] {
  const allowed = methods.map((m) => m.toUpperCase());
  return allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed;
}

/** Where the server mounts the REST router (app.ts). */
export const API_MOUNT = '/api';

/**
 * Registers one path with its methods, and their descriptions for the OpenAPI document. Any other
 * method on the path answers 405 in the error shape with an `Allow` header (RFC 9110), so a wrong
 * method is never mistaken for an unknown route.
 */
export function route(router: Router, path: string, operations: Partial<Record<Method, RestOperation>>): void {
  const r = router.route(path);
  // The template as a label of the request metrics: made here once, never from the request's own path.
  const template = API_MOUNT + path;
  for (const [method, { doc, handle: handler }] of Object.entries(operations) as [Method, RestOperation][]) {
    registerOperation(method, path, doc);
    const rules = { queryNames: new Set(queryParameters(doc, path).map((p) => p.name)), idempotent: doc.idempotent === true };
    const guard = doorGuard(doc.permission);
    // What a write runs as, one name for both doors: the audit log records it (shared/audit.ts).
    const operation = method === 'get' ? undefined : operationName(method, path);
    r[method](async (req: Request, res: Response, next: NextFunction) => {
      requestLocals(res).route = template;
      try {
        // Who may call comes first: a caller who may not gets 401 or 403 before any of the request
        // (a body that did not parse, a parameter) is looked at (docs/api.md, "Conventions").
        const ctx = routeContext(res);
        guard(ctx);
        if (operation) ctx.operation = operation;
        const { bodyError } = requestLocals(res);
        if (bodyError !== undefined) return next(bodyError);
        const query = req.query;
        const problems = requestProblems(req, query, rules);
        if (problems.length > 0) throw requestRefused(problems);
        const call: RestCall = {
          ctx,
          params: req.params as Record<string, string>,
          query: camelKeys(query) as Record<string, unknown>,
          body: camelKeys(req.body ?? {}),
          header: (name) => req.header(name),
          headers: () => Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value])),
          rawBody: () => requestLocals(res).rawBody?.toString('utf8') ?? '',
          fileBody: () => requestLocals(res).fileBody,
        };
        const result = await handler(call).catch((error: unknown) => {
          // A read the replica lost under it runs once more on the primary (shared/replica-reads.ts).
          const onPrimary = primaryRetryOf(call.ctx, error);
          if (!onPrimary) throw error;
          return handler({ ...call, ctx: onPrimary });
        });
        if (result instanceof TextReply) {
          res.set(result.headers).type(result.contentType).status(200).send(result.body);
        } else if (result instanceof Reply) {
          res.set(result.headers).status(result.status);
          if (result.body === undefined) res.end();
          else res.json(snakeKeys(result.body));
        } else {
          res.status(200).json(snakeKeys(result));
        }
      } catch (error) {
        next(error);
      }
    });
  }
  const allowed = allowedMethods(Object.keys(operations));
  r.all((req: Request, res: Response, next: NextFunction) => {
    requestLocals(res).route = template;
    res.set('Allow', allowed.join(', '));
    const { bodyError } = requestLocals(res);
    if (bodyError !== undefined) return next(bodyError);
    next(new AppError('METHOD_NOT_ALLOWED', 405, `${req.method} is not allowed on this route`, { allowed }));
  });
}
