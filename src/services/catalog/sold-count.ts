import type { EntityManager } from '@mikro-orm/postgresql';
import { soldCountsByProductIds } from './catalog.repository.js';

/**
 * sold_count of a batch of products, computed on read: the quantities of order lines whose order
 * reached payment (`sold` is set by payment and cleared only by a refund in full before shipment;
 * pending and cancelled orders never count). One index-only scan for the whole batch; statements that
 * read products with their sold_count use `soldCountOf` (catalog.repository.ts) instead.
 */
export async function soldCounts(em: EntityManager, productIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(productIds.map((id) => [id, 0]));
  if (productIds.length === 0) return counts;
  for (const r of await soldCountsByProductIds.run(em, {}, { ids: [...productIds] })) counts.set(r.productId, r.sold);
  return counts;
}
