import { WebhookDisabledReason } from '../../../entities/event.entity.js';
import { z } from '../../../shared/validate.js';
import { timestamp } from '../../../shared/view-fields.js';
import { eventTime } from '../../../shared/domain-event.js';

/**
 * The webhook views: REST publishes these schemas. GraphQL's types stay written in resolvers/types
 * (ids are GraphQL IDs there, event types its EventType enum, and the secret its own type), held to
 * these schemas by test/one-description.test.ts.
 */

export const WebhookEndpointView = z
  .strictObject({
    id: z.number().int(),
    shopId: z.number().int().nullable().describe('The shop whose events it receives; null: a platform endpoint (every event of its types)'),
    url: z.string(),
    eventTypes: z.array(z.string()),
    active: z.boolean(),
    disabledReason: z.enum(WebhookDisabledReason).nullable().describe('Why it is off, when it is'),
    createdAt: timestamp,
    // Never shown again: GraphQL answers it as WebhookEndpointWithSecret.
    secret: z.string().optional().describe('The signing secret (whsec_...): only in the answer that created or rotated it'),
  })
  .describe("An outbound webhook endpoint: a platform admin's receives every event of its types, a shop operator's those of the own shop");
export type WebhookEndpointView = z.infer<typeof WebhookEndpointView>;

/** One line of an endpoint's delivery log. */
export const WebhookAttemptView = z
  .strictObject({
    id: z.string(),
    deliveryId: z.string().nullable().describe('null for a test ping'),
    eventId: z.string().nullable().describe("The event's id (DomainEvent.id); null for a test ping"),
    attemptedAt: timestamp,
    statusCode: z.number().int().nullable().describe('null when no answer came (timeout, refused address, connection failed)'),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    responseHead: z.string().nullable().describe("The answer's first bytes (at most 1 KiB)"),
  })
  .describe('One attempt to deliver to an endpoint (or a test ping), as the delivery log keeps it');
export type WebhookAttemptView = z.infer<typeof WebhookAttemptView>;

/** A test ping (`sendPing`): signed and sent like a delivery, in an event's envelope, with no stored event behind it. */
export const WebhookPingView = z.strictObject({
  id: z.string().describe('`ping_` and a random id: no event of the feed'),
  type: z.literal('webhook.ping'),
  occurredAt: eventTime,
  payload: z.strictObject({}),
});
export type WebhookPingView = z.infer<typeof WebhookPingView>;
