import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { Shop } from './shop.entity.js';
import { CouponTemplate, DiscountKind, DISCOUNT_TERMS_VALID } from './coupon-template.entity.js';

/** Stored state; `expired` is computed on read (now past `valid_until` and not used). */
export enum CouponStatus {
  Available = 'available',
  Used = 'used',
}

/**
 * A customer's coupon: a snapshot of the template's terms taken at claim time, with the concrete
 * validity window. The template link becomes null when the template is deleted; the coupon stays.
 * One per (customer, template), enforced by the database.
 */
@Entity()
@Unique({ name: 'coupon_customer_template_unique', properties: ['customer', 'template'] })
@Index({ properties: ['customer', 'id'] })
@Check({ name: 'coupon_discount_valid', expression: DISCOUNT_TERMS_VALID })
@Check({ name: 'coupon_threshold_non_negative', expression: 'min_order_amount >= 0' })
@Check({ name: 'coupon_window_valid', expression: 'valid_until > valid_from' })
@Check({ name: 'coupon_used_at_matches_status', expression: "(status = 'used') = (used_at is not null)" })
export class Coupon {
  declare [EntityName]?: 'Coupon';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User)
  customer!: Rel<User>;

  @ManyToOne(() => CouponTemplate, { nullable: true, deleteRule: 'set null', index: true })
  template?: Rel<CouponTemplate> | null;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @Property({ length: 120 })
  name!: string;

  @Enum({ items: () => DiscountKind })
  discountKind!: DiscountKind;

  @Property({ type: 'integer', nullable: true })
  amountOff?: number | null;

  @Property({ type: 'integer', nullable: true })
  percentOff?: number | null;

  @Property({ type: 'integer', nullable: true })
  maxDiscount?: number | null;

  @Property()
  minOrderAmount!: number;

  @Property({ columnType: 'timestamptz' })
  validFrom!: Date;

  @Property({ columnType: 'timestamptz' })
  validUntil!: Date;

  @Enum({ items: () => CouponStatus })
  status: CouponStatus & Opt = CouponStatus.Available;

  @Property({ columnType: 'timestamptz' })
  claimedAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  usedAt?: Date | null;
}
