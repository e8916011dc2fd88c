import { Entity, PrimaryKey, Property, ManyToOne } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * A customer's Idempotency-Key for one operation scope. Written before the operation runs (so a
 * duplicate in flight is seen), completed with the response to replay.
 */
@Entity()
export class IdempotencyKey {
  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: Rel<User>;

  @PrimaryKey({ length: 60 })
  scope!: string;

  @PrimaryKey({ length: 200 })
  key!: string;

  /** SHA-256 of the request, to refuse the same key with another body. */
  @Property({ length: 64 })
  requestHash!: string;

  @Property({ type: 'json', nullable: true })
  response?: unknown;

  @Property({ columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
