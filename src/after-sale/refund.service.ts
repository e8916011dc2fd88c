import type { EventType } from '../events/event-types.js';
import { conflict, notFound, refused } from '../errors.js';
import { intArray } from '../db/sql.js';
import { OrderStatus } from '../entities/order.entity.js';
import { BalanceKind } from '../entities/balance.entity.js';
import { RefundKind, RefundStatus } from '../entities/refund.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireCustomer, requireOperator } from '../shared/guards.js';
import { emit, inTransaction } from '../shared/transaction.js';
import { id, parseInput, z } from '../shared/validate.js';
import { idPage, pageFields, type Page } from '../shared/pagination.js';
import { credit } from '../accounts/ledger.service.js';
import { takeBackPointsForRefund } from '../points/points-earning.service.js';
import { returnStock, type Demand } from '../catalog/stock.js';
import { restoreFlashSaleStock } from '../promotions/flash-sale-pricing.js';
import { mergeParts } from '../orders/shipment.service.js';
import { closeShippingIfDone } from '../orders/fulfilment.js';
import { activeCompanyName, companyCode } from '../shipping/shipping-company.service.js';
import { discountShares, itemRefundAmount } from './refund-amount.js';
import { refundViews, type RefundView } from './refund-view.js';

/**
 * After-sale requests. `refund` (money only) covers units of a paid order that were not shipped;
 * `return` covers units of a delivered order. States (see refund.entity.ts):
 *   refund: requested -> completed (approve) | rejected | cancelled
 *   return: requested -> approved -> shipped_back -> completed (receive); requested -> rejected;
 *           requested | approved -> cancelled
 * Every use case locks the order row first (as shipments do), then moves the refund with one
 * conditional update, so a transition happens once however many requests race for it.
 */

const RequestInput = z.strictObject({
  orderId: id,
  kind: z.enum(RefundKind),
  reason: z.string().trim().min(1).max(500),
  items: z
    .array(z.strictObject({ orderItemId: id, quantity: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .max(100),
});
const RefundRef = z.strictObject({ refundId: id });
const RejectInput = RefundRef.extend({ reason: z.string().trim().min(1).max(500) });
const ShipBackInput = RefundRef.extend({ companyCode, trackingNumber: z.string().trim().min(1).max(80) });
const ListInput = z.object({ ...pageFields, status: z.enum(RefundStatus).optional(), kind: z.enum(RefundKind).optional() });

type Owner = { column: 'customer_id' | 'shop_id'; id: number };
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
  const [r] = await tx.em.execute<{ order_id: number; shop_id: number; customer_id: number; kind: RefundKind }[]>(
    `select order_id, shop_id, customer_id, kind from refund where id = ? and ${owner.column} = ?`,
    [refundId, owner.id],
  );
  if (!r) throw notFound('Refund', { refund_id: refundId });
  await tx.em.execute('select id from shop_order where id = ? for update', [r.order_id]);
  return { id: refundId, orderId: r.order_id, shopId: r.shop_id, customerId: r.customer_id, kind: r.kind };
}

/**
 * Moves a refund from one of `from` to `to` with one conditional update (plus `set` assignments).
 * When it was not in `from`: a refund already in `to` answers as is (a repeated call is harmless),
 * any other state is 409 REFUND_WRONG_STATE. Returns whether this call made the move.
 */
async function move(tx: ServiceContext, refund: LockedRefund, from: RefundStatus[], to: RefundStatus, set = '', params: unknown[] = []): Promise<boolean> {
  const moved = await tx.em.execute(
    `update refund set status = ?${set} where id = ? and status in (${from.map(() => '?').join(', ')}) returning id`,
    [to, ...params, refund.id, ...from],
  );
  if (moved.length > 0) return true;
  const [{ status }] = await tx.em.execute<{ status: RefundStatus }[]>('select status from refund where id = ?', [refund.id]);
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
    const [order] = await tx.em.execute<{ status: OrderStatus; shop_id: number; discount: number }[]>(
      'select status, shop_id, discount from shop_order where id = ? and customer_id = ? for update',
      [data.orderId, customer.userId],
    );
    if (!order) throw notFound('Order', { order_id: data.orderId });
    if (isRefund && order.status !== OrderStatus.Paid) {
      throw conflict('ORDER_NOT_REFUNDABLE', 'A refund without return is for a paid order whose goods have not all shipped; ask for a return once delivered', { status: order.status });
    }
    if (!isRefund && order.status !== OrderStatus.Delivered) {
      throw conflict('ORDER_NOT_RETURNABLE', 'A return is for a delivered order', { status: order.status });
    }
    const items = await tx.em.execute<{ id: number; unit_price: number; quantity: number; amount: number; shipped_quantity: number; refund_quantity: number }[]>(
      'select id, unit_price, quantity, amount, shipped_quantity, refund_quantity from order_item where order_id = ? order by id',
      [data.orderId],
    );
    const itemById = new Map(items.map((i) => [i.id, i]));
    const missing = parts.find((p) => !itemById.has(p.orderItemId));
    if (missing) throw refused('ORDER_ITEM_NOT_IN_ORDER', `Item ${missing.orderItemId} is not part of this order`, { order_item_id: missing.orderItemId });

    const taken = await tx.em.execute<{ id: number }[]>(
      `update order_item set refund_quantity = order_item.refund_quantity + p.q
         from unnest(?::int[], ?::int[]) as p(i, q)
        where order_item.id = p.i and order_item.order_id = ?
          and order_item.refund_quantity + p.q + (case when ? then order_item.shipped_quantity else 0 end) <= order_item.quantity
        returning order_item.id`,
      [intArray(parts.map((p) => p.orderItemId)), intArray(parts.map((p) => p.quantity)), data.orderId, isRefund],
    );
    if (taken.length < parts.length) {
      const done = new Set(taken.map((r) => r.id));
      const short = parts.find((p) => !done.has(p.orderItemId))!;
      const item = itemById.get(short.orderItemId)!;
      const available = item.quantity - item.refund_quantity - (isRefund ? item.shipped_quantity : 0);
      throw refused('REFUND_EXCEEDS_QUANTITY', `Item ${item.id} has only ${Math.max(available, 0)} unit(s) left to ${isRefund ? 'refund' : 'return'}`, {
        order_item_id: item.id,
        requested: short.quantity,
        available: Math.max(available, 0),
      });
    }

    const shares = discountShares(items.map((i) => ({ id: i.id, unitPrice: i.unit_price, quantity: i.quantity, amount: i.amount })), order.discount);
    const amounts = parts.map((p) => {
      const item = itemById.get(p.orderItemId)!;
      return itemRefundAmount({ id: item.id, unitPrice: item.unit_price, quantity: item.quantity, amount: item.amount }, shares.get(item.id)!, p.quantity);
    });
    const amount = amounts.reduce((a, b) => a + b, 0);

    const [refund] = await tx.em.execute<{ id: number }[]>(
      `insert into refund (order_id, shop_id, customer_id, kind, status, reason, amount, created_at)
       values (?, ?, ?, ?, 'requested', ?, ?, now()) returning id`,
      [data.orderId, order.shop_id, customer.userId, data.kind, data.reason, amount],
    );
    await tx.em.execute(
      `insert into refund_item (refund_id, order_item_id, quantity, amount) select ?, i, q, a from unnest(?::int[], ?::int[], ?::int[]) as p(i, q, a)`,
      [refund.id, intArray(parts.map((p) => p.orderItemId)), intArray(parts.map((p) => p.quantity)), intArray(amounts)],
    );
    emitRefund(tx, { id: refund.id, orderId: data.orderId, shopId: order.shop_id, customerId: customer.userId, kind: data.kind }, RefundStatus.Requested, { amount });
    return view(tx, refund.id);
  });
}

/** Rejection and cancellation give the units back to the order (they can be asked for again, or shipped). */
async function releaseUnits(tx: ServiceContext, refundId: number): Promise<void> {
  await tx.em.execute(
    `update order_item set refund_quantity = order_item.refund_quantity - ri.quantity
       from refund_item ri where ri.refund_id = ? and order_item.id = ri.order_item_id`,
    [refundId],
  );
}

/**
 * Completion, run once by whichever call moved the refund to `completed`. A refund before shipment
 * puts the SKU stock back (and activity-priced units back into their flash sale) and closes the
 * order's shipping when nothing is left to ship; when that closes an order of which nothing shipped,
 * this refund also returns the order's freight fee. Then the customer's available balance is
 * credited (ledger reason `refund`, reference the refund).
 */
async function complete(tx: ServiceContext, refund: LockedRefund): Promise<void> {
  if (refund.kind === RefundKind.Refund) {
    const skus = await tx.em.execute<{ sku_id: number; quantity: number }[]>(
      `select oi.sku_id, sum(ri.quantity)::int as quantity from refund_item ri join order_item oi on oi.id = ri.order_item_id
        where ri.refund_id = ? group by oi.sku_id`,
      [refund.id],
    );
    // Activity-priced units go back to their flash sale too (and off the customer's counter), as on cancellation.
    await restoreFlashSaleStock(tx.em, { refundId: refund.id });
    await returnStock(tx.em, new Map(skus.map((s) => [s.sku_id, s.quantity])) as Demand);
    if ((await closeShippingIfDone(tx.em, refund.orderId)) === OrderStatus.Cancelled) {
      await tx.em.execute(
        'update refund set freight_amount = o.freight_fee, amount = refund.amount + o.freight_fee from shop_order o where refund.id = ? and o.id = refund.order_id',
        [refund.id],
      );
    }
  }
  const [{ amount }] = await tx.em.execute<{ amount: number }[]>('select amount from refund where id = ?', [refund.id]);
  if (amount > 0) {
    await credit(tx.em, { userId: refund.customerId, kind: BalanceKind.Available, amount, reason: 'refund', reference: { type: 'refund', id: refund.id } });
    await takeBackPointsForRefund(tx.em, { userId: refund.customerId, orderId: refund.orderId, refundId: refund.id, amountRefunded: amount });
  }
  emitRefund(tx, refund, RefundStatus.Completed, { amount });
}

/**
 * The shop approves: a refund completes at once (money back, stock restored); a return waits for the
 * goods. Approving again answers the refund as it is, without paying twice.
 */
export async function approveRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const operator = requireOperator(ctx);
  const { refundId } = parseInput(RefundRef, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'shop_id', id: operator.shopId });
    if (refund.kind === RefundKind.Refund) {
      if (await move(tx, refund, [RefundStatus.Requested], RefundStatus.Completed, ', decided_at = now(), completed_at = now()')) await complete(tx, refund);
    } else if (await move(tx, refund, [RefundStatus.Requested], RefundStatus.Approved, ', decided_at = now()')) {
      emitRefund(tx, refund, RefundStatus.Approved);
    }
    return view(tx, refundId);
  });
}

/** The shop rejects a request, with a reason; its units are free again. */
export async function rejectRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const operator = requireOperator(ctx);
  const { refundId, reason } = parseInput(RejectInput, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'shop_id', id: operator.shopId });
    if (await move(tx, refund, [RefundStatus.Requested], RefundStatus.Rejected, ', reject_reason = ?, decided_at = now()', [reason])) {
      await releaseUnits(tx, refundId);
      emitRefund(tx, refund, RefundStatus.Rejected);
    }
    return view(tx, refundId);
  });
}

/** The customer sends the goods of an approved return back, naming the company and tracking number. */
export async function shipBackRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(ShipBackInput, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, data.refundId, { column: 'customer_id', id: customer.userId });
    requireReturn(refund);
    await activeCompanyName(tx.em, data.companyCode);
    const set = ', return_company_code = ?, return_tracking_number = ?, shipped_back_at = now()';
    if (await move(tx, refund, [RefundStatus.Approved], RefundStatus.ShippedBack, set, [data.companyCode, data.trackingNumber])) {
      emitRefund(tx, refund, RefundStatus.ShippedBack);
    }
    return view(tx, data.refundId);
  });
}

/** The shop confirms the returned goods arrived: the return completes and the money goes back, once. */
export async function receiveRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const operator = requireOperator(ctx);
  const { refundId } = parseInput(RefundRef, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'shop_id', id: operator.shopId });
    requireReturn(refund);
    if (await move(tx, refund, [RefundStatus.ShippedBack], RefundStatus.Completed, ', completed_at = now()')) await complete(tx, refund);
    return view(tx, refundId);
  });
}

/** The customer withdraws a request the shop has not acted on, or an approved return not yet sent. */
export async function cancelRefund(ctx: ServiceContext, input: unknown): Promise<RefundView> {
  const customer = requireCustomer(ctx);
  const { refundId } = parseInput(RefundRef, input);
  return inTransaction(ctx, async (tx) => {
    const refund = await lockRefund(tx, refundId, { column: 'customer_id', id: customer.userId });
    if (await move(tx, refund, [RefundStatus.Requested, RefundStatus.Approved], RefundStatus.Cancelled, ', cancelled_at = now()')) {
      await releaseUnits(tx, refundId);
      emitRefund(tx, refund, RefundStatus.Cancelled);
    }
    return view(tx, refundId);
  });
}

async function listRefunds(ctx: ServiceContext, owner: Owner, input: unknown): Promise<Page<RefundView>> {
  const { page, pageSize, status, kind } = parseInput(ListInput, input ?? {});
  const where = `${owner.column} = ? and (?::text is null or status = ?::text) and (?::text is null or kind = ?::text)`;
  const params = [owner.id, status ?? null, status ?? null, kind ?? null, kind ?? null];
  const { ids, total } = await idPage(ctx.em, { table: 'refund', where, params, order: 'desc' }, { page, pageSize });
  return { items: await refundViews(ctx.em, ids), page, pageSize, total };
}

export function listMyRefunds(ctx: ServiceContext, input: unknown): Promise<Page<RefundView>> {
  const customer = requireCustomer(ctx);
  return listRefunds(ctx, { column: 'customer_id', id: customer.userId }, input);
}

export function listShopRefunds(ctx: ServiceContext, input: unknown): Promise<Page<RefundView>> {
  const operator = requireOperator(ctx);
  return listRefunds(ctx, { column: 'shop_id', id: operator.shopId }, input);
}

async function getRefund(ctx: ServiceContext, owner: Owner, input: unknown): Promise<RefundView> {
  const { refundId } = parseInput(RefundRef, input);
  const [found] = await refundViews(ctx.em, [refundId]);
  const ownerId = owner.column === 'customer_id' ? found?.customerId : found?.shop.id;
  if (!found || ownerId !== owner.id) throw notFound('Refund', { refund_id: refundId });
  return found;
}

export const getMyRefund = (ctx: ServiceContext, input: unknown) => getRefund(ctx, { column: 'customer_id', id: requireCustomer(ctx).userId }, input);
export const getShopRefund = (ctx: ServiceContext, input: unknown) => getRefund(ctx, { column: 'shop_id', id: requireOperator(ctx).shopId }, input);
