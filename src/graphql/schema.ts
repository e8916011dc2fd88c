import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import { printSchema, type GraphQLSchema } from 'graphql';
import { resolvers } from '../resolvers/index.js';

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

/** Built once per process; the committed `schema.graphql` is this schema printed. */
export function graphqlSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({ resolvers, validate: false, pubSub: noTopics });
  return built;
}

export async function schemaSDL(): Promise<string> {
  return printSchema(await graphqlSchema()) + '\n';
}
