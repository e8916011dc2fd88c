import { Entity, PrimaryKey, Property, Enum, Check, Index } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt } from '@mikro-orm/core';

/**
 * The kind of account, which decides the console it signs in to: a customer shops; a shop operator
 * works for the shops of its memberships (ShopMembership: each with a shop role); platform staff
 * (`platform_admin`, the value kept for the clients that read it) work for the mall with the
 * platform role beside it. What anyone may do is a permission of those roles (src/shared/permissions.ts).
 */
export enum Role {
  Customer = 'customer',
  ShopOperator = 'shop_operator',
  PlatformAdmin = 'platform_admin',
}

/** What a member of the platform's staff does; src/shared/permissions.ts maps each to its permissions. */
export enum PlatformRole {
  Admin = 'admin',
  Finance = 'finance',
  Support = 'support',
  Content = 'content',
}

@Entity({ tableName: 'app_user' })
@Check({ name: 'app_user_staff_has_platform_role', expression: "(role = 'platform_admin') = (platform_role is not null)" })
// The platform's customers sorted by name (the platform console's table), ties by id.
@Index({ name: 'app_user_customer_name_idx', properties: ['displayName', 'id'], where: "role = 'customer'" })
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

  /** Platform staff's role; null for every other kind of account. */
  @Enum({ items: () => PlatformRole, nullable: true })
  platformRole?: PlatformRole | null;

  /**
   * When the account joined the platform's staff by an invitation (services/platform/platform-staff.service.ts);
   * null for other accounts, and for staff made before invitations, who count from their account's creation.
   */
  @Property({ columnType: 'timestamptz', nullable: true })
  staffSince?: Date | null;

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
