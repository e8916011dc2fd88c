import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Index, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, PrimaryKeyProp, Collection, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { Sku } from './sku.entity.js';
import { User } from './user.entity.js';

/**
 * A shop's timed flash-sale session. The window is half-open: `[startsAt, endsAt)`. Sessions are
 * created disabled; only enabled sessions whose window contains now price anything.
 */
@Entity()
@Index({ properties: ['shop', 'id'] })
// Discovery: enabled sessions that have not ended yet.
@Index({ name: 'flash_sale_enabled_ends_at_idx', properties: ['endsAt'], where: 'enabled' })
@Check({ name: 'flash_sale_window_valid', expression: 'ends_at > starts_at' })
export class FlashSale {
  declare [EntityName]?: 'FlashSale';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @Property({ length: 120 })
  name!: string;

  @Property({ columnType: 'timestamptz' })
  startsAt!: Date;

  @Property({ columnType: 'timestamptz' })
  endsAt!: Date;

  @Property()
  enabled: boolean & Opt = false;

  @OneToMany(() => FlashSaleItem, (item) => item.flashSale, { orderBy: { id: 'asc' } })
  items = new Collection<FlashSaleItem>(this);

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/**
 * One SKU in a session: its activity price, the activity stock reserved for the session and what is
 * left of it, and how many units one customer may buy at the activity price. `saleWindow` and
 * `enabled` copy the session's so that an exclusion constraint can refuse one SKU in two overlapping
 * enabled sessions, race-free.
 */
@Entity()
@Unique({ properties: ['flashSale', 'sku'] })
// One SKU is never in two overlapping enabled sessions; its index also serves checkout's and
// discovery's "enabled item of this SKU whose window contains now". `=` on an int in a GiST index
// needs the btree_gist extension (created by the FlashSales migration).
@Check({ name: 'flash_sale_item_no_overlap', expression: 'exclude using gist ("sku_id" with =, "sale_window" with &&) where (enabled)' })
@Check({ name: 'flash_sale_item_window_bounded', expression: 'not isempty(sale_window) and lower(sale_window) is not null and upper(sale_window) is not null' })
@Check({ name: 'flash_sale_item_stock_valid', expression: 'remaining_stock >= 0 and remaining_stock <= reserved_stock' })
@Check({ name: 'flash_sale_item_price_non_negative', expression: 'activity_price >= 0' })
@Check({ name: 'flash_sale_item_limit_positive', expression: 'per_customer_limit >= 1' })
export class FlashSaleItem {
  declare [EntityName]?: 'FlashSaleItem';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => FlashSale, { deleteRule: 'cascade' })
  flashSale!: Rel<FlashSale>;

  @ManyToOne(() => Sku, { index: true })
  sku!: Rel<Sku>;

  /** Unit price in minor units while the session is active. */
  @Property()
  activityPrice!: number;

  /** Activity stock set by the shop. */
  @Property()
  reservedStock!: number;

  /** Activity stock not yet taken by a checkout (pending or paid); cancellations give back. */
  @Property()
  remainingStock!: number;

  @Property()
  perCustomerLimit!: number;

  /** Copy of the session's `enabled`. */
  @Property()
  enabled: boolean & Opt = false;

  /** Copy of the session's window, `[startsAt, endsAt)`. */
  @Property({ columnType: 'tstzrange' })
  saleWindow!: string;
}

/**
 * How many activity-priced units one customer holds in one activity item (pending and paid orders;
 * cancellations give back). Checkout locks this row first, so checkouts of the same customer for
 * the same item are serialized and the per-customer limit holds.
 */
@Entity()
@Check({ name: 'flash_sale_purchase_quantity_non_negative', expression: 'quantity >= 0' })
export class FlashSalePurchase {
  declare [EntityName]?: 'FlashSalePurchase';
  [PrimaryKeyProp]?: ['flashSaleItem', 'customer'];

  // Keys are never updated; the migration gave these foreign keys no ON UPDATE rule, while MikroORM
  // defaults a primary-key relation to ON UPDATE CASCADE.
  @ManyToOne(() => FlashSaleItem, { primary: true, deleteRule: 'cascade', updateRule: 'no action' })
  flashSaleItem!: Rel<FlashSaleItem>;

  @ManyToOne(() => User, { primary: true, deleteRule: 'cascade', updateRule: 'no action', index: true })
  customer!: Rel<User>;

  @Property()
  quantity!: number;
}
