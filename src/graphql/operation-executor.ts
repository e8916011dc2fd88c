import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import { execute, GraphQLError, printSchema, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { tracing } from '../tracing.js';

/**
 * How an HTTP GraphQL operation is executed once Apollo has parsed and validated it (limits
 * included): `standard` is graphql-js's `execute`; `compiled` (the default) runs the operations
 * clients repeat as functions compiled for their document by graphql-jit, which walks no AST per
 * field and skips graphql-js's per-field argument coercion and result completion by type lookups.
 * Both run the same resolvers with the same context, so errors, `userErrors` and limits are the same:
 * the whole suite runs on `compiled`, and test/graphql-executor.test.ts holds the two answers equal.
 * Subscriptions (graphql-ws) execute with graphql-js either way. Both run behind Apollo's executor
 * hook (below), where an operation may run again (`RerunWith`).
 */
export type OperationExecutorKind = 'standard' | 'compiled';

/** Apollo's hook for another executor is its gateway interface: a gateway that serves our own schema. */
type Gateway = ApolloServerOptionsWithGateway<object>['gateway'];
type Executor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

/**
 * A document is compiled once it has run `compileAfter` times (GRAPHQL_COMPILE_AFTER, default 2): a
 * compile costs a few milliseconds and a function kept in memory, worth it for what clients send
 * again and again (their stored queries), not for one-off documents. Both maps are bounded (least
 * recently used out first).
 */
const COMPILED_MAX = 500;
const SEEN_MAX = 5_000;

class Recent<V> {
  private readonly entries = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }
  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

/**
 * graphql-jit's errors are GraphQLErrors by prototype only: without `extensions` when the thrown
 * error had none, where Apollo and our formatError expect graphql-js's own (always an object).
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const same = new GraphQLError(error.message, { path: error.path, originalError: error.originalError ?? undefined, extensions: error.extensions ?? undefined });
  // graphql-js computes locations from AST nodes, which graphql-jit does not keep: carry its own.
  Object.defineProperty(same, 'locations', { value: error.locations, enumerable: error.locations !== undefined });
  return same;
}

/**
 * Runs a failed operation once more with another context, or null: the answer stands (app.ts: on
 * the primary, when a replica lost a read under it).
 */
export type RerunWith = (context: object, errors: readonly GraphQLError[]) => object | null;

/** The operation's span name, as OpenTelemetry's GraphQL conventions spell it: `query ProductPage`, or the type alone. */
function operationSpanName(request: Parameters<Executor>[0]): string {
  const type = request.operation?.operation ?? 'operation';
  return request.operationName ? `${type} ${request.operationName}` : type;
}

function operationAttributes(request: Parameters<Executor>[0]): Record<string, string> {
  const attributes: Record<string, string> = { 'graphql.operation.type': request.operation?.operation ?? 'unknown' };
  if (request.operationName) attributes['graphql.operation.name'] = request.operationName;
  return attributes;
}

/**
 * Apollo's options: a gateway whose executor runs each operation with `kind` (graphql-js's
 * `execute`, or compiled once repeated), and once more with `rerunWith`'s context when it gives one.
 */
export function operationExecution(
  schema: GraphQLSchema,
  kind: OperationExecutorKind,
  options: { compileAfter?: number; rerunWith?: RerunWith } = {},
): { gateway: Gateway } {
  const compileAfter = options.compileAfter ?? 2;
  const compiled = new Recent<CompiledQuery>(COMPILED_MAX);
  const runs = new Recent<number>(SEEN_MAX);
  type Request = Parameters<Executor>[0];
  const run = async (request: Request, context: object): Promise<ExecutionResult> => {
    const variables = request.request.variables ?? {};
    const standard = () => execute({ schema, document: request.document, contextValue: context, variableValues: variables, operationName: request.operationName ?? undefined });
    if (kind === 'standard') return standard();
    const key = `${request.queryHash}\n${request.operationName ?? ''}`;
    let query = compiled.get(key);
    const ran = query ? 0 : (runs.get(key) ?? 0) + 1;
    if (!query && ran >= compileAfter) {
      const made = compileQuery(schema, request.document, request.operationName ?? undefined);
      // A document graphql-jit cannot compile (it answers errors): graphql-js executes it.
      if (isCompiledQuery(made)) compiled.set(key, (query = made));
    }
    if (!query) runs.set(key, ran);
    if (!query) return standard();
    const result = await query.query(undefined, context, variables);
    if (!result.errors) return result;
    // No data: the variables were refused before any resolver ran. graphql-js refuses them again,
    // in the words and with the AST nodes by which Apollo answers 400 BAD_USER_INPUT.
    // (A root field's error that nulls the whole answer leaves data null, not absent: never rerun.)
    if (!('data' in result) || result.data === undefined) return standard();
    return { ...result, errors: result.errors.map(asGraphQLJsError) };
  };
  const runOnce = async (request: Request): Promise<ExecutionResult> => {
    const result = await run(request, request.context);
    const again = result.errors && options.rerunWith ? options.rerunWith(request.context, result.errors) : null;
    return again ? run(request, again) : result;
  };
  // With tracing on, the operation is a span (its root fields are spans too: traced-fields.ts); off, one check.
  const executor: Executor = (request) => (tracing ? tracing.inSpan(operationSpanName(request), operationAttributes(request), () => runOnce(request)) : runOnce(request));
  const gateway: Gateway = {
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: printSchema(schema) });
      return () => {};
    },
    load: () => Promise.resolve({ executor }),
    stop: () => Promise.resolve(),
  };
  return { gateway };
}
