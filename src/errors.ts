/**
 * The one error family of the service. Services throw AppError; each door maps it once:
 * REST to `{"error": {code, message, details}}` with the status, GraphQL to `extensions.code`.
 * Codes are stable and listed in docs/api.md; each code's details are declared with it
 * (src/error-codes.ts), and the compiler holds every throw to that declaration.
 */
import type { CodeWithoutRequiredDetails, ErrorCode, OptionalDetailKey, RequiredDetailKey } from './error-codes.js';
import type { ErrorDetailValue, ErrorDetails } from './error-details.js';

export type { ErrorDetails };

/** The details of code `C`: its required keys, and any of its optional ones. */
export type DetailsOf<C extends ErrorCode> = { [K in RequiredDetailKey<C>]: ErrorDetailValue<K> } & {
  [K in OptionalDetailKey<C>]?: ErrorDetailValue<K>;
};

/**
 * The details argument a throw of code `C` takes: required when the code has required keys, absent
 * when it has no keys. A code known only as one of several takes none, and only when none of them
 * has required keys (the unique keys' codes, say).
 */
export type DetailsArgument<C extends ErrorCode> = [RequiredDetailKey<C>] extends [never]
  ? [C] extends [CodeWithoutRequiredDetails]
    ? [OptionalDetailKey<C>] extends [never]
      ? []
      : [details?: DetailsOf<C>]
    : [details: never]
  : [details: DetailsOf<C>];

export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  readonly details?: ErrorDetails;

  constructor(
    readonly code: C,
    readonly status: number,
    message: string,
    ...[details]: DetailsArgument<C>
  ) {
    super(message);
    this.name = 'AppError';
    this.details = details;
  }

  /** The usual check, declared so that `instanceof` narrows to an AppError of some code (not of `any`). */
  static override [Symbol.hasInstance](value: unknown): value is AppError {
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/** AppError's constructor without the per-code check, for `respelled` alone. */
const AnyAppError = AppError as unknown as new (code: ErrorCode, status: number, message: string, details?: ErrorDetails) => AppError;

/**
 * `error` with another message and its details' values spelt another way (the REST door's field
 * names): the keys stay the ones its code declared, so the copy skips the constructor's check.
 */
export const respelled = (error: AppError, message: string, details: ErrorDetails | undefined): AppError =>
  new AnyAppError(error.code, error.status, message, details);

export const validationError = (message: string, details: DetailsOf<'VALIDATION_FAILED'>) =>
  new AppError('VALIDATION_FAILED', 400, message, details);
export const unauthenticated = (message = 'Sign in to continue') => new AppError('UNAUTHENTICATED', 401, message);
export const forbidden = (message = 'You are not allowed to do this') => new AppError('FORBIDDEN', 403, message);
export const notFound = (what: string, details?: DetailsOf<'NOT_FOUND'>) =>
  new AppError('NOT_FOUND', 404, `${what} not found`, details);
export const conflict = <C extends ErrorCode>(code: C, message: string, ...details: DetailsArgument<C>) =>
  new AppError(code, 409, message, ...details);
export const refused = <C extends ErrorCode>(code: C, message: string, ...details: DetailsArgument<C>) =>
  new AppError(code, 422, message, ...details);

/**
 * SQLSTATEs and socket errors of a connection that failed, not of a statement: refused, reset, ended
 * by the server (shutdown, `pg_terminate_backend`, a crash, too many sessions). Another server may
 * answer the same statement.
 */
const CONNECTION_LOST_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300',
]);

/** `pg`'s words for a connection that ended under a statement (these errors carry no code). */
const CONNECTION_LOST_MESSAGE = /Connection terminated|Client has encountered a connection error|terminating connection/i;

/** SQLSTATEs and socket errors that mean "the database is not reachable right now". */
const UNAVAILABLE_CODES = new Set([
  ...CONNECTION_LOST_CODES, 'ETIMEDOUT',
  // statement_timeout and idle_in_transaction_session_timeout of the server's sessions
  '57014', '25P03',
]);

/** What an error in the chain of a failed statement may carry (pg's errors, socket errors, the ORM's wrappers). */
export interface ErrorFields {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  detail?: unknown;
  constraint?: unknown;
  cause?: unknown;
}

/** The error and its causes, at most five deep: drivers and the ORM wrap what they throw. */
export function* causeChain(error: unknown): Generator<ErrorFields> {
  let e = error;
  for (let depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    const fields: ErrorFields = e;
    yield fields;
    e = fields.cause;
  }
}

function databaseUnavailable(error: unknown): boolean {
  if (connectionLost(error)) return true;
  for (const e of causeChain(error)) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && /connection timeout|timeout exceeded when trying to connect/i.test(e.message)) return true;
  }
  return false;
}

/**
 * The statement failed because its connection did (refused, reset, ended by the server), not because
 * of the statement, and not because a timeout of ours ran out (the request's deadline, a connection
 * that took too long to open, `statement_timeout`): such a read may be run again on another server.
 */
export function connectionLost(error: unknown): boolean {
  for (const e of causeChain(error)) {
    // The request's deadline cut the connection (db/request-scope.ts): the time is spent, not the server lost.
    if (e.name === 'DatabaseDeadlineError') return false;
    // statement_timeout, idle_in_transaction_session_timeout ("terminating connection due to ..."): ours.
    if (e.code === '57014' || e.code === '25P03') return false;
    if (typeof e.code === 'string' && CONNECTION_LOST_CODES.has(e.code)) return true;
    if (typeof e.message === 'string' && CONNECTION_LOST_MESSAGE.test(e.message)) return true;
  }
  return false;
}

/**
 * Unique keys whose violation has a domain meaning. A use case may check first and answer with the
 * code itself; a concurrent request that passed the same check loses at the unique key, and gets the
 * same answer from here instead of a 500 (registration relies on the key alone). From here the answer
 * has no details (the violation names no row), so these codes declare no required keys.
 */
const UNIQUE_CONSTRAINT_CODES: Record<string, [code: CodeWithoutRequiredDetails, message: string]> = {
  app_user_email_unique: ['EMAIL_TAKEN', 'An account with this email already exists'],
  coupon_customer_template_unique: ['COUPON_ALREADY_CLAIMED', 'You already hold a coupon from this template'],
  group_buy_membership_group_id_customer_id_unique: ['GROUP_ALREADY_JOINED', 'You already hold an order in this group'],
  invoice_order_id_unique: ['INVOICE_ALREADY_ISSUED', 'This order already has an invoice'],
  review_order_item_id_unique: ['REVIEW_EXISTS', 'This item has already been reviewed'],
  shop_slug_unique: ['SHOP_SLUG_TAKEN', 'A shop already has this slug'],
  dispute_refund_id_unique: ['DISPUTE_EXISTS', 'This refund has already been escalated to the platform'],
  shop_application_one_open_per_slug: ['SHOP_SLUG_TAKEN', 'An open shop application already asks for this slug'],
  shop_application_one_open_per_applicant: ['SHOP_APPLICATION_OPEN', 'You already have an open shop application; withdraw it or wait for its decision'],
};

/** The codes a unique key answers for a use case that relies on the key alone (no check of its own first). */
export const UNIQUE_KEY_CODES: readonly ErrorCode[] = Object.values(UNIQUE_CONSTRAINT_CODES).map(([code]) => code);

/** A unique violation (SQLSTATE 23505) as a 409: its domain code, else CONFLICT (a lost race; retry). */
function uniqueViolation(error: unknown): AppError | null {
  for (const e of causeChain(error)) {
    if (e.code !== '23505') continue;
    const known = typeof e.constraint === 'string' ? UNIQUE_CONSTRAINT_CODES[e.constraint] : undefined;
    return known ? conflict(known[0], known[1]) : conflict('CONFLICT', 'A concurrent request changed the same data; try again');
  }
  return null;
}

/** `lock_timeout` (SQLSTATE 55P03): a row the statement needed stayed locked by another session. */
function lockTimedOut(error: unknown): boolean {
  for (const e of causeChain(error)) if (e.code === '55P03') return true;
  return false;
}

/** The request's database deadline went by (src/db/request-scope.ts). */
function deadlinePassed(error: unknown): boolean {
  for (const e of causeChain(error)) if (e.name === 'DatabaseDeadlineError') return true;
  return false;
}

/** Why the database made a request fail, for the refusal counter the doors keep (src/metrics.ts). */
export type DatabaseRefusal = 'deadline' | 'lock' | 'unavailable';

/** Turns anything thrown into an AppError; unknown errors become a masked INTERNAL. */
export function toAppError(error: unknown): { appError: AppError; unexpected: boolean; refusal?: DatabaseRefusal } {
  if (error instanceof AppError) return { appError: error, unexpected: false };
  const unique = uniqueViolation(error);
  // Only an unnamed key is worth a log line: a domain code is an expected race.
  if (unique) return { appError: unique, unexpected: unique.code === 'CONFLICT' };
  // Logged: someone holds a lock for longer than any request should wait (a long maintenance transaction, say).
  if (lockTimedOut(error)) {
    return {
      appError: conflict('RESOURCE_LOCKED', 'Another operation is holding data this request needs; try again shortly', { retry_after_seconds: 1 }),
      unexpected: true,
      refusal: 'lock',
    };
  }
  if (deadlinePassed(error)) {
    return { appError: new AppError('SERVICE_UNAVAILABLE', 503, 'The database did not answer in time; try again shortly', { retry_after_seconds: 1 }), unexpected: true, refusal: 'deadline' };
  }
  if (databaseUnavailable(error)) {
    return {
      // Retry-After over REST: a restart or a burst that filled the pool passes in seconds.
      appError: new AppError('SERVICE_UNAVAILABLE', 503, 'The database is not reachable; try again shortly', { retry_after_seconds: 1 }),
      unexpected: true,
      refusal: 'unavailable',
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
