import { z } from 'zod';
import { EVENT_ENVELOPES, type EventName } from '../../shared/domain-event.js';
import { WebhookPingView } from '../../services/events/webhooks/webhook-views.js';
import { named } from './common.js';

/**
 * A stored event as the REST feed and webhooks send it: the envelope of its type (EVENT_ENVELOPES,
 * shared/domain-event.ts), snake_case keys, states as REST spells the objects they describe
 * (`"status": "paid"`, as `GET /api/orders/{id}` says).
 */
/** `order.placed` → `OrderPlacedEvent`: the component name of one event type's envelope. */
export const eventSchemaName = (type: string) => `${type.split(/[._]/).map((word) => word[0].toUpperCase() + word.slice(1)).join('')}Event`;

/** Each event type's envelope, named so that the feed and each webhook of the document refer to the same schema. */
const envelopes = (Object.keys(EVENT_ENVELOPES) as EventName[]).map((type) => named(eventSchemaName(type), EVENT_ENVELOPES[type]));

export const EventEnvelope = named('Event', z.union(envelopes));

/** What `POST /api/.../webhooks/{id}/ping` sends: signed like a delivery, with no stored event behind it. */
export const WebhookPing = named('WebhookPingEvent', WebhookPingView);

export const EventPage = named(
  'EventPage',
  z.strictObject({
    events: z.array(EventEnvelope),
    next: z.string().describe('Ask `after` this id next time (the last event returned, else the `after` asked)'),
  }),
);
