import { Entity, PrimaryKey, Property, ManyToOne, Enum, Index, Unique, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { Shop } from './shop.entity.js';
import { Product } from './product.entity.js';
import { Sku } from './sku.entity.js';
import { User } from './user.entity.js';
import { Order } from './order.entity.js';

/**
 * A shop's group-buying offer on exactly one of its SKUs: customers open groups during the window,
 * each group fills up to `capacity` paid seats at `groupPrice` within `lifetimeMinutes` of opening.
 * Groups snapshot capacity and price when they open, so later edits change only new groups.
 */
@Entity({ tableName: 'group_buy_activity' })
@Index({ properties: ['shop', 'id'] })
@Check({ name: 'group_buy_activity_price_positive', expression: 'group_price > 0' })
@Check({ name: 'group_buy_activity_capacity_valid', expression: 'capacity >= 2 and capacity <= 100' })
@Check({ name: 'group_buy_activity_lifetime_valid', expression: 'lifetime_minutes >= 1 and lifetime_minutes <= 43200' })
@Check({ name: 'group_buy_activity_window_valid', expression: 'ends_at > starts_at' })
export class GroupBuyActivity {
  declare [EntityName]?: 'GroupBuyActivity';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => Shop)
  shop!: Rel<Shop>;

  /** The SKU's product, kept with the activity so listings filter and join without going through the SKU. */
  @ManyToOne(() => Product, { index: true })
  product!: Rel<Product>;

  @ManyToOne(() => Sku, { index: true })
  sku!: Rel<Sku>;

  /** Price of one seat, minor units of the base currency. */
  @Property()
  groupPrice!: number;

  /** Seats per group. */
  @Property()
  capacity!: number;

  /** How long a group stays open after it is opened. */
  @Property()
  lifetimeMinutes!: number;

  /** New groups can be opened from `startsAt` until `endsAt`. */
  @Property({ columnType: 'timestamptz' })
  startsAt!: Date;

  @Property({ columnType: 'timestamptz', index: true })
  endsAt!: Date;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  @Property({ columnType: 'timestamptz', onUpdate: () => new Date() })
  updatedAt: Date & Opt = new Date();
}

/** open -> successful (capacity reached), open -> expired (lifetime ended), open -> cancelled (opener's unpaid order cancelled, no paid seat). */
export enum GroupState {
  Open = 'open',
  Successful = 'successful',
  Expired = 'expired',
  Cancelled = 'cancelled',
}

/**
 * A concrete group under an activity. `paidSeats` changes only under the group's row lock and never
 * passes `capacity`; the group is `successful` exactly when every seat is paid.
 */
@Entity({ tableName: 'group_buy_group' })
// Group counts per activity and state (merchant list, delete check).
@Index({ name: 'group_buy_group_activity_state_idx', properties: ['activity', 'state'] })
// An activity's open groups, soonest expiry first.
@Index({ name: 'group_buy_group_open_activity_idx', properties: ['activity', 'expiresAt'], where: "state = 'open'" })
// The expiry sweep and the due-group probes.
@Index({ name: 'group_buy_group_open_expiry_idx', properties: ['expiresAt'], where: "state = 'open'" })
@Check({ name: 'group_buy_group_seats_valid', expression: 'capacity >= 2 and paid_seats >= 0 and paid_seats <= capacity' })
@Check({ name: 'group_buy_group_successful_when_full', expression: "(state = 'successful') = (paid_seats = capacity)" })
@Check({ name: 'group_buy_group_cancelled_without_seats', expression: "state <> 'cancelled' or paid_seats = 0" })
@Check({ name: 'group_buy_group_price_positive', expression: 'group_price > 0' })
export class BuyingGroup {
  declare [EntityName]?: 'BuyingGroup';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => GroupBuyActivity)
  activity!: Rel<GroupBuyActivity>;

  /** The customer whose checkout opened the group. */
  @ManyToOne(() => User)
  opener!: Rel<User>;

  @Enum({ items: () => GroupState })
  state: GroupState & Opt = GroupState.Open;

  @Property()
  capacity!: number;

  @Property()
  groupPrice!: number;

  @Property()
  paidSeats: number & Opt = 0;

  @Property({ columnType: 'timestamptz' })
  expiresAt!: Date;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();

  /** When the group left `open`. */
  @Property({ columnType: 'timestamptz', nullable: true })
  closedAt?: Date | null;
}

/** One paid seat: written when a group order is paid, one per order and one per customer in a group. */
@Entity({ tableName: 'group_buy_membership' })
@Unique({ properties: ['group', 'customer'] })
@Check({ name: 'group_buy_membership_amount_positive', expression: 'amount > 0' })
export class GroupMembership {
  declare [EntityName]?: 'GroupMembership';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => BuyingGroup)
  group!: Rel<BuyingGroup>;

  @ManyToOne(() => Order, { unique: true })
  order!: Rel<Order>;

  @ManyToOne(() => User, { index: true })
  customer!: Rel<User>;

  /** What was frozen for the seat (the order total). */
  @Property()
  amount!: number;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
