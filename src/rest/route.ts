import type { Request, Response, NextFunction, Router } from 'express';
import { AppError } from '../errors.js';
import type { ServiceContext } from '../shared/context.js';
import { requestLocals } from '../server/request-context.js';
import { camelKeys, snakeKeys } from './case.js';
import { unsafeTextProblems } from '../shared/unsafe-text.js';
import { validationFailed } from '../shared/validate.js';
import { registerOperation, type Method, type OperationDoc } from './openapi/operation.js';

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

/**
 * Registers one path with its methods, and their descriptions for the OpenAPI document. Any other
 * method on the path answers 405 in the error shape, so a wrong method is never mistaken for an
 * unknown route.
 */
export function route(router: Router, path: string, operations: Partial<Record<Method, RestOperation>>): void {
  const r = router.route(path);
  for (const [method, { doc, handle: handler }] of Object.entries(operations) as [Method, RestOperation][]) {
    registerOperation(method, path, doc);
    r[method](async (req: Request, res: Response, next: NextFunction) => {
      try {
        const call: RestCall = {
          ctx: routeContext(res),
          params: req.params as Record<string, string>,
          query: camelKeys(req.query) as Record<string, unknown>,
          body: camelKeys(req.body ?? {}),
          header: (name) => req.header(name),
        };
        // The one check of text for every route: NUL or a lone surrogate anywhere is VALIDATION_FAILED.
        const problems = unsafeTextProblems(call.params);
        unsafeTextProblems(call.query, '', problems);
        unsafeTextProblems(call.body, '', problems);
        if (problems.length > 0) throw validationFailed(problems);
        const result = await handler(call);
        if (result instanceof Reply) {
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
  const allowed = Object.keys(operations).map((m) => m.toUpperCase()).join(', ');
  r.all((req: Request, _res: Response, next: NextFunction) => {
    next(new AppError('METHOD_NOT_ALLOWED', 405, `${req.method} is not allowed on this route`, { allowed }));
  });
}
