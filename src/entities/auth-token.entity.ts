import { Entity, PrimaryKey, Property, ManyToOne } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';

/** An opaque bearer token. Only its SHA-256 is stored, so a database leak does not leak sessions. */
@Entity()
export class AuthToken {
  declare [EntityName]?: 'AuthToken';

  @PrimaryKey()
  id!: number;

  @Property({ length: 64, unique: true })
  tokenHash!: string;

  @ManyToOne(() => User, { index: true, deleteRule: 'cascade' })
  user!: Rel<User>;

  @Property({ columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ columnType: 'timestamptz', nullable: true })
  revokedAt?: Date | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
