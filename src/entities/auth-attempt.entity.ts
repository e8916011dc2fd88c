import { Check, Entity, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp } from '@mikro-orm/core';

/**
 * Sign-in and registration counts shared by the server processes, one row per key (`login_ip:<address>`,
 * `login_pair:<address> <email>`, `login_account:<email>`, `login_device:<nonce>`, ...), each counting
 * in a fixed window from its first attempt. Every process counts in memory and adds its changes here
 * every half second (src/shared/attempt-count-store.ts); expired rows are removed by the
 * `auth-throttle` sweep.
 */
@Entity({ tableName: 'auth_attempt' })
@Check({ name: 'auth_attempt_count_check', expression: 'count >= 0' })
export class AuthAttemptCount {
  declare [EntityName]?: 'AuthAttemptCount';
  declare [PrimaryKeyProp]?: 'key';

  @PrimaryKey({ columnType: 'text' })
  key!: string;

  @Property()
  count!: number;

  @Property({ columnType: 'timestamptz', index: 'auth_attempt_window_ends_at_index' })
  windowEndsAt!: Date;

  /** Read by the exchange: the rows other processes changed since the last one. */
  @Property({ columnType: 'timestamptz', index: 'auth_attempt_updated_at_index' })
  updatedAt!: Date;
}
