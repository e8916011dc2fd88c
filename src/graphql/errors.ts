import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { AppError, toAppError } from '../errors.js';
import type { Logger } from '../logger.js';
import { dbRefusalCount } from '../metrics.js';
import { currentScope } from '../db/request-scope.js';
import { queryLimitOf } from './limits.js';

/** Apollo's own codes for a malformed operation are kept: they describe the query, not the data. */
const OPERATION_CODES = new Set([
  'GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT', 'PERSISTED_QUERY_NOT_FOUND',
  'PERSISTED_QUERY_NOT_SUPPORTED', 'OPERATION_RESOLUTION_FAILURE', 'BAD_REQUEST',
]);

/** Every GraphQL error carries the same `code` as the REST error would, in `extensions.code`. */
export function formatError(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const limit = queryLimitOf(error);
    if (limit) return { message: limit.message, locations: formatted.locations, extensions: { code: limit.code, status: 400 } };
    const original = unwrapResolverError(error);
    const code = formatted.extensions?.code;
    if (!(original instanceof AppError) && typeof code === 'string' && OPERATION_CODES.has(code)) return formatted;
    // graphql-js's own execution faults (a null for a non-null field, a value a scalar cannot
    // serialize) carry no code, or Apollo's default INTERNAL_SERVER_ERROR: they are ours, not the
    // client's, and go on below to be logged and answered as INTERNAL like any unexpected failure.
    const serverFault = typeof code !== 'string' || code === 'INTERNAL_SERVER_ERROR';
    if (original instanceof GraphQLError && !original.originalError && !serverFault) {
      // `extensions.http` tells Apollo the status to answer with; it is not for the client (the
      // websocket would otherwise send it along).
      if (!formatted.extensions?.http) return formatted;
      const extensions = { ...formatted.extensions };
      delete extensions.http;
      return { ...formatted, extensions };
    }
    const { appError, unexpected, refusal } = toAppError(original);
    if (refusal) dbRefusalCount.inc({ reason: refusal });
    // Apollo hands formatError no context: the trace id comes from the request's async scope.
    if (unexpected) log.error({ err: original, path: formatted.path, traceId: currentScope()?.traceId }, 'graphql operation failed');
    return {
      message: appError.message,
      locations: formatted.locations,
      path: formatted.path,
      extensions: { code: appError.code, status: appError.status, ...(appError.details ? { details: appError.details } : {}) },
    };
  };
}

/** For failures before execution (context creation): a GraphQLError with our code and HTTP status. */
export function asGraphQLError(error: unknown): GraphQLError {
  const { appError } = toAppError(error);
  return new GraphQLError(appError.message, {
    extensions: {
      code: appError.code,
      status: appError.status,
      ...(appError.details ? { details: appError.details } : {}),
      http: { status: appError.status },
    },
  });
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}
