import type { EventType } from '../events/event-types.js';
import { refundToMethod } from '../payments/payment-refunds.js';
import { conflict, notFound, refused } from '../../errors.js';
import { sql, type UpdateObject } from 'kysely';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { afterSaleWindowOver } from '../orders/order-lifecycle.js';
import { Refund, RefundItem, RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { id, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { takeBackForRefund } from '../settlement/earnings.js';
import { takeBackPointsForRefund } from '../points/points-earning.service.js';
import { giveBackRefundStock } from '../inventory/inventory.service.js';
import { giveBackFlashSaleCounters } from '../promotions/flash-sale-pricing.js';
import { itemQuantities, mergeParts } from '../orders/item-quantities.js';
import { closeShippingIfDone } from '../orders/fulfilment.js';
import { activeCompanyName, companyCode } from '../shipping/shipping-company.service.js';
import { discountShares, itemRefundAmount } from './refund-amount.js';
import { refundViews, type RefundView } from './refund-view.js';
import { refusals } from '../../error-codes.js';
import { auditedWrite } from '../../shared/audit.js';

/**
 * After-sale requests. `refund` (money only) covers units of a paid order that were not shipped;
 * `return` covers units of a delivered order. States (see refund.entity.ts):
 *   refund: requested -> completed (approve) | rejected | cancelled
 *   return: requested -> approved -> shipped_back -> completed (receive); requested -> rejected;
 *           requested | approved -> cancelled
 * Every use case locks the order row first (as shipments do), then moves the refund with one
 * conditional update, so a transition happens once however many requests race for it.
 */

export const RequestInput = z.strictObject({
  orderId: id,
  kind: z.enum(RefundKind),
  reason: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(500),
  items: z
    .array(z.strictObject({ orderItemId: id, quantity: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .max(100),
});
const RefundRef = z.strictObject({ refundId: id });
export const RejectInput = RefundRef.extend({ reason: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(500) });
export const ShipBackInput = RefundRef.extend({ companyCode, trackingNumber: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(80) });
export const ListInput = z.object({ ...pageFields, status: z.enum(RefundStatus).optional(), kind: z.enum(RefundKind).optional() });

type Owner = { column: 'customer' | 'shop'; id: number };
interface LockedRefund {
  id: number;
  orderId: number;
  shopId: number;
  customerId: number;
  kind: RefundKind;
}

const view = async (tx: ServiceContext, refundId: number) => (await refundViews(tx.em, [refundId]))[0];

/** The caller's refund (another customer's or shop's is 404), with its order row locked. */
async function lockRefund(tx: ServiceContext, refundId: number, owner: Owner): Promise<LockedRefund> {
  const db = typedSql(tx.em);
  const r = await db
    .selectFrom('Refund')
    .select(['order', 'shop', 'customer', 'kind'])
    .where('id', '=', refundId)
    .where(owner.column, '=', owner.id)
    .executeTakeFirst();
  if (!r) throw notFound('Refund', { refund_id: refundId });
  await db.selectFrom('Order').select('id').where('id', '=', r.order).forUpdate().execute();
  return { id: refundId, orderId: r.order, shopId: r.shop, customerId: r.customer, kind: r.kind };
}

const now = sql<Date>`now()`;

/**
 * Moves a refund from one of `from` to `to` with one conditional update (plus `set` assignments).
 * When it was not in `from`: a refund already in `to` answers as is (a repeated call is harmless),
 * any other state is 409 REFUND_WRONG_STATE. Returns whether this call made the move.
 */
async function move(
  tx: ServiceContext,
  refund: LockedRefund,
  from: RefundStatus[],
  to: RefundStatus,
  set: UpdateObject<Database, 'Refund'> = {},
): Promise<boolean> {
  const db = typedSql(tx.em);
  const moved = await auditedWrite(tx, { type: 'Refund', id: refund.id }, () =>
    db.updateTable('Refund').set({ ...set, status: to }).where('id', '=', refund.id).where('status', 'in', from).returning('id').execute(),
  );
  if (moved.length > 0) return true;
  const { status } = await db.selectFrom('Refund').select('status').where('id', '=', refund.id).executeTakeFirstOrThrow();
  if (status === to) return false;
  throw conflict('REFUND_WRONG_STATE', `This ${refund.kind} is ${status}; it must be ${from.join(' or ')}`, { status, expected: from });
}

/** Shipping back and receiving exist only for returns. */
function requireReturn(refund: LockedRefund): void {
  if (refund.kind !== RefundKind.Return) throw conflict('REFUND_WRONG_STATE', 'A refund without return has no goods to send back', { kind: refund.kind });
}

function emitRefund(tx: ServiceContext, refund: LockedRefund, status: RefundStatus, extra: Record<string, unknown> = {}) {
  emit(tx, {
    type: `refund.${status}` satisfies EventType,
    shopIds: [refund.shopId],
    customerId: refund.customerId,
    payload: { refundId: refund.id, orderId: refund.orderId, kind: refund.kind, status, ...extra },
  });
}

export const requestRefundRefusals = refusals('NOT_FOUND', 'ORDER_ITEM_NOT_IN_ORDER', 'ORDER_NOT_REFUNDABLE', 'ORDER_NOT_RETURNABLE', 'REFUND_EXCEEDS_QUANTITY');

/**
 * The customer asks for a refund or a return of some units of one order. The quantity is bounded
 * race-safely: one guarded update raises every item's `refund_quantity` or none (a refund also
 * counts the shipped units, which it cannot cover). The amount is fixed now (refund-amount.ts).
 */
export async function requestRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(RequestInput, input);
  const parts = mergeParts(data.items);
  const isRefund = data.kind === RefundKind.Refund;
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const order = await db
      .selectFrom('Order')
      .select((eb) => ['status', 'shop', 'discount', afterSaleWindowOver(eb, tx.config).as('windowOver')])
      .where('id', '=', data.orderId)
      .where('customer', '=', customer.userId)
      .forUpdate()
      .executeTakeFirst();
    if (!order) throw notFound('Order', { order_id: data.orderId });
    if (isRefund && order.status !== OrderStatus.Paid) {
      throw conflict('ORDER_NOT_REFUNDABLE', 'A refund without return is for a paid order whose goods have not all shipped; ask for a return once delivered', { status: order.status });
    }
    if (!isRefund && order.status !== OrderStatus.Delivered) {
      throw conflict('ORDER_NOT_RETURNABLE', 'A return is for a delivered order', { status: order.status });
    }
    // Past the window the sale is final even before the completion sweep has moved the order: the
    // shop's earnings are released on the window, not on the sweep's timing.
    if (!isRefund && order.windowOver) {
      throw conflict('ORDER_NOT_RETURNABLE', `The after-sale window of ${tx.config.afterSaleWindowDays} day(s) after delivery is over`, { status: order.status });
    }
    const items = await db
      .selectFrom('OrderItem')
      .select(['id', 'unitPrice', 'quantity', 'amount', 'shippedQuantity', 'refundQuantity'])
      .where('order', '=', data.orderId)
      .orderBy('id')
      .execute();
    const itemById = new Map(items.map((i) => [i.id, i]));
    const missing = parts.find((p) => !itemById.has(p.orderItemId));
    if (missing) throw refused('ORDER_ITEM_NOT_IN_ORDER', `Item ${missing.orderItemId} is not part of this order`, { order_item_id: missing.orderItemId });

    // Every item's units at once or none; a refund also counts the shipped units, which it cannot cover.
    const taken = await db
      .updateTable('OrderItem')
      .from(itemQuantities(parts))
      .set((eb) => ({ refundQuantity: eb('OrderItem.refundQuantity', '+', eb.ref('p.quantity')) }))
      .whereRef('OrderItem.id', '=', 'p.item')
      .where('OrderItem.order', '=', data.orderId)
      .where((eb) =>
        eb(
          eb(eb('OrderItem.refundQuantity', '+', eb.ref('p.quantity')), '+', isRefund ? eb.ref('OrderItem.shippedQuantity') : eb.lit(0)),
          '<=',
          eb.ref('OrderItem.quantity'),
        ),
      )
      .returning('OrderItem.id')
      .execute();
    if (taken.length < parts.length) {
      const done = new Set(taken.map((r) => r.id));
      const short = parts.find((p) => !done.has(p.orderItemId))!;
      const item = itemById.get(short.orderItemId)!;
      const available = item.quantity - item.refundQuantity - (isRefund ? item.shippedQuantity : 0);
      throw refused('REFUND_EXCEEDS_QUANTITY', `Item ${item.id} has only ${Math.max(available, 0)} unit(s) left to ${isRefund ? 'refund' : 'return'}`, {
        order_item_id: item.id,
        requested: short.quantity,
        available: Math.max(available, 0),
      });
    }

    const shares = discountShares(items, order.discount);
    const amounts = parts.map((p) => {
      const item = itemById.get(p.orderItemId)!;
      return itemRefundAmount(item, shares.get(item.id)!, p.quantity);
    });
    const amount = amounts.reduce((a, b) => a + b, 0);

    const refund = tx.em.create(Refund, { order: data.orderId, shop: order.shop, customer: customer.userId, kind: data.kind, reason: data.reason, amount });
    parts.forEach((p, n) => tx.em.create(RefundItem, { refund, orderItem: p.orderItemId, quantity: p.quantity, amount: amounts[n] }));
    await tx.em.flush();
    emitRefund(tx, { id: refund.id, orderId: data.orderId, shopId: order.shop, customerId: customer.userId, kind: data.kind }, RefundStatus.Requested, { amount });
    return view(tx, refund.id);
  });
}

/** Rejection and cancellation give the units back to the order (they can be asked for again, or shipped). */
async function releaseUnits(tx: ServiceContext, refundId: number): Promise<void> {
  await typedSql(tx.em)
    .updateTable('OrderItem')
    .from('RefundItem as ri')
    .set((eb) => ({ refundQuantity: eb('OrderItem.refundQuantity', '-', eb.ref('ri.quantity')) }))
    .where('ri.refund', '=', refundId)
    .whereRef('OrderItem.id', '=', 'ri.orderItem')
    .execute();
}

/**
 * Completion, run once by whichever call moved the refund to `completed`. A refund before shipment
 * puts the SKU stock back (and activity-priced units back into their flash sale) and closes the
 * order's shipping when nothing is left to ship; when that closes an order of which nothing shipped,
 * this refund also returns the order's freight fee. Then the customer's available balance is
 * credited from the shop's and the platform's accounts (settlement/earnings.ts; reference the refund),
 * and for an order a gateway paid, that money goes on to the gateway (payments/payment-refunds.ts).
 */
async function complete(tx: ServiceContext, refund: LockedRefund): Promise<void> {
  const db = typedSql(tx.em);
  if (refund.kind === RefundKind.Refund) {
    // Activity-priced units go back to their flash sale too (and off the customer's counter), as on cancellation.
    await giveBackFlashSaleCounters(tx.em, { refundId: refund.id });
    await giveBackRefundStock(tx.em, refund.id);
    if ((await closeShippingIfDone(tx, refund.orderId)) === OrderStatus.Cancelled) {
      await db
        .updateTable('Refund')
        .from('Order as o')
        .set((eb) => ({ freightAmount: eb.ref('o.freightFee'), amount: eb('Refund.amount', '+', eb.ref('o.freightFee')) }))
        .where('Refund.id', '=', refund.id)
        .whereRef('o.id', '=', 'Refund.order')
        .execute();
    }
  }
  const { amount } = await db.selectFrom('Refund').select('amount').where('id', '=', refund.id).executeTakeFirstOrThrow();
  await payBack(tx, refund, amount);
}

/**
 * A completed refund's money: the customer's available balance credited from the shop's and the
 * platform's accounts, on to the gateway for an order a gateway paid, and the points the order earned
 * taken back in proportion. Publishes `refund.completed`.
 */
async function payBack(tx: ServiceContext, refund: LockedRefund, amount: number): Promise<void> {
  if (amount > 0) {
    await takeBackForRefund(tx, { id: refund.id, orderId: refund.orderId, customerId: refund.customerId, amount });
    // An order a gateway paid gets its money back on that method (the wallet's stays on the balance).
    await refundToMethod(tx, { id: refund.id, orderId: refund.orderId, customerId: refund.customerId, amount });
    await takeBackPointsForRefund(tx.em, { userId: refund.customerId, orderId: refund.orderId, refundId: refund.id, amountRefunded: amount });
  }
  emitRefund(tx, refund, RefundStatus.Completed, { amount });
}

/**
 * A platform ruling on a dispute over a rejected request (after-sale/dispute.service.ts): a new
 * money-only refund of the order, created completed, paid exactly as an approved refund is. The
 * rejected request stays rejected (its history is true) and no goods move: the ruling compensates,
 * it does not reopen the units. The caller holds the order row's lock. At most the rejected
 * request's amount, and never more than the order has left after its completed refunds
 * (422 DISPUTE_AMOUNT_TOO_HIGH). Returns the new refund's id.
 */
export async function refundByRuling(tx: ServiceContext, ruling: { rejectedRefundId: number; amount: number; reason: string }): Promise<number> {
  const db = typedSql(tx.em);
  const rejected = await db
    .selectFrom('Refund as r')
    .innerJoin('Order as o', 'o.id', 'r.order')
    .select((eb) => [
      'r.order',
      'r.shop',
      'r.customer',
      'r.amount',
      eb(
        'o.total',
        '-',
        eb.fn.coalesce(
          eb.selectFrom('Refund as c').select((c) => c.fn.sum<number>('c.amount').as('s')).whereRef('c.order', '=', 'o.id').where('c.status', '=', RefundStatus.Completed),
          eb.lit(0),
        ),
      ).as('left'),
    ])
    .where('r.id', '=', ruling.rejectedRefundId)
    .executeTakeFirstOrThrow();
  const available = Math.min(rejected.amount, Number(rejected.left));
  if (ruling.amount > available) {
    throw refused('DISPUTE_AMOUNT_TOO_HIGH', `At most ${available} can be refunded: the rejected request's amount, within what the order has left after its refunds`, {
      refund_id: ruling.rejectedRefundId,
      requested: ruling.amount,
      available,
    });
  }
  const refund = tx.em.create(Refund, {
    order: rejected.order,
    shop: rejected.shop,
    customer: rejected.customer,
    kind: RefundKind.Refund,
    status: RefundStatus.Completed,
    reason: ruling.reason,
    amount: ruling.amount,
    decidedAt: new Date(),
    completedAt: new Date(),
  });
  await tx.em.flush();
  await payBack(tx, { id: refund.id, orderId: rejected.order, shopId: rejected.shop, customerId: rejected.customer, kind: RefundKind.Refund }, ruling.amount);
  return refund.id;
}

export const approveRefundRefusals = refusals('NOT_FOUND', 'REFUND_WRONG_STATE');

/**
 * The shop approves: a refund completes at once (money back, stock restored); a return waits for the
 * goods. Approving again answers the refund as it is, without paying twice.
 */
export async function approveRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const operator = requireShopPermission(ctx, Permission.ShopAfterSaleManage);
  const { refundId } = parseInput(RefundRef, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'shop', id: operator.shopId });
    if (refund.kind === RefundKind.Refund) {
      if (await move(tx, refund, [RefundStatus.Requested], RefundStatus.Completed, { decidedAt: now, completedAt: now })) await complete(tx, refund);
    } else if (await move(tx, refund, [RefundStatus.Requested], RefundStatus.Approved, { decidedAt: now })) {
      emitRefund(tx, refund, RefundStatus.Approved);
    }
    return view(tx, refundId);
  });
}

export const rejectRefundRefusals = refusals('NOT_FOUND', 'REFUND_WRONG_STATE');

/** The shop rejects a request, with a reason; its units are free again. */
export async function rejectRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const operator = requireShopPermission(ctx, Permission.ShopAfterSaleManage);
  const { refundId, reason } = parseInput(RejectInput, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'shop', id: operator.shopId });
    if (await move(tx, refund, [RefundStatus.Requested], RefundStatus.Rejected, { rejectReason: reason, decidedAt: now })) {
      await releaseUnits(tx, refundId);
      emitRefund(tx, refund, RefundStatus.Rejected);
    }
    return view(tx, refundId);
  });
}

export const shipBackRefundRefusals = refusals('NOT_FOUND', 'REFUND_WRONG_STATE', 'SHIPPING_COMPANY_UNKNOWN');

/** The customer sends the goods of an approved return back, naming the company and tracking number. */
export async function shipBackRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(ShipBackInput, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, data.refundId, { column: 'customer', id: customer.userId });
    requireReturn(refund);
    await activeCompanyName(tx.em, data.companyCode);
    const sentBack = { returnCompany: data.companyCode, returnTrackingNumber: data.trackingNumber, shippedBackAt: now };
    if (await move(tx, refund, [RefundStatus.Approved], RefundStatus.ShippedBack, sentBack)) {
      emitRefund(tx, refund, RefundStatus.ShippedBack);
    }
    return view(tx, data.refundId);
  });
}

export const receiveRefundRefusals = refusals('NOT_FOUND', 'REFUND_WRONG_STATE');

/** The shop confirms the returned goods arrived: the return completes and the money goes back, once. */
export async function receiveRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const operator = requireShopPermission(ctx, Permission.ShopAfterSaleManage);
  const { refundId } = parseInput(RefundRef, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'shop', id: operator.shopId });
    requireReturn(refund);
    if (await move(tx, refund, [RefundStatus.ShippedBack], RefundStatus.Completed, { completedAt: now })) await complete(tx, refund);
    return view(tx, refundId);
  });
}

export const cancelRefundRefusals = refusals('NOT_FOUND', 'REFUND_WRONG_STATE');

/** The customer withdraws a request the shop has not acted on, or an approved return not yet sent. */
export async function cancelRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const customer = requireCustomer(ctx);
  const { refundId } = parseInput(RefundRef, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'customer', id: customer.userId });
    if (await move(tx, refund, [RefundStatus.Requested, RefundStatus.Approved], RefundStatus.Cancelled, { cancelledAt: now })) {
      await releaseUnits(tx, refundId);
      emitRefund(tx, refund, RefundStatus.Cancelled);
    }
    return view(tx, refundId);
  });
}

async function listRefunds(ctx: ServiceContext, owner: Owner, input: unknown): Promise<Page<RefundView>> {
  const { status, kind, ...paging } = parseInput(ListInput, input ?? {});
  let refunds = typedSql(ctx.em).selectFrom('Refund').where(owner.column, '=', owner.id);
  if (status) refunds = refunds.where('status', '=', status);
  if (kind) refunds = refunds.where('kind', '=', kind);
  const { ids, total } = await idPage(refunds, paging, 'desc');
  return pageOf(await refundViews(ctx.em, ids), paging, total);
}

export function listMyRefunds(ctx: ServiceContext, input: unknown): Promise<Page<RefundView>> {
  const customer = requireCustomer(ctx);
  return listRefunds(ctx, { column: 'customer', id: customer.userId }, input);
}

export function listShopRefunds(ctx: ServiceContext, input: unknown): Promise<Page<RefundView>> {
  const operator = requireShopPermission(ctx, Permission.ShopAfterSaleManage);
  return listRefunds(ctx, { column: 'shop', id: operator.shopId }, input);
}

async function getRefund(ctx: ServiceContext, owner: Owner, input: unknown): Promise<RefundView> {
  const { refundId } = parseInput(RefundRef, input);
  const [found] = await refundViews(ctx.em, [refundId]);
  const ownerId = owner.column === 'customer' ? found?.customerId : found?.shop.id;
  if (!found || ownerId !== owner.id) throw notFound('Refund', { refund_id: refundId });
  return found;
}

export const getMyRefundRefusals = refusals('NOT_FOUND');

export const getMyRefund = (ctx: ServiceContext, input: unknown) => getRefund(ctx, { column: 'customer', id: requireCustomer(ctx).userId }, input);
export const getShopRefundRefusals = refusals('NOT_FOUND');

export const getShopRefund = (ctx: ServiceContext, input: unknown) => getRefund(ctx, { column: 'shop', id: requireShopPermission(ctx, Permission.ShopAfterSaleManage).shopId }, input);
