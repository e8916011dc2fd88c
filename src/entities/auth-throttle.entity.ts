import { Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { BigIntType, EntityName, PrimaryKeyProp, type Opt } from '@mikro-orm/core';

/**
 * Sign-in and registration attempt counts, one row per key (`login_ip:<ip>`, `login_email:<email>`,
 * ...), written only by `rate-limiter-flexible` (src/shared/auth-throttle.ts) in its own table
 * layout; expired rows are removed by the `auth-throttle` sweep.
 */
@Entity({ tableName: 'auth_throttle' })
export class AuthThrottleCount {
  declare [EntityName]?: 'AuthThrottleCount';
  declare [PrimaryKeyProp]?: 'key';

  @PrimaryKey({ columnType: 'text' })
  key!: string;

  @Property()
  points: number & Opt = 0;

  /** When the window ends, in epoch milliseconds (null: never). */
  @Property({ type: new BigIntType('number'), nullable: true, index: 'auth_throttle_expire_index' })
  expire?: number | null;
}
