import { Entity, PrimaryKey, Property, ManyToOne, Enum, Check } from '@mikro-orm/decorators/legacy';
import type { Opt, Rel } from '@mikro-orm/core';
import { Order } from './order.entity.js';
import { Product } from './product.entity.js';
import { Sku } from './sku.entity.js';
import { FlashSaleItem } from './flash-sale.entity.js';

/** How an item was priced; a flash-sale line is split into an activity-priced and a standard item. */
export enum ItemPricing {
  Standard = 'standard',
  FlashSale = 'flash_sale',
  GroupBuy = 'group_buy',
}

/**
 * A line of an order with the price snapshot taken at checkout. `sold` turns true when the order is
 * paid and never back: sold_count sums the quantities of sold lines, through a partial covering index.
 */
@Entity()
@Check({ name: 'order_item_quantity_positive', expression: 'quantity > 0' })
@Check({ name: 'order_item_shipped_within_quantity', expression: 'shipped_quantity >= 0 and shipped_quantity <= quantity' })
@Check({ name: 'order_item_refund_within_quantity', expression: 'refund_quantity >= 0 and refund_quantity <= quantity' })
export class OrderItem {
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

  /** The flash-sale activity item that priced this item (pricing `flash_sale`). */
  @ManyToOne(() => FlashSaleItem, { nullable: true, index: true, deleteRule: 'no action' })
  flashSaleItem?: Rel<FlashSaleItem> | null;

  /** Units in open or completed after-sale requests (refund or return); guarded by the refund service. */
  @Property()
  refundQuantity: number & Opt = 0;
}
