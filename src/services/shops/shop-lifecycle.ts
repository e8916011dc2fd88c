import { sql } from 'kysely';
import { conflict, notFound } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { emit } from '../../shared/transaction.js';
import { EventTypes, type EventType } from '../events/event-types.js';
import { auditedWrite, recordChange } from '../../shared/audit.js';

/**
 * A shop's life, in one table: its states, every legal move with what it does to the shop's
 * products and the event it publishes. The one writer of `shop.status` (test/ownership.test.ts), and
 * of a product's `held` state:
 *
 *   active ──suspend (reason)──> suspended ──reinstate──> active
 *   active | suspended ──close──> closed (final)
 *
 * Leaving `active`, the shop's published products become `held`; coming back, exactly those are
 * published again (a product the merchant unpublished meanwhile stays unpublished). Every storefront
 * read, partial index and catalog trigger keys on `published`, so one UPDATE of the products hides
 * them from the listing, search, suggestions, facets and detail, and moves the catalog version that
 * every process's remembered totals, facets and rankings hold at (docs/decisions.md 2026-12-02).
 *
 * A move is one conditional UPDATE of the shop's row (`status in from`): of two concurrent moves
 * exactly one wins, the other learns the state it found (409 SHOP_WRONG_STATE). The row lock it takes
 * is what checkout, coupon claims and publishing take in share mode (catalog/shop-status.ts), so a
 * checkout of the shop's products either commits before the suspension or sees it and is refused.
 */
const MOVES = {
  suspend: { from: [ShopStatus.Active], to: ShopStatus.Suspended, products: { from: ProductStatus.Published, to: ProductStatus.Held }, publishes: EventTypes.SHOP_SUSPENDED, verb: 'suspended' },
  reinstate: { from: [ShopStatus.Suspended], to: ShopStatus.Active, products: { from: ProductStatus.Held, to: ProductStatus.Published }, publishes: EventTypes.SHOP_REINSTATED, verb: 'reinstated' },
  close: { from: [ShopStatus.Active, ShopStatus.Suspended], to: ShopStatus.Closed, products: { from: ProductStatus.Published, to: ProductStatus.Held }, publishes: EventTypes.SHOP_CLOSED, verb: 'closed' },
} as const satisfies Record<string, { from: readonly ShopStatus[]; to: ShopStatus; products: { from: ProductStatus; to: ProductStatus }; publishes: EventType; verb: string }>;

export type ShopMove = keyof typeof MOVES;

/** The shop's row as a move found it. */
export interface ShopState {
  id: number;
  status: ShopStatus;
  statusReason: string | null;
  statusChangedAt: Date | null;
}

/**
 * Moves the shop (in `tx`'s transaction): the shop row, its products, and the event. Answers 404 for
 * an unknown shop and 409 SHOP_WRONG_STATE when the shop is not where the move starts. `reason`
 * is the suspension's (required there; a reinstatement or a closing keeps the last one given).
 */
export async function moveShop(tx: ServiceContext, shopId: number, move: ShopMove, reason?: string): Promise<ShopState> {
  const rule = MOVES[move];
  const db = typedSql(tx.em);
  const moved = await auditedWrite(tx, { type: 'Shop', id: shopId }, () =>
    db
      .updateTable('Shop')
      .set({ status: rule.to, statusChangedAt: sql<Date>`clock_timestamp()`, ...(reason !== undefined ? { statusReason: reason } : {}) })
      .where('id', '=', shopId)
      .where('status', 'in', [...rule.from])
      .returning(['id', 'status', 'statusReason', 'statusChangedAt'])
      .executeTakeFirst(),
  );
  if (!moved) {
    const found = await db.selectFrom('Shop').select('status').where('id', '=', shopId).executeTakeFirst();
    if (!found) throw notFound('Shop', { shop_id: shopId });
    throw conflict('SHOP_WRONG_STATE', `This shop is ${found.status}; only a shop that is ${rule.from.join(' or ')} can be ${rule.verb}`, {
      shop_id: shopId,
      status: found.status,
      expected: [...rule.from],
    });
  }
  // A suspended shop being closed has no published product left: the update finds none.
  const products = await db.updateTable('Product').set({ status: rule.products.to }).where('shop', '=', shopId).where('status', '=', rule.products.from).returning('id').execute();
  for (const { id } of products) recordChange(tx, { type: 'Product', id, action: 'update', before: { status: rule.products.from }, after: { status: rule.products.to }, shopId });
  const payload = { shopId, status: moved.status };
  if (rule.publishes === EventTypes.SHOP_SUSPENDED) {
    emit(tx, { type: EventTypes.SHOP_SUSPENDED, shopIds: [shopId], customerId: null, payload: { ...payload, reason: moved.statusReason ?? '' } });
  } else {
    emit(tx, { type: rule.publishes, shopIds: [shopId], customerId: null, payload });
  }
  return moved;
}
