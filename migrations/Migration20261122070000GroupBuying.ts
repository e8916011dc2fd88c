import { Migration } from '@mikro-orm/migrations';

/**
 * Group buying: activities, groups and paid memberships; the group snapshot on orders; the order
 * state `awaiting_group` (seat paid, money frozen until the group succeeds or expires).
 */
export class Migration20261122070000GroupBuying extends Migration {
  override name = 'Migration20261122070000GroupBuying';

  override async up(): Promise<void> {
    this.addSql(`create table "group_buy_activity" ("id" serial primary key, "shop_id" int not null, "product_id" int not null, "sku_id" int not null, "group_price" int not null, "capacity" int not null, "lifetime_minutes" int not null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    this.addSql(`create index "group_buy_activity_shop_id_id_index" on "group_buy_activity" ("shop_id", "id")`);
    this.addSql(`create index "group_buy_activity_product_id_index" on "group_buy_activity" ("product_id")`);
    this.addSql(`create index "group_buy_activity_sku_id_index" on "group_buy_activity" ("sku_id")`);
    this.addSql(`create index "group_buy_activity_ends_at_index" on "group_buy_activity" ("ends_at")`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_price_positive" check (group_price > 0)`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_capacity_valid" check (capacity between 2 and 100)`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_lifetime_valid" check (lifetime_minutes between 1 and 43200)`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_window_valid" check (ends_at > starts_at)`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_product_id_foreign" foreign key ("product_id") references "product" ("id")`);
    this.addSql(`alter table "group_buy_activity" add constraint "group_buy_activity_sku_id_foreign" foreign key ("sku_id") references "sku" ("id")`);

    this.addSql(`create table "group_buy_group" ("id" serial primary key, "activity_id" int not null, "opener_id" int not null, "state" text not null default 'open', "capacity" int not null, "group_price" int not null, "paid_seats" int not null default 0, "expires_at" timestamptz not null, "created_at" timestamptz not null, "closed_at" timestamptz null)`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_state_check" check ("state" in ('open', 'successful', 'expired', 'cancelled'))`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_seats_valid" check (capacity >= 2 and paid_seats >= 0 and paid_seats <= capacity)`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_successful_when_full" check ((state = 'successful') = (paid_seats = capacity))`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_cancelled_without_seats" check (state <> 'cancelled' or paid_seats = 0)`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_price_positive" check (group_price > 0)`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_activity_id_foreign" foreign key ("activity_id") references "group_buy_activity" ("id")`);
    this.addSql(`alter table "group_buy_group" add constraint "group_buy_group_opener_id_foreign" foreign key ("opener_id") references "app_user" ("id")`);
    // Group counts per activity and state (merchant list, delete check).
    this.addSql(`create index "group_buy_group_activity_state_idx" on "group_buy_group" ("activity_id", "state")`);
    // An activity's open groups, soonest expiry first.
    this.addSql(`create index "group_buy_group_open_activity_idx" on "group_buy_group" ("activity_id", "expires_at") where state = 'open'`);
    // The expiry sweep and the due-group probes.
    this.addSql(`create index "group_buy_group_open_expiry_idx" on "group_buy_group" ("expires_at") where state = 'open'`);

    this.addSql(`create table "group_buy_membership" ("id" serial primary key, "group_id" int not null, "order_id" int not null, "customer_id" int not null, "amount" int not null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "group_buy_membership" add constraint "group_buy_membership_order_id_unique" unique ("order_id")`);
    this.addSql(`alter table "group_buy_membership" add constraint "group_buy_membership_group_id_customer_id_unique" unique ("group_id", "customer_id")`);
    this.addSql(`create index "group_buy_membership_customer_id_index" on "group_buy_membership" ("customer_id")`);
    this.addSql(`alter table "group_buy_membership" add constraint "group_buy_membership_amount_positive" check (amount > 0)`);
    this.addSql(`alter table "group_buy_membership" add constraint "group_buy_membership_group_id_foreign" foreign key ("group_id") references "group_buy_group" ("id")`);
    this.addSql(`alter table "group_buy_membership" add constraint "group_buy_membership_order_id_foreign" foreign key ("order_id") references "shop_order" ("id")`);
    this.addSql(`alter table "group_buy_membership" add constraint "group_buy_membership_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id")`);

    this.addSql(`alter table "shop_order" add column "group_id" int null, add column "group_price" int null`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_group_snapshot" check ((group_id is null) = (group_price is null))`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_group_id_foreign" foreign key ("group_id") references "group_buy_group" ("id")`);
    // A group's orders, and "does this customer already hold an order in this group".
    this.addSql(`create index "shop_order_group_customer_idx" on "shop_order" ("group_id", "customer_id") where group_id is not null`);
    this.addSql(`alter table "shop_order" drop constraint "shop_order_status_check"`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_status_check" check ("status" in ('pending_payment', 'awaiting_group', 'paid', 'shipped', 'delivered', 'cancelled'))`);
  }
}
