import { Migration } from '@mikro-orm/migrations';

/**
 * The platform console's tables sort by a column (issue 44): every shop's orders by total, and the
 * customers by display name (staff accounts are not customers: the index holds customers only), each
 * read in index order, ties by id. The shops sort by name on shop_name_id_idx, which exists.
 */
export class Migration20261204400000PlatformListSorts extends Migration {
  override name = 'Migration20261204400000PlatformListSorts';

  override async up(): Promise<void> {
    this.addSql(`create index "shop_order_total_idx" on "shop_order" ("total", "id")`);
    this.addSql(`create index "app_user_customer_name_idx" on "app_user" ("display_name", "id") where role = 'customer'`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "app_user_customer_name_idx"`);
    this.addSql(`drop index "shop_order_total_idx"`);
  }
}
