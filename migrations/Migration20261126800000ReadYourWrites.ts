import { Migration } from '@mikro-orm/migrations';

/**
 * When a user last wrote (any use case of theirs that writes), kept only while read replicas are
 * configured: their storefront reads stay on the primary for READ_YOUR_WRITES_MS after it, whichever
 * server process serves them (src/db/read-routing.ts). Read with the token on every request.
 */
export class Migration20261126800000ReadYourWrites extends Migration {
  override name = 'Migration20261126800000ReadYourWrites';

  override async up(): Promise<void> {
    this.addSql('alter table "app_user" add column "last_write_at" timestamptz null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "app_user" drop column "last_write_at"');
  }
}
