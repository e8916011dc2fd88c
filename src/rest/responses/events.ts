import { z } from 'zod';
import { EVENT_PAYLOADS, type EventName } from '../../shared/domain-event.js';
import { named, timestamp } from './common.js';

/**
 * A stored event as the REST feed and webhooks send it: snake_case keys, states as REST spells the
 * objects they describe (`"status": "paid"`, as `GET /api/orders/{id}` says), one payload shape per
 * event type (EVENT_PAYLOADS).
 */
export const EventEnvelope = named(
  'Event',
  z.union(
    (Object.keys(EVENT_PAYLOADS) as EventName[]).map((type) =>
      z.strictObject({
        id: z.string().describe('The position in the outbox: pass it as `after` to resume after this event'),
        type: z.literal(type),
        occurredAt: timestamp,
        shopIds: z.array(z.number().int()),
        customerId: z.number().int().nullable(),
        payload: EVENT_PAYLOADS[type].strict(),
      }),
    ),
  ),
);

export const EventPage = named(
  'EventPage',
  z.strictObject({
    events: z.array(EventEnvelope),
    next: z.string().describe('Ask `after` this id next time (the last event returned, else the `after` asked)'),
  }),
);
