import { Entity, PrimaryKey, Property, ManyToOne, Index, Check, Unique } from '@mikro-orm/decorators/legacy';
import { ArrayType, BigIntType, EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';

/**
 * The transactional outbox: one row per domain event, inserted in the transaction (or the one
 * statement) of the change it describes. `position` is given by the relay after commit, in the order
 * events became visible (src/services/events/outbox.repository.ts); it is the event's public id.
 * Read and written only through SQL (the outbox repository); the entity describes the table.
 */
@Entity()
@Index({ name: 'event_unpublished_index', properties: ['id'], where: 'position is null' })
@Index({ name: 'event_customer_position_index', properties: ['customerId', 'position'], where: 'customer_id is not null' })
@Index({ name: 'event_shop_ids_index', properties: ['shopIds'], type: 'gin' })
export class Event {
  declare [EntityName]?: 'Event';

  @PrimaryKey({ type: new BigIntType('string') })
  id!: string;

  @Property({ type: new BigIntType('string'), nullable: true, unique: 'event_position_unique' })
  position?: string | null;

  @Property({ columnType: 'text' })
  type!: string;

  @Property({ type: ArrayType, columnType: 'int[]' })
  shopIds!: number[];

  @Property({ type: 'integer', nullable: true })
  customerId?: number | null;

  @Property({ type: 'json' })
  payload!: unknown;

  @Property({ columnType: 'timestamptz' })
  occurredAt!: Date;

  @Property({ columnType: 'timestamptz', nullable: true })
  publishedAt?: Date | null;

  /** The W3C `traceparent` of the request that wrote it, while tracing was on (src/tracing.ts); else null. */
  @Property({ columnType: 'text', nullable: true })
  traceParent?: string | null;
}

/** One row: the last position the relay gave, and the last one retention pruned (older `after`s are refused). */
@Entity()
@Check({ name: 'event_sequence_id_check', expression: 'id = 1' })
export class EventSequence {
  declare [EntityName]?: 'EventSequence';

  @PrimaryKey({ autoincrement: false })
  id!: number;

  @Property({ type: new BigIntType('string') })
  lastPosition!: string;

  @Property({ type: new BigIntType('string') })
  prunedThrough!: string;
}

/** Why an endpoint stopped receiving deliveries. */
export enum WebhookDisabledReason {
  /** Every attempt failed for WEBHOOK_DISABLE_AFTER_SECONDS. */
  Failing = 'failing',
  /** The endpoint answered 410 Gone. */
  Gone = 'gone',
  /** Its owner turned it off. */
  Operator = 'operator',
}

/** An outside URL events are POSTed to: the platform's (no shop, every event) or a shop's (that shop's events). */
@Entity()
@Check({ name: 'webhook_endpoint_disabled_reason_check', expression: `"disabled_reason" in ('failing', 'gone', 'operator')` })
export class WebhookEndpoint {
  declare [EntityName]?: 'WebhookEndpoint';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop, { nullable: true, index: true, deleteRule: 'cascade' })
  shop?: Rel<Shop> | null;

  @Property({ columnType: 'text' })
  url!: string;

  @Property({ type: ArrayType, columnType: 'text[]' })
  eventTypes!: string[];

  @Property({ default: true })
  active: boolean & Opt = true;

  /** `whsec_` + base64 of the signing key (Standard Webhooks). */
  @Property({ columnType: 'text' })
  secret!: string;

  /** The secret before the last rotation, still signing (as a second signature) until `previousSecretUntil`. */
  @Property({ columnType: 'text', nullable: true })
  previousSecret?: string | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  previousSecretUntil?: Date | null;

  /** When the current run of failed attempts began; cleared by a success. */
  @Property({ columnType: 'timestamptz', nullable: true })
  failingSince?: Date | null;

  @Property({ columnType: 'text', nullable: true })
  disabledReason?: WebhookDisabledReason | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** One event to one endpoint, from the relay's fan-out to its last attempt. */
@Entity()
@Check({ name: 'webhook_delivery_state_check', expression: `"state" in ('pending', 'delivering', 'delivered', 'failed', 'cancelled')` })
@Index({ name: 'webhook_delivery_due_index', properties: ['endpoint', 'position'], where: `state = 'pending'` })
@Unique({ name: 'webhook_delivery_endpoint_id_event_id_unique', properties: ['endpoint', 'event'] })
@Index({ name: 'webhook_delivery_in_flight_index', properties: ['endpoint'], where: `state = 'delivering'` })
export class WebhookDelivery {
  declare [EntityName]?: 'WebhookDelivery';

  @PrimaryKey({ type: new BigIntType('string') })
  id!: string;

  @ManyToOne(() => WebhookEndpoint, { deleteRule: 'cascade' })
  endpoint!: Rel<WebhookEndpoint>;

  @ManyToOne(() => Event, { index: true, deleteRule: 'cascade' })
  event!: Rel<Event>;

  @Property({ type: new BigIntType('string') })
  position!: string;

  @Property({ columnType: 'text' })
  state!: 'pending' | 'delivering' | 'delivered' | 'failed' | 'cancelled';

  @Property({ default: 0 })
  attempts: number & Opt = 0;

  @Property({ columnType: 'timestamptz' })
  nextAttemptAt!: Date;

  /** While delivering: past this, the process that claimed it is presumed dead and another may. */
  @Property({ columnType: 'timestamptz', nullable: true })
  leaseUntil?: Date | null;

  @Property({ type: 'integer', nullable: true })
  lastStatus?: number | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** The delivery log: one row per POST (a test ping has no delivery). */
@Entity()
@Index({ name: 'webhook_attempt_endpoint_id_id_index', properties: ['endpoint', 'id'] })
export class WebhookAttempt {
  declare [EntityName]?: 'WebhookAttempt';

  @PrimaryKey({ type: new BigIntType('string') })
  id!: string;

  @ManyToOne(() => WebhookEndpoint, { deleteRule: 'cascade' })
  endpoint!: Rel<WebhookEndpoint>;

  @ManyToOne(() => WebhookDelivery, { nullable: true, index: true, deleteRule: 'cascade' })
  delivery?: Rel<WebhookDelivery> | null;

  @Property({ columnType: 'timestamptz' })
  attemptedAt!: Date;

  @Property({ type: 'integer', nullable: true })
  statusCode?: number | null;

  @Property()
  latencyMs!: number;

  @Property({ columnType: 'text', nullable: true })
  error?: string | null;

  /** The response's first bytes (at most 1 KiB). */
  @Property({ columnType: 'text', nullable: true })
  responseHead?: string | null;
}
