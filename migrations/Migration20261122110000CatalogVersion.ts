import { Migration } from '@mikro-orm/migrations';

/**
 * The catalog version: one counter that moves whenever the set of published products matching any
 * listing filter may have changed (a product published, unpublished, created published, deleted, or
 * a published product moved to another category, brand or shop; any category change). A listing
 * reads it in the same statement as its page, so a total counted at the same version is exact for
 * that page's snapshot (see `src/fast-paths/listing-total-cache.ts`). Bumped by statement triggers: a bulk
 * insert moves it once, and writes that change nothing of the above (names, prices, stock) never
 * touch it.
 */
export class Migration20261122110000CatalogVersion extends Migration {
  override name = 'Migration20261122110000CatalogVersion';

  override async up(): Promise<void> {
    this.addSql(`create table "catalog_version" ("id" int primary key check (id = 1), "n" bigint not null)`);
    this.addSql(`insert into "catalog_version" ("id", "n") values (1, 0)`);
    this.addSql(`create function catalog_version_bump() returns trigger language plpgsql as $$
      begin
        update catalog_version set n = n + 1 where id = 1;
        return null;
      end $$`);
    // Each branch reads only the transition tables its event has.
    this.addSql(`create function product_catalog_version_bump() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if not exists (select 1 from new_rows where status = 'published') then return null; end if;
        elsif tg_op = 'DELETE' then
          if not exists (select 1 from old_rows where status = 'published') then return null; end if;
        elsif not exists (
          select 1 from old_rows o join new_rows n on n.id = o.id
           where (o.status = 'published' or n.status = 'published')
             and (o.status, o.category_id, o.brand_id, o.shop_id) is distinct from (n.status, n.category_id, n.brand_id, n.shop_id)) then
          return null;
        end if;
        update catalog_version set n = n + 1 where id = 1;
        return null;
      end $$`);
    this.addSql(`create trigger product_catalog_version_insert after insert on product referencing new table as new_rows
      for each statement execute function product_catalog_version_bump()`);
    this.addSql(`create trigger product_catalog_version_update after update on product referencing old table as old_rows new table as new_rows
      for each statement execute function product_catalog_version_bump()`);
    this.addSql(`create trigger product_catalog_version_delete after delete on product referencing old table as old_rows
      for each statement execute function product_catalog_version_bump()`);
    this.addSql(`create trigger product_catalog_version_truncate after truncate on product for each statement execute function catalog_version_bump()`);
    this.addSql(`create trigger category_catalog_version after insert or update or delete or truncate on category
      for each statement execute function catalog_version_bump()`);
  }
}
