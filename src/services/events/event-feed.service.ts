import { AppError } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { eventOf, type DomainEvent } from '../../shared/domain-event.js';
import { ALL_EVENT_TYPES, ORDER_EVENT_TYPES, type EventType } from './event-types.js';
import { eventStream } from './event-stream.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requirePermission, requireUser } from '../../shared/guards.js';
import { grantOf, Permission } from '../../shared/permissions.js';
import { commaSeparated, parseInput, z } from '../../shared/validate.js';
import { textArray } from '../../db/sql.js';
import { feedForAdmin, feedForCustomer, feedForShop, pruneEvents, retentionHorizon, type EventRow } from './outbox.repository.js';

/** An event's id: its outbox position, a decimal integer (`0`: from the oldest kept). */
const Position = z.string().regex(/^(0|[1-9][0-9]{0,17})$/, 'an event id (a decimal integer)');

const FeedInput = z.object({
  types: z.array(z.enum(ALL_EVENT_TYPES as [EventType, ...EventType[]])).max(ALL_EVENT_TYPES.length).nullish(),
  /** Replay the stored events after this id first, then go live. */
  after: Position.nullish(),
});

const PageInput = FeedInput.extend({
  after: Position.default('0'),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});


/**
 * `GET /api/events`'s query: `types` comma-separated (`order.paid,order.cancelled`), which OpenAPI
 * states as an array of the event types in the `form` style without `explode`.
 */
export const EventPageQuery = z.object({
  after: Position.optional().describe('Events after this id (default 0: from the oldest kept)'),
  types: z.preprocess(commaSeparated, FeedInput.shape.types.unwrap().unwrap().optional()).describe('Event types, comma-separated (default: all you may see)'),
  limit: z.coerce.number().int().min(1).max(500).optional().describe('At most this many (1-500, default 100)'),
});

/** Who may see which events: a platform admin all, a shop operator their shop's, a customer their own orders'. */
type Audience = { kind: 'admin' } | { kind: 'shop'; shopId: number } | { kind: 'customer'; customerId: number };

function dashboardAudience(ctx: ServiceContext): Audience {
  const { actor, grant } = requirePermission(ctx, Permission.EventsRead);
  return grant === 'shop' && actor?.shopId != null ? { kind: 'shop', shopId: actor.shopId } : { kind: 'admin' };
}

/** The asked-for kinds among those the audience may receive, else all of those. */
function typesFor(audience: Audience, types: readonly string[] | null | undefined): string[] {
  const allowed: readonly string[] = audience.kind === 'customer' ? ORDER_EVENT_TYPES : ALL_EVENT_TYPES;
  return types && types.length > 0 ? types.filter((t) => allowed.includes(t)) : [...allowed];
}

function accepts(audience: Audience, types: readonly string[]): (event: DomainEvent) => boolean {
  const wanted = new Set(types);
  switch (audience.kind) {
    case 'admin':
      return (event) => wanted.has(event.type);
    case 'shop':
      return (event) => wanted.has(event.type) && event.shopIds.includes(audience.shopId);
    case 'customer':
      return (event) => wanted.has(event.type) && event.customerId === audience.customerId;
  }
}


async function checkRetention(ctx: ServiceContext, after: string): Promise<void> {
  const [horizon] = await retentionHorizon.run(ctx.em, []);
  if (horizon && BigInt(after) < BigInt(horizon.pruned_through)) {
    throw new AppError('EVENTS_EXPIRED', 410, `Events up to id ${horizon.pruned_through} were pruned (kept ${Math.round(ctx.config.outbox.retentionSeconds / 86_400)} days); resume after ${horizon.pruned_through} or later, and reload state through queries`, {
      oldest_after: horizon.pruned_through,
    });
  }
}

async function page(ctx: ServiceContext, audience: Audience, types: readonly string[], after: string, limit: number): Promise<DomainEvent[]> {
  const typeList = textArray(types);
  const rows: EventRow[] =
    audience.kind === 'admin'
      ? await feedForAdmin.run(ctx.em, [after, typeList, limit])
      : audience.kind === 'shop'
        ? await feedForShop.run(ctx.em, [after, typeList, audience.shopId, limit])
        : await feedForCustomer.run(ctx.em, [after, typeList, audience.customerId, limit]);
  return rows.flatMap((row) => {
    const event = eventOf({ id: row.id, type: row.type, occurredAt: row.occurred_at, shopIds: row.shop_ids, customerId: row.customer_id, payload: row.payload });
    return event ? [event] : [];
  });
}

/**
 * The events the caller may see, live; with `after`, the stored events after that id first. The
 * live listener is attached before the replay reads, and live events at or below the last replayed
 * id are dropped when they are taken (not when they arrive: the replay may still be reading them then):
 * the relay hands each process every position once and in order, so the seam has no gap and no
 * duplicate.
 */
async function resumableStream(ctx: ServiceContext, audience: Audience, types: readonly string[], after: string | null | undefined): Promise<AsyncIterableIterator<DomainEvent>> {
  const accept = accepts(audience, types);
  if (after === null || after === undefined) return eventStream(ctx.events, accept);
  await checkRetention(ctx, after);
  let seam = BigInt(after);
  const live = eventStream(ctx.events, (event) => BigInt(event.id) > seam && accept(event));
  const replayed: DomainEvent[] = [];
  for (;;) {
    const batch = await page(ctx, audience, types, String(seam), 500);
    replayed.push(...batch);
    if (batch.length > 0) seam = BigInt(batch[batch.length - 1].id);
    if (batch.length < 500) break;
    if (replayed.length > 10_000) {
      void live.return();
      throw new AppError('EVENTS_EXPIRED', 410, 'More than 10000 events to replay: read them with GET /api/events first, then subscribe after the last id', { oldest_after: after });
    }
  }
  const resumed: AsyncIterableIterator<DomainEvent> = {
    async next() {
      const event = replayed.shift();
      if (event) return { value: event, done: false };
      for (;;) {
        // The live filter compares with the seam as it was when the event arrived: an event
        // published while the replay was still reading is queued live and replayed too.
        const result = await live.next();
        if (result.done || BigInt(result.value.id) > seam) return result;
      }
    },
    return() {
      replayed.length = 0;
      return live.return();
    },
    throw(error: unknown) {
      return live.throw!(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
  return resumed;
}

/** What a feed resumed `after` an id can refuse: the events after it are no longer all kept. */
export const dashboardEventsRefusals = refusals('EVENTS_EXPIRED', 'SUBSCRIBER_TOO_SLOW');

/**
 * The event feed of a dashboard: a platform admin sees every event, a shop operator only events
 * that concern their shop (`shopIds` includes it). Customers use `myOrderEvents`.
 */
export function dashboardEvents(ctx: ServiceContext, input: unknown): Promise<AsyncIterableIterator<DomainEvent>> {
  const audience = dashboardAudience(ctx);
  const { types, after } = parseInput(FeedInput, input ?? {});
  return resumableStream(ctx, audience, typesFor(audience, types), after);
}

export const myOrderEventsRefusals = refusals('EVENTS_EXPIRED', 'SUBSCRIBER_TOO_SLOW');

/** A customer's own orders as they change: placed, paid, cancelled, shipped. */
export function myOrderEvents(ctx: ServiceContext, input: unknown): Promise<AsyncIterableIterator<DomainEvent>> {
  const actor = requireCustomer(ctx);
  const { types, after } = parseInput(FeedInput, input ?? {});
  const audience: Audience = { kind: 'customer', customerId: actor.userId };
  return resumableStream(ctx, audience, typesFor(audience, types), after);
}

export const listEventsRefusals = refusals('EVENTS_EXPIRED');

/**
 * `GET /api/events`: the same feed for clients that poll. Platform admins and shop operators see
 * what their dashboard subscription sees; customers their own orders' events. `next` is the id to
 * ask `after` next time (the last one returned, else `after` itself).
 */
export async function listEvents(ctx: ServiceContext, input: unknown): Promise<{ events: DomainEvent[]; next: string }> {
  const actor = requireUser(ctx);
  // Without the events.read permission (a customer, a member whose role lacks it) one sees what a
  // customer sees: the events of their own orders.
  const grant = grantOf(actor, Permission.EventsRead);
  const audience: Audience =
    grant === 'platform' ? { kind: 'admin' }
    : grant === 'shop' && actor.shopId !== null ? { kind: 'shop', shopId: actor.shopId }
    : { kind: 'customer', customerId: actor.userId };
  const { types, after, limit } = parseInput(PageInput, parseInput(EventPageQuery, input ?? {}));
  await checkRetention(ctx, after);
  const events = await page(ctx, audience, typesFor(audience, types), after, limit);
  return { events, next: events.length > 0 ? events[events.length - 1].id : after };
}

/** The retention sweep: prunes events older than EVENT_RETENTION_SECONDS (and their webhook deliveries). */
export async function pruneExpiredEvents(ctx: ServiceContext): Promise<number> {
  const [result] = await pruneEvents.run(ctx.em, [ctx.config.outbox.retentionSeconds]);
  return result?.pruned ?? 0;
}
