import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 30: the balances become the accounts of a double-entry ledger (customers', shops', the
 * platform's), every money change a transfer of two entries sharing a `transfer_id`; commissions,
 * payouts and their batches.
 *
 * History is kept: the customers' balances and ledger entries stay as they are. Their money came
 * from outside the mall, so one opening entry per customer account puts its amount on the other side,
 * `platform_clearing`; orders paid before the ledger existed (paid, shipped or delivered, less what
 * was refunded) are credited to their shop's pending balance from clearing too, at no commission, so
 * they can complete and be paid out. After this the sum over all money accounts is zero.
 */
export class Migration20261126510000SettlementLedger extends Migration {
  override name = 'Migration20261126510000SettlementLedger';

  override async up(): Promise<void> {
    this.addSql(`alter table "balance" add column "shop_id" int null`);
    this.addSql(`alter table "balance" alter column "user_id" drop not null`);
    this.addSql(`alter table "balance" add constraint "balance_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "balance" drop constraint "balance_kind_check"`);
    this.addSql(`alter table "balance" add constraint "balance_kind_check" check ("kind" in ('available', 'frozen', 'points', 'shop_pending', 'shop_available', 'shop_in_transit', 'shop_debt', 'platform_commission', 'platform_clearing'))`);
    this.addSql(`alter table "balance" drop constraint "balance_amount_non_negative"`);
    this.addSql(`alter table "balance" add constraint "balance_amount_sign" check (kind = 'platform_clearing' or (kind = 'shop_debt' and amount <= 0) or (kind <> 'shop_debt' and amount >= 0))`);
    this.addSql(`alter table "balance" add constraint "balance_owner_matches_kind" check (case when kind in ('available', 'frozen', 'points') then user_id is not null and shop_id is null when kind = 'platform_clearing' then user_id is null and shop_id is null else user_id is null and shop_id is not null end)`);
    this.addSql(`drop index "balance_user_kind_currency_unique"`);
    this.addSql(`create unique index "balance_owner_kind_currency_unique" on "balance" ("user_id", "shop_id", "kind", "currency") nulls not distinct`);
    this.addSql(`create index "balance_shop_id_index" on "balance" ("shop_id") where shop_id is not null`);

    this.addSql(`alter table "ledger_entry" add column "transfer_id" bigint null`);
    this.addSql(`create index "ledger_entry_transfer_id_index" on "ledger_entry" ("transfer_id") where transfer_id is not null`);
    this.addSql(`create index "ledger_entry_created_at_index" on "ledger_entry" ("created_at")`);
    this.addSql(`create sequence "ledger_transfer_seq"`);

    this.addSql(`alter table "shop_order" add column "commission" int not null default 0, add column "earnings_released_at" timestamptz null`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_commission_valid" check (commission >= 0 and commission <= total)`);
    this.addSql(`alter table "order_item" add column "commission_rate_bp" int null`);
    this.addSql(`alter table "refund" add column "commission_amount" int not null default 0`);
    this.addSql(`alter table "refund" add constraint "refund_commission_valid" check (commission_amount >= 0 and commission_amount <= amount)`);

    this.addSql(`create table "commission_rate" ("id" serial primary key, "shop_id" int not null, "category_id" int null, "rate_bp" int not null, "valid_from" timestamptz not null, "valid_until" timestamptz null, "created_at" timestamptz not null)`);
    this.addSql(`create index "commission_rate_category_id_index" on "commission_rate" ("category_id")`);
    this.addSql(`create index "commission_rate_shop_from_index" on "commission_rate" ("shop_id", "valid_from")`);
    this.addSql(`alter table "commission_rate" add constraint "commission_rate_valid" check (rate_bp >= 0 and rate_bp <= 10000 and (valid_until is null or valid_until > valid_from))`);
    this.addSql(`alter table "commission_rate" add constraint "commission_rate_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);
    this.addSql(`alter table "commission_rate" add constraint "commission_rate_category_id_foreign" foreign key ("category_id") references "category" ("id") on delete set null`);

    this.addSql(`create table "payout_batch" ("id" serial primary key, "created_by_id" int not null, "threshold" int not null, "created_at" timestamptz not null)`);
    this.addSql(`create index "payout_batch_created_by_id_index" on "payout_batch" ("created_by_id")`);
    this.addSql(`create index "payout_batch_created_at_index" on "payout_batch" ("created_at")`);
    this.addSql(`alter table "payout_batch" add constraint "payout_batch_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id")`);
    this.addSql(`create table "payout" ("id" serial primary key, "batch_id" int not null, "shop_id" int not null, "amount" int not null, "status" text not null default 'pending', "failure_reason" varchar(200) null, "failed_after_paid" boolean not null default false, "created_at" timestamptz not null, "settled_at" timestamptz null)`);
    this.addSql(`alter table "payout" add constraint "payout_status_check" check ("status" in ('pending', 'paid', 'failed'))`);
    this.addSql(`alter table "payout" add constraint "payout_amount_positive" check (amount > 0)`);
    this.addSql(`create index "payout_shop_id_index" on "payout" ("shop_id", "id")`);
    this.addSql(`create index "payout_batch_id_index" on "payout" ("batch_id", "id")`);
    this.addSql(`create index "payout_settled_at_index" on "payout" ("settled_at") where settled_at is not null`);
    this.addSql(`alter table "payout" add constraint "payout_batch_id_foreign" foreign key ("batch_id") references "payout_batch" ("id")`);
    this.addSql(`alter table "payout" add constraint "payout_shop_id_foreign" foreign key ("shop_id") references "shop" ("id")`);

    for (const statement of OPEN_THE_LEDGER) this.addSql(statement);
  }

  override async down(): Promise<void> {
    // The ledger's shop and platform rows and opening entries cannot be taken back out of an append-only ledger.
    throw new Error('Migration20261126510000SettlementLedger cannot be reverted');
  }
}

/**
 * The opening of the double-entry ledger, run in the migration's transaction (the ledger is
 * append-only: these entries stay as the record of how the books were opened). Their transfer is
 * null, as for the entries before them: the clearing entry is the other side of all of them.
 */
export const OPEN_THE_LEDGER = [
  // What each shop was paid for before the ledger and has not refunded: pending until the order completes.
  `insert into balance (user_id, shop_id, kind, currency, amount)
   select null, o.shop_id, 'shop_pending', 'CNY',
          sum(o.total - coalesce((select sum(r.amount) from refund r where r.order_id = o.id and r.status = 'completed'), 0))
     from shop_order o where o.status in ('paid', 'shipped', 'delivered') group by o.shop_id`,
  `insert into ledger_entry (balance_id, transfer_id, delta, balance_after, reason, reference_type, reference_id, created_at)
   select b.id, null, b.amount, b.amount, 'opening_pending', 'shop', b.shop_id, now() from balance b where b.kind = 'shop_pending' and b.amount <> 0`,
  `insert into balance (user_id, shop_id, kind, currency, amount)
   select null, null, 'platform_clearing', 'CNY', -coalesce(sum(amount), 0) from balance where currency is not null`,
  `insert into ledger_entry (balance_id, transfer_id, delta, balance_after, reason, reference_type, reference_id, created_at)
   select b.id, null, b.amount, b.amount, 'opening_balance', null, null, now() from balance b where b.kind = 'platform_clearing' and b.amount <> 0`,
];
