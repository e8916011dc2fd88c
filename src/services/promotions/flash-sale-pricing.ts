import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type NotNull } from 'kysely';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import type { DraftItem, DraftOrder } from '../../shared/checkout-draft.js';

/**
 * Flash-sale pricing at checkout, resolved on the server only.
 *
 * 1. Checkout reads, in the same statement as the cart, the offers for its lines (`flashSaleOffersSql`):
 *    enabled activity items whose window contains now, with activity stock left and a price below
 *    the standard one, and what the customer already bought of each. Nothing is locked.
 * 2. `applyFlashSalePricing` splits each eligible line into an activity-priced item, for up to
 *    min(limit - already bought, activity stock), and a standard remainder.
 * 3. Checkout's one write statement (`src/services/checkout/place-orders-statement.ts`) then counts the units on the customer's
 *    counter (guarded by the limit) and takes the activity stock (guarded by `remaining_stock`). If
 *    either moved since the read, the statement fails and the checkout is rerun
 *    (`StaleReadConflict`), so the line is priced again from fresh figures.
 * 4. `restoreFlashSaleStock` (cancellation of a pending order, refund completed before shipment):
 *    gives both back.
 *
 * Lock order everywhere: purchase counter, then activity item, then SKU.
 */

/** Activity units a checkout takes: activity item id -> quantity, and the per-customer limit it was priced under. */
export type FlashSaleTake = Map<number, { quantity: number; limit: number }>;

/** A row of `flashSaleOffersSql`, inside the cart read's JSON (`json_agg` keeps column names and JSON types). */
export interface FlashSaleOffer {
  id: Database['FlashSaleItem']['id'];
  sku_id: Database['FlashSaleItem']['sku'];
  activity_price: Database['FlashSaleItem']['activityPrice'];
  remaining_stock: Database['FlashSaleItem']['remainingStock'];
  per_customer_limit: Database['FlashSaleItem']['perCustomerLimit'];
  /** Units the customer already holds at the activity price (0 without a counter row). */
  purchased: Database['FlashSalePurchase']['quantity'];
}

/**
 * The offers for the lines of `lines` (a relation with `customer_id`, `sku_id` and the standard
 * `price`), as `FlashSaleOffer` rows.
 */
export const flashSaleOffersSql = (lines: string) => `
  select i.id, i.sku_id, i.activity_price, i.remaining_stock, i.per_customer_limit, coalesce(p.quantity, 0) as purchased
    from flash_sale_item i join ${lines} c on c.sku_id = i.sku_id
    left join flash_sale_purchase p on p.flash_sale_item_id = i.id and p.customer_id = c.customer_id
   where i.enabled and i.sale_window @> now() and i.remaining_stock > 0 and i.activity_price < c.price`;

/**
 * Splits the drafts' standard-priced lines that have an offer (in place) and returns what the write
 * statement takes.
 */
export function applyFlashSalePricing(drafts: DraftOrder[], offers: FlashSaleOffer[]): FlashSaleTake {
  const take: FlashSaleTake = new Map();
  if (offers.length === 0) return take;
  const bySku = new Map(offers.map((a) => [a.sku_id, a]));
  for (const draft of drafts) {
    draft.items = draft.items.flatMap((item) => {
      const activity = item.pricing === ItemPricing.Standard ? bySku.get(item.skuId) : undefined;
      if (!activity) return [item];
      const quantity = Math.min(item.quantity, activity.per_customer_limit - activity.purchased, activity.remaining_stock);
      if (quantity <= 0) return [item];
      take.set(activity.id, { quantity, limit: activity.per_customer_limit });
      return splitItem(item, quantity, activity);
    });
  }
  return take;
}

/** One cart line as an activity-priced item and, when the line asks for more, a standard remainder. */
function splitItem(item: DraftItem, quantity: number, activity: FlashSaleOffer): DraftItem[] {
  const priced: DraftItem = { ...item, quantity, unitPrice: activity.activity_price, pricing: ItemPricing.FlashSale, flashSaleItemId: activity.id };
  return item.quantity > quantity ? [priced, { ...item, quantity: item.quantity - quantity }] : [priced];
}

/** Whose activity units go back: a pending order being cancelled, or a refund completed before shipment. */
export type FlashSaleGiveBack = { orderId: number } | { refundId: number };

/**
 * Gives back the activity stock and the customer's counted units of a cancelled pending order or of
 * the units of a refund completed before shipment, in the caller's transaction (before its SKU
 * stock, keeping the lock order: counters, activity items by id, SKUs).
 */
export async function restoreFlashSaleStock(em: EntityManager, from: FlashSaleGiveBack): Promise<void> {
  const db = typedSql(em);
  const took = await ('orderId' in from
    ? db
        .selectFrom('OrderItem as oi')
        .innerJoin('Order as o', 'o.id', 'oi.order')
        .where('oi.order', '=', from.orderId)
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
  const returned: { itemId: number; units: number }[] = [];
  for (const { flashSaleItem: itemId, customer, units } of took) {
    const counted = await db
      .updateTable('FlashSalePurchase')
      .set((eb) => ({ quantity: eb('quantity', '-', units) }))
      .where('flashSaleItem', '=', itemId)
      .where('customer', '=', customer)
      .returning('quantity')
      .executeTakeFirst();
    if (counted) returned.push({ itemId, units });
  }
  for (const { itemId, units } of returned) {
    await db
      .updateTable('FlashSaleItem')
      .set((eb) => ({ remainingStock: eb('remainingStock', '+', units) }))
      .where('id', '=', itemId)
      .execute();
  }
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
