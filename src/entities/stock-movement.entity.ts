import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Sku } from './sku.entity.js';
import { FlashSaleItem } from './flash-sale.entity.js';
import { Order } from './order.entity.js';
import { Refund } from './refund.entity.js';

/** Why stock moved. */
export enum MovementKind {
  /** Checkout took the units of an order. */
  Sale = 'sale',
  /** A pending order was cancelled: its units came back. */
  Cancellation = 'cancellation',
  /** A group expired: its paid seats' units came back. */
  GroupExpiry = 'group_expiry',
  /** A refund completed before shipment gave its units back. */
  Refund = 'refund',
  /** The shop set or changed the stock (a new SKU's first stock, a stock-take, a delta, a flash-sale reserve). */
  Adjustment = 'adjustment',
}

/**
 * One change of a SKU's stock or of a flash-sale item's activity stock, appended by every writer of
 * those counters in the same statement or transaction as the change (src/services/inventory, and
 * checkout's one write statement). So a counter equals what it started at plus its movements, and
 * each unit taken or given back names its order, refund or adjustment. Exactly one counter per row.
 */
@Entity()
@Check({ name: 'stock_movement_one_counter', expression: 'num_nonnulls(sku_id, flash_sale_item_id) = 1' })
@Check({ name: 'stock_movement_delta_non_zero', expression: 'delta <> 0' })
@Index({ name: 'stock_movement_flash_sale_item_id_index', properties: ['flashSaleItem'], where: 'flash_sale_item_id is not null' })
@Index({ name: 'stock_movement_order_id_index', properties: ['order'], where: 'order_id is not null' })
@Index({ name: 'stock_movement_refund_id_index', properties: ['refund'], where: 'refund_id is not null' })
export class StockMovement {
  declare [EntityName]?: 'StockMovement';

  @PrimaryKey()
  id!: number;

  /** A SKU's stock moved; its movements go with it when the SKU is deleted (only a SKU no order refers to can be). */
  @ManyToOne(() => Sku, { nullable: true, index: true, deleteRule: 'cascade' })
  sku?: Rel<Sku> | null;

  /** An activity item's stock moved. */
  @ManyToOne(() => FlashSaleItem, { nullable: true, deleteRule: 'cascade' })
  flashSaleItem?: Rel<FlashSaleItem> | null;

  /** Units added (positive) or taken (negative). */
  @Property()
  delta!: number;

  @Enum({ items: () => MovementKind })
  kind!: MovementKind;

  /** The order whose units these are (sale, cancellation, group expiry, refund). */
  @ManyToOne(() => Order, { nullable: true, deleteRule: 'no action' })
  order?: Rel<Order> | null;

  /** The refund that gave them back. */
  @ManyToOne(() => Refund, { nullable: true, deleteRule: 'no action' })
  refund?: Rel<Refund> | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
