import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';

export enum DiscountKind {
  /** `amount_off` minor units off the shop order. */
  Fixed = 'fixed',
  /** `percent_off` (1..100) of the shop order, rounded down, at most `max_discount` when set. */
  Percent = 'percent',
}

export enum CouponTemplateStatus {
  Active = 'active',
  Disabled = 'disabled',
}

/**
 * The discount terms as the database checks them, shared by templates and the coupons claimed from
 * them. Checks are written as PostgreSQL prints them back (`between` becomes two comparisons) so the
 * schema comparator can match the stored definition.
 */
export const DISCOUNT_TERMS_VALID =
  "(discount_kind = 'fixed' and amount_off > 0 and percent_off is null and max_discount is null)" +
  " or (discount_kind = 'percent' and (percent_off >= 1 and percent_off <= 100) and amount_off is null and (max_discount is null or max_discount > 0))";

/**
 * A shop's coupon offer. Claiming copies its terms into a customer-owned Coupon (a snapshot), so later
 * edits, disabling or deletion never change a held coupon. `claim_stock` is the number of coupons
 * that can still be claimed; it only decreases through one guarded update per claim.
 * The validity window is either fixed (`valid_from`..`valid_until`) or `valid_days` from the claim.
 */
@Entity()
@Index({ properties: ['shop', 'id'] })
@Check({ name: 'coupon_template_discount_valid', expression: DISCOUNT_TERMS_VALID })
@Check({ name: 'coupon_template_threshold_non_negative', expression: 'min_order_amount >= 0' })
@Check({ name: 'coupon_template_claim_stock_non_negative', expression: 'claim_stock >= 0' })
@Check({
  name: 'coupon_template_window_valid',
  expression:
    '(valid_days is null and valid_from is not null and valid_until is not null and valid_until > valid_from)' +
    ' or ((valid_days >= 1 and valid_days <= 3650) and valid_from is null and valid_until is null)',
})
export class CouponTemplate {
  declare [EntityName]?: 'CouponTemplate';

  @PrimaryKey()
  id!: number;

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

  /** Cap of a percentage discount, minor units. */
  @Property({ type: 'integer', nullable: true })
  maxDiscount?: number | null;

  /** Threshold: the shop order's items total (base currency minor units) must be at least this. */
  @Property()
  minOrderAmount: number & Opt = 0;

  @Property({ columnType: 'timestamptz', nullable: true })
  validFrom?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  validUntil?: Date | null;

  @Property({ type: 'integer', nullable: true })
  validDays?: number | null;

  @Property()
  claimStock!: number;

  @Enum({ items: () => CouponTemplateStatus })
  status: CouponTemplateStatus & Opt = CouponTemplateStatus.Active;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz' })
  updatedAt: Date & Opt = new Date();
}
