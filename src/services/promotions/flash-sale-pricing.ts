import type { EntityManager } from '@mikro-orm/postgresql';
import { expressionBuilder, sql, type AliasedExpression, type InferResult, type NotNull, type SqlBool } from 'kysely';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import type { DraftItem, DraftOrder } from '../../shared/checkout-draft.js';
import type { OrderTransition } from '../orders/order-lifecycle.js';

/**
 * Flash-sale pricing at checkout, resolved on the server only.
 *
 * 1. Checkout reads, in the same statement as the cart, the offers for its lines (`flashSaleOffersOf`):
 *    enabled activity items whose window contains now, with activity stock left and a price below
 *    the standard one, and what the customer already bought of each. Nothing is locked.
 * 2. `applyFlashSalePricing` splits each eligible line into an activity-priced item, for up to
 *    min(limit - already bought, activity stock), and a standard remainder.
 * 3. Checkout's one write statement (`src/services/checkout/place-orders-statement.ts`) then counts the units on the customer's
 *    counter (guarded by the limit) and takes the activity stock (guarded by `remaining_stock`). If
 *    either moved since the read, the statement fails and the checkout is rerun
 *    (`StaleReadConflict`), so the line is priced again from fresh figures.
 * 4. A cancelled pending order, or a refund completed before shipment, takes its units off the
 *    counters (`giveBackFlashSaleCounters`); inventory gives the activity stock back.
 *
 * Lock order everywhere: purchase counter, then activity item, then SKU.
 */

/** Activity units a checkout takes: activity item id -> quantity, and the per-customer limit it was priced under. */
export type FlashSaleTake = Map<number, { quantity: number; limit: number }>;

/** A cart line as the offers read it: whose, which SKU, at what standard price. */
export interface OfferedLine {
  customerId: number;
  skuId: number;
  price: number;
}

/**
 * The offers for the lines `c` (a derived table of `OfferedLine`): enabled activity items whose
 * window contains now, with activity stock left and a price below the standard one, and what the
 * customer already bought of each. Checkout reads them in its cart statement, as JSON.
 */
export function flashSaleOffersOf(lines: AliasedExpression<OfferedLine, 'c'>) {
  return expressionBuilder<Database, never>()
    .selectFrom('FlashSaleItem as i')
    .innerJoin(lines, (join) => join.onRef('c.skuId', '=', 'i.sku'))
    .leftJoin('FlashSalePurchase as fp', (join) => join.onRef('fp.flashSaleItem', '=', 'i.id').onRef('fp.customer', '=', 'c.customerId'))
    .select((eb) => [
      'i.id as id',
      'i.sku as skuId',
      'i.activityPrice as activityPrice',
      'i.remainingStock as remainingStock',
      'i.perCustomerLimit as perCustomerLimit',
      eb.fn.coalesce('fp.quantity', sql.lit(0)).as('purchased'),
    ])
    .where((eb) => eb.ref('i.enabled'))
    .where((eb) => sql<SqlBool>`${eb.ref('i.saleWindow')} @> now()`)
    .where('i.remainingStock', '>', sql.lit(0))
    .where((eb) => eb('i.activityPrice', '<', eb.ref('c.price')));
}

/** An offer as the cart read returns it (its JSON keeps the builder's names and JSON types). */
export type FlashSaleOffer = InferResult<ReturnType<typeof flashSaleOffersOf>>[number];

/**
 * Splits the drafts' standard-priced lines that have an offer (in place) and returns what the write
 * statement takes.
 */
export function applyFlashSalePricing(drafts: DraftOrder[], offers: FlashSaleOffer[]): FlashSaleTake {
  const take: FlashSaleTake = new Map();
  if (offers.length === 0) return take;
  const bySku = new Map(offers.map((a) => [a.skuId, a]));
  for (const draft of drafts) {
    draft.items = draft.items.flatMap((item) => {
      const activity = item.pricing === ItemPricing.Standard ? bySku.get(item.skuId) : undefined;
      if (!activity) return [item];
      const quantity = Math.min(item.quantity, activity.perCustomerLimit - activity.purchased, activity.remainingStock);
      if (quantity <= 0) return [item];
      take.set(activity.id, { quantity, limit: activity.perCustomerLimit });
      return splitItem(item, quantity, activity);
    });
  }
  return take;
}

/** One cart line as an activity-priced item and, when the line asks for more, a standard remainder. */
function splitItem(item: DraftItem, quantity: number, activity: FlashSaleOffer): DraftItem[] {
  const priced: DraftItem = { ...item, quantity, unitPrice: activity.activityPrice, pricing: ItemPricing.FlashSale, flashSaleItemId: activity.id };
  return item.quantity > quantity ? [priced, { ...item, quantity: item.quantity - quantity }] : [priced];
}

/** Whose activity-priced units leave the customer's counters: cancelled pending orders, or a refund completed before shipment. */
export type CounterGiveBack = { orderIds: readonly number[] } | { refundId: number };

/**
 * Takes the activity-priced units of cancelled pending orders, or of a refund completed before
 * shipment, off their customers' per-item counters, in the caller's transaction, ascending item ids
 * (counters are locked first: counters, activity items, SKUs). The activity stock itself goes back
 * through inventory.
 */
export async function giveBackFlashSaleCounters(em: EntityManager, from: CounterGiveBack): Promise<void> {
  const db = typedSql(em);
  if ('orderIds' in from && from.orderIds.length === 0) return;
  const took = await ('orderIds' in from
    ? db
        .selectFrom('OrderItem as oi')
        .innerJoin('Order as o', 'o.id', 'oi.order')
        .where('oi.order', 'in', [...from.orderIds])
        .select((eb) => ['oi.flashSaleItem', 'o.customer', eb.cast<number>(eb.fn.sum('oi.quantity'), 'integer').as('units')])
    : db
        .selectFrom('RefundItem as ri')
        .innerJoin('OrderItem as oi', 'oi.id', 'ri.orderItem')
        .innerJoin('Order as o', 'o.id', 'oi.order')
        .where('ri.refund', '=', from.refundId)
        .select((eb) => ['oi.flashSaleItem', 'o.customer', eb.cast<number>(eb.fn.sum('ri.quantity'), 'integer').as('units')])
  )
    .where('oi.flashSaleItem', 'is not', null)
    .$narrowType<{ flashSaleItem: NotNull }>()
    .groupBy(['oi.flashSaleItem', 'o.customer'])
    .orderBy('oi.flashSaleItem')
    .execute();
  for (const { flashSaleItem: itemId, customer, units } of took) {
    await db
      .updateTable('FlashSalePurchase')
      .set((eb) => ({ quantity: eb('quantity', '-', units) }))
      .where('flashSaleItem', '=', itemId)
      .where('customer', '=', customer)
      .execute();
  }
}

/** Subscriber of `order.cancelled`: a cancelled pending order's flash-sale units leave the counters. */
export async function giveBackCountersOfCancelledOrders(tx: ServiceContext, cancelled: readonly OrderTransition[]): Promise<void> {
  const orderIds = cancelled.filter((order) => order.from === OrderStatus.PendingPayment).map((order) => order.orderId);
  await giveBackFlashSaleCounters(tx.em, { orderIds });
}

/**
 * The SKUs among `skuIds` that are in an enabled flash-sale session active now, in one query
 * (group buying refuses those).
 */
export async function activeFlashSaleSkuIds(em: EntityManager, skuIds: number[]): Promise<Set<number>> {
  if (skuIds.length === 0) return new Set();
  const rows = await typedSql(em)
    .selectFrom('FlashSaleItem')
    .select('sku')
    .distinct()
    .where('enabled', '=', true)
    .where('sku', 'in', skuIds)
    // The exclusion constraint's GiST index serves "an enabled item of this SKU whose window contains now".
    .where((eb) => sql<boolean>`${eb.ref('saleWindow')} @> now()`)
    .execute();
  return new Set(rows.map((r) => r.sku));
}
