import { z } from 'zod';
import { named } from './common.js';
import { WebhookAttemptView, WebhookEndpointView } from '../../services/events/webhooks/webhook-views.js';

export const WebhookEndpoint = named('WebhookEndpoint', WebhookEndpointView);

export const WebhookAttempt = named('WebhookAttempt', WebhookAttemptView);

export const Done = named('Done', z.strictObject({ ok: z.literal(true) }));
