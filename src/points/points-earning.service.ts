import type { EntityManager } from '@mikro-orm/postgresql';
import { BASE_CURRENCY } from '../currency.js';
import { BalanceKind } from '../entities/balance.entity.js';
import { credit, debit } from '../accounts/ledger.service.js';

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
  const [balance] = await em.execute<{ amount: string }[]>('select amount from balance where user_id = ? and kind = ? for update', [userId, BalanceKind.Points]);
  return Number(balance?.amount ?? 0);
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
  const [already] = await em.execute(
    `select 1 from ledger_entry where reference_type = 'order' and reference_id = ? and reason = ? limit 1`,
    [order.orderId, POINTS_EARNED_REASON],
  );
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
  const [row] = await em.execute<{ earned: string; taken: string }[]>(
    `select coalesce((select sum(delta) from ledger_entry where reference_type = 'order' and reference_id = ? and reason = ?), 0) as earned,
            coalesce((select -sum(l.delta) from ledger_entry l join refund r on r.id = l.reference_id
                       where l.reference_type = 'refund' and l.reason = ? and r.order_id = ?), 0) as taken`,
    [refund.orderId, POINTS_EARNED_REASON, POINTS_REVERSED_REASON, refund.orderId],
  );
  const points = Math.min(wanted, Number(row.earned) - Number(row.taken), held);
  if (points <= 0) return 0;
  await debit(em, {
    userId: refund.userId,
    kind: BalanceKind.Points,
    amount: points,
    reason: POINTS_REVERSED_REASON,
    reference: { type: 'refund', id: refund.refundId },
  });
  return points;
}
