import { Migration } from '@mikro-orm/migrations';

/**
 * Refunds back to a payment's method (issue 40): an approved after-sale refund of an order a gateway
 * paid leaves the customer's balance for the provider's clearing account and waits here until the
 * provider confirms it.
 */
export class Migration20261202110000PaymentRefunds extends Migration {
  override name = 'Migration20261202110000PaymentRefunds';

  override async up(): Promise<void> {
    this.addSql(`create table "payment_refund" ("id" serial primary key, "payment_id" int not null, "refund_id" int null, "amount" int not null, "status" text not null, "provider_reference" varchar(255) null, "attempts" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    this.addSql(`create index "payment_refund_pending_index" on "payment_refund" ("created_at") where status = 'pending'`);
    this.addSql(`create index "payment_refund_payment_id_index" on "payment_refund" ("payment_id")`);
    this.addSql(`alter table "payment_refund" add constraint "payment_refund_refund_id_unique" unique ("refund_id")`);
    this.addSql(`alter table "payment_refund" add constraint "payment_refund_payment_id_foreign" foreign key ("payment_id") references "payment" ("id")`);
    this.addSql(`alter table "payment_refund" add constraint "payment_refund_refund_id_foreign" foreign key ("refund_id") references "refund" ("id") on delete set null`);
    this.addSql(`alter table "payment_refund" add constraint "payment_refund_amount_positive" check (amount > 0)`);
    this.addSql(`alter table "payment_refund" add constraint "payment_refund_status_check" check ("status" in ('pending', 'succeeded', 'failed'))`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "payment_refund"`);
  }
}
