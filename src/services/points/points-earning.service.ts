import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { BASE_CURRENCY } from '../../currency.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { credit, debitHeld } from '../accounts/ledger.service.js';
import { netPaid } from '../orders/net-paid.js';
import type { OrderTransition } from '../orders/order-lifecycle.js';

/**
 * How customers earn points: 1 point per whole unit of the base currency (yuan) paid for an order,
 * credited once, when the order is delivered (delivery confirmation), on what was paid minus what was
 * refunded by then; a return after delivery takes its share back (takeBackPointsForRefund).
 * Fractions are dropped per order.
 */
export const POINTS_PER_CURRENCY_UNIT = 1;
export const POINTS_EARNED_REASON = 'points_earned';

const MINOR_PER_UNIT = 10 ** BASE_CURRENCY.minorUnitDigits;

/** Points an order earns for an amount paid in minor units (fen). */
export function pointsForAmountPaid(amountPaid: number): number {
  if (!Number.isSafeInteger(amountPaid) || amountPaid < 0) throw new Error(`amountPaid must be a non-negative integer, got ${amountPaid}`);
  return Math.floor(amountPaid / MINOR_PER_UNIT) * POINTS_PER_CURRENCY_UNIT;
}

/** Locks the customer's points balance row (earning and taking back run one at a time per customer); returns the points held. */
async function lockPointsBalance(em: EntityManager, userId: number): Promise<number> {
  const balance = await typedSql(em)
    .selectFrom('Balance')
    .select('amount')
    .where('user', '=', userId)
    .where('kind', '=', BalanceKind.Points)
    .forUpdate()
    .executeTakeFirst();
  return balance?.amount ?? 0;
}

export interface DeliveredOrder {
  userId: number;
  orderId: number;
  /** What the customer paid for the order, in minor units of the base currency. */
  amountPaid: number;
}

/**
 * Credits the points a delivered order earns, with a ledger entry referencing the order. Call it in the
 * delivery confirmation's transaction with its entity manager. Idempotent per order: the customer's
 * points balance row is locked first (serialising this per customer), then an existing `points_earned`
 * entry for the order means it was credited already; a partial unique index on the ledger backs this.
 * Returns the points credited by this call (0 when already credited or when the order earns none).
 */
export async function creditPointsForDeliveredOrder(em: EntityManager, order: DeliveredOrder): Promise<number> {
  const points = pointsForAmountPaid(order.amountPaid);
  if (points === 0) return 0;
  await lockPointsBalance(em, order.userId);
  const already = await typedSql(em)
    .selectFrom('LedgerEntry')
    .select('id')
    .where('referenceType', '=', 'order')
    .where('referenceId', '=', order.orderId)
    .where('reason', '=', POINTS_EARNED_REASON)
    .limit(1)
    .executeTakeFirst();
  if (already) return 0;
  await credit(em, {
    userId: order.userId,
    kind: BalanceKind.Points,
    amount: points,
    reason: POINTS_EARNED_REASON,
    reference: { type: 'order', id: order.orderId },
  });
  return points;
}

/**
 * Subscriber of `order.delivered`: each delivered order earns its points on what the customer finally
 * paid (refunds completed before delivery do not earn), in the delivery's transaction.
 */
export async function earnPointsForDeliveredOrders(tx: ServiceContext, delivered: readonly OrderTransition[]): Promise<void> {
  if (delivered.length === 0) return;
  const paid = await typedSql(tx.em)
    .selectFrom('Order')
    .select((eb) => ['id', netPaid({ id: eb.ref('Order.id'), total: eb.ref('Order.total') }).as('netPaid')])
    .where('id', 'in', delivered.map((order) => order.orderId))
    .execute();
  for (const order of delivered) {
    const amountPaid = Math.max(0, paid.find((p) => p.id === order.orderId)?.netPaid ?? 0);
    await creditPointsForDeliveredOrder(tx.em, { userId: order.customerId, orderId: order.orderId, amountPaid });
  }
}

export const POINTS_REVERSED_REASON = 'points_reversed';

/**
 * A completed refund or return takes back the points its amount earned, when the order had earned
 * points (it was delivered): floor(amount in yuan) points, never more than the order earned minus what
 * earlier refunds took back, and never more than the customer still holds (spent points are not
 * clawed below zero). Call it in the refund completion's transaction. Returns the points taken back.
 */
export async function takeBackPointsForRefund(
  em: EntityManager,
  refund: { userId: number; orderId: number; refundId: number; amountRefunded: number },
): Promise<number> {
  const wanted = pointsForAmountPaid(refund.amountRefunded);
  if (wanted === 0) return 0;
  // The points row is locked first, as in creditPointsForDeliveredOrder, so the reads below hold.
  const held = await lockPointsBalance(em, refund.userId);
  const db = typedSql(em);
  const { earned, reversed } = await db
    .selectNoFrom((eb) => [
      eb.fn
        .coalesce(
          eb.selectFrom('LedgerEntry as l')
            .select((l) => l.fn.sum<string>('l.delta').as('delta'))
            .where('l.referenceType', '=', 'order')
            .where('l.referenceId', '=', refund.orderId)
            .where('l.reason', '=', POINTS_EARNED_REASON),
          sql<string>`0`,
        )
        .as('earned'),
      eb.fn
        .coalesce(
          eb.selectFrom('LedgerEntry as l')
            .innerJoin('Refund as r', 'r.id', 'l.referenceId')
            .select((l) => l.fn.sum<string>('l.delta').as('delta'))
            .where('l.referenceType', '=', 'refund')
            .where('l.reason', '=', POINTS_REVERSED_REASON)
            .where('r.order', '=', refund.orderId),
          sql<string>`0`,
        )
        .as('reversed'),
    ])
    .executeTakeFirstOrThrow();
  // Earlier take-backs are debits: `reversed` is negative.
  const points = Math.min(wanted, Number(earned) + Number(reversed), held);
  if (points <= 0) return 0;
  // Never more than `held`, read under the row's lock: the debit cannot fall short.
  await debitHeld(em, {
    userId: refund.userId,
    kind: BalanceKind.Points,
    amount: points,
    reason: POINTS_REVERSED_REASON,
    reference: { type: 'refund', id: refund.refundId },
  });
  return points;
}
