import { Migration } from '@mikro-orm/migrations';

/** A platform admin may disable a customer's account (issue 41, item 4): when, and why. */
export class Migration20261203610000DisabledAccounts extends Migration {
  override name = 'Migration20261203610000DisabledAccounts';

  override async up(): Promise<void> {
    this.addSql(`alter table "app_user" add column "disabled_at" timestamptz null, add column "disabled_reason" varchar(500) null`);
    this.addSql(`alter table "app_user" add constraint "app_user_disabled_has_reason" check ((disabled_at is null) = (disabled_reason is null))`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "app_user" drop constraint "app_user_disabled_has_reason"`);
    this.addSql(`alter table "app_user" drop column "disabled_at", drop column "disabled_reason"`);
  }
}
