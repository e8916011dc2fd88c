import { Entity, PrimaryKey, Property, Check, Index } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt } from '@mikro-orm/core';

/**
 * A platform-owned item of the points mall, bought with points instead of money. Stock only changes
 * through guarded conditional updates (never below zero, also a CHECK in the database).
 */
@Entity()
@Check({ name: 'points_product_stock_non_negative', expression: 'stock >= 0' })
@Check({ name: 'points_product_points_price_positive', expression: 'points_price > 0' })
// The public listing reads only published products, newest first.
@Index({ name: 'points_product_published_id_idx', properties: ['id'], where: 'published' })
export class PointsProduct {
  declare [EntityName]?: 'PointsProduct';

  @PrimaryKey()
  id!: number;

  @Property({ length: 200 })
  name!: string;

  @Property({ columnType: 'text', nullable: true })
  description?: string | null;

  @Property({ length: 500, nullable: true })
  imageUrl?: string | null;

  /** Price of one unit, in points. */
  @Property()
  pointsPrice!: number;

  /** Units left to redeem. */
  @Property()
  stock!: number;

  @Property()
  published: boolean & Opt = false;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}
