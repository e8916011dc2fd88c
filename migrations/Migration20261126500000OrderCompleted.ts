import { Migration } from '@mikro-orm/migrations';

/**
 * Issue 30 (after issue 28): an order's life ends in `completed` once the after-sale window after
 * delivery is over with no refund open; the completion sweep finds delivered orders by delivery time.
 */
export class Migration20261126500000OrderCompleted extends Migration {
  override name = 'Migration20261126500000OrderCompleted';

  override async up(): Promise<void> {
    this.addSql(`alter table "shop_order" drop constraint "shop_order_status_check"`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_status_check" check ("status" in ('pending_payment', 'awaiting_group', 'paid', 'shipped', 'delivered', 'completed', 'cancelled'))`);
    this.addSql(`alter table "shop_order" add column "completed_at" timestamptz null`);
    this.addSql(`create index "shop_order_delivered_at_index" on "shop_order" ("delivered_at") where status = 'delivered'`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "shop_order_delivered_at_index"`);
    this.addSql(`alter table "shop_order" drop column "completed_at"`);
    this.addSql(`alter table "shop_order" drop constraint "shop_order_status_check"`);
    this.addSql(`alter table "shop_order" add constraint "shop_order_status_check" check ("status" in ('pending_payment', 'awaiting_group', 'paid', 'shipped', 'delivered', 'cancelled'))`);
  }
}
