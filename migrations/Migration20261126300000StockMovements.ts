import { Migration } from '@mikro-orm/migrations';

/**
 * `stock_movement` (issue 28, docs/decisions.md "Inventory"): one row per change of a SKU's stock or
 * of a flash-sale item's activity stock, written with the change by inventory (and by checkout's one
 * write statement): which order, refund or adjustment, and how much. Earlier changes have no rows;
 * a counter's movements explain it from the moment this migration ran.
 */
export class Migration20261126300000StockMovements extends Migration {
  override name = 'Migration20261126300000StockMovements';

  override async up(): Promise<void> {
    this.addSql(`create table "stock_movement" ("id" serial primary key, "sku_id" int null, "flash_sale_item_id" int null, "delta" int not null, "kind" text not null, "order_id" int null, "refund_id" int null, "created_at" timestamptz not null)`);
    // By SKU: what deleting a SKU cascades through, and the audit of one SKU.
    this.addSql(`create index "stock_movement_sku_id_index" on "stock_movement" ("sku_id")`);
    this.addSql(`create index "stock_movement_flash_sale_item_id_index" on "stock_movement" ("flash_sale_item_id") where flash_sale_item_id is not null`);
    this.addSql(`create index "stock_movement_order_id_index" on "stock_movement" ("order_id") where order_id is not null`);
    this.addSql(`create index "stock_movement_refund_id_index" on "stock_movement" ("refund_id") where refund_id is not null`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_sku_id_foreign" foreign key ("sku_id") references "sku" ("id") on delete cascade`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_flash_sale_item_id_foreign" foreign key ("flash_sale_item_id") references "flash_sale_item" ("id") on delete cascade`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_order_id_foreign" foreign key ("order_id") references "shop_order" ("id") on delete no action`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_refund_id_foreign" foreign key ("refund_id") references "refund" ("id") on delete no action`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_delta_non_zero" check (delta <> 0)`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_one_counter" check (num_nonnulls(sku_id, flash_sale_item_id) = 1)`);
    this.addSql(`alter table "stock_movement" add constraint "stock_movement_kind_check" check ("kind" in ('sale', 'cancellation', 'group_expiry', 'refund', 'adjustment'))`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "stock_movement"');
  }
}
