import { Migration } from '@mikro-orm/migrations';

/**
 * The sales version: a counter that moves, in the same transaction, whenever an order line enters
 * or leaves sold_count (`order_item.sold` set at payment, cleared by a full refund before shipping;
 * lines inserted or deleted already sold). A `sort=sales` listing reads it (with the catalog version)
 * in the same statement as its page, so a ranking computed at the same two versions is exactly the
 * ranking that statement would compute (see `src/fast-paths/sales-ranking-cache.ts`).
 *
 * Sixteen shards, each bumped by the backends whose pid falls on it, summed on read: payments do not
 * all queue on one row. The bump at payment is a deferred constraint trigger, so the shard row is
 * locked only at commit, after every other lock the payment takes: it cannot close a deadlock cycle.
 */
export class Migration20261122130000SalesVersion extends Migration {
  override name = 'Migration20261122130000SalesVersion';

  override async up(): Promise<void> {
    this.addSql(`create table "sales_version" ("shard" int primary key check (shard >= 0 and shard < 16), "n" bigint not null)`);
    this.addSql(`insert into "sales_version" ("shard", "n") select g, 0 from generate_series(0, 15) g`);
    this.addSql(`create function sales_version_bump() returns trigger language plpgsql as $$
      begin
        update sales_version set n = n + 1 where shard = pg_backend_pid() % 16;
        return null;
      end $$`);
    this.addSql(`create constraint trigger order_item_sold_changed after update of sold on order_item
      deferrable initially deferred for each row when (new.sold is distinct from old.sold) execute function sales_version_bump()`);
    // Bulk loads (seed, bench data) and removals: once per statement, when a sold line is among them.
    this.addSql(`create function order_item_rows_sales_version_bump() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          if not exists (select 1 from new_rows where sold) then return null; end if;
        elsif not exists (select 1 from old_rows where sold) then
          return null;
        end if;
        update sales_version set n = n + 1 where shard = pg_backend_pid() % 16;
        return null;
      end $$`);
    this.addSql(`create trigger order_item_sales_version_insert after insert on order_item referencing new table as new_rows
      for each statement execute function order_item_rows_sales_version_bump()`);
    this.addSql(`create trigger order_item_sales_version_delete after delete on order_item referencing old table as old_rows
      for each statement execute function order_item_rows_sales_version_bump()`);
    this.addSql(`create trigger order_item_sales_version_truncate after truncate on order_item for each statement execute function sales_version_bump()`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger order_item_sales_version_truncate on order_item');
    this.addSql('drop trigger order_item_sales_version_delete on order_item');
    this.addSql('drop trigger order_item_sales_version_insert on order_item');
    this.addSql('drop trigger order_item_sold_changed on order_item');
    this.addSql('drop function order_item_rows_sales_version_bump()');
    this.addSql('drop function sales_version_bump()');
    this.addSql('drop table "sales_version"');
  }
}
