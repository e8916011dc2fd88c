import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';

/** Quantity per SKU; one SKU may appear in several order items, so demand is summed first. */
export type Demand = Map<number, number>;

/** Puts stock back (cancellation, refund, a failed group): one statement adds each SKU's quantity to its stock. */
export async function returnStock(em: EntityManager, demand: Demand): Promise<void> {
  if (demand.size === 0) return;
  const ids = [...demand.keys()].sort((a, b) => a - b);
  const db = typedSql(em);
  // Same lock order as checkout: ascending ids first, so give-backs and checkouts cannot deadlock.
  if (ids.length > 1) {
    await db.selectFrom('Sku').select('id').where((eb) => eb('id', '=', eb.fn.any(eb.val(ids)))).orderBy('id').forNoKeyUpdate().execute();
  }
  const given = sql<{ id: number; quantity: number }>`unnest(${ids}::int[], ${ids.map((id) => demand.get(id) ?? 0)}::int[])`;
  await db
    .updateTable('Sku')
    .from(given.as<'d'>(sql`d(id, quantity)`))
    .set((eb) => ({ stock: eb('Sku.stock', '+', eb.ref('d.quantity')) }))
    .whereRef('Sku.id', '=', 'd.id')
    .execute();
}
