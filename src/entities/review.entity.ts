import { Entity, PrimaryKey, Property, ManyToOne, OneToOne, Check, Index } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { OrderItem } from './order-item.entity.js';
import { Product } from './product.entity.js';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';

/**
 * A customer's review of one order item of a delivered order (at most one per item). The shop may
 * reply once; a platform admin may hide it, which removes it from public reads and the summary.
 */
@Entity()
@Index({ properties: ['shop', 'id'] })
// The public page (newest first) and the rating summary (index-only) of a product's visible reviews.
@Index({ name: 'review_visible_product_idx', properties: ['product', 'id'], include: ['rating'], where: 'not hidden' })
// Moderation lists hidden reviews.
@Index({ name: 'review_hidden_idx', properties: ['id'], where: 'hidden' })
// `between` as PostgreSQL prints it back, so the schema comparator matches the stored definition.
@Check({ name: 'review_rating_range', expression: 'rating >= 1 and rating <= 5' })
@Check({ name: 'review_image_urls_array', expression: "jsonb_typeof(image_urls) = 'array'" })
export class Review {
  declare [EntityName]?: 'Review';

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

  @Property({ type: 'json', default: '[]' })
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
