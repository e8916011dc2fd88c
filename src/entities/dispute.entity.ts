import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Check, Unique } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Order } from './order.entity.js';
import { Refund } from './refund.entity.js';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';

/**
 * open -> refunded (a platform ruling paid the customer, fully or partly) | upheld (the shop's
 * rejection stands). Only src/services/after-sale/dispute-lifecycle.ts moves it (test/ownership.test.ts).
 */
export enum DisputeStatus {
  Open = 'open',
  Refunded = 'refunded',
  Upheld = 'upheld',
}

/**
 * A customer's escalation of a refund or return the shop rejected, ruled by a platform admin. One
 * per refund (a unique key): a rejection is escalated once. A ruling that refunds creates a new
 * completed money-only refund (`ruledRefund`), so the ledger, the order's net paid and the shop's
 * earnings count it as any refund.
 */
@Entity()
@Unique({ name: 'dispute_refund_id_unique', properties: ['refund'] })
@Index({ name: 'dispute_status_id_index', properties: ['status', 'id'] })
@Index({ properties: ['customer', 'id'] })
@Index({ properties: ['shop', 'id'] })
@Check({ name: 'dispute_ruling_valid', expression: "(status = 'open') = (ruling is null) and (status = 'refunded') = (ruled_refund_id is not null)" })
@Check({ name: 'dispute_refunded_amount_valid', expression: "refunded_amount >= 0 and (status = 'refunded' or refunded_amount = 0)" })
export class Dispute {
  declare [EntityName]?: 'Dispute';

  @PrimaryKey()
  id!: number;

  /** The rejected refund or return escalated. */
  @ManyToOne(() => Refund)
  refund!: Rel<Refund>;

  @ManyToOne(() => Order)
  order!: Rel<Order>;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @ManyToOne(() => User)
  customer!: Rel<User>;

  @Enum({ items: () => DisputeStatus })
  status: DisputeStatus & Opt = DisputeStatus.Open;

  /** The customer's reason for escalating. */
  @Property({ length: 500 })
  reason!: string;

  /** The platform's ruling, read by the customer and the shop. */
  @Property({ length: 500, nullable: true })
  ruling?: string | null;

  /** What the ruling refunded (0 unless refunded). */
  @Property()
  refundedAmount: number & Opt = 0;

  /** The completed money-only refund the ruling created. */
  @ManyToOne(() => Refund, { nullable: true })
  ruledRefund?: Rel<Refund> | null;

  @ManyToOne(() => User, { nullable: true })
  ruledBy?: Rel<User> | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  ruledAt?: Date | null;
}
