import type { ServiceContext } from '../shared/context.js';
import type { Loaders } from '../graphql/loaders.js';

/** The GraphQL context: the service context of this operation and its DataLoaders. */
export interface GraphQLContext {
  ctx: ServiceContext;
  loaders: Loaders;
}
