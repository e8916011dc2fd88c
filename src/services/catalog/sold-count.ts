import type { EntityManager } from '@mikro-orm/postgresql';
import { intArray } from '../../db/sql.js';
import { queryRows } from '../../db/prepared-statements.js';
import type { Database } from '../../db/typed-sql.js';

/**
 * sold_count of a batch of products, computed on read: the quantities of order lines whose order
 * reached payment (`sold` is set by payment and never cleared; pending and cancelled orders never
 * count). One index-only scan over `order_item_sold_product_idx` for the whole batch.
 */
export async function soldCounts(em: EntityManager, productIds: readonly number[]): Promise<Map<number, number>> {
  const counts = new Map<number, number>(productIds.map((id) => [id, 0]));
  if (productIds.length === 0) return counts;
  const rows = await queryRows<{ product_id: Database['OrderItem']['product']; sold: number }>(
    em,
    `select product_id, sum(quantity)::int as sold from order_item where sold and product_id = any(?::int[]) group by product_id`,
    [intArray([...productIds])],
  );
  for (const r of rows) counts.set(r.product_id, r.sold);
  return counts;
}

/**
 * The same rule as a correlated subquery, for statements that read products and their sold_count
 * in one go (the listing, product detail): one index-only lookup per product of the page.
 */
export const soldCountOf = (productId: string) =>
  `(select coalesce(sum(oi.quantity), 0)::int from order_item oi where oi.sold and oi.product_id = ${productId})`;
