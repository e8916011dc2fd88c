import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../db/sql.js';
import { ItemPricing } from '../entities/order-item.entity.js';
import type { DraftItem, DraftOrder } from '../checkout/checkout-draft.js';

/**
 * Flash-sale pricing at checkout, resolved on the server only.
 *
 * 1. Checkout reads, in the same statement as the cart, the offers for its lines (`flashSaleOffersSql`):
 *    enabled activity items whose window contains now, with activity stock left and a price below
 *    the standard one, and what the customer already bought of each. Nothing is locked.
 * 2. `applyFlashSalePricing` splits each eligible line into an activity-priced item, for up to
 *    min(limit - already bought, activity stock), and a standard remainder.
 * 3. Checkout's one write statement (`place-orders.ts`) then counts the units on the customer's
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

export interface FlashSaleOffer {
  id: number;
  sku_id: number;
  activity_price: number;
  remaining_stock: number;
  per_customer_limit: number;
  purchased: number;
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
 * stock, keeping the lock order: counters, activity items, SKUs).
 */
export async function restoreFlashSaleStock(em: EntityManager, from: FlashSaleGiveBack): Promise<void> {
  const took =
    'orderId' in from
      ? `select flash_sale_item_id as id, order_id, sum(quantity)::int as quantity from order_item
          where order_id = ? and flash_sale_item_id is not null group by flash_sale_item_id, order_id`
      : `select oi.flash_sale_item_id as id, oi.order_id, sum(ri.quantity)::int as quantity
           from refund_item ri join order_item oi on oi.id = ri.order_item_id
          where ri.refund_id = ? and oi.flash_sale_item_id is not null group by oi.flash_sale_item_id, oi.order_id`;
  const returned = await em.execute<{ id: number; quantity: number }[]>(
    `with took as (${took})
     update flash_sale_purchase p set quantity = p.quantity - took.quantity
       from took join shop_order o on o.id = took.order_id
      where p.customer_id = o.customer_id and p.flash_sale_item_id = took.id
     returning took.id, took.quantity`,
    ['orderId' in from ? from.orderId : from.refundId],
  );
  if (returned.length === 0) return;
  returned.sort((a, b) => a.id - b.id);
  await em.execute(
    `update flash_sale_item i set remaining_stock = i.remaining_stock + d.quantity
       from unnest(?::int[], ?::int[]) as d(id, quantity) where i.id = d.id`,
    [intArray(returned.map((r) => r.id)), intArray(returned.map((r) => r.quantity))],
  );
}

/**
 * The SKUs among `skuIds` that are in an enabled flash-sale session active now, in one query
 * (group buying refuses those).
 */
export async function activeFlashSaleSkuIds(em: EntityManager, skuIds: number[]): Promise<Set<number>> {
  if (skuIds.length === 0) return new Set();
  const rows = await em.execute<{ sku_id: number }[]>(
    'select distinct sku_id from flash_sale_item where enabled and sku_id = any(?::int[]) and sale_window @> now()',
    [intArray(skuIds)],
  );
  return new Set(rows.map((r) => r.sku_id));
}
