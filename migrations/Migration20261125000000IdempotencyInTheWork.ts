import { Migration } from '@mikro-orm/migrations';

/**
 * Idempotency keys are written by the work they guard, in its transaction or statement, with their
 * answer: a key row now always means "committed, here is the answer". Keys left in progress by the
 * old scheme never committed anything and are dropped. Old keys expire (the `idempotency-keys`
 * sweep), by `created_at`.
 */
export class Migration20261125000000IdempotencyInTheWork extends Migration {
  override name = 'Migration20261125000000IdempotencyInTheWork';

  override async up(): Promise<void> {
    this.addSql(`delete from "idempotency_key" where "completed_at" is null or "response" is null`);
    this.addSql(`alter table "idempotency_key" drop column "completed_at"`);
    this.addSql(`alter table "idempotency_key" alter column "response" set not null`);
    this.addSql(`create index "idempotency_key_created_at_index" on "idempotency_key" ("created_at")`);
  }
}
