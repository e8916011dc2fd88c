import { Entity, PrimaryKey, Property, ManyToOne, Enum, Check, Index, Trigger } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Order } from './order.entity.js';
import { Product } from './product.entity.js';
import { Sku } from './sku.entity.js';
import { FlashSaleItem } from './flash-sale.entity.js';
import { sqlTrigger } from './sql-trigger.js';

/** How an item was priced; a flash-sale line is split into an activity-priced and a standard item. */
export enum ItemPricing {
  Standard = 'standard',
  FlashSale = 'flash_sale',
  GroupBuy = 'group_buy',
}

/**
 * A line of an order with the price snapshot taken at checkout. `sold` turns true when the order is
 * paid (a full refund before shipping clears it): sold_count sums the quantities of sold lines,
 * through a partial covering index. Every change of what a line adds to sold_count (its `sold`, or
 * the quantity or product of a sold line) moves the sales version (SalesVersion) and is logged with
 * its product and quantity (SalesChange): a deferred constraint trigger per updated row; statement
 * triggers for bulk inserts and deletes, which log no product.
 * A fourth trigger (after truncate) bumps it too; MikroORM cannot see truncate triggers, so it lives
 * only in the SalesVersion migration, with the trigger functions.
 */
@Entity()
// sold_count: an index-only scan over the sold lines of a page of products.
@Index({ name: 'order_item_sold_product_idx', properties: ['product'], include: ['quantity'], where: 'sold' })
@Check({ name: 'order_item_quantity_positive', expression: 'quantity > 0' })
@Check({ name: 'order_item_shipped_within_quantity', expression: 'shipped_quantity >= 0 and shipped_quantity <= quantity' })
@Check({ name: 'order_item_refund_within_quantity', expression: 'refund_quantity >= 0 and refund_quantity <= quantity' })
@Check({ name: 'order_item_flash_sale_link', expression: "(pricing = 'flash_sale') = (flash_sale_item_id is not null)" })
@Trigger(sqlTrigger(`create constraint trigger order_item_sold_changed after update of sold, quantity, product_id on order_item
    deferrable initially deferred for each row
    when ((old.sold or new.sold) and (new.sold, new.quantity, new.product_id) is distinct from (old.sold, old.quantity, old.product_id))
    execute function sales_version_bump()`))
@Trigger(sqlTrigger(`create trigger order_item_sales_version_insert after insert on order_item referencing new table as new_rows
    for each statement execute function order_item_rows_sales_version_bump()`))
@Trigger(sqlTrigger(`create trigger order_item_sales_version_delete after delete on order_item referencing old table as old_rows
    for each statement execute function order_item_rows_sales_version_bump()`))
export class OrderItem {
  declare [EntityName]?: 'OrderItem';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Order, { index: true })
  order!: Rel<Order>;

  @ManyToOne(() => Product)
  product!: Rel<Product>;

  @ManyToOne(() => Sku, { index: true })
  sku!: Rel<Sku>;

  @Property({ length: 200 })
  productName!: string;

  @Property({ length: 120 })
  skuName!: string;

  @Property()
  unitPrice!: number;

  @Property()
  quantity!: number;

  /** unitPrice x quantity. */
  @Property()
  amount!: number;

  @Enum({ items: () => ItemPricing })
  pricing: ItemPricing & Opt = ItemPricing.Standard;

  @Property()
  shippedQuantity: number & Opt = 0;

  @Property()
  sold: boolean & Opt = false;

  /** The flash-sale activity item that priced this item (pricing `flash_sale`); it cannot be deleted then. */
  @Index({ name: 'order_item_flash_sale_item_id_index', where: 'flash_sale_item_id is not null' })
  @ManyToOne(() => FlashSaleItem, { nullable: true, deleteRule: 'no action' })
  flashSaleItem?: Rel<FlashSaleItem> | null;

  /** Units in open or completed after-sale requests (refund or return); guarded by the refund service. */
  @Property()
  refundQuantity: number & Opt = 0;

  /** The commission rate of this line in basis points, recorded at payment (null before payment). */
  @Property({ type: 'integer', nullable: true })
  commissionRateBp?: number | null;
}
