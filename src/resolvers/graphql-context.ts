import type { ServiceContext } from '../services/context.js';

/** The GraphQL context: the service context of this operation. */
export interface GraphQLContext {
  ctx: ServiceContext;
}
