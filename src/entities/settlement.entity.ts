import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { Category } from './category.entity.js';
import { User } from './user.entity.js';

/**
 * A shop's commission rate (basis points of what the customer paid) from `validFrom` until
 * `validUntil` (open-ended when null), for one category or (category null) every other product. At
 * payment each line takes the rate then valid for its category, else the shop's default, else none;
 * the order keeps the result, so a later change never rewrites a paid order.
 */
@Entity()
@Index({ name: 'commission_rate_shop_from_index', properties: ['shop', 'validFrom'] })
@Check({ name: 'commission_rate_valid', expression: 'rate_bp >= 0 and rate_bp <= 10000 and (valid_until is null or valid_until > valid_from)' })
export class CommissionRate {
  declare [EntityName]?: 'CommissionRate';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @ManyToOne(() => Category, { nullable: true, index: true })
  category?: Rel<Category> | null;

  @Property()
  rateBp!: number;

  @Property({ columnType: 'timestamptz' })
  validFrom!: Date;

  @Property({ columnType: 'timestamptz', nullable: true })
  validUntil?: Date | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** A platform admin's run over the shops: every shop whose available balance reached `threshold` got a payout. */
@Entity()
@Index({ name: 'payout_batch_created_at_index', properties: ['createdAt'] })
export class PayoutBatch {
  declare [EntityName]?: 'PayoutBatch';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User, { index: true })
  createdBy!: Rel<User>;

  @Property()
  threshold!: number;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/**
 * pending -> paid | failed; paid -> failed when the bank returns a payout after reporting it paid
 * (`failedAfterPaid`). Pending and paid money is in transit / gone to the bank; a failure gives it back
 * to the shop's available balance.
 */
export enum PayoutStatus {
  Pending = 'pending',
  Paid = 'paid',
  Failed = 'failed',
}

@Entity()
@Index({ name: 'payout_shop_id_index', properties: ['shop', 'id'] })
@Index({ name: 'payout_batch_id_index', properties: ['batch', 'id'] })
@Index({ name: 'payout_settled_at_index', properties: ['settledAt'], where: 'settled_at is not null' })
@Check({ name: 'payout_amount_positive', expression: 'amount > 0' })
export class Payout {
  declare [EntityName]?: 'Payout';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => PayoutBatch)
  batch!: Rel<PayoutBatch>;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @Property()
  amount!: number;

  @Enum({ items: () => PayoutStatus })
  status: PayoutStatus & Opt = PayoutStatus.Pending;

  @Property({ length: 200, nullable: true })
  failureReason?: string | null;

  /** The bank reported it paid, then returned it. */
  @Property()
  failedAfterPaid: boolean & Opt = false;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  /** When it was last marked paid or failed. */
  @Property({ columnType: 'timestamptz', nullable: true })
  settledAt?: Date | null;
}
