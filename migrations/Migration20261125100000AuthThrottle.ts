import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-in and registration attempt counts (src/accounts/auth-throttle.ts), shared by every server
 * process. The layout is rate-limiter-flexible's own for PostgreSQL (it inserts by position:
 * key, points, expire in epoch milliseconds), with `text` keys since an email may be 254 characters.
 */
export class Migration20261125100000AuthThrottle extends Migration {
  override name = 'Migration20261125100000AuthThrottle';

  override async up(): Promise<void> {
    this.addSql(`create table "auth_throttle" ("key" text primary key, "points" integer not null default 0, "expire" bigint)`);
    this.addSql(`create index "auth_throttle_expire_index" on "auth_throttle" ("expire")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "auth_throttle"`);
  }
}
