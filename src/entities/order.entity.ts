import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Enum, Index, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, Collection, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { Shop } from './shop.entity.js';
import { OrderItem } from './order-item.entity.js';
import { Coupon } from './coupon.entity.js';
import { BuyingGroup } from './group-buy.entity.js';

/**
 * pending_payment -> paid -> shipped -> delivered -> completed (after-sale window over); pending_payment -> cancelled (by the customer or
 * the payment-window sweep). Paid orders are never cancelled. A group-buying order goes
 * pending_payment -> awaiting_group (seat paid, money frozen) -> paid when its group succeeds, or
 * -> cancelled when its group expires (money released).
 */
export enum OrderStatus {
  PendingPayment = 'pending_payment',
  AwaitingGroup = 'awaiting_group',
  Paid = 'paid',
  Shipped = 'shipped',
  Delivered = 'delivered',
  Completed = 'completed',
  Cancelled = 'cancelled',
}

export interface ShippingAddress {
  recipient: string;
  phone: string;
  region: string;
  address: string;
}

/** States that count as "reached payment" (sold_count, stats). */
export const PAID_STATES = [OrderStatus.Paid, OrderStatus.Shipped, OrderStatus.Delivered, OrderStatus.Completed];

/** Why an order was cancelled: by its customer, by the payment window, by its group's expiry, or refunded before shipping. */
export const CANCEL_REASONS = ['customer', 'payment_timeout', 'group_expired', 'refunded'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

/** One shop's part of a checkout. Amounts are minor units of the base currency. */
@Entity({ tableName: 'shop_order' })
@Index({ properties: ['customer', 'id'] })
@Index({ properties: ['shop', 'id'] })
// The shop's orders sorted by total (the shop console's table), ties by id.
@Index({ name: 'shop_order_shop_total_idx', properties: ['shop', 'total', 'id'] })
// Every shop's orders sorted by total (the platform console's table), ties by id.
@Index({ name: 'shop_order_total_idx', properties: ['total', 'id'] })
// Stats count a customer's orders by state.
@Index({ name: 'shop_order_customer_status_idx', properties: ['customer', 'status'] })
// Unpaid orders are found by the payment-window sweep.
@Index({ name: 'shop_order_pending_created_idx', properties: ['createdAt'], where: "status = 'pending_payment'" })
// A group's orders, and "does this customer already hold an order in this group".
@Index({ name: 'shop_order_group_customer_idx', properties: ['group', 'customer'], where: 'group_id is not null' })
// The operations page: today's counters range over these times; paid orders wait for shipment per shop.
@Index({ name: 'shop_order_created_at_index', properties: ['createdAt'] })
@Index({ name: 'shop_order_paid_at_index', properties: ['paidAt'], where: 'paid_at is not null' })
@Index({ name: 'shop_order_cancelled_at_index', properties: ['cancelledAt'], where: 'cancelled_at is not null' })
// Delivered orders wait for the completion sweep (after-sale window).
@Index({ name: 'shop_order_delivered_at_index', properties: ['deliveredAt'], where: "status = 'delivered'" })
@Index({ name: 'shop_order_awaiting_shipment_index', properties: ['shop', 'id'], where: "status = 'paid'" })
// A coupon is on at most one live order (a cancelled order gives it back); backs the guarded redemption.
@Unique({ name: 'shop_order_coupon_live_unique', properties: ['coupon'], where: "coupon_id is not null and status <> 'cancelled'" })
@Check({ name: 'shop_order_commission_valid', expression: 'commission >= 0 and commission <= total' })
@Check({ name: 'shop_order_group_snapshot', expression: '(group_id is null) = (group_price is null)' })
@Check({ name: 'shop_order_amounts_valid', expression: 'items_total >= 0 and discount >= 0 and discount <= items_total and freight_fee >= 0 and total = items_total - discount + freight_fee' })
export class Order {
  declare [EntityName]?: 'Order';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User)
  customer!: Rel<User>;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @Enum({ items: () => OrderStatus })
  status: OrderStatus & Opt = OrderStatus.PendingPayment;

  /** Sum of the items' amounts (unit price snapshot x quantity). */
  @Property()
  itemsTotal!: number;

  @Property()
  discount: number & Opt = 0;

  /** The coupon applied at checkout (its realized discount is `discount`). */
  @ManyToOne(() => Coupon, { nullable: true, deleteRule: 'no action' })
  coupon?: Rel<Coupon> | null;

  /** Computed by the server at checkout from the lines and the shipping region (freight.ts). */
  @Property()
  freightFee: number & Opt = 0;

  /** Snapshot of where the order ships: `{recipient, phone, region, address}` (checkout requires it). */
  @Property({ type: 'json' })
  shippingAddress!: ShippingAddress;

  /** What the customer pays. */
  @Property()
  total!: number;

  @OneToMany(() => OrderItem, (item) => item.order, { orderBy: { id: 'asc' } })
  items = new Collection<OrderItem>(this);

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  paidAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  shippedAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  deliveredAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  /** The platform's commission on `total`, fixed at payment from the rates then valid (commission.ts). */
  @Property()
  commission: number & Opt = 0;

  /** When the shop's share moved from pending to available (the order completed). */
  @Property({ columnType: 'timestamptz', nullable: true })
  earningsReleasedAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;

  /** `customer`, `payment_timeout`, `group_expired`, or `refunded` (a paid order refunded in full before shipment). */
  @Property({ length: 40, nullable: true })
  cancelReason?: CancelReason | null;

  /** The group a group-buying order takes a seat in, snapshotted at checkout with the seat price. */
  @ManyToOne(() => BuyingGroup, { nullable: true, deleteRule: 'no action' })
  group?: Rel<BuyingGroup> | null;

  @Property({ type: 'integer', nullable: true })
  groupPrice?: number | null;
}
