import 'reflect-metadata';
import { buildSchema, getMetadataStorage } from 'type-graphql';
import { isUnionType, printSchema, type GraphQLSchema } from 'graphql';
import { payloadTypeOf } from './types/event.types.js';
import { resolvers } from './index.js';
import { DateTimeScalar } from '../graphql/date-time-scalar.js';
import type { GraphQLContext } from './graphql-context.js';

let built: Promise<GraphQLSchema> | undefined;

/**
 * type-graphql insists on a PubSub once there are subscriptions, but ours bring their own event
 * streams (`subscribe` option, fed by the PostgreSQL event bus), so topics are refused.
 */
const noTopics = {
  publish(): void {
    throw new Error('Publish domain events with emit() inside inTransaction(), not through type-graphql topics');
  },
  subscribe(): AsyncIterable<unknown> {
    throw new Error('Subscriptions use their own `subscribe` stream, not type-graphql topics');
  },
};

/**
 * Plain output fields are read by graphql-js's default resolver (type-graphql's `simpleResolvers`)
 * unless a type says otherwise. We use no field middlewares and no `@Authorized` fields, so
 * type-graphql's wrapper around every plain field only cost time (and garbage): a third of the
 * execution time of a 20-product listing. `@FieldResolver` methods are not affected.
 */
function plainFieldsBySimpleResolvers(): void {
  for (const type of getMetadataStorage().objectTypes) type.simpleResolvers ??= true;
}

/**
 * type-graphql wraps a union's `resolveType` in an async function; graphql-js awaits it, graphql-jit
 * (the compiled executor, src/graphql/operation-executor.ts) calls it synchronously and would find no
 * type. The one union answers its type name directly.
 */
function synchronousTypeResolvers(schema: GraphQLSchema): GraphQLSchema {
  const union = schema.getType('EventPayload');
  if (!isUnionType(union)) throw new Error('EventPayload is no union');
  const names = new Map<unknown, string>(getMetadataStorage().objectTypes.map((type) => [type.target, type.name]));
  union.resolveType = (value) => names.get(payloadTypeOf(value));
  return schema;
}

/**
 * Each mutation runs under its field's name (`ctx.operation`), the name the audit log records its
 * writes by (src/shared/audit.ts; REST routes use the same names, src/rest/operation-names.ts). A
 * document may hold several mutations: each gets a context of its own, the request's left as it is.
 */
function namedMutations(schema: GraphQLSchema): GraphQLSchema {
  for (const field of Object.values(schema.getMutationType()?.getFields() ?? {})) {
    const resolve = field.resolve;
    if (!resolve) continue;
    const operation = field.name;
    field.resolve = (source, args, context: GraphQLContext, info) => resolve(source, args, { ...context, ctx: { ...context.ctx, operation } }, info);
  }
  return schema;
}

/** Built once per process; the committed `schema.graphql` is this schema printed. */
export function graphqlSchema(): Promise<GraphQLSchema> {
  if (!built) {
    plainFieldsBySimpleResolvers();
    built = buildSchema({ resolvers, validate: false, pubSub: noTopics, scalarsMap: [{ type: Date, scalar: DateTimeScalar }] }).then(synchronousTypeResolvers).then(namedMutations);
  }
  return built;
}

export async function schemaSDL(): Promise<string> {
  return printSchema(await graphqlSchema()) + '\n';
}
