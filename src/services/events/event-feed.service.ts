import { forbidden } from '../../errors.js';
import { Role } from '../../entities/user.entity.js';
import type { DomainEvent } from '../../shared/domain-event.js';
import { ALL_EVENT_TYPES, ORDER_EVENT_TYPES, type EventType } from './event-types.js';
import { eventStream } from './event-stream.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requireUser } from '../../shared/guards.js';
import { parseInput, z } from '../../shared/validate.js';

const FeedInput = z.object({
  types: z.array(z.enum(ALL_EVENT_TYPES as [EventType, ...EventType[]])).max(ALL_EVENT_TYPES.length).nullish(),
});

/** The asked-for kinds, else every kind the schema knows (an event of another kind could not be sent). */
function typeFilter(types: readonly string[] | null | undefined): (event: DomainEvent) => boolean {
  const wanted = new Set<string>(types && types.length > 0 ? types : ALL_EVENT_TYPES);
  return (event) => wanted.has(event.type);
}

/**
 * The live event feed of a dashboard: a platform admin sees every event, a shop operator only
 * events that concern their shop (`shopIds` includes it). Customers use `myOrderEvents`.
 */
export function dashboardEvents(ctx: ServiceContext, input: unknown): AsyncIterableIterator<DomainEvent> {
  const actor = requireUser(ctx);
  const { types } = parseInput(FeedInput, input ?? {});
  const wanted = typeFilter(types);
  if (actor.role === Role.PlatformAdmin) return eventStream(ctx.events, wanted);
  if (actor.role === Role.ShopOperator && actor.shopId !== null) {
    const shopId = actor.shopId;
    return eventStream(ctx.events, (event) => wanted(event) && event.shopIds.includes(shopId));
  }
  throw forbidden('The event feed is for platform admins and shop operators; customers subscribe to myOrderEvents');
}

/** A customer's own orders as they change: placed, paid, cancelled, shipped. */
export function myOrderEvents(ctx: ServiceContext, input: unknown): AsyncIterableIterator<DomainEvent> {
  const actor = requireCustomer(ctx);
  const { types } = parseInput(FeedInput, input ?? {});
  const wanted = typeFilter(types);
  const orderTypes = new Set<string>(ORDER_EVENT_TYPES);
  return eventStream(ctx.events, (event) => event.customerId === actor.userId && orderTypes.has(event.type) && wanted(event));
}
