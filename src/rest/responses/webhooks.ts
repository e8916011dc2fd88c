import { z } from 'zod';
import { named, timestamp } from './common.js';

export const WebhookEndpoint = named(
  'WebhookEndpoint',
  z.strictObject({
    id: z.number().int(),
    shopId: z.number().int().nullable().describe('The shop whose events it receives; null: a platform endpoint (every event of its types)'),
    url: z.string(),
    eventTypes: z.array(z.string()),
    active: z.boolean(),
    disabledReason: z.enum(['failing', 'gone', 'operator']).nullable(),
    createdAt: timestamp,
    secret: z.string().optional().describe('The signing secret (whsec_...): only in the answer that created or rotated it'),
  }),
);

export const WebhookAttempt = named(
  'WebhookAttempt',
  z.strictObject({
    id: z.string(),
    deliveryId: z.string().nullable().describe('null for a test ping'),
    eventId: z.string().nullable(),
    attemptedAt: timestamp,
    statusCode: z.number().int().nullable().describe('null when no answer came (timeout, refused address, connection failed)'),
    latencyMs: z.number().int(),
    error: z.string().nullable(),
    responseHead: z.string().nullable().describe("The answer's first bytes (at most 1 KiB)"),
  }),
);

export const Done = named('Done', z.strictObject({ ok: z.literal(true) }));
