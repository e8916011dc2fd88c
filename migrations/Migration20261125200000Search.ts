import { Migration } from '@mikro-orm/migrations';

/**
 * Keyword search, facets and suggestions (issue 21; docs/decisions.md "Search inside PostgreSQL").
 *
 * - `product.search_document`: a tsvector of the product's name (weight A), its brand and shop names
 *   (B), the names along its category path (C) and its description (D), in the `simple`
 *   configuration (no stemming: the catalog mixes languages). That configuration keeps a run of
 *   Chinese characters as one word, so CJK runs are also written as their single characters and
 *   overlapping bigrams: `无线蓝牙耳机` holds `蓝牙`, and a query is the AND of its own bigrams.
 *   A row trigger computes it; renames of a brand, shop or category refresh their products'.
 * - `pg_trgm` on the product name: names similar to a keyword whose words match nothing (typos).
 * - `search_suggestion`: the names a search box completes (brands, categories, published products),
 *   kept by a row trigger on each table, with a prefix index.
 * - The catalog version now also moves when a published product's search document or lowest price
 *   changes: keyword and price filters are listing filters, and their remembered totals and sales
 *   rankings must be recounted then (src/fast-paths/listing-total-cache.ts).
 */
export class Migration20261125200000Search extends Migration {
  override name = 'Migration20261125200000Search';

  override async up(): Promise<void> {
    // A trusted extension, as btree_gist: the database owner may create it.
    this.addSql(`create extension if not exists pg_trgm`);

    this.addSql(`create table "search_suggestion" ("id" serial primary key, "kind" text not null, "ref_id" int not null, "text" varchar(200) not null, "norm" varchar(200) not null)`);
    this.addSql(`alter table "search_suggestion" add constraint "search_suggestion_kind_ref_id_unique" unique ("kind", "ref_id")`);
    this.addSql(`alter table "search_suggestion" add constraint "search_suggestion_kind_check" check ("kind" in ('brand', 'category', 'product'))`);
    this.addSql(`create index "search_suggestion_prefix_idx" on "search_suggestion" ("kind", "norm" text_pattern_ops)`);

    this.addSql(`alter table "product" add column "search_document" tsvector null`);

    // Each part is written as its words plus, for runs of CJK characters (kana, CJK ideographs,
    // hangul), every single character and every overlapping pair.
    this.addSql(`create function product_search_document() returns trigger language plpgsql as $$
      declare
        parts text[];
        weights "char"[] := array['A', 'B', 'C', 'D'];
        doc tsvector := '';
        grams text;
      begin
        parts := array[
          new.name,
          concat_ws(' ', (select b.name from brand b where b.id = new.brand_id), (select s.name from shop s where s.id = new.shop_id)),
          (select string_agg(c.name, ' ' order by c.depth) from category own
             join category c on c.id = any(string_to_array(trim(both '/' from own.path), '/')::int[])
            where own.id = new.category_id),
          new.description];
        for i in 1..4 loop
          select string_agg(substr(run[1], pos, len), ' ') into grams
            from regexp_matches(coalesce(parts[i], ''), '[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uac00-\\ud7af\\uf900-\\ufaff]+', 'g') run,
                 generate_series(1, char_length(run[1])) pos,
                 (values (1), (2)) gram(len)
           where pos + len - 1 <= char_length(run[1]);
          doc := doc || setweight(to_tsvector('simple', concat_ws(' ', parts[i], grams)), weights[i]);
        end loop;
        new.search_document := doc;
        return new;
      end $$`);
    this.addSql(`create trigger product_search_document before insert or update of name, description, brand_id, shop_id, category_id on product
      for each row execute function product_search_document()`);

    // A rename touches the products that carry the name (an update of name fires the trigger above).
    this.addSql(`create function search_document_refresh() returns trigger language plpgsql as $$
      begin
        if tg_table_name = 'brand' then
          update product set name = name where brand_id = new.id;
        elsif tg_table_name = 'shop' then
          update product set name = name where shop_id = new.id;
        else
          update product p set name = p.name from category c
           where p.category_id = c.id and c.path ~>=~ new.path and c.path ~<~ (left(new.path, -1) || '0');
        end if;
        return null;
      end $$`);
    this.addSql(`create trigger brand_search_document after update of name on brand
      for each row when (old.name is distinct from new.name) execute function search_document_refresh()`);
    this.addSql(`create trigger shop_search_document after update of name on shop
      for each row when (old.name is distinct from new.name) execute function search_document_refresh()`);
    this.addSql(`create trigger category_search_document after update of name, path on category
      for each row when (old.name is distinct from new.name or old.path is distinct from new.path) execute function search_document_refresh()`);

    // The kind is the table's name; only published products are suggested.
    this.addSql(`create function search_suggestion_sync() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          delete from search_suggestion where kind = tg_table_name and ref_id = old.id;
          return null;
        end if;
        if tg_table_name = 'product' then
          if new.status <> 'published' then
            delete from search_suggestion where kind = tg_table_name and ref_id = new.id;
            return null;
          end if;
        end if;
        insert into search_suggestion (kind, ref_id, text, norm)
        values (tg_table_name, new.id, new.name, lower(regexp_replace(btrim(new.name), '\\s+', ' ', 'g')))
        on conflict (kind, ref_id) do update set text = excluded.text, norm = excluded.norm;
        return null;
      end $$`);
    this.addSql(`create trigger product_search_suggestion after insert or update of name, status or delete on product
      for each row execute function search_suggestion_sync()`);
    this.addSql(`create trigger brand_search_suggestion after insert or update of name or delete on brand for each row execute function search_suggestion_sync()`);
    this.addSql(`create trigger category_search_suggestion after insert or update of name or delete on category for each row execute function search_suggestion_sync()`);

    // Existing rows: an update of name fires both triggers.
    this.addSql(`update product set name = name`);
    this.addSql(`update brand set name = name`);
    this.addSql(`update category set name = name`);

    this.addSql(`create index "product_search_document_idx" on "product" using gin ("search_document") where status = 'published'`);
    this.addSql(`create index "product_name_trgm_idx" on "product" using gin ("name" gin_trgm_ops) where status = 'published'`);

    this.addSql(`create or replace function product_catalog_version_bump() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if not exists (select 1 from new_rows where status = 'published') then return null; end if;
        elsif tg_op = 'DELETE' then
          if not exists (select 1 from old_rows where status = 'published') then return null; end if;
        elsif not exists (
          select 1 from old_rows o join new_rows n on n.id = o.id
           where (o.status = 'published' or n.status = 'published')
             and (o.status, o.category_id, o.brand_id, o.shop_id, o.price_from, o.search_document)
                 is distinct from (n.status, n.category_id, n.brand_id, n.shop_id, n.price_from, n.search_document)) then
          return null;
        end if;
        update catalog_version set n = n + 1 where id = 1;
        return null;
      end $$`);
  }
}
