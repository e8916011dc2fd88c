import { Entity, PrimaryKey, Property, ManyToOne, Enum, Check, Index, Unique } from '@mikro-orm/decorators/legacy';
import { BigIntType, EntityName, type Opt, type Rel } from '@mikro-orm/core';
import { User } from './user.entity.js';
import { Shop } from './shop.entity.js';

/**
 * The accounts of the ledger. A customer's: `available` (spendable), `frozen` (held for a group seat)
 * and `points` (not money). A shop's: `shop_pending` (earned on orders not yet completed),
 * `shop_available` (payable), `shop_in_transit` (in a payout sent to the bank), `shop_debt` (what
 * refunds took beyond the available balance, at most zero, netted from the next earnings), and the
 * platform's commission on the shop's sales (`platform_commission`, one per shop so that payments of
 * different shops never queue on one row). The platform's `platform_clearing` is the other side of
 * money entering or leaving the mall (deposits, paid payouts): at most zero while the mall holds money.
 * Money a payment gateway captured enters through that gateway's own clearing account
 * (`clearing_<provider>`), and refunds to the gateway leave through it, so each gateway's books can
 * be reconciled with its own statements.
 */
export enum BalanceKind {
  Available = 'available',
  Frozen = 'frozen',
  Points = 'points',
  ShopPending = 'shop_pending',
  ShopAvailable = 'shop_available',
  ShopInTransit = 'shop_in_transit',
  ShopDebt = 'shop_debt',
  PlatformCommission = 'platform_commission',
  PlatformClearing = 'platform_clearing',
  SandboxClearing = 'clearing_sandbox',
  StripeClearing = 'clearing_stripe',
  AlipayClearing = 'clearing_alipay',
}

/** The platform's accounts (no owner) on the other side of money entering or leaving the mall. */
export const CLEARING_KINDS = [BalanceKind.PlatformClearing, BalanceKind.SandboxClearing, BalanceKind.StripeClearing, BalanceKind.AlipayClearing] as const;
export type ClearingKind = (typeof CLEARING_KINDS)[number];

/** A gateway's clearing account: money it captured enters through it, refunds to it leave through it. */
export const GATEWAY_CLEARING_KINDS = [BalanceKind.SandboxClearing, BalanceKind.StripeClearing, BalanceKind.AlipayClearing] as const;

/**
 * Rows per gateway clearing account. Every capture of a gateway moves money out of its clearing
 * account, so with one row every capture of the mall would queue on that row's lock until its
 * transaction commits (measured: 23 Stripe captures per second at 50 connections, the transfer
 * waiting 115 ms on average). The account is kept in this many rows (`slot`), a payment using the
 * row `payment id % CLEARING_SLOTS` for its capture and its refunds; the account is their sum.
 */
export const CLEARING_SLOTS = 8;

export const CUSTOMER_KINDS = [BalanceKind.Available, BalanceKind.Frozen, BalanceKind.Points] as const;
export const SHOP_KINDS = [BalanceKind.ShopPending, BalanceKind.ShopAvailable, BalanceKind.ShopInTransit, BalanceKind.ShopDebt, BalanceKind.PlatformCommission] as const;

/**
 * One row per (owner, kind, currency, slot): a customer's, a shop's or the platform's (neither); only
 * a gateway's clearing account has several slots (`CLEARING_SLOTS`). The unique index is NULLS NOT
 * DISTINCT so a second `points` row (currency null) or a second platform row is refused too. Changed only by the ledger service: every money change is a transfer between
 * two of them, so their sum is zero.
 */
@Entity()
// MikroORM has no option for NULLS NOT DISTINCT: the raw definition creates it, and the schema
// comparator then matches the index by name only.
@Unique({
  name: 'balance_owner_kind_currency_unique',
  expression: 'create unique index "balance_owner_kind_currency_unique" on "balance" ("user_id", "shop_id", "kind", "currency", "slot") nulls not distinct',
})
@Check({
  name: 'balance_slot_of_gateway_clearing',
  expression: "slot = 0 or (kind in ('clearing_sandbox', 'clearing_stripe', 'clearing_alipay') and slot between 0 and 7)",
})
@Index({ name: 'balance_shop_id_index', properties: ['shop'], where: 'shop_id is not null' })
@Check({
  name: 'balance_amount_sign',
  expression: "kind in ('platform_clearing', 'clearing_sandbox', 'clearing_stripe', 'clearing_alipay') or (kind = 'shop_debt' and amount <= 0) or (kind <> 'shop_debt' and amount >= 0)",
})
@Check({ name: 'balance_currency_matches_kind', expression: "(kind = 'points') = (currency is null)" })
@Check({
  name: 'balance_owner_matches_kind',
  expression:
    "case when kind in ('available', 'frozen', 'points') then user_id is not null and shop_id is null when kind in ('platform_clearing', 'clearing_sandbox', 'clearing_stripe', 'clearing_alipay') then user_id is null and shop_id is null else user_id is null and shop_id is not null end",
})
export class Balance {
  declare [EntityName]?: 'Balance';

  @PrimaryKey()
  id!: number;

  @ManyToOne(() => User, { deleteRule: 'cascade', nullable: true })
  user?: Rel<User> | null;

  @ManyToOne(() => Shop, { nullable: true, deleteRule: 'no action' })
  shop?: Rel<Shop> | null;

  @Enum({ items: () => BalanceKind })
  kind!: BalanceKind;

  @Property({ length: 3, nullable: true })
  currency?: string | null;

  /** Minor units of the currency, or points. */
  @Property({ type: new BigIntType('number') })
  amount!: number;

  /** Which row of a gateway's clearing account (0 to CLEARING_SLOTS - 1); 0 for every other account. */
  @Property({ type: 'smallint', default: 0 })
  slot: number & Opt = 0;
}
