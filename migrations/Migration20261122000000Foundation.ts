import { Migration } from '@mikro-orm/migrations';

/** Accounts, auth tokens, balances with their append-only ledger, and the catalog's base tables. */
export class Migration20261122000000Foundation extends Migration {
  override name = 'Migration20261122000000Foundation';

  override async up(): Promise<void> {
    this.addSql(`create table "brand" ("id" serial primary key, "name" varchar(80) not null, "logo_url" varchar(500) null, "position" int not null)`);
    this.addSql(`create table "category" ("id" serial primary key, "parent_id" int null, "name" varchar(80) not null, "slug" varchar(80) not null, "depth" int not null, "path" varchar(200) not null, "position" int not null)`);
    this.addSql(`alter table "category" add constraint "category_slug_unique" unique ("slug")`);
    this.addSql(`create index "category_path_prefix_idx" on "category" ("path" text_pattern_ops)`);
    this.addSql(`create table "home_content_item" ("id" serial primary key, "kind" text not null, "position" int not null, "active" boolean not null, "title" varchar(120) not null, "subtitle" varchar(300) null, "image_url" varchar(500) null, "destination" varchar(300) not null)`);
    this.addSql(`create index "home_content_item_kind_position_index" on "home_content_item" ("kind", "position")`);
    this.addSql(`alter table "home_content_item" add constraint "home_content_item_kind_check" check ("kind" in ('banners', 'promos', 'quick_links', 'floor_adverts'))`);
    this.addSql(`create table "shop" ("id" serial primary key, "slug" varchar(80) not null, "name" varchar(120) not null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "shop" add constraint "shop_slug_unique" unique ("slug")`);
    this.addSql(`create table "product" ("id" serial primary key, "shop_id" int not null, "category_id" int not null, "brand_id" int null, "name" varchar(200) not null, "description" text null, "image_url" varchar(500) null, "status" text not null default 'draft', "price_from" int not null, "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    this.addSql(`create index "product_shop_id_index" on "product" ("shop_id")`);
    this.addSql(`create index "product_category_id_index" on "product" ("category_id")`);
    this.addSql(`create index "product_brand_id_index" on "product" ("brand_id")`);
    this.addSql(`create index "product_status_price_from_index" on "product" ("status", "price_from")`);
    this.addSql(`create index "product_status_category_id_index" on "product" ("status", "category_id")`);
    this.addSql(`alter table "product" add constraint "product_status_check" check ("status" in ('draft', 'published', 'unpublished'))`);
    this.addSql(`create table "shop_profile" ("shop_id" int not null, "logo_url" varchar(500) not null, "description" varchar(2000) null, "banner_url" varchar(500) null, "contact_phone" varchar(40) null, "address" varchar(300) null, "updated_at" timestamptz not null, primary key ("shop_id"))`);
    this.addSql(`create table "sku" ("id" serial primary key, "product_id" int not null, "name" varchar(120) not null, "price" int not null, "stock" int not null)`);
    this.addSql(`create index "sku_product_id_index" on "sku" ("product_id")`);
    this.addSql(`alter table "sku" add constraint "sku_price_non_negative" check (price >= 0)`);
    this.addSql(`alter table "sku" add constraint "sku_stock_non_negative" check (stock >= 0)`);
    this.addSql(`create table "app_user" ("id" serial primary key, "email" varchar(254) not null, "password_hash" varchar(200) not null, "display_name" varchar(120) not null, "role" text not null, "shop_id" int null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email")`);
    this.addSql(`create index "app_user_shop_id_index" on "app_user" ("shop_id")`);
    this.addSql(`alter table "app_user" add constraint "app_user_operator_has_shop" check ((role = 'shop_operator') = (shop_id is not null))`);
    this.addSql(`alter table "app_user" add constraint "app_user_role_check" check ("role" in ('customer', 'shop_operator', 'platform_admin'))`);
    this.addSql(`create table "balance" ("id" serial primary key, "user_id" int not null, "kind" text not null, "currency" varchar(3) null, "amount" bigint not null)`);
    this.addSql(`alter table "balance" add constraint "balance_currency_matches_kind" check ((kind = 'points') = (currency is null))`);
    this.addSql(`alter table "balance" add constraint "balance_amount_non_negative" check (amount >= 0)`);
    this.addSql(`alter table "balance" add constraint "balance_kind_check" check ("kind" in ('available', 'frozen', 'points'))`);
    this.addSql(`create table "ledger_entry" ("id" serial primary key, "balance_id" int not null, "delta" bigint not null, "balance_after" bigint not null, "reason" varchar(40) not null, "reference_type" varchar(40) null, "reference_id" int null, "created_at" timestamptz not null)`);
    this.addSql(`create index "ledger_entry_balance_id_index" on "ledger_entry" ("balance_id")`);
    this.addSql(`create index "ledger_entry_reference_type_reference_id_index" on "ledger_entry" ("reference_type", "reference_id")`);
    this.addSql(`create table "auth_token" ("id" serial primary key, "token_hash" varchar(64) not null, "user_id" int not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "auth_token" add constraint "auth_token_token_hash_unique" unique ("token_hash")`);
    this.addSql(`create index "auth_token_user_id_index" on "auth_token" ("user_id")`);
    this.addSql(`alter table "category" add constraint "category_parent_id_foreign" foreign key ("parent_id") references "category" ("id") on delete set null`);
    this.addSql(`alter table "product" add constraint "product_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "product" add constraint "product_category_id_foreign" foreign key ("category_id") references "category" ("id")`);
    this.addSql(`alter table "product" add constraint "product_brand_id_foreign" foreign key ("brand_id") references "brand" ("id") on delete set null`);
    this.addSql(`alter table "shop_profile" add constraint "shop_profile_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on update cascade on delete cascade`);
    this.addSql(`alter table "sku" add constraint "sku_product_id_foreign" foreign key ("product_id") references "product" ("id") on delete cascade`);
    this.addSql(`alter table "app_user" add constraint "app_user_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete set null`);
    this.addSql(`alter table "balance" add constraint "balance_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`);
    this.addSql(`alter table "ledger_entry" add constraint "ledger_entry_balance_id_foreign" foreign key ("balance_id") references "balance" ("id")`);
    this.addSql(`alter table "auth_token" add constraint "auth_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade`);
    // Exactly one balance row per (user, kind, currency); NULLS NOT DISTINCT makes a second points row (currency null) a duplicate too.
    this.addSql(`create unique index "balance_user_kind_currency_unique" on "balance" ("user_id", "kind", "currency") nulls not distinct`);
    // The ledger is append-only: the database itself refuses to change or remove an entry.
    this.addSql(`create function ledger_entry_append_only() returns trigger language plpgsql as $$ begin raise exception 'ledger entries are append-only' using errcode = 'P0001'; end $$`);
    this.addSql(`create trigger ledger_entry_no_update before update or delete on "ledger_entry" for each row execute function ledger_entry_append_only()`);
    this.addSql(`create trigger ledger_entry_no_truncate before truncate on "ledger_entry" for each statement execute function ledger_entry_append_only()`);
  }
}
