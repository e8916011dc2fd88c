import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { Order } from './order.entity.js';
import { Refund } from './refund.entity.js';
import type { PaymentMethod } from '../config.js';

/**
 * A payment's life (src/services/payments/payment-lifecycle.ts holds the moves):
 *
 *   pending ──authorize──> authorized ──capture──> captured
 *      │ └──────────────capture──────────────────────┘
 *      └──fail / cancel / expire (also from authorized)──> failed / cancelled / expired
 *
 * `captured` is final for the state; refunds only raise `refunded_amount`, never above what was captured.
 */
export enum PaymentStatus {
  Pending = 'pending',
  Authorized = 'authorized',
  Captured = 'captured',
  Failed = 'failed',
  Cancelled = 'cancelled',
  Expired = 'expired',
}

export { PAYMENT_METHODS, type PaymentMethod } from '../config.js';

/**
 * One payment for one checkout: all its shop orders (as "Pay all"), in one amount. A customer may
 * try again after a failure: a new payment for the same orders; at most one of them is captured
 * (payment_order_one_captured).
 */
@Entity()
@Unique({ name: 'payment_provider_reference_unique', properties: ['provider', 'providerReference'] })
@Index({ name: 'payment_customer_id_index', properties: ['customer', 'id'] })
// The sweep's look-up: gateway payments still waiting on their provider.
@Index({ name: 'payment_open_created_at_index', properties: ['createdAt'], where: "status in ('pending', 'authorized')" })
@Check({ name: 'payment_amounts_valid', expression: 'amount >= 0 and captured_amount >= 0 and captured_amount <= amount and refunded_amount >= 0 and refunded_amount <= captured_amount' })
@Check({ name: 'payment_captured_has_amount', expression: "(status = 'captured') = (captured_at is not null)" })
export class Payment {
  declare [EntityName]?: 'Payment';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User)
  customer!: Rel<User>;

  @Property({ length: 20 })
  provider!: PaymentMethod;

  @Enum({ items: () => PaymentStatus })
  status!: PaymentStatus;

  /** Minor units of `currency`: the sum of the orders' totals when the payment started (zero when coupons paid it all). */
  @Property()
  amount!: number;

  @Property({ length: 3 })
  currency!: string;

  @Property({ default: 0 })
  capturedAmount: number & Opt = 0;

  @Property({ default: 0 })
  refundedAmount: number & Opt = 0;

  /** The provider's id of this payment (a PaymentIntent id, a trade number); null until the provider answered. */
  @Property({ length: 255, nullable: true })
  providerReference?: string | null;

  /** What the customer does next (a redirect, a client secret), as the provider said. */
  @Property({ type: 'json', nullable: true })
  nextStep?: Record<string, unknown> | null;

  /** Why the payment failed, cancelled or expired (the provider's words or ours). */
  @Property({ length: 200, nullable: true })
  closeReason?: string | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz' })
  updatedAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  capturedAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  closedAt?: Date | null;
}

/** The orders a payment pays, with each order's total as the payment saw it. */
@Entity()
@Index({ name: 'payment_order_order_id_index', properties: ['order'] })
// At most one captured payment per order: a second capture of an order is a fault, never a second charge.
@Unique({ name: 'payment_order_one_captured', properties: ['order'], where: 'captured' })
export class PaymentOrder {
  declare [EntityName]?: 'PaymentOrder';

  @ManyToOne(() => Payment, { primary: true, deleteRule: 'cascade' })
  payment!: Rel<Payment>;

  @ManyToOne(() => Order, { primary: true })
  order!: Rel<Order>;

  @Property()
  amount!: number;

  /** Set in the capture's transaction for the orders the capture paid. */
  @Property({ default: false })
  captured: boolean & Opt = false;
}

/**
 * Everything a provider told us that we acted on: a notification (verified or not) or an answer to a
 * query, raw, with what we did about it (`outcome`). A payment's state is explained by its events.
 */
@Entity()
@Index({ name: 'payment_event_payment_id_index', properties: ['payment', 'id'] })
export class PaymentEvent {
  declare [EntityName]?: 'PaymentEvent';

  @PrimaryKey()
  id!: number;

  /** Null when the notification named no payment we know. */
  @ManyToOne(() => Payment, { nullable: true })
  payment?: Rel<Payment> | null;

  @Property({ length: 20 })
  provider!: string;

  /** `notification` (the provider called us), `query` (we asked), `create` (its answer to starting). */
  @Property({ length: 20 })
  source!: string;

  /** The provider's id of the notification, when it has one. */
  @Property({ length: 255, nullable: true })
  providerEventId?: string | null;

  /** What the provider says happened: captured, failed, pending, ... (null when unreadable). */
  @Property({ length: 40, nullable: true })
  status?: string | null;

  @Property({ type: 'integer', nullable: true })
  amount?: number | null;

  @Property({ length: 3, nullable: true })
  currency?: string | null;

  /** The signature (or the answer's origin) checked out. */
  @Property()
  verified!: boolean;

  /** What we did: captured, failed, duplicate, amount_mismatch, signature_invalid, unknown_payment, ... */
  @Property({ length: 40 })
  outcome!: string;

  /** The body as received (at most 64 KiB), for explaining the state later. */
  @Property({ type: 'text' })
  raw!: string;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** pending (the provider has not confirmed) -> succeeded | failed (the money came back to the customer's balance). */
export enum PaymentRefundStatus {
  Pending = 'pending',
  Succeeded = 'succeeded',
  Failed = 'failed',
}

/**
 * Money of a captured gateway payment going back to its method: an approved after-sale refund's
 * amount. Its money left the customer's balance for the provider's clearing account when it was
 * created; the provider is asked by the refund sweep, with this row's id as the idempotency key.
 */
@Entity()
@Index({ name: 'payment_refund_payment_id_index', properties: ['payment'] })
@Index({ name: 'payment_refund_pending_index', properties: ['createdAt'], where: "status = 'pending'" })
@Unique({ name: 'payment_refund_refund_id_unique', properties: ['refund'] })
@Check({ name: 'payment_refund_amount_positive', expression: 'amount > 0' })
export class PaymentRefund {
  declare [EntityName]?: 'PaymentRefund';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Payment)
  payment!: Rel<Payment>;

  /** The after-sale refund it pays back (one payment refund per after-sale refund). */
  @ManyToOne(() => Refund, { nullable: true })
  refund?: Rel<Refund> | null;

  @Property()
  amount!: number;

  @Enum({ items: () => PaymentRefundStatus })
  status!: PaymentRefundStatus;

  /** The provider's id of the refund, once it answered. */
  @Property({ length: 255, nullable: true })
  providerReference?: string | null;

  @Property({ default: 0 })
  attempts: number & Opt = 0;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
