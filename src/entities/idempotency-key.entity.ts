import { Entity, PrimaryKey, Property, ManyToOne } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';

/**
 * A customer's Idempotency-Key, written with the answer to replay by the work it guards, in the same
 * transaction or statement: a key exists only once its work committed. A key belongs to one
 * operation (`scope`): unique per customer, so the same key sent to another operation is refused.
 */
@Entity()
export class IdempotencyKey {
  declare [EntityName]?: 'IdempotencyKey';
  [PrimaryKeyProp]?: ['user', 'key'];

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade' })
  user!: Rel<User>;

  @PrimaryKey({ length: 200 })
  key!: string;

  /** The operation the key was used for (`checkout`, `checkout.pay`, `order.pay:<id>`, `cart.merge`). */
  @Property({ length: 60 })
  scope!: string;

  /** SHA-256 of the request, to refuse the same key with another body. */
  @Property({ length: 64 })
  requestHash!: string;

  /**
   * The answer to replay, as its JSON text: `json`, not `jsonb`, which would keep its keys in its own
   * order, and a replay must be the first answer byte for byte (docs/api.md, "Retries").
   */
  @Property({ type: 'json', columnType: 'json' })
  response!: unknown;

  @Property({ columnType: 'timestamptz', index: true })
  createdAt: Date & Opt = new Date();
}
