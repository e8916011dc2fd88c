import { Migration } from '@mikro-orm/migrations';

/**
 * Shop states (issue 41, item 2): `shop.status` active | suspended | closed, with the reason of the
 * last suspension and when the state last changed. A product whose shop is not active is `held`
 * (its published state kept aside, restored on reinstatement): every storefront read, index and
 * trigger already keys on `status = 'published'`, so held products leave every read path at no cost
 * to those reads (docs/decisions.md 2026-12-02, "A suspended shop's products are held").
 */
export class Migration20261203300000ShopStates extends Migration {
  override name = 'Migration20261203300000ShopStates';

  override async up(): Promise<void> {
    this.addSql(`alter table "shop" add column "status" text not null default 'active', add column "status_reason" varchar(500) null, add column "status_changed_at" timestamptz null`);
    this.addSql(`alter table "shop" add constraint "shop_status_check" check ("status" in ('active', 'suspended', 'closed'))`);
    this.addSql(`alter table "shop" add constraint "shop_suspended_has_reason" check (status <> 'suspended' or status_reason is not null)`);
    this.addSql(`alter table "product" drop constraint "product_status_check"`);
    this.addSql(`alter table "product" add constraint "product_status_check" check ("status" in ('draft', 'published', 'unpublished', 'held'))`);
    // Every process keeps the storefront's home content (src/db/change-listener.ts), whose links may
    // lead to the shop's page or products: a shop's state change is heard like a content change.
    this.addSql(`create trigger shop_status_home_content after update of status on shop
      for each row when (old.status is distinct from new.status) execute function mf_home_content_changed()`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger shop_status_home_content on shop`);
    this.addSql(`update "product" set "status" = 'published' where "status" = 'held'`);
    this.addSql(`alter table "product" drop constraint "product_status_check"`);
    this.addSql(`alter table "product" add constraint "product_status_check" check ("status" in ('draft', 'published', 'unpublished'))`);
    this.addSql(`alter table "shop" drop constraint "shop_suspended_has_reason"`);
    this.addSql(`alter table "shop" drop constraint "shop_status_check"`);
    this.addSql(`alter table "shop" drop column "status", drop column "status_reason", drop column "status_changed_at"`);
  }
}
