import { sql } from 'kysely';
import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { RefundStatus } from '../../entities/refund.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { emit } from '../../shared/transaction.js';
import { ensureShopAccounts, lockBalances, transfer, transferHeld } from '../accounts/ledger.service.js';
import type { OrderTransition } from '../orders/order-lifecycle.js';

/**
 * A shop's earnings, driven by the order's moves (subscribers listed in services/wiring.ts), never by
 * a use case:
 *
 *   order.paid       customer available (or frozen, a group seat) -> shop pending (its share)
 *                                                                 -> platform commission (the rate's part)
 *   order.completed  shop pending -> shop debt (what refunds took beyond the available balance)
 *                                 -> shop available (the rest)
 *   refund completed shop pending (or available, then debt) and platform commission -> customer available
 *
 * Every arrow is one transfer (ledger.service.ts). Amounts per order are derived from the order's
 * recorded `commission` and its completed refunds' `commission_amount`, so no running total per order
 * can drift from the entries.
 */

/**
 * Records each line's commission rate and the order's commission, from the rates valid now: a
 * category's rate (its deepest category with one, the line's own or an ancestor) before the shop's
 * default (category null), else none. One statement per table; later rate changes leave them alone.
 */
export async function recordCommission(em: EntityManager, orderIds: readonly number[]): Promise<void> {
  const db = typedSql(em);
  await sql`
    update order_item i set commission_rate_bp = coalesce(
      (select r.rate_bp from commission_rate r join category rc on rc.id = r.category_id
         join product p on p.id = i.product_id join category pc on pc.id = p.category_id
        where r.shop_id = o.shop_id and starts_with(pc.path, rc.path)
          and r.valid_from <= now() and (r.valid_until is null or r.valid_until > now())
        order by rc.depth desc, r.valid_from desc, r.id desc limit 1),
      (select r.rate_bp from commission_rate r
        where r.shop_id = o.shop_id and r.category_id is null
          and r.valid_from <= now() and (r.valid_until is null or r.valid_until > now())
        order by r.valid_from desc, r.id desc limit 1),
      0)
    from shop_order o where o.id = i.order_id and i.order_id = any(${[...orderIds]}::int[])`.execute(db);
  // The lines' rates weighted by their amounts, applied to what the customer paid (discount and
  // freight included), rounded down: the platform never takes a unit more than its rates say.
  await sql`
    update shop_order o set commission = coalesce((
      select case when sum(i.amount) = 0 then 0
                  else floor(o.total::numeric * sum(i.amount::numeric * i.commission_rate_bp) / (sum(i.amount) * 10000))::int end
        from order_item i where i.order_id = o.id), 0)
    where o.id = any(${[...orderIds]}::int[])`.execute(db);
}

const commissionsOf = (em: EntityManager, orderIds: readonly number[]) =>
  typedSql(em).selectFrom('Order').select(['id', 'commission']).where('id', 'in', [...orderIds]).execute();

/**
 * Subscriber of `order.paid`: the customer's money goes to the shop's pending balance and the
 * platform's commission. From their available balance for an ordinary payment (refused, and the
 * payment rolled back, when it is short); from their frozen balance for a group seat settled.
 */
export async function payShopsForPaidOrders(tx: ServiceContext, moved: readonly OrderTransition[]): Promise<void> {
  const orders = moved.filter((m) => m.total > 0);
  if (orders.length === 0) return;
  await ensureShopAccounts(tx.em, orders.map((m) => m.shopId));
  await recordCommission(tx.em, orders.map((m) => m.orderId));
  const commission = new Map((await commissionsOf(tx.em, orders.map((m) => m.orderId))).map((o) => [o.id, o.commission]));
  for (const m of orders) {
    const fromFrozen = m.transition === 'settleSeat';
    const from = { user: m.customerId, kind: fromFrozen ? BalanceKind.Frozen : BalanceKind.Available } as const;
    const reference = { type: 'order', id: m.orderId };
    const cut = commission.get(m.orderId) ?? 0;
    const parts = [
      { to: { shop: m.shopId, kind: BalanceKind.ShopPending } as const, amount: m.total - cut, reason: fromFrozen ? ('group_settlement' as const) : ('order_payment' as const) },
      { to: { shop: m.shopId, kind: BalanceKind.PlatformCommission } as const, amount: cut, reason: 'commission' as const },
    ].filter((p) => p.amount > 0);
    for (const part of parts) {
      if (fromFrozen) {
        await transferHeld(tx.em, { from, to: part.to, amount: part.amount, reason: part.reason, reference });
      } else if (!(await transfer(tx.em, { from, to: part.to, amount: part.amount, reason: part.reason, reference, guarded: true }))) {
        throw refused('INSUFFICIENT_FUNDS', 'Not enough funds in your balance', { required: m.total, kind: BalanceKind.Available });
      }
    }
  }
}

/** The shop's share of an order still pending: its share at payment less the shop's part of completed refunds. */
async function pendingShares(em: EntityManager, orderIds: readonly number[]) {
  return typedSql(em)
    .selectFrom('Order as o')
    .select((eb) => [
      'o.id',
      'o.shop',
      'o.customer',
      eb(
        eb('o.total', '-', eb.ref('o.commission')),
        '-',
        eb.fn.coalesce(
          eb
            .selectFrom('Refund as r')
            .select((r) => r.fn.sum<number>(r('r.amount', '-', r.ref('r.commissionAmount'))).as('s'))
            .whereRef('r.order', '=', 'o.id')
            .where('r.status', '=', RefundStatus.Completed),
          eb.lit(0),
        ),
      ).as('share'),
    ])
    .where('o.id', 'in', [...orderIds])
    .orderBy('o.id')
    .execute();
}

/** The shop's debt (zero or negative), its row locked until the transaction ends. */
async function lockedAmount(em: EntityManager, shopId: number, kind: BalanceKind.ShopDebt | BalanceKind.ShopAvailable): Promise<number> {
  const row = await typedSql(em).selectFrom('Balance').select('amount').where('shop', '=', shopId).where('kind', '=', kind).forNoKeyUpdate().executeTakeFirstOrThrow();
  return Number(row.amount);
}

/**
 * Subscriber of `order.completed`: the order's pending share is the shop's. What the shop owes from
 * earlier refunds (its debt) is netted first; the rest becomes available. Publishes
 * `earnings.released` per order.
 */
export async function releaseEarningsOfCompletedOrders(tx: ServiceContext, moved: readonly OrderTransition[]): Promise<void> {
  if (moved.length === 0) return;
  await ensureShopAccounts(tx.em, moved.map((m) => m.shopId));
  const shares = await pendingShares(tx.em, moved.map((m) => m.orderId));
  for (const order of shares) {
    const share = Number(order.share);
    const reference = { type: 'order', id: order.id };
    let netted = 0;
    if (share > 0) {
      netted = Math.min(share, -(await lockedAmount(tx.em, order.shop, BalanceKind.ShopDebt)));
      const pending = { shop: order.shop, kind: BalanceKind.ShopPending } as const;
      if (netted > 0) await transferHeld(tx.em, { from: pending, to: { shop: order.shop, kind: BalanceKind.ShopDebt }, amount: netted, reason: 'debt_netted', reference });
      if (share - netted > 0) {
        await transferHeld(tx.em, { from: pending, to: { shop: order.shop, kind: BalanceKind.ShopAvailable }, amount: share - netted, reason: 'earnings_released', reference });
      }
    }
    await typedSql(tx.em).updateTable('Order').set({ earningsReleasedAt: sql<Date>`now()` }).where('id', '=', order.id).execute();
    emit(tx, {
      type: 'earnings.released',
      shopIds: [order.shop],
      customerId: null,
      payload: { orderId: order.id, shopId: order.shop, amount: Math.max(share, 0), netted, available: Math.max(share - netted, 0) },
    });
  }
}

/**
 * A completed refund's money back to the customer, taken from the shop and the platform's commission
 * in proportion to the order's commission (cumulative rounding, so all refunds of an order together
 * take back exactly its commission when they reach its total). Before the order's earnings are
 * released the shop's part comes out of pending; after, out of available as far as it goes, the
 * shortfall carried as debt (netted from the shop's next earnings). Writes the refund's
 * `commission_amount`.
 */
export async function takeBackForRefund(tx: ServiceContext, refund: { id: number; orderId: number; customerId: number; amount: number }): Promise<void> {
  const db = typedSql(tx.em);
  const order = await db
    .selectFrom('Order as o')
    .select((eb) => [
      'o.shop',
      'o.total',
      'o.commission',
      'o.status',
      'o.earningsReleasedAt',
      eb.fn
        .coalesce(
          eb.selectFrom('Refund as r').select((r) => r.fn.sum<number>('r.amount').as('s')).whereRef('r.order', '=', 'o.id').where('r.status', '=', RefundStatus.Completed).where('r.id', '<>', refund.id),
          eb.lit(0),
        )
        .as('refundedBefore'),
    ])
    .where('o.id', '=', refund.orderId)
    .executeTakeFirstOrThrow();
  const before = Number(order.refundedBefore);
  // Cumulative rounding: commission(refunded so far + this) - commission(refunded so far).
  const cut = (refunded: number) => (order.total === 0 ? 0 : Number((BigInt(order.commission) * BigInt(Math.min(refunded, order.total))) / BigInt(order.total)));
  const commissionPart = Math.min(cut(before + refund.amount) - cut(before), refund.amount);
  const shopPart = refund.amount - commissionPart;
  await db.updateTable('Refund').set({ commissionAmount: commissionPart }).where('id', '=', refund.id).execute();

  // The customer's balances before the shop's, as a payment takes them: the two cannot deadlock.
  await lockBalances(tx.em, [refund.customerId]);
  await ensureShopAccounts(tx.em, [order.shop]);
  const to = { user: refund.customerId, kind: BalanceKind.Available } as const;
  const reference = { type: 'refund', id: refund.id };
  if (shopPart > 0) {
    const released = order.earningsReleasedAt !== null || order.status === OrderStatus.Completed;
    if (!released) {
      await transferHeld(tx.em, { from: { shop: order.shop, kind: BalanceKind.ShopPending }, to, amount: shopPart, reason: 'refund', reference });
    } else {
      const fromAvailable = Math.min(shopPart, await lockedAmount(tx.em, order.shop, BalanceKind.ShopAvailable));
      if (fromAvailable > 0) await transferHeld(tx.em, { from: { shop: order.shop, kind: BalanceKind.ShopAvailable }, to, amount: fromAvailable, reason: 'refund', reference });
      if (shopPart - fromAvailable > 0) {
        await transferHeld(tx.em, { from: { shop: order.shop, kind: BalanceKind.ShopDebt }, to, amount: shopPart - fromAvailable, reason: 'refund_shortfall', reference });
      }
    }
  }
  if (commissionPart > 0) {
    await transferHeld(tx.em, { from: { shop: order.shop, kind: BalanceKind.PlatformCommission }, to, amount: commissionPart, reason: 'refund_commission', reference });
  }
}
