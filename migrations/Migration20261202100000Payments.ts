import { Migration } from '@mikro-orm/migrations';

/**
 * Payments from outside the mall (issue 40): one `payment` per checkout with its orders
 * (`payment_order`) and every provider notification or query answer acted on (`payment_event`).
 * Each gateway gets a clearing account of its own, the platform's other side of the money it captures
 * and refunds (opened at zero), so the ledger still sums to zero.
 */
export class Migration20261202100000Payments extends Migration {
  override name = 'Migration20261202100000Payments';

  override async up(): Promise<void> {
    this.addSql(`create table "payment" ("id" serial primary key, "customer_id" int not null, "provider" varchar(20) not null, "status" text not null, "amount" int not null, "currency" varchar(3) not null, "captured_amount" int not null default 0, "refunded_amount" int not null default 0, "provider_reference" varchar(255) null, "next_step" jsonb null, "close_reason" varchar(200) null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "captured_at" timestamptz null, "closed_at" timestamptz null)`);
    this.addSql(`create index "payment_open_created_at_index" on "payment" ("created_at") where status in ('pending', 'authorized')`);
    this.addSql(`create index "payment_customer_id_index" on "payment" ("customer_id", "id")`);
    this.addSql(`alter table "payment" add constraint "payment_provider_reference_unique" unique ("provider", "provider_reference")`);
    this.addSql(`alter table "payment" add constraint "payment_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);
    this.addSql(`alter table "payment" add constraint "payment_captured_has_amount" check ((status = 'captured') = (captured_at is not null))`);
    this.addSql(`alter table "payment" add constraint "payment_amounts_valid" check (amount >= 0 and captured_amount >= 0 and captured_amount <= amount and refunded_amount >= 0 and refunded_amount <= captured_amount)`);
    this.addSql(`alter table "payment" add constraint "payment_status_check" check ("status" in ('pending', 'authorized', 'captured', 'failed', 'cancelled', 'expired'))`);

    this.addSql(`create table "payment_event" ("id" serial primary key, "payment_id" int null, "provider" varchar(20) not null, "source" varchar(20) not null, "provider_event_id" varchar(255) null, "status" varchar(40) null, "amount" int null, "currency" varchar(3) null, "verified" boolean not null, "outcome" varchar(40) not null, "raw" text not null, "created_at" timestamptz not null)`);
    this.addSql(`create index "payment_event_payment_id_index" on "payment_event" ("payment_id", "id")`);
    this.addSql(`alter table "payment_event" add constraint "payment_event_payment_id_foreign" foreign key ("payment_id") references "payment" ("id") on delete set null`);

    this.addSql(`create table "payment_order" ("payment_id" int not null, "order_id" int not null, "amount" int not null, "captured" boolean not null default false, primary key ("payment_id", "order_id"))`);
    this.addSql(`create index "payment_order_order_id_index" on "payment_order" ("order_id")`);
    this.addSql(`create unique index "payment_order_one_captured" on "payment_order" ("order_id") where captured`);
    this.addSql(`alter table "payment_order" add constraint "payment_order_payment_id_foreign" foreign key ("payment_id") references "payment" ("id") on update cascade on delete cascade`);
    this.addSql(`alter table "payment_order" add constraint "payment_order_order_id_foreign" foreign key ("order_id") references "shop_order" ("id") on update cascade on delete cascade`);

    this.addSql(`alter table "balance" drop constraint "balance_amount_sign"`);
    this.addSql(`alter table "balance" drop constraint "balance_kind_check"`);
    this.addSql(`alter table "balance" drop constraint "balance_owner_matches_kind"`);
    this.addSql(`alter table "balance" add constraint "balance_amount_sign" check (kind in ('platform_clearing', 'clearing_sandbox', 'clearing_stripe', 'clearing_alipay') or (kind = 'shop_debt' and amount <= 0) or (kind <> 'shop_debt' and amount >= 0))`);
    this.addSql(`alter table "balance" add constraint "balance_kind_check" check ("kind" in ('available', 'frozen', 'points', 'shop_pending', 'shop_available', 'shop_in_transit', 'shop_debt', 'platform_commission', 'platform_clearing', 'clearing_sandbox', 'clearing_stripe', 'clearing_alipay'))`);
    this.addSql(`alter table "balance" add constraint "balance_owner_matches_kind" check (case when kind in ('available', 'frozen', 'points') then user_id is not null and shop_id is null when kind in ('platform_clearing', 'clearing_sandbox', 'clearing_stripe', 'clearing_alipay') then user_id is null and shop_id is null else user_id is null and shop_id is not null end)`);
    this.addSql(`insert into "balance" ("user_id", "shop_id", "kind", "currency", "amount")
      select null, null, k.kind, 'CNY', 0 from unnest(array['clearing_sandbox', 'clearing_stripe', 'clearing_alipay']) as k(kind)
      on conflict do nothing`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "payment_order"`);
    this.addSql(`drop table "payment_event"`);
    this.addSql(`drop table "payment"`);
    // The gateways' clearing accounts go while no money has moved through them (once it has, the ledger,
    // append-only, keeps them and the old checks refuse to come back: this migration cannot be undone then).
    this.addSql(`delete from "balance" b where b.kind in ('clearing_sandbox', 'clearing_stripe', 'clearing_alipay')
      and not exists (select 1 from "ledger_entry" l where l.balance_id = b.id)`);
    this.addSql(`alter table "balance" drop constraint "balance_amount_sign"`);
    this.addSql(`alter table "balance" drop constraint "balance_kind_check"`);
    this.addSql(`alter table "balance" drop constraint "balance_owner_matches_kind"`);
    this.addSql(`alter table "balance" add constraint "balance_kind_check" check ("kind" in ('available', 'frozen', 'points', 'shop_pending', 'shop_available', 'shop_in_transit', 'shop_debt', 'platform_commission', 'platform_clearing'))`);
    this.addSql(`alter table "balance" add constraint "balance_amount_sign" check (kind = 'platform_clearing' or (kind = 'shop_debt' and amount <= 0) or (kind <> 'shop_debt' and amount >= 0))`);
    this.addSql(`alter table "balance" add constraint "balance_owner_matches_kind" check (case when kind in ('available', 'frozen', 'points') then user_id is not null and shop_id is null when kind = 'platform_clearing' then user_id is null and shop_id is null else user_id is null and shop_id is not null end)`);
  }
}
