import { Entity, PrimaryKey, Property, ManyToOne, Index, Unique } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * One address of a customer's address book. Checkout still snapshots the address on each order, so
 * editing or deleting an entry never changes an order. At most one default per customer (the
 * partial unique index; the address book moves it under the customer's row lock).
 */
@Entity()
@Index({ name: 'saved_address_user_id_id_index', properties: ['user', 'id'] })
@Unique({ name: 'saved_address_one_default', properties: ['user'], where: 'is_default' })
export class SavedAddress {
  declare [EntityName]?: 'SavedAddress';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade' })
  user!: Rel<User>;

  @Property({ length: 60 })
  recipient!: string;

  @Property({ length: 40 })
  phone!: string;

  /** ISO 3166-2:CN code, one of the shipping regions. */
  @Property({ length: 6 })
  region!: string;

  @Property({ length: 300 })
  address!: string;

  @Property()
  isDefault: boolean & Opt = false;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
