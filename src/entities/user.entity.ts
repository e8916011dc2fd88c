import { Entity, PrimaryKey, Property, ManyToOne, Enum, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';

export enum Role {
  Customer = 'customer',
  ShopOperator = 'shop_operator',
  PlatformAdmin = 'platform_admin',
}

@Entity({ tableName: 'app_user' })
@Check({ name: 'app_user_operator_has_shop', expression: "(role = 'shop_operator') = (shop_id is not null)" })
@Check({ name: 'app_user_disabled_has_reason', expression: '(disabled_at is null) = (disabled_reason is null)' })
export class User {
  declare [EntityName]?: 'User';

  @PrimaryKey()
  id!: number;

  /** Stored lower-cased, so uniqueness is case-insensitive. */
  @Property({ length: 254, unique: true })
  email!: string;

  @Property({ length: 200, hidden: true, lazy: true })
  passwordHash!: string;

  @Property({ length: 120 })
  displayName!: string;

  @Enum({ items: () => Role })
  role!: Role;

  /** The one shop a shop operator acts for; null for every other role. */
  @ManyToOne(() => Shop, { nullable: true, index: true })
  shop?: Rel<Shop> | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  /**
   * Set while a platform admin has disabled the account (accounts/customer-admin.service.ts): it
   * cannot sign in, and no token of it authenticates, even one issued by a sign-in racing the move.
   */
  @Property({ columnType: 'timestamptz', nullable: true })
  disabledAt?: Date | null;

  @Property({ length: 500, nullable: true })
  disabledReason?: string | null;

  /** When a use case of theirs last wrote; kept only with read replicas (src/db/read-routing.ts). */
  @Property({ columnType: 'timestamptz', nullable: true })
  lastWriteAt?: Date | null;
}
