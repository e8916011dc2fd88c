import { notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { PAYMENT_METHODS } from '../../config.js';
import { typedSql } from '../../db/typed-sql.js';
import { PaymentRefundStatus, PaymentStatus } from '../../entities/payment.entity.js';
import { RefundStatus } from '../../entities/refund.entity.js';
import { Role } from '../../entities/user.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireUser } from '../../shared/guards.js';
import { grantOf, Permission } from '../../shared/permissions.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { id as viewId, money, timestamp } from '../../shared/view-fields.js';

/**
 * The payments of one order as the three kinds of reader see it: its customer, the shop that sold
 * it and a platform admin. A checkout's payment covers every shop's order of that checkout, so a
 * shop is shown only its own order's share and the refunds of its own order, never the other shops'
 * orders or the customer's other amounts.
 */

/** REST publishes these schemas and GraphQL's types are made from them (a refund's status its PaymentRefundStatus enum). */
export const OrderPaymentRefundView = z
  .strictObject({
    // Late money: a capture after the order was cancelled.
    refundId: viewId.nullable().describe('The after-sale refund it pays back; null for late money (captured after the order was cancelled)'),
    amount: money,
    status: z.enum(PaymentRefundStatus).describe('pending, succeeded or failed (at the provider)'),
    // Null for the wallet, and until the provider answered.
    providerReference: z.string().nullable().describe("The provider's id of the refund"),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .describe("Money sent back on a payment's method for one order");
export type OrderPaymentRefundView = z.infer<typeof OrderPaymentRefundView>;

export const OrderPaymentView = z
  .strictObject({
    paymentId: viewId,
    method: z.enum(PAYMENT_METHODS),
    status: z.enum(PaymentStatus),
    currency: z.string(),
    // The order's total when the payment started.
    orderAmount: money.describe("This order's share of the payment"),
    // A payment captured after the order was cancelled did not.
    paidThisOrder: z.boolean().describe('The payment paid this order'),
    providerReference: z.string().nullable(),
    closeReason: z.string().nullable(),
    createdAt: timestamp,
    capturedAt: timestamp.nullable(),
    closedAt: timestamp.nullable(),
    refunds: z.array(OrderPaymentRefundView),
  })
  .describe("One payment of an order as its customer, its shop and an admin see it: the order's share, not the whole checkout's");
export type OrderPaymentView = z.infer<typeof OrderPaymentView>;

const OrderRef = z.object({ orderId: id });

export const orderPaymentsRefusals = refusals('NOT_FOUND');

/**
 * Every payment tried for an order, newest first (a failed one, then the retry that paid), each with
 * what went back on its method: a gateway's refunds as the provider settles them; for the wallet,
 * the order's completed after-sale refunds, which are credited to the balance (its method). Readable
 * by the order's customer, the operator of the shop that sold it and a platform admin; anyone else
 * learns 404, as for an order that does not exist.
 */
export async function orderPayments(ctx: ServiceContext, input: unknown): Promise<{ items: OrderPaymentView[] }> {
  const actor = requireUser(ctx);
  const { orderId } = parseInput(OrderRef, input);
  const db = typedSql(ctx.em);
  const order = await db.selectFrom('Order').select(['id', 'customer', 'shop']).where('id', '=', orderId).executeTakeFirst();
  const mayRead =
    order !== undefined &&
    (grantOf(actor, Permission.PlatformOrdersRead) === 'platform' ||
      (actor.role === Role.Customer && order.customer === actor.userId) ||
      (grantOf(actor, Permission.ShopOrdersRead) === 'shop' && order.shop === actor.shopId));
  if (!mayRead) throw notFound('Order', { order_id: orderId });

  const payments = await db
    .selectFrom('PaymentOrder as po')
    .innerJoin('Payment as p', 'p.id', 'po.payment')
    .select(['p.id', 'p.provider', 'p.status', 'p.currency', 'po.amount', 'po.captured', 'p.providerReference', 'p.closeReason', 'p.createdAt', 'p.capturedAt', 'p.closedAt'])
    .where('po.order', '=', orderId)
    .orderBy('p.id', 'desc')
    .execute();
  if (payments.length === 0) return { items: [] };
  // A gateway's refunds of this order: those paying back its after-sale refunds, and the late money of
  // an order the capture could not pay any more (the only kind without an after-sale refund).
  const sent = await db
    .selectFrom('PaymentRefund as r')
    .leftJoin('Refund as a', 'a.id', 'r.refund')
    .select(['r.payment', 'r.refund', 'r.amount', 'r.status', 'r.providerReference', 'r.createdAt', 'r.updatedAt', 'a.order'])
    .where('r.payment', 'in', payments.map((p) => p.id))
    .orderBy('r.id')
    .execute();
  const toBalance = payments.some((p) => p.provider === 'wallet')
    ? await db
        .selectFrom('Refund')
        .select(['id', 'amount', 'createdAt', 'completedAt'])
        .where('order', '=', orderId)
        .where('status', '=', RefundStatus.Completed)
        .orderBy('id')
        .execute()
    : [];
  return {
    items: payments.map((p): OrderPaymentView => ({
      paymentId: p.id,
      method: p.provider,
      status: p.status,
      currency: p.currency,
      orderAmount: p.amount,
      paidThisOrder: p.captured,
      providerReference: p.providerReference,
      closeReason: p.closeReason,
      createdAt: p.createdAt,
      capturedAt: p.capturedAt,
      closedAt: p.closedAt,
      refunds:
        p.provider === 'wallet'
          ? p.captured
            ? toBalance.map((r): OrderPaymentRefundView => ({ refundId: r.id, amount: r.amount, status: PaymentRefundStatus.Succeeded, providerReference: null, createdAt: r.createdAt, updatedAt: r.completedAt ?? r.createdAt }))
            : []
          : sent
              .filter((r) => r.payment === p.id && (r.refund === null ? !p.captured : r.order === orderId))
              .map((r): OrderPaymentRefundView => ({
                refundId: r.refund,
                // Late money is one refund of every order the capture could not pay: this order's part of it is its share.
                amount: r.refund === null ? p.amount : r.amount,
                status: r.status, providerReference: r.providerReference, createdAt: r.createdAt, updatedAt: r.updatedAt })),
    })),
  };
}
