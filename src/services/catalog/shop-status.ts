import { refused } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import type { ServiceContext } from '../../shared/context.js';

/** What a shop that is not active refuses: 422 SHOP_NOT_ACTIVE, naming the shop and its state. */
export function shopNotActive(shop: { id: number; status: ShopStatus }) {
  return refused('SHOP_NOT_ACTIVE', `Shop ${shop.id} is ${shop.status} and sells nothing now`, { shop_id: shop.id, status: shop.status });
}

/**
 * Locks these shops' rows in share mode until the transaction ends, and refuses (SHOP_NOT_ACTIVE)
 * when one of them is not active. A shop's move (shops/shop-lifecycle.ts) updates that row, so it
 * waits for whatever holds the lock, and a holder that came second waits for the move and then reads
 * its outcome (a locking read sees the latest committed row): what a holder writes for an active
 * shop commits before any suspension of it.
 */
export async function refuseInactiveShops(tx: ServiceContext, shopIds: readonly number[]): Promise<void> {
  if (shopIds.length === 0) return;
  const rows = await typedSql(tx.em)
    .selectFrom('Shop')
    .select(['id', 'status'])
    .where('id', 'in', [...new Set(shopIds)])
    .orderBy('id')
    .forShare()
    .execute();
  const inactive = rows.find((row) => row.status !== ShopStatus.Active);
  if (inactive) throw shopNotActive(inactive);
}
