import { Migration } from '@mikro-orm/migrations';

/**
 * A gateway's clearing account in eight rows (`balance.slot`, balance.entity.ts CLEARING_SLOTS): one
 * row took every capture of the mall through its lock in turn. The existing row is slot 0, with its
 * amount; slots 1 to 7 start at zero, so the account (their sum) and the ledger are unchanged.
 */
export class Migration20261203400000ClearingSlots extends Migration {
  override name = 'Migration20261203400000ClearingSlots';

  override async up(): Promise<void> {
    this.addSql(`alter table "balance" add column "slot" smallint not null default 0`);
    this.addSql(`drop index "balance_owner_kind_currency_unique"`);
    this.addSql(`create unique index "balance_owner_kind_currency_unique" on "balance" ("user_id", "shop_id", "kind", "currency", "slot") nulls not distinct`);
    this.addSql(`alter table "balance" add constraint "balance_slot_of_gateway_clearing" check (slot = 0 or (kind in ('clearing_sandbox', 'clearing_stripe', 'clearing_alipay') and slot between 0 and 7))`);
    this.addSql(`insert into "balance" ("user_id", "shop_id", "kind", "currency", "amount", "slot")
      select null, null, k.kind, 'CNY', 0, s.slot from unnest(array['clearing_sandbox', 'clearing_stripe', 'clearing_alipay']) as k(kind), generate_series(1, 7) as s(slot)`);
  }

  override async down(): Promise<void> {
    // Folds the slots back into slot 0 only while they hold nothing: money in them has ledger entries.
    this.addSql(`delete from "balance" b where b.slot > 0 and b.amount = 0 and not exists (select 1 from "ledger_entry" l where l.balance_id = b.id)`);
    this.addSql(`alter table "balance" drop constraint "balance_slot_of_gateway_clearing"`);
    this.addSql(`drop index "balance_owner_kind_currency_unique"`);
    this.addSql(`create unique index "balance_owner_kind_currency_unique" on "balance" ("user_id", "shop_id", "kind", "currency") nulls not distinct`);
    this.addSql(`alter table "balance" drop column "slot"`);
  }
}
