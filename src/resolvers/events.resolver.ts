import { Args, Ctx, FieldResolver, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import type { DomainEvent } from '../shared/domain-event.js';
import * as feed from '../services/events/event-feed.service.js';
import type { ServiceContext } from '../shared/context.js';
import { createLoaders } from '../graphql/loaders.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { DomainEventType, EventFeed, EventFeedArgs, EventListArgs, EventPayloadUnion, PAYLOAD_OF, type TaggedPayload } from './types/event.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

type Data = SubscribeResolverData<unknown, EventFeedArgs, GraphQLContext>;

/**
 * Each event is resolved with its own service context (a fresh entity manager fork, the same
 * actor): graphql-js executes one subscription's events one after another with the context object
 * of the subscribe, so swapping `context.ctx` before handing an event over is safe, and field
 * resolvers of an event read only what that event loaded.
 */
export function perEventContext(context: GraphQLContext, stream: AsyncIterableIterator<DomainEvent>): AsyncIterableIterator<DomainEvent> {
  const base: ServiceContext = context.ctx;
  let n = 0;
  return {
    async next() {
      const result = await stream.next();
      if (!result.done) {
        n += 1;
        const requestId = `${base.requestId}:${n}`;
        context.ctx = { ...base, em: base.em.fork(), requestId, log: base.log.child({ event: n }) };
        // Loaders cache per unit of work: each event gets fresh ones on its own fork.
        context.loaders = createLoaders(context.ctx);
      }
      return result;
    },
    return: () => stream.return!(),
    throw: (error?: unknown) => stream.throw!(error),
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

@Resolver(() => DomainEventType)
export class EventsResolver {
  @Allow(Permission.EventsRead)
  @Subscription(() => DomainEventType, {
    description: 'Domain events: all of them for a platform admin, those of their own shop for a shop operator. With `after`, the stored events after that id first, then live (no gap, no duplicate); an id older than the retention is refused with EVENTS_EXPIRED',
    subscribe: async ({ args, context }: Data) => perEventContext(context, await feed.dashboardEvents(context.ctx, args)),
  })
  // The parameter declares the subscription's arguments in the schema; `subscribe` is what reads them.
  events(@Root() event: DomainEvent, @Args(() => EventFeedArgs) _args: EventFeedArgs): DomainEvent {
    return event;
  }

  @Allow(Permission.Customer)
  @Subscription(() => DomainEventType, {
    description: "The signed-in customer's own orders as they are placed, paid, cancelled and shipped; with `after`, the stored events after that id first, then live",
    subscribe: async ({ args, context }: Data) => perEventContext(context, await feed.myOrderEvents(context.ctx, args)),
  })
  // The parameter declares the subscription's arguments in the schema; `subscribe` is what reads them.
  myOrderEvents(@Root() event: DomainEvent, @Args(() => EventFeedArgs) _args: EventFeedArgs): DomainEvent {
    return event;
  }

  @Allow(Permission.SignedIn)
  @Query(() => EventFeed, {
    name: 'events',
    description: "The stored events after an id, oldest first, for a client that polls (GET /api/events): a platform admin's all, a shop operator's their shop's, a customer's their own orders'. An id older than the retention is refused with EVENTS_EXPIRED",
  })
  // Named `events` in the schema, as the subscription that goes on live from the same ids.
  storedEvents(@Args(() => EventListArgs) { types, ...args }: EventListArgs, @Ctx() { ctx }: GraphQLContext) {
    // The service reads the REST query string's spelling of the kinds: comma-separated.
    return feed.listEvents(ctx, { ...withoutNulls(args), ...(types ? { types: types.join(',') } : {}) });
  }

  @FieldResolver(() => EventPayloadUnion, { description: "What happened: the event type's own payload type" })
  payload(@Root() event: DomainEvent): TaggedPayload {
    return { ...event.payload, [PAYLOAD_OF]: event.type };
  }
}
