import { Entity, PrimaryKey, Property, ManyToOne, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { Sku } from './sku.entity.js';

/** One line of a customer's persisted cart. The quantity may exceed stock; checkout decides. */
@Entity()
@Unique({ properties: ['customer', 'sku'] })
@Check({ name: 'cart_item_quantity_positive', expression: 'quantity > 0' })
export class CartItem {
  declare [EntityName]?: 'CartItem';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  customer!: Rel<User>;

  @ManyToOne(() => Sku, { deleteRule: 'cascade', index: true })
  sku!: Rel<Sku>;

  @Property()
  quantity!: number;

  @Property({ columnType: 'timestamptz' })
  addedAt: Date & Opt = new Date();
}
