import type { Request, Response, NextFunction } from 'express';
import { AppError, errorBody, respelled, toAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { dbRefusalCount } from '../metrics.js';
import { requestLocals } from './request-locals.js';
import { snakePath } from '../shared/case.js';
import type { InputProblem } from '../shared/unsafe-text.js';
import { validationFailed } from '../shared/validate.js';

/** Unknown route under /api: 404 in the common shape. */
export function routeNotFound(req: Request, res: Response, next: NextFunction) {
  // A body that could not be read on a path no route takes is answered as it was before routing.
  const { bodyError } = requestLocals(res);
  if (bodyError !== undefined) return next(bodyError);
  next(new AppError('ROUTE_NOT_FOUND', 404, `No route ${req.method} ${req.path}`));
}

/** zlib's failures (`Z_DATA_ERROR`...), brotli's and zstd's: a body that does not decode with its Content-Encoding. */
const DECODING_FAILURE = /^(Z_|ERR_BROTLI|ERR__ERROR|ERR_ZSTD)/;

/** What Express's body parser and router put on the errors they raise (`http-errors`, zlib). */
interface FrameworkErrorFields {
  status?: unknown;
  code?: unknown;
  type?: unknown;
  limit?: unknown;
}

/**
 * Express's own rejections (body parser, path decoding) carry a `type` or a 4xx `status`; they become
 * our codes. Our own AppError thrown inside the body parser (the depth check) comes back wrapped as is.
 */
function frameworkError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  if (typeof error !== 'object' || error === null) return null;
  const e: FrameworkErrorFields = error;
  if (e.status === 400 && typeof e.code === 'string' && DECODING_FAILURE.test(e.code)) {
    return new AppError('MALFORMED_ENCODING', 400, 'The request body does not decode with its Content-Encoding');
  }
  switch (e.type) {
    case 'entity.parse.failed':
      return new AppError('MALFORMED_JSON', 400, 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 413, 'The request body is too large', typeof e.limit === 'number' ? { limit_bytes: e.limit } : undefined);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_ENCODING', 415, 'The request body encoding is not supported');
    case 'request.aborted':
      return new AppError('REQUEST_ABORTED', 400, 'The request was aborted');
    default:
      // Anything else the framework refused as the client's fault (a path that is not valid
      // percent-encoding, a body shorter than its Content-Length...). Our own code throws AppError only.
      if (typeof e.status === 'number' && e.status >= 400 && e.status < 500) {
        return new AppError('BAD_REQUEST', 400, 'The request could not be read');
      }
      return null;
  }
}

/** Errors whose problems already name fields as the request spelled them (headers, raw query names). */
const spelledAsSent = new WeakSet<AppError>();

/**
 * VALIDATION_FAILED for problems found in the request as it came (route.ts): their fields are the
 * client's own names (`Idempotency-Key`, an unknown `fooBar` parameter) and are not renamed.
 */
export function requestRefused(problems: InputProblem[]): AppError {
  const error = validationFailed(problems);
  spelledAsSent.add(error);
  return error;
}

function isProblem(value: unknown): value is { field: string; message: unknown } {
  return typeof value === 'object' && value !== null && typeof (value as { field?: unknown }).field === 'string';
}

/**
 * The error with the fields of its `details.problems` (and the message, which starts with the first
 * one) named as the REST request named them, in snake_case. GraphQL answers them as the services
 * name them, in camelCase.
 */
function inRestCase(error: AppError): AppError {
  if (spelledAsSent.has(error)) return error;
  const problems = error.details?.problems;
  if (!Array.isArray(problems) || !problems.some(isProblem)) return error;
  const renamed = problems.map((problem) => (isProblem(problem) ? { ...problem, field: snakePath(problem.field) } : problem));
  const first: unknown = problems[0];
  const message = isProblem(first) && error.message.startsWith(`${first.field}: `)
    ? `${snakePath(first.field)}${error.message.slice(first.field.length)}`
    : error.message;
  return respelled(error, message, { ...error.details, problems: renamed });
}

/** The one place where anything thrown during a REST call becomes the common error shape. */
export function errorHandler(log: Logger) {
  // Express knows an error handler by its four parameters, so `_next` stays though it is not called.
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = frameworkError(error);
    const { appError, unexpected, refusal } = known ? { appError: known, unexpected: false, refusal: undefined } : toAppError(error);
    if (refusal) dbRefusalCount.inc({ reason: refusal });
    const locals = requestLocals(res);
    // Before the service context (its logger carries them), the ids are added here.
    const requestLog = locals.ctx?.log ?? log.child({ requestId: locals.requestId, traceId: locals.traceId, spanId: locals.spanId });
    if (unexpected) requestLog.error({ err: error, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) return;
    const retryAfter = appError.details?.retry_after_seconds;
    if (typeof retryAfter === 'number') res.set('Retry-After', String(retryAfter));
    res.status(appError.status).json(errorBody(inRestCase(appError)));
  };
}
