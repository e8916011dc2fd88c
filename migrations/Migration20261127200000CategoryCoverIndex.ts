import { Migration } from '@mikro-orm/migrations';

/**
 * A category listing narrowed by brand, shop or price, counted or ranked from the index alone: with
 * only `(category_id, id)`, counting a top-level category's products of one brand read every product
 * row of the category (docs/performance.md).
 */
export class Migration20261127200000CategoryCoverIndex extends Migration {
  override name = 'Migration20261127200000CategoryCoverIndex';

  override async up(): Promise<void> {
    this.addSql(`create index "product_published_category_cover_idx" on "product" ("category_id", "brand_id", "shop_id", "price_from", "id") where status = 'published'`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index "product_published_category_cover_idx"');
  }
}
