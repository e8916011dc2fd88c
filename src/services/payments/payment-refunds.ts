import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { BalanceKind, type ClearingKind } from '../../entities/balance.entity.js';
import { PaymentRefund, PaymentRefundStatus } from '../../entities/payment.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { EventTypes } from '../events/event-types.js';
import { paymentClearing, transferHeld } from '../accounts/ledger.service.js';

/**
 * Refunds back to the payment's method. An approved after-sale refund first credits the customer's
 * available balance from the shop's and the platform's accounts (settlement, as always); when the
 * order was paid by a gateway, the same transaction then sends that money on to the gateway:
 * customer available -> `clearing_<provider>` (`payment_refund`), the payment's `refunded_amount`
 * raised under its guard (never above what was captured, a CHECK too), and a pending
 * `payment_refund`. The provider is called afterwards by the refund sweep, never inside a
 * transaction; a refund it refuses brings the money back to the customer's balance. A wallet
 * payment's refund stays on the balance: that is its method.
 */
export async function refundToMethod(tx: ServiceContext, refund: { id: number; orderId: number; customerId: number; amount: number }): Promise<void> {
  const db = typedSql(tx.em);
  const payment = await db
    .selectFrom('PaymentOrder as po')
    .innerJoin('Payment as p', 'p.id', 'po.payment')
    .select(['p.id', 'p.provider'])
    .where('po.order', '=', refund.orderId)
    .where('po.captured', '=', true)
    .where('p.provider', '<>', 'wallet')
    .executeTakeFirst();
  if (!payment) return;
  const provider = tx.wiring.paymentProviders[payment.provider];
  if (!provider?.clearing) {
    tx.log.warn({ paymentId: payment.id, refundId: refund.id }, 'the payment method is no longer offered: the refund stays on the customer balance');
    return;
  }
  await sendBack(tx, { paymentId: payment.id, customerId: refund.customerId, clearing: provider.clearing, amount: refund.amount, refundId: refund.id });
}

/**
 * Late money: a capture whose orders could not all be paid any more (cancelled by the payment window
 * or the customer, a group seat filled meanwhile) sends what those orders cost back to the method at
 * once, in the capture's transaction (payment-lifecycle.ts), so the customer is not left with money
 * they did not choose to keep.
 */
export async function refundLateMoney(tx: ServiceContext, payment: { id: number; customer: number }, clearing: ClearingKind, orderIds: readonly number[]): Promise<number> {
  const row = await typedSql(tx.em)
    .selectFrom('PaymentOrder')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('amount'))
    .where('payment', '=', payment.id)
    .where('order', 'in', [...orderIds])
    .executeTakeFirstOrThrow();
  const amount = Number(row.amount);
  if (amount > 0) await sendBack(tx, { paymentId: payment.id, customerId: payment.customer, clearing, amount, refundId: null });
  return amount;
}

/** Customer available -> the provider's clearing account, the payment's refunded amount raised under its guard, and a pending payment refund. */
async function sendBack(tx: ServiceContext, back: { paymentId: number; customerId: number; clearing: ClearingKind; amount: number; refundId: number | null }): Promise<void> {
  const raised = await typedSql(tx.em)
    .updateTable('Payment')
    .set((eb) => ({ refundedAmount: eb('refundedAmount', '+', back.amount), updatedAt: sql<Date>`now()` }))
    .where('id', '=', back.paymentId)
    .where((eb) => eb(eb('refundedAmount', '+', back.amount), '<=', eb.ref('capturedAmount')))
    .returning('id')
    .executeTakeFirst();
  if (!raised) {
    tx.log.warn({ paymentId: back.paymentId, refundId: back.refundId }, 'refund above what the payment captured: it stays on the customer balance');
    return;
  }
  await transferHeld(tx.em, {
    from: { user: back.customerId, kind: BalanceKind.Available },
    to: paymentClearing(back.clearing, back.paymentId),
    amount: back.amount,
    reason: 'payment_refund',
    reference: { type: 'payment', id: back.paymentId },
  });
  tx.em.create(PaymentRefund, { payment: back.paymentId, refund: back.refundId, amount: back.amount, status: PaymentRefundStatus.Pending });
  await tx.em.flush();
}

/**
 * The refund sweep: asks each pending refund's provider to refund, with the payment refund's id in
 * the idempotency key (a retry after a lost answer is one refund at the provider). Succeeded: done.
 * Refused by the provider: the money comes back from the clearing account to the customer's
 * available balance and the payment's `refunded_amount` goes down again. Unreachable: tried again
 * next sweep. Returns how many refunds were settled.
 */
export async function settlePaymentRefunds(ctx: ServiceContext, batchSize = 100): Promise<number> {
  const due = await typedSql(ctx.em)
    .selectFrom('PaymentRefund as r')
    .innerJoin('Payment as p', 'p.id', 'r.payment')
    .select(['r.id', 'r.amount', 'r.payment', 'r.providerReference as refundReference', 'p.provider', 'p.providerReference', 'p.customer'])
    .where('r.status', '=', PaymentRefundStatus.Pending)
    .orderBy('r.id')
    .limit(batchSize)
    .execute();
  let settled = 0;
  for (const refund of due) {
    const provider = ctx.wiring.paymentProviders[refund.provider];
    if (!provider?.clearing || refund.providerReference === null) continue;
    const clearing = provider.clearing;
    let answer;
    try {
      // A refund the provider already answered (pending) is followed, never asked for again.
      answer = refund.refundReference
        ? await provider.refundStatus(refund.providerReference, refund.refundReference)
        : await provider.refund(refund.providerReference, refund.amount, `mallfront-refund-${refund.id}`);
    } catch (error) {
      ctx.log.warn({ err: error, paymentRefundId: refund.id }, 'payment refund not reached; tried again next sweep');
      await typedSql(ctx.em).updateTable('PaymentRefund').set((eb) => ({ attempts: eb('attempts', '+', 1), updatedAt: sql<Date>`now()` })).where('id', '=', refund.id).execute();
      continue;
    }
    if (answer.status === 'pending') {
      if (refund.refundReference) continue;
      await typedSql(ctx.em).updateTable('PaymentRefund').set({ providerReference: answer.reference, updatedAt: sql<Date>`now()` }).where('id', '=', refund.id).execute();
      continue;
    }
    const done = await inTransaction(ctx, async (tx) => {
      const db = typedSql(tx.em);
      const moved = await db
        .updateTable('PaymentRefund')
        .set({ status: answer.status === 'succeeded' ? PaymentRefundStatus.Succeeded : PaymentRefundStatus.Failed, providerReference: answer.reference, updatedAt: sql<Date>`now()` })
        .where('id', '=', refund.id)
        .where('status', '=', PaymentRefundStatus.Pending)
        .returning('id')
        .executeTakeFirst();
      if (!moved) return false;
      emit(tx, { type: EventTypes.PAYMENT_REFUNDED, shopIds: [], customerId: refund.customer, payload: { paymentId: refund.payment, method: refund.provider, amount: refund.amount, status: answer.status === 'succeeded' ? 'succeeded' : 'failed' } });
      if (answer.status === 'failed') {
        await db.updateTable('Payment').set((eb) => ({ refundedAmount: eb('refundedAmount', '-', refund.amount), updatedAt: sql<Date>`now()` })).where('id', '=', refund.payment).execute();
        await transferHeld(tx.em, {
          from: paymentClearing(clearing, refund.payment),
          to: { user: refund.customer, kind: BalanceKind.Available },
          amount: refund.amount,
          reason: 'payment_refund',
          reference: { type: 'payment', id: refund.payment },
        });
      }
      return true;
    });
    if (done) settled++;
  }
  return settled;
}
