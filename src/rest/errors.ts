import type { Request, Response, NextFunction } from 'express';
import { AppError, errorBody, toAppError } from '../errors.js';
import type { Logger } from '../logger.js';

/** Unknown route under /api: 404 in the common shape. */
export function routeNotFound(req: Request, _res: Response, next: NextFunction) {
  next(new AppError('ROUTE_NOT_FOUND', 404, `No route ${req.method} ${req.path}`));
}

/** Express's own rejections (body parser) carry a `type`; they become our codes. */
function frameworkError(error: any): AppError | null {
  switch (error?.type) {
    case 'entity.parse.failed':
      return new AppError('MALFORMED_JSON', 400, 'The request body is not valid JSON');
    case 'entity.too.large':
      return new AppError('PAYLOAD_TOO_LARGE', 413, 'The request body is too large', { limit_bytes: error.limit });
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError('UNSUPPORTED_ENCODING', 415, 'The request body encoding is not supported');
    case 'request.aborted':
      return new AppError('REQUEST_ABORTED', 400, 'The request was aborted');
    default:
      return null;
  }
}

/** The one place where anything thrown during a REST call becomes the common error shape. */
export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    const known = frameworkError(error);
    const { appError, unexpected } = known ? { appError: known, unexpected: false } : toAppError(error);
    const requestLog = (res.locals.ctx?.log as Logger | undefined) ?? log;
    if (unexpected) requestLog.error({ err: error, method: req.method, path: req.path }, 'request failed');
    if (res.headersSent) return;
    res.status(appError.status).json(errorBody(appError));
  };
}
