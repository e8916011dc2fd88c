import { Entity, PrimaryKey, Property, ManyToOne, Enum, Check, Index } from '@mikro-orm/decorators/legacy';
import { EntityName, BigIntType, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { PointsProduct } from './points-product.entity.js';
import type { ShippingAddress } from './order.entity.js';

export enum RedemptionStatus {
  PendingFulfillment = 'pending_fulfillment',
  Fulfilled = 'fulfilled',
}

/**
 * A redemption order of the points mall, separate from cash orders. It snapshots the redeemed line
 * (name, points price, quantity) and the shipping address, so later edits of the product change nothing here.
 */
@Entity()
@Index({ properties: ['user', 'id'] })
@Index({ properties: ['status', 'id'] })
@Check({ name: 'redemption_quantity_positive', expression: 'quantity > 0' })
@Check({ name: 'redemption_points_total_matches', expression: 'points_total = points_price::bigint * quantity' })
@Check({ name: 'redemption_fulfilled_at_matches_status', expression: "(status = 'fulfilled') = (fulfilled_at is not null)" })
export class Redemption {
  declare [EntityName]?: 'Redemption';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User)
  user!: Rel<User>;

  @ManyToOne(() => PointsProduct, { index: true })
  pointsProduct!: Rel<PointsProduct>;

  @Enum({ items: () => RedemptionStatus })
  status: RedemptionStatus & Opt = RedemptionStatus.PendingFulfillment;

  /** Snapshot of the product's name when redeemed. */
  @Property({ length: 200 })
  productName!: string;

  /** Snapshot of the unit price in points when redeemed. */
  @Property()
  pointsPrice!: number;

  @Property()
  quantity!: number;

  /** Points debited: points price times quantity. */
  @Property({ type: new BigIntType('number') })
  pointsTotal!: number;

  @Property({ type: 'json' })
  shippingAddress!: ShippingAddress;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  fulfilledAt?: Date | null;
}
