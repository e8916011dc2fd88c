import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { notFound } from '../../errors.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { orderViews, type OrderView } from './order-view.js';
import { OPEN_REFUND_STATES, transitionOrder, transitionOrders, transitionRefused } from './order-lifecycle.js';
import { refusals } from '../../error-codes.js';

export const ListInput = z.object({ ...pageFields, status: z.enum(OrderStatus).optional() });

/**
 * The orders of the consoles' order tables, each an index's order within one shop
 * (shop_order_shop_id_id_index, shop_order_shop_total_idx) or across every shop (the key,
 * shop_order_total_idx), ties by id.
 */
export const ShopOrderSort = { Newest: 'newest', Oldest: 'oldest', TotalAsc: 'total_asc', TotalDesc: 'total_desc' } as const;
export type ShopOrderSort = (typeof ShopOrderSort)[keyof typeof ShopOrderSort];
export const ORDER_SORTS: Record<ShopOrderSort, { by?: 'Order.total'; direction: 'asc' | 'desc' }> = {
  newest: { direction: 'desc' },
  oldest: { direction: 'asc' },
  total_asc: { by: 'Order.total', direction: 'asc' },
  total_desc: { by: 'Order.total', direction: 'desc' },
};

/** The shop's list takes a `sort` besides the customer's filters; newest first when left out. */
export const ShopListInput = ListInput.extend({ sort: z.enum(ShopOrderSort).optional() });
const OrderRef = z.object({ orderId: id });

/** Lists orders of one customer or one shop, newest first unless the shop's `sort` says otherwise, with their items (a constant number of queries). */
async function listOrders(
  ctx: ServiceContext,
  owner: { column: 'customer' | 'shop'; id: number },
  { status, sort, ...paging }: z.output<typeof ShopListInput>,
): Promise<Page<OrderView>> {
  let orders = typedSql(ctx.em).selectFrom('Order').where(owner.column, '=', owner.id);
  if (status) orders = orders.where('status', '=', status);
  const { by, direction } = ORDER_SORTS[sort ?? ShopOrderSort.Newest];
  const { ids, total } = await idPage(orders, paging, direction, by);
  return pageOf(await orderViews(ctx.em, ids), paging, total);
}

export function listMyOrders(ctx: ServiceContext, input: unknown): Promise<Page<OrderView>> {
  const customer = requireCustomer(ctx);
  return listOrders(ctx, { column: 'customer', id: customer.userId }, parseInput(ListInput, input ?? {}));
}

export function listShopOrders(ctx: ServiceContext, input: unknown): Promise<Page<OrderView>> {
  const operator = requireShopPermission(ctx, Permission.ShopOrdersRead);
  return listOrders(ctx, { column: 'shop', id: operator.shopId }, parseInput(ShopListInput, input ?? {}));
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
  const operator = requireShopPermission(ctx, Permission.ShopOrdersRead);
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

/**
 * Cancels a pending order inside the caller's transaction; the move's subscribers put back
 * everything checkout took: the stock and activity stock (inventory), the flash-sale counters, the
 * coupon and the group seat intent. Returns false when the order was no longer pending
 * (someone else paid or cancelled it first).
 */
export async function cancelPendingOrder(tx: ServiceContext, orderId: number, reason: 'customer' | 'payment_timeout'): Promise<boolean> {
  return (await transitionOrder(tx, ['cancel'], orderId, { reason })) !== undefined;
}

export const cancelOrderRefusals = refusals('NOT_FOUND', 'ORDER_STATE_CONFLICT');

/** The customer cancels their own pending order. */
export async function cancelOrder(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  return inTransaction(ctx, async (tx) => {
    const status = await currentStatus(tx.em, orderId, customer.userId);
    if (status === OrderStatus.Cancelled) return (await orderViews(tx.em, [orderId]))[0];
    if (!(await cancelPendingOrder(tx, orderId, 'customer'))) {
      throw transitionRefused('cancel', await currentStatus(tx.em, orderId, customer.userId));
    }
    return (await orderViews(tx.em, [orderId]))[0];
  });
}

export const confirmDeliveryRefusals = refusals('NOT_FOUND', 'ORDER_STATE_CONFLICT');

/** The customer confirms a shipped order arrived; the order earns its points (a subscriber of `order.delivered`). */
export async function confirmDelivery(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const customer = requireCustomer(ctx);
  const { orderId } = parseInput(OrderRef, input);
  return inTransaction(ctx, async (tx) => {
    if (!(await transitionOrder(tx, ['deliver'], orderId, { customerId: customer.userId }))) {
      const status = await currentStatus(tx.em, orderId, customer.userId);
      if (status !== OrderStatus.Delivered) throw transitionRefused('deliver', status);
    }
    return (await orderViews(tx.em, [orderId]))[0];
  });
}

/**
 * The completion sweep: delivered orders whose after-sale window (AFTER_SALE_WINDOW_DAYS) is over
 * and that have no refund open become `completed`, a batch per transaction. The move's own guard
 * (window and open refunds, in SQL) decides, so a return requested meanwhile keeps its order
 * delivered, and two processes sweeping at once complete each order once (`for update skip locked`
 * lets them split a batch rather than queue). Returns how many it completed.
 */
export async function completeDeliveredOrders(ctx: ServiceContext, batchSize = 200): Promise<number> {
  let completed = 0;
  for (;;) {
    const moved = await inTransaction(ctx, async (tx) => {
      const due = await typedSql(tx.em)
        .selectFrom('Order')
        .select('id')
        .where('status', '=', OrderStatus.Delivered)
        .where('deliveredAt', '<=', sql<Date>`now() - make_interval(days => ${ctx.config.afterSaleWindowDays})`)
        // Left out here too, so a batch of orders held by open refunds cannot keep the sweep looping.
        .where((eb) => eb.not(eb.exists(eb.selectFrom('Refund as r').select('r.id').whereRef('r.order', '=', 'Order.id').where('r.status', 'in', [...OPEN_REFUND_STATES]))))
        .orderBy('deliveredAt')
        .limit(batchSize)
        .forUpdate()
        .skipLocked()
        .execute();
      const ids = due.map((row) => row.id);
      return { due: ids.length, moved: (await transitionOrders(tx, ['complete'], ids)).length };
    });
    completed += moved.moved;
    if (moved.due < batchSize) return completed;
  }
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
