import { Migration } from '@mikro-orm/migrations';

/**
 * Every order has its shipping address: checkout has required one since the after-sale migration
 * added the column (nullable, for the orders placed before it). Those older orders get an address
 * that says it was not recorded, so the column, the entity and the API can all say "always there".
 */
export class Migration20261126250000OrderAddressRequired extends Migration {
  override name = 'Migration20261126250000OrderAddressRequired';

  override async up(): Promise<void> {
    this.addSql(`update "shop_order" set "shipping_address" = '{"recipient": "(not recorded)", "phone": "(not recorded)", "region": "(not recorded)", "address": "(not recorded: placed before addresses were kept)"}' where "shipping_address" is null`);
    this.addSql('alter table "shop_order" alter column "shipping_address" set not null');
  }

  override async down(): Promise<void> {
    this.addSql('alter table "shop_order" alter column "shipping_address" drop not null');
  }
}
