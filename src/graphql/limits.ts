import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import type { AppConfig, GraphQLLimits } from '../config.js';

/** The codes of a refused operation, in `extensions.code` (documented in docs/api.md). */
export const LimitCodes = {
  depth: 'QUERY_TOO_DEEP',
  cost: 'QUERY_TOO_COMPLEX',
  aliases: 'TOO_MANY_ALIASES',
  directives: 'TOO_MANY_DIRECTIVES',
  tokens: 'QUERY_TOO_LARGE',
} as const;
export type LimitCode = (typeof LimitCodes)[keyof typeof LimitCodes];

/** An operation over one of the limits: refused before execution, HTTP 400. */
export class QueryLimitError extends GraphQLError {
  constructor(readonly code: LimitCode, message: string) {
    super(message, { extensions: { code, status: 400 } });
  }
}

/** graphql-armor reports through `onReject`; we turn its error into ours, with our code. */
function reportAs(code: LimitCode) {
  return (context: ValidationContext | null, error: GraphQLError) => {
    context?.reportError(new QueryLimitError(code, error.message.replace(/^Syntax Error: /, '')));
  };
}

/**
 * The rules every operation is validated with beyond graphql-js's own, over HTTP and the websocket
 * alike: no introspection when it is off (graphql-js's rule, whose refusal names no vendor), and the
 * limits.
 */
export function operationRules(config: Pick<AppConfig, 'graphqlLimits' | 'graphqlIntrospection'>): ValidationRule[] {
  return [...(config.graphqlIntrospection ? [] : [noIntrospection]), ...limitRules(config.graphqlLimits)];
}

/**
 * Introspection off: one refusal per operation, at its first `__schema` or `__type` (graphql-js's
 * own rule complains about every field below it too; Apollo's names Apollo and how to turn it on).
 * `__typename` stays allowed: clients need it.
 */
const noIntrospection: ValidationRule = (context) => {
  let refused = false;
  return {
    Field(node) {
      if (refused || (node.name.value !== '__schema' && node.name.value !== '__type')) return;
      refused = true;
      context.reportError(new GraphQLError('Introspection is turned off on this server', { nodes: node }));
    },
  };
};

const LIMIT_CODES = new Set<unknown>(Object.values(LimitCodes));

/**
 * An operation over a limit is answered with the limit alone, once per limit: the other complaints
 * about it are its size seen again (sixty `@include` on one field is also fifty-nine "can only be
 * used once here").
 */
export function onlyLimitErrors<E extends { extensions?: { code?: unknown } }>(errors: readonly E[]): E[] {
  const limits = errors.filter((e) => LIMIT_CODES.has(e.extensions?.code));
  if (limits.length === 0) return [...errors];
  const seen = new Set<unknown>();
  return limits.filter((e) => !seen.has(e.extensions?.code) && seen.add(e.extensions?.code));
}

/** Validation rules for the depth, cost, alias and directive limits (HTTP and websocket alike). */
export function limitRules(limits: GraphQLLimits): ValidationRule[] {
  const common = { exposeLimits: true, propagateOnRejection: false };
  return [
    maxDepthRule({ ...common, n: limits.maxDepth, flattenFragments: true, onReject: [reportAs(LimitCodes.depth)] }),
    costLimitRule({ ...common, maxCost: limits.maxCost, flattenFragments: true, onReject: [reportAs(LimitCodes.cost)] }),
    maxAliasesRule({ ...common, n: limits.maxAliases, onReject: [reportAs(LimitCodes.aliases)] }),
    maxDirectivesRule({ ...common, n: limits.maxDirectives, onReject: [reportAs(LimitCodes.directives)] }),
  ];
}

/** graphql-js stops the parser at `maxTokens` with a syntax error; this recognises it. */
const TOKEN_LIMIT = /Document contains more tha[nt] (\d+) tokens/;

/** The limit error behind a GraphQL error, if it is one (Apollo wraps validation and parse errors). */
export function queryLimitOf(error: unknown): QueryLimitError | null {
  for (let e: unknown = error, depth = 0; e instanceof GraphQLError && depth < 5; e = e.originalError, depth++) {
    if (e instanceof QueryLimitError) return e;
    const match = TOKEN_LIMIT.exec(e.message);
    if (match) return new QueryLimitError(LimitCodes.tokens, `The operation has more than ${match[1]} tokens`);
  }
  return null;
}

const SUGGESTION = / ?Did you mean(.+?)\?$/;

/**
 * Parse and validate one operation the way Apollo does for HTTP (token limit, limit rules, no
 * introspection when it is off, no field suggestions), for operations arriving over the websocket.
 */
export function checkOperation(
  schema: GraphQLSchema,
  query: string,
  config: Pick<AppConfig, 'graphqlLimits' | 'graphqlIntrospection'>,
): { document: DocumentNode; errors: null } | { document: null; errors: GraphQLError[] } {
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: config.graphqlLimits.maxTokens });
  } catch (error) {
    const limit = queryLimitOf(error);
    if (limit) return { document: null, errors: [limit] };
    const message = error instanceof Error ? error.message : String(error);
    return { document: null, errors: [new GraphQLError(message, { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })] };
  }
  const errors = validate(schema, document, [...specifiedRules, ...operationRules(config)]);
  if (errors.length === 0) return { document, errors: null };
  return {
    document: null,
    errors: onlyLimitErrors(errors).map((e) =>
      e instanceof QueryLimitError || e.originalError instanceof QueryLimitError
        ? e
        : new GraphQLError(e.message.replace(SUGGESTION, ''), { nodes: e.nodes, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
    ),
  };
}
