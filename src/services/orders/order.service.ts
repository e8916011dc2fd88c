import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { conflict, notFound } from '../../errors.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requireOperator } from '../../shared/guards.js';
import { EventTypes } from '../events/event-types.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { orderViews, type OrderView } from './order-view.js';
import { returnStock, type Demand } from '../catalog/stock.js';
import { debit } from '../accounts/ledger.service.js';
import { recordAnswer, withIdempotency } from '../../shared/idempotency.js';
import { restoreOrderCoupon } from '../promotions/coupon-redemption.js';
import { expireGroupOfOrder, onPendingOrderCancelled, payGroupSeat } from '../promotions/group-buy-lifecycle.js';
import { restoreFlashSaleStock } from '../promotions/flash-sale-pricing.js';
import { creditPointsForDeliveredOrder } from '../points/points-earning.service.js';
import { netPaid } from '../after-sale/refund-amount.js';
import { refusals } from '../../error-codes.js';

export const ListInput = z.object({ ...pageFields, status: z.enum(OrderStatus).optional() });
const OrderRef = z.object({ orderId: id });

/** Lists orders of one customer or one shop, newest first, with their items (a constant number of queries). */
async function listOrders(ctx: ServiceContext, owner: { column: 'customer' | 'shop'; id: number }, input: unknown): Promise<Page<OrderView>> {
  const { status, ...paging } = parseInput(ListInput, input ?? {});
  let orders = typedSql(ctx.em).selectFrom('Order').where(owner.column, '=', owner.id);
  if (status) orders = orders.where('status', '=', status);
  const { ids, total } = await idPage(orders, paging, 'desc');
  return pageOf(await orderViews(ctx.em, ids), paging, total);
}

export function listMyOrders(ctx: ServiceContext, input: unknown): Promise<Page<OrderView>> {
  const customer = requireCustomer(ctx);
  return listOrders(ctx, { column: 'customer', id: customer.userId }, input);
}

export function listShopOrders(ctx: ServiceContext, input: unknown): Promise<Page<OrderView>> {
  const operator = requireOperator(ctx);
  return listOrders(ctx, { column: 'shop', id: operator.shopId }, input);
}

export const getMyOrderRefusals = refusals('NOT_FOUND');

/** The customer's own order; another customer's is 404 (its existence is not revealed). */
export async function getMyOrder(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  const [view] = await orderViews(ctx.em, [orderId]);
  if (!view || view.customerId !== customer.userId) throw notFound('Order', { order_id: orderId });
  return view;
}

export const getShopOrderRefusals = refusals('NOT_FOUND');

export async function getShopOrder(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const operator = requireOperator(ctx);
  const { orderId } = parseInput(OrderRef, input);
  const [view] = await orderViews(ctx.em, [orderId]);
  if (!view || view.shop.id !== operator.shopId) throw notFound('Order', { order_id: orderId });
  return view;
}

async function currentStatus(em: EntityManager, orderId: number, customerId: number): Promise<OrderStatus> {
  const row = await typedSql(em).selectFrom('Order').select('status').where('id', '=', orderId).where('customer', '=', customerId).executeTakeFirst();
  if (!row) throw notFound('Order', { order_id: orderId });
  return row.status;
}

export const payOrderRefusals = refusals('GROUP_ALREADY_JOINED', 'GROUP_FULL', 'GROUP_NOT_JOINABLE', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_FUNDS', 'NOT_FOUND', 'ORDER_NOT_PAYABLE');

/**
 * Pays a pending order from the customer's available balance. The state change is a conditional
 * update, so of two concurrent payments (or a payment racing a cancellation) exactly one wins; the
 * debit is guarded, so short funds refuse the payment and the order stays pending. Paying an order
 * that is already paid answers the order without charging again. A group order pays a seat instead
 * (`payGroupSeat`: money frozen, order `awaiting_group`), after its group's expiry has run.
 */
export async function payOrder(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  await expireGroupOfOrder(ctx, orderId);
  return withIdempotency(ctx, { scope: `order.pay:${orderId}`, key: idempotencyKey, request: { orderId } }, (idempotency) =>
    inTransaction(ctx, async (tx) => {
      const view = await payPendingOrder(tx, orderId, customer.userId);
      await recordAnswer(tx, idempotency, view);
      await tx.faults?.afterWrite?.(tx, 'order.pay');
      return view;
    }),
  );
}

/** The payment itself, inside `payOrder`'s transaction. */
async function payPendingOrder(tx: ServiceContext, orderId: number, customerId: number): Promise<OrderView> {
  const paid = await typedSql(tx.em)
    .updateTable('Order')
    .set((eb) => ({
      status: eb.case().when('group', 'is', null).then(OrderStatus.Paid).else(OrderStatus.AwaitingGroup).end(),
      paidAt: sql<Date>`now()`,
    }))
    .where('id', '=', orderId)
    .where('customer', '=', customerId)
    .where('status', '=', OrderStatus.PendingPayment)
    .returning(['total', 'shop', 'group'])
    .executeTakeFirst();
  if (!paid) {
    const status = await currentStatus(tx.em, orderId, customerId);
    if (status === OrderStatus.Cancelled) throw conflict('ORDER_NOT_PAYABLE', 'This order was cancelled and cannot be paid', { status });
    return (await orderViews(tx.em, [orderId]))[0];
  }
  if (paid.group !== null) return payGroupSeat(tx, { orderId, customerId, total: paid.total, groupId: paid.group });
  await typedSql(tx.em).updateTable('OrderItem').set({ sold: true }).where('order', '=', orderId).execute();
  if (paid.total > 0) {
    await debit(tx.em, {
      userId: customerId,
      kind: BalanceKind.Available,
      amount: paid.total,
      reason: 'order_payment',
      reference: { type: 'order', id: orderId },
    });
  }
  emit(tx, { type: EventTypes.ORDER_PAID, shopIds: [paid.shop], customerId, payload: { orderId, total: paid.total, status: OrderStatus.Paid } });
  return (await orderViews(tx.em, [orderId]))[0];
}

/**
 * Cancels a pending order inside the caller's transaction and puts back everything checkout took:
 * SKU stock now; activity stock, the coupon and the group seat intent where those apply. Returns
 * false when the order was no longer pending (someone else paid or cancelled it first).
 */
export async function cancelPendingOrder(tx: ServiceContext, orderId: number, reason: 'customer' | 'payment_timeout'): Promise<boolean> {
  const order = await typedSql(tx.em)
    .updateTable('Order')
    .set({ status: OrderStatus.Cancelled, cancelledAt: sql<Date>`now()`, cancelReason: reason })
    .where('id', '=', orderId)
    .where('status', '=', OrderStatus.PendingPayment)
    .returning(['customer', 'shop'])
    .executeTakeFirst();
  if (!order) return false;
  await onPendingOrderCancelled(tx, orderId);
  await restoreFlashSaleStock(tx.em, { orderId });
  const items = await typedSql(tx.em)
    .selectFrom('OrderItem')
    .select((eb) => ['sku', eb.cast<number>(eb.fn.sum('quantity'), 'integer').as('quantity')])
    .where('order', '=', orderId)
    .groupBy('sku')
    .execute();
  const demand: Demand = new Map(items.map((i) => [i.sku, i.quantity]));
  await returnStock(tx.em, demand);
  await restoreOrderCoupon(tx.em, orderId);
  emit(tx, { type: EventTypes.ORDER_CANCELLED, shopIds: [order.shop], customerId: order.customer, payload: { orderId, reason, status: OrderStatus.Cancelled } });
  return true;
}

export const cancelOrderRefusals = refusals('NOT_FOUND', 'ORDER_NOT_CANCELLABLE');

/** The customer cancels their own pending order. */
export async function cancelOrder(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  return inTransaction(ctx, async (tx) => {
    const status = await currentStatus(tx.em, orderId, customer.userId);
    if (status === OrderStatus.Cancelled) return (await orderViews(tx.em, [orderId]))[0];
    if (!(await cancelPendingOrder(tx, orderId, 'customer'))) {
      const now = await currentStatus(tx.em, orderId, customer.userId);
      throw conflict('ORDER_NOT_CANCELLABLE', 'Only an order waiting for payment can be cancelled', { status: now });
    }
    return (await orderViews(tx.em, [orderId]))[0];
  });
}

export const confirmDeliveryRefusals = refusals('NOT_FOUND', 'ORDER_NOT_SHIPPED');

/** The customer confirms a shipped order arrived; the order earns its points (see points-earning.service). */
export async function confirmDelivery(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  return inTransaction(ctx, async (tx) => {
    // Points are earned on what the customer finally paid: refunds completed before delivery do not earn.
    const row = await typedSql(tx.em)
      .updateTable('Order')
      .set({ status: OrderStatus.Delivered, deliveredAt: sql<Date>`now()` })
      .where('id', '=', orderId)
      .where('customer', '=', customer.userId)
      .where('status', '=', OrderStatus.Shipped)
      .returning((eb) => ['shop', netPaid({ id: eb.ref('Order.id'), total: eb.ref('Order.total') }).as('netPaid')])
      .executeTakeFirst();
    if (!row) {
      const status = await currentStatus(tx.em, orderId, customer.userId);
      if (status === OrderStatus.Delivered) return (await orderViews(tx.em, [orderId]))[0];
      throw conflict('ORDER_NOT_SHIPPED', 'Only a shipped order can be confirmed as delivered', { status });
    }
    await creditPointsForDeliveredOrder(tx.em, { userId: customer.userId, orderId, amountPaid: Math.max(0, row.netPaid) });
    emit(tx, { type: EventTypes.ORDER_DELIVERED, shopIds: [row.shop], customerId: customer.userId, payload: { orderId, status: OrderStatus.Delivered } });
    return (await orderViews(tx.em, [orderId]))[0];
  });
}

/**
 * The payment-window sweep: cancels pending orders older than the window, a batch at a time. Safe
 * with several server processes sweeping at once. Returns how many it cancelled.
 */
export async function cancelUnpaidOrders(ctx: ServiceContext, batchSize = 200): Promise<number> {
  const due = await typedSql(ctx.em)
    .selectFrom('Order')
    .select('id')
    .where('status', '=', OrderStatus.PendingPayment)
    .where('createdAt', '<', sql<Date>`now() - make_interval(mins => ${ctx.config.paymentWindowMinutes})`)
    .orderBy('createdAt')
    .limit(batchSize)
    .execute();
  // One short transaction per order: each cancellation locks its own rows in the same order as a
  // checkout, and never holds one order's rows while taking another's. The conditional state
  // change makes a second sweeper (another process) skip an order already cancelled.
  let cancelled = 0;
  for (const { id: orderId } of due) {
    if (await inTransaction(ctx, (tx) => cancelPendingOrder(tx, orderId, 'payment_timeout'))) cancelled++;
  }
  return cancelled;
}
