import { Entity, Property, ManyToOne, Index } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { Product } from './product.entity.js';
import { Shop } from './shop.entity.js';

/** A customer's favorite product. The primary key (user, product) keeps one row per pair. */
@Entity()
@Index({ properties: ['user', 'createdAt'] })
export class FavoriteProduct {
  declare [EntityName]?: 'FavoriteProduct';

  [PrimaryKeyProp]?: ['user', 'product'];

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: Rel<User>;

  @ManyToOne(() => Product, { primary: true, deleteRule: 'cascade', index: true })
  product!: Rel<Product>;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}

/** A customer's favorite shop. The primary key (user, shop) keeps one row per pair. */
@Entity()
@Index({ properties: ['user', 'createdAt'] })
export class FavoriteShop {
  declare [EntityName]?: 'FavoriteShop';

  [PrimaryKeyProp]?: ['user', 'shop'];

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: Rel<User>;

  @ManyToOne(() => Shop, { primary: true, deleteRule: 'cascade', index: true })
  shop!: Rel<Shop>;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
