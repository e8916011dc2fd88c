import { sql } from 'kysely';
import { AppError } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { PaymentStatus } from '../../entities/payment.entity.js';
import { BASE_CURRENCY } from '../../currency.js';
import type { PaymentMethod } from '../../config.js';
import type { ServiceContext } from '../../shared/context.js';
import { paymentClearing, transfer } from '../accounts/ledger.service.js';
import { transitionOrders, type TransitionName } from '../orders/order-lifecycle.js';
import type { PaymentProvider } from './provider.js';
import { refundLateMoney } from './payment-refunds.js';
import { insertPaymentWithLinks } from './payment.repository.js';

/**
 * The payment's life, in one table, as the order's (orders/order-lifecycle.ts): every change of a
 * payment's status is a call of `movePayment`, a conditional UPDATE, so of two concurrent moves of one
 * payment exactly one wins. Capturing is the one move with consequences, and they happen here, in the
 * capture's transaction: gateway money enters through the provider's clearing account, and the
 * payment's orders move to paid through the order lifecycle's own payment moves (`pay`, `paySeat`), so
 * everything hanging on `order.paid` (seats, earnings, points, sold counts, events) runs as before.
 *
 *   pending ──authorize──> authorized ──capture──> captured
 *      └───────────────capture───────────────────────┘
 *   pending | authorized ──fail | cancel | expire──> failed | cancelled | expired
 *   failed | cancelled | expired ──captureLate──> captured (the provider took the money after all)
 */
export const PAYMENT_TRANSITIONS = {
  authorize: { from: [PaymentStatus.Pending], to: PaymentStatus.Authorized },
  capture: { from: [PaymentStatus.Pending, PaymentStatus.Authorized], to: PaymentStatus.Captured },
  /**
   * A verified capture of a payment we had closed (a "failed" that came first, a customer who gave up):
   * the money was taken, so it is captured; orders no longer payable leave it on the customer's balance.
   */
  captureLate: { from: [PaymentStatus.Failed, PaymentStatus.Cancelled, PaymentStatus.Expired], to: PaymentStatus.Captured },
  fail: { from: [PaymentStatus.Pending, PaymentStatus.Authorized], to: PaymentStatus.Failed },
  cancel: { from: [PaymentStatus.Pending, PaymentStatus.Authorized], to: PaymentStatus.Cancelled },
  expire: { from: [PaymentStatus.Pending, PaymentStatus.Authorized], to: PaymentStatus.Expired },
} as const;

export type PaymentTransition = keyof typeof PAYMENT_TRANSITIONS;

/** The order moves a payment makes: an ordinary order is paid, a group order's seat is taken. */
export const ORDER_PAYMENT: readonly TransitionName[] = ['pay', 'paySeat'];

/** The payment's row as the module reads it. */
export interface PaymentRow {
  id: number;
  customer: number;
  provider: string;
  status: PaymentStatus;
  amount: number;
  currency: string;
  providerReference: string | null;
}

/** Moves one payment; false when it was not in a state the move leaves (someone else moved it first). */
export async function movePayment(tx: ServiceContext, name: PaymentTransition, paymentId: number, closeReason?: string): Promise<boolean> {
  const rule = PAYMENT_TRANSITIONS[name];
  const closes = rule.to === PaymentStatus.Failed || rule.to === PaymentStatus.Cancelled || rule.to === PaymentStatus.Expired;
  const captures = rule.to === PaymentStatus.Captured;
  const moved = await typedSql(tx.em)
    .updateTable('Payment')
    .set((eb) => ({
      status: rule.to,
      updatedAt: sql<Date>`now()`,
      ...(captures ? { capturedAt: sql<Date>`now()`, capturedAmount: eb.ref('amount') } : {}),
      ...(closes ? { closedAt: sql<Date>`now()`, closeReason: closeReason?.slice(0, 200) ?? null } : {}),
    }))
    .where('id', '=', paymentId)
    .where('status', 'in', [...rule.from])
    .returning('id')
    .executeTakeFirst();
  return moved !== undefined;
}

export interface CaptureResult {
  /** The orders this capture paid (or whose seat it took). */
  paid: number[];
  /** Orders of the payment that could no longer be paid (cancelled meanwhile, paid another way): their money stays on the customer's balance. */
  unpaid: number[];
}

/**
 * Captures a gateway's payment in the caller's transaction. Its money first enters the customer's
 * available balance from the provider's clearing account (the ledger stays at zero); then every order
 * of the payment still pending moves, and the move's subscribers take the money from that balance as
 * they always did. A gateway's capture is a fact at the provider, so it is never refused: what could
 * not be paid goes back to the method (a pending payment refund), visible in the result.
 */
export async function capturePayment(tx: ServiceContext, payment: PaymentRow, provider: PaymentProvider, options: { late?: boolean } = {}): Promise<CaptureResult | null> {
  if (!(await movePayment(tx, options.late ? 'captureLate' : 'capture', payment.id))) return null;
  if (provider.clearing) {
    await transfer(tx.em, {
      from: paymentClearing(provider.clearing, payment.id),
      to: { user: payment.customer, kind: BalanceKind.Available },
      amount: payment.amount,
      reason: 'payment_capture',
      reference: { type: 'payment', id: payment.id },
    });
  }
  const db = typedSql(tx.em);
  const orderIds = (await db.selectFrom('PaymentOrder').select('order').where('payment', '=', payment.id).orderBy('order').execute()).map((r) => r.order);
  const paid = await payEachOrder(tx, orderIds, payment.customer);
  const unpaid = orderIds.filter((id) => !paid.includes(id));
  if (paid.length > 0) await db.updateTable('PaymentOrder').set({ captured: true }).where('payment', '=', payment.id).where('order', 'in', paid).execute();
  // Late money: what the unpaid orders cost goes back to the method, not left on the balance.
  if (unpaid.length > 0 && provider.clearing) await refundLateMoney(tx, payment, provider.clearing, unpaid);
  return { paid, unpaid };
}

/**
 * A new payment of these orders (their totals as they are now), in one of the two states a payment is
 * born in: `pending` (a gateway's, moved later by `movePayment`) or, for the wallet, `captured`
 * (its links captured too). One prepared statement writes the payment and its links
 * (payment.repository.ts): this is on every purchase's path.
 */
export async function insertPayment(
  tx: ServiceContext,
  customerId: number,
  method: PaymentMethod,
  orders: readonly { id: number; total: number }[],
  born: PaymentStatus.Pending | PaymentStatus.Captured = PaymentStatus.Pending,
): Promise<PaymentRow> {
  const amount = orders.reduce((sum, o) => sum + o.total, 0);
  const now = new Date();
  const captured = born === PaymentStatus.Captured;
  const [row] = await insertPaymentWithLinks.run(tx.em, {}, {
    customerId,
    method,
    status: born,
    amount,
    currency: BASE_CURRENCY.code,
    now,
    capturedAmount: captured ? amount : 0,
    capturedAt: captured ? now : null,
    orderIds: orders.map((o) => o.id),
    totals: orders.map((o) => o.total),
    captured,
  });
  return { id: row.id, customer: customerId, provider: method, status: born, amount, currency: BASE_CURRENCY.code, providerReference: null };
}

/**
 * The wallet's payment of the listed orders, in the caller's transaction. The money is the customer's
 * own balance, so the orders move first, by their own conditional UPDATE (its guards hold the status,
 * the owner and the payment window; its subscribers take the money from the balance as always), and
 * the payment is written captured, covering exactly the orders that moved. Answers the payment (null
 * when no order moved) and the orders that did not move, for the caller to explain: an order already
 * paid is fine, any other is a refusal that rolls the whole transaction back. (Checking the orders
 * first, and writing the payment pending then moving it, took four statements more on every purchase.)
 */
export async function captureWalletPayment(tx: ServiceContext, customerId: number, orderIds: readonly number[]): Promise<{ paymentId: number | null; unmoved: number[] }> {
  const moved = await transitionOrders(tx, ORDER_PAYMENT, orderIds, { customerId });
  const unmoved = orderIds.filter((orderId) => !moved.some((m) => m.orderId === orderId));
  if (moved.length === 0) return { paymentId: null, unmoved };
  const { id } = await insertPayment(tx, customerId, 'wallet', moved.map((m) => ({ id: m.orderId, total: m.total })), PaymentStatus.Captured);
  return { paymentId: id, unmoved };
}

/**
 * A gateway's capture pays each order in a savepoint of its own: an order whose move is refused (its
 * group filled or closed while the customer was at the provider) stays unpaid, its events are
 * dropped, and its money stays on the customer's balance, while the capture and the other orders
 * commit. The money was taken at the provider; refusing the capture would lose it.
 */
async function payEachOrder(tx: ServiceContext, orderIds: readonly number[], customerId: number): Promise<number[]> {
  const paid: number[] = [];
  for (const orderId of orderIds) {
    const mark = tx.pendingEvents?.events.length ?? 0;
    try {
      const moved = await tx.em.transactional((em) => transitionOrders({ ...tx, em }, ORDER_PAYMENT, [orderId], { customerId }));
      if (moved.length > 0) paid.push(orderId);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      tx.pendingEvents?.events.splice(mark);
      tx.log.warn({ orderId, code: error.code }, 'a captured payment could not pay an order; its money stays on the customer balance');
    }
  }
  return paid;
}
