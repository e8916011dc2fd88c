import { PrimaryKey, Property, ManyToOne } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * What every invitation by a one-time link holds (a shop's, the platform's): the invited email, the
 * SHA-256 of the link's token (a leaked table invites nobody), who sent it, and its end: used once
 * (accepted_at), revoked, or worthless after expires_at. Each kind adds what it invites to.
 */
export abstract class InvitationLink {
  @PrimaryKey()
  id!: number;

  /** Stored lower-cased: the accepting user's email must equal it. */
  @Property({ length: 254 })
  email!: string;

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
