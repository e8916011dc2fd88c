import { Entity, PrimaryKey, Property, ManyToOne, OneToOne, Check, Index } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { OrderItem } from './order-item.entity.js';
import { Product } from './product.entity.js';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';

/**
 * A customer's review of one order item of a delivered order (at most one per item). The shop may
 * reply once; a platform admin may hide it, which removes it from public reads and the summary.
 * The public page and the rating summary use a partial index on visible reviews (in the migration).
 */
@Entity()
@Index({ properties: ['shop', 'id'] })
@Check({ name: 'review_rating_range', expression: 'rating between 1 and 5' })
export class Review {
  @PrimaryKey()
  id!: number;

  @OneToOne(() => OrderItem, { owner: true, unique: true })
  orderItem!: Rel<OrderItem>;

  @ManyToOne(() => Product)
  product!: Rel<Product>;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @ManyToOne(() => User)
  customer!: Rel<User>;

  @Property({ columnType: 'smallint' })
  rating!: number;

  @Property({ length: 2000 })
  body!: string;

  @Property({ type: 'json' })
  imageUrls: string[] & Opt = [];

  @Property()
  hidden: boolean & Opt = false;

  @Property({ columnType: 'timestamptz', nullable: true })
  hiddenAt?: Date | null;

  @Property({ length: 1000, nullable: true })
  reply?: string | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  repliedAt?: Date | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
