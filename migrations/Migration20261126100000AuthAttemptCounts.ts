import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-in counts are kept in each process's memory and exchanged through this table
 * (src/shared/attempt-counts.ts), which replaces rate-limiter-flexible's `auth_throttle`: each
 * exchange adds its changes and reads back the rows changed since the last one (`updated_at`).
 * Counts in flight are only a few minutes' worth, so the old table's rows are not carried over.
 */
export class Migration20261126100000AuthAttemptCounts extends Migration {
  override name = 'Migration20261126100000AuthAttemptCounts';

  override async up(): Promise<void> {
    this.addSql(`drop table "auth_throttle"`);
    this.addSql(
      `create table "auth_attempt" ("key" text primary key, "count" integer not null, "window_ends_at" timestamptz not null, ` +
        `"updated_at" timestamptz not null, constraint "auth_attempt_count_check" check (count >= 0))`,
    );
    this.addSql(`create index "auth_attempt_window_ends_at_index" on "auth_attempt" ("window_ends_at")`);
    this.addSql(`create index "auth_attempt_updated_at_index" on "auth_attempt" ("updated_at")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "auth_attempt"`);
    this.addSql(`create table "auth_throttle" ("key" text primary key, "points" integer not null default 0, "expire" bigint)`);
    this.addSql(`create index "auth_throttle_expire_index" on "auth_throttle" ("expire")`);
  }
}
