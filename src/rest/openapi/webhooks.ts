import { EVENT_PAYLOADS, type EventName } from '../../shared/domain-event.js';
import { eventSchemaName } from '../responses/events.js';
import type { JsonSchema } from './json-schema.js';

/** The Standard Webhooks headers every delivery and ping carries (webhook-signing.ts), as the receiver reads them. */
const SIGNATURE_HEADERS: JsonSchema[] = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: '`evt_<event id>` for an event, the same on every retry (drop repeats by it); `ping_<uuid>` for a ping.',
    schema: { type: 'string', pattern: '^(evt_[1-9][0-9]{0,17}|ping_[0-9a-f-]{36})$' },
  },
  { name: 'webhook-timestamp', in: 'header', required: true, description: 'When it was signed, in Unix seconds.', schema: { type: 'string', pattern: '^[0-9]{1,12}$' } },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` keyed by the secret; during a secret rotation one per secret, space-separated.',
    schema: { type: 'string', pattern: '^v1,[A-Za-z0-9+/]{43}=( v1,[A-Za-z0-9+/]{43}=)*$' },
  },
];

const RESPONSES = {
  '200': { description: 'Any 2xx answer delivers it.' },
  '410': { description: 'Gone: the delivery ends and the endpoint is disabled (a `webhook.endpoint_disabled` event).' },
  default: { description: 'Anything else (another status, a redirect, a timeout) is retried after `WEBHOOK_RETRY_DELAYS_SECONDS`.' },
};

function webhook(type: string, schema: string, summary: string): JsonSchema {
  return {
    post: {
      operationId: `webhook_${type.replace(/\./g, '_')}`,
      summary,
      description: 'POSTed as JSON to every active endpoint subscribed to this type and allowed to see it (docs/api.md, Webhooks).',
      tags: ['Webhooks'],
      parameters: SIGNATURE_HEADERS,
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } },
      responses: RESPONSES,
    },
  };
}

/** OpenAPI 3.1's `webhooks`: what the server POSTs to a receiver, one entry per event type and the ping. */
export function webhooksSection(): Record<string, JsonSchema> {
  const events = (Object.keys(EVENT_PAYLOADS) as EventName[]).map((type) => [type, webhook(type, eventSchemaName(type), `The event ${type}`)] as const);
  return Object.fromEntries([...events, ['webhook.ping', webhook('webhook.ping', 'WebhookPingEvent', 'A ping, sent on request to test the endpoint')]]);
}
