import type { ServiceContext } from '../shared/context.js';
import type { Loaders } from '../graphql/loaders.js';

/** The GraphQL context: the service context of this operation and its DataLoaders. */
export interface GraphQLContext {
  ctx: ServiceContext;
  loaders: Loaders;
  /** Over HTTP: where the operation's metrics label is noted for the request's metrics (the request's locals). */
  httpLocals?: { graphqlOperation?: string; graphqlType?: string };
}
