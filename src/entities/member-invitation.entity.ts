import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';
import { ShopRole } from './shop-membership.entity.js';

/**
 * An invitation to join a shop's staff, sent by email as a one-time link. Only the SHA-256 of the
 * link's token is stored: a leaked table invites nobody. Used once (accepted_at) or revoked, and
 * worthless after expires_at.
 */
@Entity()
@Index({ name: 'member_invitation_shop_id_index', properties: ['shop', 'id'] })
@Check({ name: 'member_invitation_used_once', expression: 'accepted_at is null or revoked_at is null' })
export class MemberInvitation {
  declare [EntityName]?: 'MemberInvitation';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop, { deleteRule: 'cascade' })
  shop!: Rel<Shop>;

  /** Stored lower-cased: the accepting user's email must equal it. */
  @Property({ length: 254 })
  email!: string;

  @Enum({ items: () => ShopRole })
  role!: ShopRole;

  @Property({ length: 64, unique: true })
  tokenHash!: string;

  @ManyToOne(() => User)
  invitedBy!: Rel<User>;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ columnType: 'timestamptz', nullable: true })
  acceptedAt?: Date | null;

  @ManyToOne(() => User, { nullable: true })
  acceptedBy?: Rel<User> | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null;
}
