/**
 * The one error family of the service. Services throw AppError; each door maps it once:
 * REST to `{"error": {code, message, details}}` with the status, GraphQL to `extensions.code`.
 * Codes are stable and listed in the README.
 */
export type ErrorDetails = Record<string, unknown>;

export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
    readonly details?: ErrorDetails,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const validationError = (message: string, details?: ErrorDetails) =>
  new AppError('VALIDATION_FAILED', 400, message, details);
export const unauthenticated = (message = 'Sign in to continue') => new AppError('UNAUTHENTICATED', 401, message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', 403, message);
export const notFound = (what: string, details?: ErrorDetails) =>
  new AppError('NOT_FOUND', 404, `${what} not found`, details);
export const conflict = (code: string, message: string, details?: ErrorDetails) =>
  new AppError(code, 409, message, details);
export const refused = (code: string, message: string, details?: ErrorDetails) =>
  new AppError(code, 422, message, details);

/** SQLSTATEs and socket errors that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300',
  // statement_timeout and idle_in_transaction_session_timeout of the server's sessions
  '57014', '25P03',
]);

function databaseUnavailable(error: unknown): boolean {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    const message = String(e.message ?? '');
    if (/Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|terminating connection/i.test(message)) {
      return true;
    }
  }
  return false;
}

/** Turns anything thrown into an AppError; unknown errors become a masked INTERNAL. */
export function toAppError(error: unknown): { appError: AppError; unexpected: boolean } {
  if (error instanceof AppError) return { appError: error, unexpected: false };
  if (databaseUnavailable(error)) {
    return {
      appError: new AppError('SERVICE_UNAVAILABLE', 503, 'The database is not reachable; try again shortly'),
      unexpected: true,
    };
  }
  return { appError: new AppError('INTERNAL', 500, 'Something went wrong on our side'), unexpected: true };
}

export function errorBody(error: AppError) {
  return {
    error: {
      code: error.code,
      message: error.message,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}
