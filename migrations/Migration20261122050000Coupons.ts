import { Migration } from '@mikro-orm/migrations';

/** Shop coupon templates, customer coupons (snapshots of the terms), and the coupon applied to an order. */
export class Migration20261122050000Coupons extends Migration {
  override name = 'Migration20261122050000Coupons';

  override async up(): Promise<void> {
    const discountValid =
      "(discount_kind = 'fixed' and amount_off > 0 and percent_off is null and max_discount is null)" +
      " or (discount_kind = 'percent' and percent_off between 1 and 100 and amount_off is null and (max_discount is null or max_discount > 0))";

    this.addSql(`create table "coupon_template" ("id" serial primary key, "shop_id" int not null, "name" varchar(120) not null, "discount_kind" text not null, "amount_off" int null, "percent_off" int null, "max_discount" int null, "min_order_amount" int not null default 0, "valid_from" timestamptz null, "valid_until" timestamptz null, "valid_days" int null, "claim_stock" int not null, "status" text not null default 'active', "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    // Merchant list and the public list of a shop's claimable templates.
    this.addSql(`create index "coupon_template_shop_id_id_index" on "coupon_template" ("shop_id", "id")`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_window_valid" check ((valid_days is null and valid_from is not null and valid_until is not null and valid_until > valid_from) or (valid_days between 1 and 3650 and valid_from is null and valid_until is null))`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_claim_stock_non_negative" check (claim_stock >= 0)`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_threshold_non_negative" check (min_order_amount >= 0)`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_discount_valid" check (${discountValid})`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_discount_kind_check" check ("discount_kind" in ('fixed', 'percent'))`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_status_check" check ("status" in ('active', 'disabled'))`);
    this.addSql(`alter table "coupon_template" add constraint "coupon_template_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);

    this.addSql(`create table "coupon" ("id" serial primary key, "customer_id" int not null, "template_id" int null, "shop_id" int not null, "name" varchar(120) not null, "discount_kind" text not null, "amount_off" int null, "percent_off" int null, "max_discount" int null, "min_order_amount" int not null, "valid_from" timestamptz not null, "valid_until" timestamptz not null, "status" text not null default 'available', "claimed_at" timestamptz not null, "used_at" timestamptz null)`);
    // Deleting a template sets its coupons' link to null: the FK action finds them through this index.
    this.addSql(`create index "coupon_template_id_index" on "coupon" ("template_id")`);
    // A customer's coupons, newest first.
    this.addSql(`create index "coupon_customer_id_id_index" on "coupon" ("customer_id", "id")`);
    // One claim per (customer, template); coupons of a deleted template (null link) do not collide.
    this.addSql(`alter table "coupon" add constraint "coupon_customer_template_unique" unique ("customer_id", "template_id")`);
    this.addSql(`alter table "coupon" add constraint "coupon_used_at_matches_status" check ((status = 'used') = (used_at is not null))`);
    this.addSql(`alter table "coupon" add constraint "coupon_window_valid" check (valid_until > valid_from)`);
    this.addSql(`alter table "coupon" add constraint "coupon_threshold_non_negative" check (min_order_amount >= 0)`);
    this.addSql(`alter table "coupon" add constraint "coupon_discount_valid" check (${discountValid})`);
    this.addSql(`alter table "coupon" add constraint "coupon_discount_kind_check" check ("discount_kind" in ('fixed', 'percent'))`);
    this.addSql(`alter table "coupon" add constraint "coupon_status_check" check ("status" in ('available', 'used'))`);
    this.addSql(`alter table "coupon" add constraint "coupon_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);
    this.addSql(`alter table "coupon" add constraint "coupon_template_id_foreign" foreign key ("template_id") references "coupon_template" ("id") on delete set null`);
    this.addSql(`alter table "coupon" add constraint "coupon_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);

    this.addSql(`alter table "shop_order" add column "coupon_id" int null`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_coupon_id_foreign" foreign key ("coupon_id") references "coupon" ("id")`);
    // A coupon is on at most one live order (a cancelled order gives it back); backs the guarded redemption.
    this.addSql(`create unique index "shop_order_coupon_live_unique" on "shop_order" ("coupon_id") where coupon_id is not null and status <> 'cancelled'`);
  }
}
