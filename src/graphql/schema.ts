import 'reflect-metadata';
import { buildSchema } from 'type-graphql';
import { printSchema, type GraphQLSchema } from 'graphql';
import { resolvers } from '../resolvers/index.js';

let built: Promise<GraphQLSchema> | undefined;

/** Built once per process; the committed `schema.graphql` is this schema printed. */
export function graphqlSchema(): Promise<GraphQLSchema> {
  built ??= buildSchema({ resolvers, validate: false });
  return built;
}

export async function schemaSDL(): Promise<string> {
  return printSchema(await graphqlSchema()) + '\n';
}
