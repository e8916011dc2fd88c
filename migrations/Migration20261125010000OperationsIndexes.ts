import { Migration } from '@mikro-orm/migrations';

/**
 * Indexes of the operations reads (`src/orders/operations.service.ts`): today's counters range over
 * the order and refund times, and the orders waiting for shipment are the `paid` ones (a small,
 * moving set: a partial index keeps it cheap to find for one shop or for every shop).
 */
export class Migration20261125010000OperationsIndexes extends Migration {
  override name = 'Migration20261125010000OperationsIndexes';

  override async up(): Promise<void> {
    this.addSql('create index "shop_order_created_at_index" on "shop_order" ("created_at")');
    this.addSql('create index "shop_order_paid_at_index" on "shop_order" ("paid_at") where "paid_at" is not null');
    this.addSql('create index "shop_order_cancelled_at_index" on "shop_order" ("cancelled_at") where "cancelled_at" is not null');
    this.addSql(`create index "shop_order_awaiting_shipment_index" on "shop_order" ("shop_id", "id") where "status" = 'paid'`);
    this.addSql('create index "refund_created_at_index" on "refund" ("created_at")');
    this.addSql(`create index "refund_open_index" on "refund" ("shop_id") where "status" = 'requested'`);
  }

  override async down(): Promise<void> {
    for (const name of ['shop_order_created_at', 'shop_order_paid_at', 'shop_order_cancelled_at', 'shop_order_awaiting_shipment', 'refund_created_at', 'refund_open']) {
      this.addSql(`drop index "${name}_index"`);
    }
  }
}
