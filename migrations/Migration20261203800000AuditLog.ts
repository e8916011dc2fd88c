import { Migration } from '@mikro-orm/migrations';

/**
 * `audit_entry` (issue 41, item 5): every row a shop member or platform staff changes, written by the
 * write's own transaction. Append-only in the database: UPDATE, DELETE and TRUNCATE are refused by
 * triggers, as the ledger's are. Read newest first by shop, actor, operation, target or time.
 */
export class Migration20261203800000AuditLog extends Migration {
  override name = 'Migration20261203800000AuditLog';

  override async up(): Promise<void> {
    this.addSql(`create table "audit_entry" ("id" bigserial primary key, "occurred_at" timestamptz not null, "actor_id" int not null, "actor_role" varchar(40) not null, "shop_id" int null, "operation" varchar(100) not null, "target_type" varchar(60) not null, "target_id" varchar(100) not null, "action" varchar(10) not null, "before" jsonb null, "after" jsonb null, "request_id" varchar(100) not null)`);
    this.addSql(`create index "audit_entry_shop_id_id_index" on "audit_entry" ("shop_id", "id") where shop_id is not null`);
    this.addSql(`create index "audit_entry_actor_id_id_index" on "audit_entry" ("actor_id", "id")`);
    this.addSql(`create index "audit_entry_operation_id_index" on "audit_entry" ("operation", "id")`);
    this.addSql(`create index "audit_entry_target_index" on "audit_entry" ("target_type", "target_id", "id")`);
    this.addSql(`create index "audit_entry_occurred_at_index" on "audit_entry" ("occurred_at")`);
    this.addSql(`alter table "audit_entry" add constraint "audit_entry_action_check" check (action in ('create', 'update', 'delete'))`);
    this.addSql(`create function audit_entry_append_only() returns trigger language plpgsql as $$ begin raise exception 'audit entries are append-only' using errcode = 'P0001'; end $$`);
    this.addSql(`create trigger audit_entry_no_update before update or delete on "audit_entry" for each row execute function audit_entry_append_only()`);
    this.addSql(`create trigger audit_entry_no_truncate before truncate on "audit_entry" for each statement execute function audit_entry_append_only()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "audit_entry"');
    this.addSql('drop function audit_entry_append_only()');
  }
}
