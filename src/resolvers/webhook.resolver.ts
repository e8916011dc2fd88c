import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as webhooks from '../services/events/webhooks/webhook-endpoint.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PageArgs } from './types/page.types.js';
import {
  CreateWebhookEndpointInput, CreateWebhookEndpointPayload, DeleteWebhookEndpointInput, DeleteWebhookEndpointPayload, PingWebhookEndpointInput,
  PingWebhookEndpointPayload, RedeliverWebhookEventInput, RedeliverWebhookEventPayload, RotateWebhookSecretInput, RotateWebhookSecretPayload,
  UpdateWebhookEndpointInput, UpdateWebhookEndpointPayload, WebhookAttemptPage, WebhookAttemptsArgs, WebhookEndpointPage,
} from './types/webhook.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/**
 * The twins of `/api/admin/webhooks` and `/api/merchant/webhooks`: one set of fields, since the
 * service takes the scope from the caller (a platform admin's endpoints, or the operator's shop's).
 */
@Resolver()
export class WebhookResolver {
  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Query(() => WebhookEndpointPage, { description: "The caller's webhook endpoints (a platform admin's, or the own shop's), oldest first; secrets are never shown here" })
  webhookEndpoints(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return webhooks.listWebhookEndpoints(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Query(() => WebhookAttemptPage, { nullable: true, description: "An endpoint's delivery log, newest first; null for an unknown endpoint or another's" })
  webhookAttempts(@Args(() => WebhookAttemptsArgs) { endpointId, ...query }: WebhookAttemptsArgs, @Ctx() { ctx }: GraphQLContext) {
    return webhooks.webhookAttempts(ctx, endpointId, withoutNulls(query));
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Mutation(() => CreateWebhookEndpointPayload, { description: 'Register an endpoint; the answer shows its signing secret, once' })
  createWebhookEndpoint(@Arg('input', () => CreateWebhookEndpointInput) input: CreateWebhookEndpointInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreateWebhookEndpointPayload, () => webhooks.createWebhookEndpoint(ctx, withoutNulls(input)));
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Mutation(() => UpdateWebhookEndpointPayload, { description: 'Change the URL, the event types or the active flag (only the fields sent)' })
  updateWebhookEndpoint(@Arg('input', () => UpdateWebhookEndpointInput) { endpointId, ...input }: UpdateWebhookEndpointInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpdateWebhookEndpointPayload, () => webhooks.updateWebhookEndpoint(ctx, endpointId, withoutNulls(input)));
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Mutation(() => DeleteWebhookEndpointPayload, { description: 'Remove an endpoint with its deliveries and log' })
  deleteWebhookEndpoint(@Arg('input', () => DeleteWebhookEndpointInput) input: DeleteWebhookEndpointInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DeleteWebhookEndpointPayload, async () => {
      await webhooks.deleteWebhookEndpoint(ctx, input.endpointId);
      return input.endpointId;
    });
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Mutation(() => RotateWebhookSecretPayload, { description: 'A new secret (shown once); the previous one also signs during WEBHOOK_SECRET_OVERLAP_SECONDS' })
  rotateWebhookSecret(@Arg('input', () => RotateWebhookSecretInput) input: RotateWebhookSecretInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RotateWebhookSecretPayload, () => webhooks.rotateWebhookSecret(ctx, input.endpointId));
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Mutation(() => RedeliverWebhookEventPayload, { description: 'Send one stored event to the endpoint again, now, with fresh retries' })
  redeliverWebhookEvent(@Arg('input', () => RedeliverWebhookEventInput) { endpointId, eventId }: RedeliverWebhookEventInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RedeliverWebhookEventPayload, async () => {
      await webhooks.redeliverWebhookEvent(ctx, endpointId, { eventId });
      return eventId;
    });
  }

  @Allow(Permission.PlatformWebhooksManage, Permission.ShopWebhooksManage)
  @Mutation(() => PingWebhookEndpointPayload, { description: 'Send a signed webhook.ping now and answer the logged attempt' })
  pingWebhookEndpoint(@Arg('input', () => PingWebhookEndpointInput) input: PingWebhookEndpointInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, PingWebhookEndpointPayload, () => webhooks.pingWebhookEndpoint(ctx, input.endpointId));
  }
}
