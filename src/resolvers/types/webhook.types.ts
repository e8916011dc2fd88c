import { ArgsType, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { WebhookDisabledReason } from '../../entities/event.entity.js';
import type { EventType } from '../../services/events/event-types.js';
import { EventTypeEnum, WebhookDisabledReasonEnum } from './enums.js';
import { PayloadType } from './payload.types.js';
import { PageArgs, PageType } from './page.types.js';
import { createWebhookEndpointRefusals, deleteWebhookEndpointRefusals, pingWebhookEndpointRefusals, redeliverWebhookEventRefusals, rotateWebhookSecretRefusals, updateWebhookEndpointRefusals } from '../../services/events/webhooks/webhook-endpoint.service.js';

// Written here rather than made from services/events/webhooks/webhook-views.ts (GraphQL IDs, the EventType enum),
// and held to those schemas by test/one-description.test.ts.
@ObjectType({ description: "An outbound webhook endpoint: a platform admin's receives every event of its types, a shop operator's those of the own shop" })
export class WebhookEndpoint {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true, description: 'The shop whose events it receives; null: a platform endpoint (every event of its types)' }) shopId!: number | null;
  @Field() url!: string;
  @Field(() => [EventTypeEnum]) eventTypes!: EventType[];
  @Field() active!: boolean;
  @Field(() => WebhookDisabledReasonEnum, { nullable: true, description: 'Why it is off, when it is' }) disabledReason!: WebhookDisabledReason | null;
  @Field() createdAt!: Date;
}

@ObjectType({ description: 'A webhook endpoint with its signing secret: the answer that created it or rotated the secret, the only one that shows it' })
export class WebhookEndpointWithSecret extends WebhookEndpoint {
  @Field({ description: 'The signing secret (whsec_...), shown this once' }) secret!: string;
}

@ObjectType()
export class WebhookEndpointPage extends PageType(WebhookEndpoint) {}


@ObjectType({ description: 'One attempt to deliver to an endpoint (or a test ping), as the delivery log keeps it' })
export class WebhookAttempt {
  @Field(() => ID) id!: string;
  @Field(() => ID, { nullable: true, description: 'null for a test ping' }) deliveryId!: string | null;
  @Field(() => ID, { nullable: true, description: "The event's id (DomainEvent.id); null for a test ping" }) eventId!: string | null;
  @Field() attemptedAt!: Date;
  @Field(() => Int, { nullable: true, description: 'null when no answer came (timeout, refused address, connection failed)' }) statusCode!: number | null;
  @Field(() => Int) latencyMs!: number;
  @Field(() => String, { nullable: true }) error!: string | null;
  @Field(() => String, { nullable: true, description: "The answer's first bytes (at most 1 KiB)" }) responseHead!: string | null;
}

@ObjectType()
export class WebhookAttemptPage extends PageType(WebhookAttempt) {}

@ArgsType()
export class WebhookAttemptsArgs extends PageArgs {
  @Field(() => Int) endpointId!: number;
}

@InputType()
export class CreateWebhookEndpointInput {
  @Field({ description: 'https (http only in development); no private, loopback or link-local address behind it' }) url!: string;
  @Field(() => [EventTypeEnum]) eventTypes!: EventType[];
  @Field({ nullable: true, description: 'Default true' }) active?: boolean;
}

@InputType()
export class UpdateWebhookEndpointInput {
  @Field(() => Int) endpointId!: number;
  @Field({ nullable: true }) url?: string;
  @Field(() => [EventTypeEnum], { nullable: true }) eventTypes?: EventType[];
  @Field({ nullable: true, description: 'true turns it on again and forgets why it was off; false cancels its waiting deliveries' }) active?: boolean;
}

@InputType()
export class DeleteWebhookEndpointInput {
  @Field(() => Int) endpointId!: number;
}

@InputType()
export class RotateWebhookSecretInput {
  @Field(() => Int) endpointId!: number;
}

@InputType()
export class RedeliverWebhookEventInput {
  @Field(() => Int) endpointId!: number;
  @Field(() => ID, { description: 'A stored event the endpoint may receive (DomainEvent.id)' }) eventId!: string;
}

@InputType()
export class PingWebhookEndpointInput {
  @Field(() => Int) endpointId!: number;
}

export const CreateWebhookEndpointPayload = PayloadType('CreateWebhookEndpoint', 'endpoint', () => WebhookEndpointWithSecret, 'The new endpoint, with its secret (shown this once)', createWebhookEndpointRefusals);
export const UpdateWebhookEndpointPayload = PayloadType('UpdateWebhookEndpoint', 'endpoint', () => WebhookEndpoint, 'The endpoint as changed', updateWebhookEndpointRefusals);
export const DeleteWebhookEndpointPayload = PayloadType('DeleteWebhookEndpoint', 'deletedEndpointId', () => Int, 'The id of the deleted endpoint', deleteWebhookEndpointRefusals);
export const RotateWebhookSecretPayload = PayloadType('RotateWebhookSecret', 'endpoint', () => WebhookEndpointWithSecret, 'The endpoint with its new secret (shown this once)', rotateWebhookSecretRefusals);
export const RedeliverWebhookEventPayload = PayloadType('RedeliverWebhookEvent', 'redeliveredEventId', () => ID, 'The id of the event queued again for the endpoint', redeliverWebhookEventRefusals);
export const PingWebhookEndpointPayload = PayloadType('PingWebhookEndpoint', 'attempt', () => WebhookAttempt, 'The logged attempt of the ping', pingWebhookEndpointRefusals);
