import { Migration } from '@mikro-orm/migrations';

/**
 * `dispute` (issue 41, the platform rules): a customer's escalation of a rejected refund and the
 * platform's ruling. One per refund (unique key); the admin list reads by status, the customer's and
 * the shop's by their own column, newest first.
 */
export class Migration20261203600000Disputes extends Migration {
  override name = 'Migration20261203600000Disputes';

  override async up(): Promise<void> {
    this.addSql(`create table "dispute" ("id" serial primary key, "refund_id" int not null, "order_id" int not null, "shop_id" int not null, "customer_id" int not null, "status" text not null default 'open', "reason" varchar(500) not null, "ruling" varchar(500) null, "refunded_amount" int not null default 0, "ruled_refund_id" int null, "ruled_by_id" int null, "created_at" timestamptz not null, "ruled_at" timestamptz null)`);
    this.addSql(`alter table "dispute" add constraint "dispute_refund_id_unique" unique ("refund_id")`);
    this.addSql(`create index "dispute_status_id_index" on "dispute" ("status", "id")`);
    this.addSql(`create index "dispute_customer_id_id_index" on "dispute" ("customer_id", "id")`);
    this.addSql(`create index "dispute_shop_id_id_index" on "dispute" ("shop_id", "id")`);
    this.addSql(`alter table "dispute" add constraint "dispute_status_check" check ("status" in ('open', 'refunded', 'upheld'))`);
    this.addSql(`alter table "dispute" add constraint "dispute_ruling_valid" check ((status = 'open') = (ruling is null) and (status = 'refunded') = (ruled_refund_id is not null))`);
    this.addSql(`alter table "dispute" add constraint "dispute_refunded_amount_valid" check (refunded_amount >= 0 and (status = 'refunded' or refunded_amount = 0))`);
    this.addSql(`alter table "dispute" add constraint "dispute_refund_id_foreign" foreign key ("refund_id") references "refund" ("id")`);
    this.addSql(`alter table "dispute" add constraint "dispute_order_id_foreign" foreign key ("order_id") references "shop_order" ("id")`);
    this.addSql(`alter table "dispute" add constraint "dispute_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "dispute" add constraint "dispute_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);
    this.addSql(`alter table "dispute" add constraint "dispute_ruled_refund_id_foreign" foreign key ("ruled_refund_id") references "refund" ("id") on delete set null`);
    this.addSql(`alter table "dispute" add constraint "dispute_ruled_by_id_foreign" foreign key ("ruled_by_id") references "app_user" ("id") on delete set null`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "dispute"');
  }
}
