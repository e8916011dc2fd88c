import { z } from 'zod';
import { EVENT_PAYLOADS, type EventName } from '../../shared/domain-event.js';
import { named, timestamp } from './common.js';

/**
 * A stored event as the REST feed and webhooks send it: snake_case keys, states as REST spells the
 * objects they describe (`"status": "paid"`, as `GET /api/orders/{id}` says), one payload shape per
 * event type (EVENT_PAYLOADS).
 */
/** `order.placed` → `OrderPlacedEvent`: the component name of one event type's envelope. */
export const eventSchemaName = (type: string) => `${type.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('')}Event`;

/** Each event type's envelope, named so that the feed and each webhook of the document refer to the same schema. */
const envelopes = (Object.keys(EVENT_PAYLOADS) as EventName[]).map((type) =>
  named(
    eventSchemaName(type),
    z.strictObject({
      id: z.string().describe('The position in the outbox: pass it as `after` to resume after this event'),
      type: z.literal(type),
      occurredAt: timestamp,
      shopIds: z.array(z.number().int()),
      customerId: z.number().int().nullable(),
      payload: EVENT_PAYLOADS[type].strict(),
    }),
  ),
);

export const EventEnvelope = named('Event', z.union(envelopes));

/** What `POST /api/.../webhooks/{id}/ping` sends: signed like a delivery, with no stored event behind it. */
export const WebhookPing = named(
  'WebhookPingEvent',
  z.strictObject({
    id: z.string().describe('`ping_` and a random id: no event of the feed'),
    type: z.literal('webhook.ping'),
    occurredAt: timestamp,
    payload: z.strictObject({}),
  }),
);

export const EventPage = named(
  'EventPage',
  z.strictObject({
    events: z.array(EventEnvelope),
    next: z.string().describe('Ask `after` this id next time (the last event returned, else the `after` asked)'),
  }),
);
