import { Migration } from '@mikro-orm/migrations';

/**
 * An Idempotency-Key belongs to one operation: it is unique per customer, whatever the operation
 * (issue 42: a checkout's key replayed on pay-all was taken as new). The operation (`scope`) stays
 * a column, compared when the key comes back. A customer who had used one key for two operations
 * keeps the first use; the later use's replay now answers 422 instead of its first answer, and no
 * work is done twice. Keys live `IDEMPOTENCY_KEY_TTL_HOURS` (a day by default).
 */
export class Migration20261201200000IdempotencyKeyPerOperation extends Migration {
  override name = 'Migration20261201200000IdempotencyKeyPerOperation';

  override async up(): Promise<void> {
    this.addSql(`
      delete from "idempotency_key" k using "idempotency_key" first
       where first."user_id" = k."user_id" and first."key" = k."key"
         and (first."created_at", first."scope") < (k."created_at", k."scope")`);
    this.addSql(`alter table "idempotency_key" drop constraint "idempotency_key_pkey"`);
    this.addSql(`alter table "idempotency_key" add constraint "idempotency_key_pkey" primary key ("user_id", "key")`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "idempotency_key" drop constraint "idempotency_key_pkey"`);
    this.addSql(`alter table "idempotency_key" add constraint "idempotency_key_pkey" primary key ("user_id", "scope", "key")`);
  }
}
