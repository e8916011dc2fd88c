import { Migration } from '@mikro-orm/migrations';

/**
 * Catalog reads and writes: indexes shaped after the storefront's queries, and the invariants the
 * catalog service keeps (positions, non-negative price_from).
 */
export class Migration20261122010000Catalog extends Migration {
  override name = 'Migration20261122010000Catalog';

  override async up(): Promise<void> {
    // Public listing: only published rows are ever read, so partial indexes stay small. Each ends
    // with id, the tie-breaker of every listing order, so a page is read straight off the index.
    this.addSql(`create index "product_published_id_idx" on "product" ("id") where status = 'published'`);
    this.addSql(`create index "product_published_price_idx" on "product" ("price_from", "id") where status = 'published'`);
    this.addSql(`create index "product_published_category_idx" on "product" ("category_id", "id") where status = 'published'`);
    this.addSql(`create index "product_published_brand_idx" on "product" ("brand_id", "id") where status = 'published'`);
    // Superseded by the partial indexes above.
    this.addSql(`drop index "product_status_price_from_index"`);
    this.addSql(`drop index "product_status_category_id_index"`);
    // Merchant listing (own shop, newest first); also serves the foreign key.
    this.addSql(`create index "product_shop_id_id_idx" on "product" ("shop_id", "id")`);
    this.addSql(`drop index "product_shop_id_index"`);
    this.addSql(`alter table "product" add constraint "product_price_from_non_negative" check (price_from >= 0)`);

    // Shop directory order.
    this.addSql(`create index "shop_name_id_idx" on "shop" ("name", "id")`);

    // Ordered lists: one item per position. The brand list is reordered in place, so its check waits
    // for commit; content is deleted and reinserted, so an immediate unique index is enough.
    this.addSql(`alter table "brand" add constraint "brand_position_non_negative" check (position >= 0)`);
    this.addSql(`alter table "brand" add constraint "brand_position_unique" unique ("position") deferrable initially deferred`);
    this.addSql(`alter table "home_content_item" add constraint "home_content_item_position_non_negative" check (position >= 0)`);
    this.addSql(`drop index "home_content_item_kind_position_index"`);
    this.addSql(`create unique index "home_content_item_kind_position_unique" on "home_content_item" ("kind", "position")`);

    // Category children by parent (GraphQL `children`), in display order.
    this.addSql(`create index "category_parent_id_position_idx" on "category" ("parent_id", "position", "id")`);
  }
}
