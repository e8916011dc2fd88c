import { Migration } from '@mikro-orm/migrations';

/**
 * The sales-change log: every bump of a sales-version shard (migration SalesVersion) now also writes
 * what changed, so a remembered `sort=sales` ranking is brought up to date instead of ranked again
 * (src/services/catalog/sales-ranking-cache.ts explains why that stays exact).
 *
 * - `sales_change (shard, n)`: the shard's counter after the bump; `product_id` and `delta` (+quantity
 *   when a line enters sold_count, -quantity when it leaves). A bump for a statement that inserted or
 *   deleted sold lines in bulk (seed, bench loader, removals), or for a truncate, logs no product
 *   (`product_id` null): a ranking that spans it is ranked again.
 * - `sales_change_horizon`: per shard, the last counter the retention sweep deleted through. A
 *   ranking held at an older counter cannot be brought up to date and is ranked again.
 *
 * The row trigger also watches `quantity` and `product_id` of sold lines (nothing changes them today;
 * if something did, sold_count would move and the sales version must too). The log is an ordinary
 * (logged) table: a replica's rankings read it like the primary's.
 */
export class Migration20261127100000SalesChangeLog extends Migration {
  override name = 'Migration20261127100000SalesChangeLog';

  override async up(): Promise<void> {
    this.addSql(`create table "sales_change" ("shard" int not null, "n" bigint not null, "product_id" int null, "delta" int not null,
      "at" timestamptz not null default clock_timestamp(), constraint "sales_change_pkey" primary key ("shard", "n"))`);
    this.addSql(`alter table "sales_change" add constraint "sales_change_shard_check" check (shard >= 0 and shard < 16)`);
    this.addSql(`create table "sales_change_horizon" ("shard" int not null, "pruned_through" bigint not null, constraint "sales_change_horizon_pkey" primary key ("shard"))`);
    this.addSql(`alter table "sales_change_horizon" add constraint "sales_change_horizon_shard_check" check (shard >= 0 and shard < 16)`);
    this.addSql(`insert into "sales_change_horizon" ("shard", "pruned_through") select g, 0 from generate_series(0, 15) g`);
    // Each change bumps the backend's shard and is logged under the counter it reached: the shard's row
    // lock is held until commit, so within a shard counters follow commit order. (Both functions inline
    // the bump and the insert: the entities can describe trigger functions only.)
    this.addSql(`create or replace function sales_version_bump() returns trigger language plpgsql as $$
      declare
        s int := pg_backend_pid() % 16;
        counter bigint;
        products int[] := '{}';
        deltas int[] := '{}';
      begin
        if tg_level = 'STATEMENT' then
          products := array[null::int];
          deltas := array[0];
        elsif old.sold and new.sold and old.product_id = new.product_id then
          products := array[new.product_id];
          deltas := array[new.quantity - old.quantity];
        else
          if old.sold then products := products || old.product_id; deltas := deltas || -old.quantity; end if;
          if new.sold then products := products || new.product_id; deltas := deltas || new.quantity; end if;
        end if;
        for i in 1 .. coalesce(array_length(deltas, 1), 0) loop
          update sales_version set n = n + 1 where shard = s returning n into counter;
          insert into sales_change (shard, n, product_id, delta) values (s, counter, products[i], deltas[i]);
        end loop;
        return null;
      end $$`);
    this.addSql(`create or replace function order_item_rows_sales_version_bump() returns trigger language plpgsql as $$
      declare
        s int := pg_backend_pid() % 16;
        counter bigint;
      begin
        if tg_op = 'INSERT' then
          if not exists (select 1 from new_rows where sold) then return null; end if;
        elsif not exists (select 1 from old_rows where sold) then
          return null;
        end if;
        update sales_version set n = n + 1 where shard = s returning n into counter;
        insert into sales_change (shard, n, product_id, delta) values (s, counter, null, 0);
        return null;
      end $$`);
    this.addSql('drop trigger order_item_sold_changed on order_item');
    this.addSql(`create constraint trigger order_item_sold_changed after update of sold, quantity, product_id on order_item
      deferrable initially deferred for each row
      when ((old.sold or new.sold) and (new.sold, new.quantity, new.product_id) is distinct from (old.sold, old.quantity, old.product_id))
      execute function sales_version_bump()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger order_item_sold_changed on order_item');
    this.addSql(`create constraint trigger order_item_sold_changed after update of sold on order_item
      deferrable initially deferred for each row when (new.sold is distinct from old.sold) execute function sales_version_bump()`);
    this.addSql(`create or replace function order_item_rows_sales_version_bump() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if not exists (select 1 from new_rows where sold) then return null; end if;
        elsif not exists (select 1 from old_rows where sold) then
          return null;
        end if;
        update sales_version set n = n + 1 where shard = pg_backend_pid() % 16;
        return null;
      end $$`);
    this.addSql(`create or replace function sales_version_bump() returns trigger language plpgsql as $$
      begin
        update sales_version set n = n + 1 where shard = pg_backend_pid() % 16;
        return null;
      end $$`);
    this.addSql('drop table "sales_change_horizon"');
    this.addSql('drop table "sales_change"');
  }
}
