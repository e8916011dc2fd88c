import { Migration } from '@mikro-orm/migrations';

/**
 * The shop console's tables sort by a column (issue 44): the shop's products by name or by lowest
 * price, its orders by total, each read in index order within one shop, ties by id.
 */
export class Migration20261204300000ShopListSorts extends Migration {
  override name = 'Migration20261204300000ShopListSorts';

  override async up(): Promise<void> {
    this.addSql(`create index "product_shop_name_idx" on "product" ("shop_id", "name", "id")`);
    this.addSql(`create index "product_shop_price_idx" on "product" ("shop_id", "price_from", "id")`);
    this.addSql(`create index "shop_order_shop_total_idx" on "shop_order" ("shop_id", "total", "id")`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "shop_order_shop_total_idx"`);
    this.addSql(`drop index "product_shop_price_idx"`);
    this.addSql(`drop index "product_shop_name_idx"`);
  }
}
