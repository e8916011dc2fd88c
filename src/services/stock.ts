import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../errors.js';
import { intArray } from '../db/sql.js';

/** Quantity per SKU; one SKU may appear in several order items, so demand is summed first. */
export type Demand = Map<number, number>;

export function addDemand(demand: Demand, skuId: number, quantity: number): void {
  demand.set(skuId, (demand.get(skuId) ?? 0) + quantity);
}

/**
 * Guarded decrement of SKU stock for a whole checkout: `stock >= quantity` for every SKU or nothing.
 * Rows are locked in ascending id order first so two multi-SKU checkouts cannot deadlock; a single
 * SKU needs no separate lock. `for no key update` (what the UPDATE itself takes) does not conflict
 * with the key-share locks that the order items' foreign keys hold on the same SKUs. Returns each SKU's remaining stock.
 */
export async function takeStock(em: EntityManager, demand: Demand): Promise<Map<number, number>> {
  const ids = [...demand.keys()].sort((a, b) => a - b);
  const quantities = ids.map((id) => demand.get(id)!);
  if (ids.length > 1) await em.execute('select id from sku where id = any(?::int[]) order by id for no key update', [intArray(ids)]);
  const rows = await em.execute<{ id: number; stock: number }[]>(
    `update sku set stock = sku.stock - d.quantity
       from unnest(?::int[], ?::int[]) as d(id, quantity)
      where sku.id = d.id and sku.stock >= d.quantity
      returning sku.id, sku.stock`,
    [intArray(ids), intArray(quantities)],
  );
  if (rows.length < ids.length) {
    const taken = new Set(rows.map((r) => r.id));
    const shortId = ids.find((id) => !taken.has(id))!;
    const [row] = await em.execute<{ stock: number }[]>('select stock from sku where id = ?', [shortId]);
    throw refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${shortId}`, {
      sku_id: shortId,
      requested: demand.get(shortId),
      available: row?.stock ?? 0,
    });
  }
  return new Map(rows.map((r) => [r.id, r.stock]));
}

/** Puts stock back (cancellation). */
export async function returnStock(em: EntityManager, demand: Demand): Promise<void> {
  if (demand.size === 0) return;
  const ids = [...demand.keys()].sort((a, b) => a - b);
  // Same lock order as takeStock: ascending ids first, so give-backs and checkouts cannot deadlock.
  if (ids.length > 1) await em.execute('select id from sku where id = any(?::int[]) order by id for no key update', [intArray(ids)]);
  await em.execute(
    `update sku set stock = sku.stock + d.quantity from unnest(?::int[], ?::int[]) as d(id, quantity) where sku.id = d.id`,
    [intArray(ids), intArray(ids.map((id) => demand.get(id)!))],
  );
}
