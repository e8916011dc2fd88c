import { Entity, PrimaryKey, Property, ManyToOne, OneToMany, Enum, Index, Check, Unique } from '@mikro-orm/decorators/legacy';
import { EntityName, Collection, type Opt, type Rel } from '@mikro-orm/core';
import { Order } from './order.entity.js';
import { OrderItem } from './order-item.entity.js';
import { Shop } from './shop.entity.js';
import { User } from './user.entity.js';
import { ShippingCompany } from './shipping-company.entity.js';

/** `refund`: money only, for units paid but not shipped. `return`: delivered goods come back, then money. */
export enum RefundKind {
  Refund = 'refund',
  Return = 'return',
}

/**
 * refund: requested -> completed | rejected | cancelled; a platform ruling on a dispute creates a
 * refund already completed (after-sale/refund.service.ts `refundByRuling`).
 * return: requested -> approved -> shipped_back -> completed; requested -> rejected;
 * requested | approved -> cancelled.
 */
export enum RefundStatus {
  Requested = 'requested',
  Approved = 'approved',
  ShippedBack = 'shipped_back',
  Completed = 'completed',
  Rejected = 'rejected',
  Cancelled = 'cancelled',
}

/** An after-sale request over lines of one order. Amounts are minor units of the base currency. */
@Entity()
@Index({ properties: ['customer', 'id'] })
@Index({ properties: ['shop', 'id'] })
// The operations page: refunds requested today, and those still open per shop.
@Index({ name: 'refund_created_at_index', properties: ['createdAt'] })
@Index({ name: 'refund_open_index', properties: ['shop'], where: "status = 'requested'" })
@Check({ name: 'refund_amounts_valid', expression: 'amount >= 0 and freight_amount >= 0 and freight_amount <= amount' })
@Check({ name: 'refund_commission_valid', expression: 'commission_amount >= 0 and commission_amount <= amount' })
@Check({ name: 'refund_status_fits_kind', expression: "kind = 'return' or status not in ('approved', 'shipped_back')" })
@Check({
  name: 'refund_shipped_back_has_tracking',
  expression: "status not in ('shipped_back', 'completed') or kind = 'refund' or (return_company_code is not null and return_tracking_number is not null)",
})
export class Refund {
  declare [EntityName]?: 'Refund';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Order, { index: true })
  order!: Rel<Order>;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  @ManyToOne(() => User)
  customer!: Rel<User>;

  @Enum({ items: () => RefundKind })
  kind!: RefundKind;

  @Enum({ items: () => RefundStatus })
  status: RefundStatus & Opt = RefundStatus.Requested;

  @Property({ length: 500 })
  reason!: string;

  /** What completion credits: the items' amounts plus `freightAmount`. */
  @Property()
  amount!: number;

  @Property()
  freightAmount: number & Opt = 0;

  /** The part of `amount` taken back from the platform's commission (the rest from the shop), set on completion. */
  @Property()
  commissionAmount: number & Opt = 0;

  @Property({ length: 500, nullable: true })
  rejectReason?: string | null;

  @ManyToOne(() => ShippingCompany, { nullable: true, deleteRule: 'no action' })
  returnCompany?: Rel<ShippingCompany> | null;

  @Property({ length: 80, nullable: true })
  returnTrackingNumber?: string | null;

  @OneToMany(() => RefundItem, (i) => i.refund, { orderBy: { id: 'asc' } })
  items = new Collection<RefundItem>(this);

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', nullable: true })
  decidedAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  shippedBackAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  completedAt?: Date | null;

  @Property({ columnType: 'timestamptz', nullable: true })
  cancelledAt?: Date | null;
}

@Entity()
@Unique({ properties: ['refund', 'orderItem'] })
@Check({ name: 'refund_item_valid', expression: 'quantity > 0 and amount >= 0' })
export class RefundItem {
  declare [EntityName]?: 'RefundItem';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Refund, { index: true })
  refund!: Rel<Refund>;

  @ManyToOne(() => OrderItem)
  orderItem!: Rel<OrderItem>;

  @Property()
  quantity!: number;

  @Property()
  amount!: number;
}
