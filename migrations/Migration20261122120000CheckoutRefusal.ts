import { Migration } from '@mikro-orm/migrations';

/**
 * `mf_refuse(code, details)`: raises SQLSTATE `MF001` with the refusal code as message and its
 * details (JSON) as detail. Checkout writes its orders, items, counters and stock decrements in one
 * statement (`src/checkout/place-orders.ts`); when one of its guarded writes finds fewer rows than it
 * needs, the statement calls this so that the whole statement, and so every write in it, fails.
 */
export class Migration20261122120000CheckoutRefusal extends Migration {
  override name = 'Migration20261122120000CheckoutRefusal';

  override async up(): Promise<void> {
    this.addSql(`create function mf_refuse(code text, details json) returns int language plpgsql as $$
      begin
        raise exception using errcode = 'MF001', message = code, detail = coalesce(details::text, '{}');
      end $$`);
  }

  override async down(): Promise<void> {
    this.addSql('drop function mf_refuse(text, json)');
  }
}
