import { Migration } from '@mikro-orm/migrations';

/** Zero balance rows for every customer that lacks them; safe to run again (conflicts are skipped). */
export const BACKFILL_CUSTOMER_BALANCES = `
  insert into balance (user_id, kind, currency, amount)
  select u.id, k.kind, k.currency, 0
    from app_user u
    cross join (values ('available', 'CNY'), ('frozen', 'CNY'), ('points', null)) as k(kind, currency)
   where u.role = 'customer'
  on conflict do nothing`;

export class Migration20261122000100BackfillBalances extends Migration {
  override name = 'Migration20261122000100BackfillBalances';

  override async up(): Promise<void> {
    this.addSql(BACKFILL_CUSTOMER_BALANCES);
  }
}
