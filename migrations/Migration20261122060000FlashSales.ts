import { Migration } from '@mikro-orm/migrations';

/**
 * Flash-sale sessions, their activity items, per-customer purchase counters, and the link from an
 * order item to the activity item that priced it.
 */
export class Migration20261122060000FlashSales extends Migration {
  override name = 'Migration20261122060000FlashSales';

  override async up(): Promise<void> {
    // `=` on an int inside a GiST exclusion constraint needs btree_gist (a trusted extension).
    this.addSql(`create extension if not exists btree_gist`);
    this.addSql(`create table "flash_sale" ("id" serial primary key, "shop_id" int not null, "name" varchar(120) not null, "starts_at" timestamptz not null, "ends_at" timestamptz not null, "enabled" boolean not null default false, "created_at" timestamptz not null, "updated_at" timestamptz not null)`);
    this.addSql(`create index "flash_sale_shop_id_id_index" on "flash_sale" ("shop_id", "id")`);
    this.addSql(`alter table "flash_sale" add constraint "flash_sale_window_valid" check (ends_at > starts_at)`);
    this.addSql(`alter table "flash_sale" add constraint "flash_sale_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    // Discovery: enabled sessions that have not ended yet.
    this.addSql(`create index "flash_sale_enabled_ends_at_idx" on "flash_sale" ("ends_at") where enabled`);

    this.addSql(`create table "flash_sale_item" ("id" serial primary key, "flash_sale_id" int not null, "sku_id" int not null, "activity_price" int not null, "reserved_stock" int not null, "remaining_stock" int not null, "per_customer_limit" int not null, "enabled" boolean not null default false, "sale_window" tstzrange not null)`);
    this.addSql(`create index "flash_sale_item_sku_id_index" on "flash_sale_item" ("sku_id")`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_flash_sale_id_sku_id_unique" unique ("flash_sale_id", "sku_id")`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_limit_positive" check (per_customer_limit >= 1)`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_price_non_negative" check (activity_price >= 0)`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_stock_valid" check (remaining_stock >= 0 and remaining_stock <= reserved_stock)`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_window_bounded" check (not isempty(sale_window) and lower(sale_window) is not null and upper(sale_window) is not null)`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_flash_sale_id_foreign" foreign key ("flash_sale_id") references "flash_sale" ("id") on delete cascade`);
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_sku_id_foreign" foreign key ("sku_id") references "sku" ("id")`);
    // One SKU is never in two overlapping enabled sessions; the index also serves checkout's and
    // discovery's "enabled item of this SKU whose window contains now" lookups.
    this.addSql(`alter table "flash_sale_item" add constraint "flash_sale_item_no_overlap" exclude using gist ("sku_id" with =, "sale_window" with &&) where (enabled)`);

    this.addSql(`create table "flash_sale_purchase" ("flash_sale_item_id" int not null, "customer_id" int not null, "quantity" int not null, primary key ("flash_sale_item_id", "customer_id"))`);
    this.addSql(`create index "flash_sale_purchase_customer_id_index" on "flash_sale_purchase" ("customer_id")`);
    this.addSql(`alter table "flash_sale_purchase" add constraint "flash_sale_purchase_quantity_non_negative" check (quantity >= 0)`);
    this.addSql(`alter table "flash_sale_purchase" add constraint "flash_sale_purchase_flash_sale_item_id_foreign" foreign key ("flash_sale_item_id") references "flash_sale_item" ("id") on delete cascade`);
    this.addSql(`alter table "flash_sale_purchase" add constraint "flash_sale_purchase_customer_id_foreign" foreign key ("customer_id") references "app_user" ("id") on delete cascade`);

    // An activity item that priced an order item cannot be deleted (the session keeps its history).
    this.addSql(`alter table "order_item" add column "flash_sale_item_id" int null`);
    this.addSql(`create index "order_item_flash_sale_item_id_index" on "order_item" ("flash_sale_item_id") where flash_sale_item_id is not null`);
    this.addSql(`alter table "order_item" add constraint "order_item_flash_sale_item_id_foreign" foreign key ("flash_sale_item_id") references "flash_sale_item" ("id")`);
    this.addSql(`alter table "order_item" add constraint "order_item_flash_sale_link" check ((pricing = 'flash_sale') = (flash_sale_item_id is not null))`);
  }
}
