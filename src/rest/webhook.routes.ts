import type { Router } from 'express';
import * as webhooks from '../services/events/webhooks/webhook-endpoint.service.js';
import { Reply, route } from './route.js';
import { page } from './responses/common.js';
import { PageQuery } from '../shared/pagination.js';
import { Done, WebhookAttempt, WebhookEndpoint } from './responses/webhooks.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Webhooks';

/**
 * Outbound webhook endpoints: `/admin/webhooks` for platform admins only (the platform's endpoints,
 * every event of the chosen types), `/merchant/webhooks` for shop operators only (their shop's). The
 * same use cases, told which door they serve: another role gets 403. The prefixes are typed as
 * literals: the contract tests read the paths from the types.
 */
const SCOPES = [
  { prefix: '/admin', permission: Permission.PlatformWebhooksManage, door: 'platform' },
  { prefix: '/merchant', permission: Permission.ShopWebhooksManage, door: 'shop' },
] as const;

export function webhookRoutes(router: Router) {
  for (const { prefix, permission, door } of SCOPES) {
    route(router, `${prefix}/webhooks`, {
      get: {
        doc: { tag, summary: 'Webhook endpoints, oldest first', permission, query: PageQuery, response: page(WebhookEndpoint) },
        handle: ({ ctx, query }) => webhooks.listWebhookEndpoints(ctx, query, door),
      },
      post: {
        doc: { tag, summary: 'Register an endpoint (the answer shows its secret, once)', permission, body: webhooks.CreateWebhookInput, response: WebhookEndpoint, status: 201, errors: webhooks.createWebhookEndpointRefusals },
        handle: async ({ ctx, body }) => new Reply(201, await webhooks.createWebhookEndpoint(ctx, body, door)),
      },
    });
    route(router, `${prefix}/webhooks/:id`, {
      patch: {
        doc: { tag, summary: 'Change the URL, the event types or the active flag', permission, body: webhooks.UpdateWebhookInput, response: WebhookEndpoint, errors: webhooks.updateWebhookEndpointRefusals },
        handle: ({ ctx, params, body }) => webhooks.updateWebhookEndpoint(ctx, params.id, body, door),
      },
      delete: {
        doc: { tag, summary: 'Remove an endpoint with its deliveries and log', permission, response: null, errors: webhooks.deleteWebhookEndpointRefusals },
        handle: async ({ ctx, params }) => {
          await webhooks.deleteWebhookEndpoint(ctx, params.id, door);
          return new Reply(204, undefined);
        },
      },
    });
    route(router, `${prefix}/webhooks/:id/rotate-secret`, {
      post: {
        doc: { tag, summary: 'A new secret (shown once); the previous one also signs during WEBHOOK_SECRET_OVERLAP_SECONDS', permission, response: WebhookEndpoint, errors: webhooks.rotateWebhookSecretRefusals },
        handle: ({ ctx, params }) => webhooks.rotateWebhookSecret(ctx, params.id, door),
      },
    });
    route(router, `${prefix}/webhooks/:id/attempts`, {
      get: {
        doc: { tag, summary: 'The delivery log, newest first', permission, query: webhooks.WebhookAttemptsInput, response: page(WebhookAttempt), errors: webhooks.webhookAttemptsRefusals },
        handle: ({ ctx, params, query }) => webhooks.webhookAttempts(ctx, params.id, query, door),
      },
    });
    route(router, `${prefix}/webhooks/:id/redeliver`, {
      post: {
        doc: { tag, summary: 'Send one stored event again, now, with fresh retries', permission, body: webhooks.RedeliverWebhookInput, response: Done, errors: webhooks.redeliverWebhookEventRefusals },
        handle: async ({ ctx, params, body }) => ({ ok: await webhooks.redeliverWebhookEvent(ctx, params.id, body, door) }),
      },
    });
    route(router, `${prefix}/webhooks/:id/ping`, {
      post: {
        doc: { tag, summary: 'Send a signed webhook.ping now and answer the logged attempt', permission, response: WebhookAttempt, errors: webhooks.pingWebhookEndpointRefusals },
        handle: ({ ctx, params }) => webhooks.pingWebhookEndpoint(ctx, params.id, door),
      },
    });
  }
}
