import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../db/sql.js';

/** Quantity per SKU; one SKU may appear in several order items, so demand is summed first. */
export type Demand = Map<number, number>;

/** Puts stock back (cancellation). */
export async function returnStock(em: EntityManager, demand: Demand): Promise<void> {
  if (demand.size === 0) return;
  const ids = [...demand.keys()].sort((a, b) => a - b);
  // Same lock order as checkout (place-orders.ts): ascending ids first, so give-backs and checkouts cannot deadlock.
  if (ids.length > 1) await em.execute('select id from sku where id = any(?::int[]) order by id for no key update', [intArray(ids)]);
  await em.execute(
    `update sku set stock = sku.stock + d.quantity from unnest(?::int[], ?::int[]) as d(id, quantity) where sku.id = d.id`,
    [intArray(ids), intArray(ids.map((id) => demand.get(id)!))],
  );
}
