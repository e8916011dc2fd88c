import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Unique } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';

/** What a member does for a shop; src/shared/permissions.ts maps each to its permissions. */
export enum ShopRole {
  Owner = 'owner',
  Manager = 'manager',
  Catalog = 'catalog',
  Fulfilment = 'fulfilment',
  Finance = 'finance',
  Support = 'support',
}

/**
 * A user's place in a shop's staff (issue 41, "staff with roles"): one row per user and shop. Only
 * src/services/shops/shop-members.service.ts writes it (and the demo seed; test/ownership.test.ts); the rule "a shop
 * keeps at least one owner" is kept there under the shop's row lock.
 */
@Entity()
@Unique({ name: 'shop_membership_user_shop_unique', properties: ['user', 'shop'] })
@Index({ name: 'shop_membership_shop_id_index', properties: ['shop', 'id'] })
export class ShopMembership {
  declare [EntityName]?: 'ShopMembership';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: Rel<User>;

  @ManyToOne(() => Shop, { deleteRule: 'cascade' })
  shop!: Rel<Shop>;

  @Enum({ items: () => ShopRole })
  role!: ShopRole;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
