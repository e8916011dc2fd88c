import { BODY_ERRORS, ERROR_STATUS, type ErrorCode } from '../error-codes.js';
import { ERROR_DETAIL_KINDS, type ErrorDetailKey, type ErrorDetails } from '../error-details.js';
import { AppError, toAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { enumValueName, fieldName } from './spelling.js';

/**
 * Codes that say something about the caller or the request, never about a mutation's input: the
 * bearer token and the role (401, 403), the HTTP request itself, throttling (429), and a row another
 * session keeps locked (`RESOURCE_LOCKED`: the same request succeeds later, as after a 503). With 5xx
 * faults they stay top-level `errors` over GraphQL.
 */
const ABOUT_THE_CALLER_OR_REQUEST = new Set<ErrorCode>([
  'UNAUTHENTICATED', 'TOKEN_INVALID', 'TOKEN_EXPIRED', 'FORBIDDEN',
  'BAD_REQUEST', 'ROUTE_NOT_FOUND', 'METHOD_NOT_ALLOWED', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', ...BODY_ERRORS,
  'RESOURCE_LOCKED',
  // Answered by a feed resumed from an id no longer kept (a subscription, the REST feed): never a mutation's.
  'EVENTS_EXPIRED',
]);

/**
 * The rule of the GraphQL door (docs/api.md, GraphQL conventions): a mutation's refusal is a typed
 * user error when it is an answer about its input: the input does not fit (400), names an object
 * that is missing or not the caller's (404, one answer for both), conflicts with the state of the
 * data (409), or breaks a business rule (422); also a login's wrong credentials (401
 * `INVALID_CREDENTIALS`, about the input, not about a token). Everything else stays top-level.
 */
export const USER_ERROR_CODES = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter(
  (code) => ERROR_STATUS[code] < 500 && ERROR_STATUS[code] !== 429 && !ABOUT_THE_CALLER_OR_REQUEST.has(code),
);
const userErrorCodes = new Set(USER_ERROR_CODES);

/**
 * Codes no mutation answers any more, kept in the schema's enum as deprecated so that clients that
 * switch over them still validate (removed in a later change: docs/schema-changes.md).
 */
export const RETIRED_USER_ERROR_CODES: Readonly<Record<string, string>> = {
  ORDER_NOT_CANCELLABLE: 'Never answered since 2026-11-26: a move the order state forbids is ORDER_STATE_CONFLICT',
  ORDER_NOT_PAYABLE: 'Never answered since 2026-11-26: a move the order state forbids is ORDER_STATE_CONFLICT',
  ORDER_NOT_SHIPPED: 'Never answered since 2026-11-26: a move the order state forbids is ORDER_STATE_CONFLICT',
};

/** A user error as the schema's `UserError` resolves it. */
export interface UserErrorValue {
  code: ErrorCode;
  message: string;
  /** Path of the input field from the mutation's argument (`['input', 'items', '0', 'quantity']`); null: the input as a whole. */
  field: string[] | null;
  details: GraphQLErrorDetails | null;
}

/** `details` in GraphQL's spelling: camelCase names, closed-set values as its enums spell them. */
export type GraphQLErrorDetails = Record<string, number | string | readonly string[] | Date>;


const isTextList = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every((v) => typeof v === 'string');

function graphqlDetails(details: ErrorDetails): GraphQLErrorDetails | null {
  const out: GraphQLErrorDetails = {};
  for (const key of Object.keys(details) as ErrorDetailKey[]) {
    const value = details[key];
    const kind = ERROR_DETAIL_KINDS[key];
    // Problems become user errors of their own; `allowed` (REST only) has no single GraphQL type.
    if (value === undefined || kind === 'problems' || kind === 'text or list') continue;
    if (typeof value === 'string') out[fieldName(key)] = kind === 'enum' ? enumValueName(value) : value;
    else if (typeof value === 'number' || value instanceof Date) out[fieldName(key)] = value;
    else if (isTextList(value)) out[fieldName(key)] = value.map(enumValueName);
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** A problem's dotted path (services' camelCase, relative to the service input) from the mutation's argument. */
const inputPath = (field: string | null) => (field === null ? null : ['input', ...field.split('.')]);

/** The user errors of a refusal: one per problem of a validation failure, else one. */
function userErrorsOf(error: AppError): UserErrorValue[] {
  const details = graphqlDetails(error.details ?? {});
  const problems = error.details?.problems ?? [];
  if (problems.length === 0) return [{ code: error.code, message: error.message, field: null, details }];
  return problems.map((problem) => ({ code: error.code, message: problem.message, field: inputPath(problem.field), details }));
}

/**
 * What a mutation answers when its service call threw: the user errors of a business refusal, or
 * null for anything that stays top-level (the caller rethrows it). A lost race on a unique key
 * (a database error) is a refusal too, as `toAppError` names it; an unnamed one is logged as over REST.
 */
export function refusalOf(error: unknown, log: Logger): UserErrorValue[] | null {
  const { appError, unexpected } = toAppError(error);
  if (!userErrorCodes.has(appError.code)) return null;
  if (unexpected) log.error({ err: error }, 'graphql mutation lost a race on an unnamed unique key');
  return userErrorsOf(appError);
}
