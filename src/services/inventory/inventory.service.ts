import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type NotNull } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { MovementKind, StockMovement } from '../../entities/stock-movement.entity.js';
import type { CancelReason } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';

/**
 * The one owner of stock: SKU stock (`sku.stock`) and flash-sale activity stock
 * (`flash_sale_item.remaining_stock`) change here only, each change with its movement row (which
 * order, refund or adjustment, how much), in the caller's transaction. Checkout's one write
 * statement is the exception that proves it: it takes stock and writes the same movements inside its
 * own statement (`checkout/place-orders.repository.ts`), and the differential test holds it equal to
 * the transactional writer, which takes through here. A test reads the sources for any other writer
 * of these columns.
 *
 * Every decrement is guarded (`stock >= units`) and the CHECKs back it. Rows are locked in the order
 * every writer uses: activity items by ascending id, then SKUs by ascending id, so give-backs, edits
 * and checkouts cannot deadlock each other.
 */

/** Units of one counter for one order, refund or adjustment: what a movement records. */
interface Line {
  units: number;
  orderId?: number | null;
  refundId?: number | null;
}
type SkuLine = Line & { skuId: number };
type ActivityLine = Line & { flashSaleItemId: number };

/** Sums lines per counter id. */
function perCounter<L extends Line>(lines: readonly L[], idOf: (line: L) => number): Map<number, number> {
  const sums = new Map<number, number>();
  for (const line of lines) sums.set(idOf(line), (sums.get(idOf(line)) ?? 0) + line.units);
  return new Map([...sums].sort(([a], [b]) => a - b));
}

/**
 * Appends one movement per counter and order (or refund), summing its lines (a flash-sale line split
 * into an activity-priced and a standard item is one SKU movement), signed by `sign`; what sums to
 * zero moves nothing.
 */
async function record(em: EntityManager, kind: MovementKind, sign: 1 | -1, lines: readonly (SkuLine | ActivityLine)[]): Promise<void> {
  const rows = new Map<string, { sku: number | null; flashSaleItem: number | null; delta: number; order: number | null; refund: number | null }>();
  for (const line of lines) {
    const sku = 'skuId' in line ? line.skuId : null;
    const flashSaleItem = 'flashSaleItemId' in line ? line.flashSaleItemId : null;
    const key = `${sku}/${flashSaleItem}/${line.orderId ?? null}/${line.refundId ?? null}`;
    const row = rows.get(key) ?? { sku, flashSaleItem, delta: 0, order: line.orderId ?? null, refund: line.refundId ?? null };
    row.delta += sign * line.units;
    rows.set(key, row);
  }
  const moved = [...rows.values()].filter((row) => row.delta !== 0).map((row) => ({ ...row, kind, createdAt: new Date() }));
  if (moved.length > 0) await em.insertMany(StockMovement, moved);
}

/** Adds units back to activity items (ascending ids, one locking read then one update). */
async function addActivityStock(em: EntityManager, lines: readonly ActivityLine[]): Promise<void> {
  const given = perCounter(lines, (l) => l.flashSaleItemId);
  if (given.size === 0) return;
  const ids = [...given.keys()];
  const db = typedSql(em);
  await db.selectFrom('FlashSaleItem').select('id').where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
  const back = sql<{ id: number; units: number }>`unnest(${ids}::int[], ${[...given.values()]}::int[])`;
  await db
    .updateTable('FlashSaleItem')
    .from(back.as<'d'>(sql`d(id, units)`))
    .set((eb) => ({ remainingStock: eb('FlashSaleItem.remainingStock', '+', eb.ref('d.units')) }))
    .whereRef('FlashSaleItem.id', '=', 'd.id')
    .execute();
}

/** Adds units back to SKUs (ascending ids, one locking read then one update). */
async function addSkuStock(em: EntityManager, lines: readonly SkuLine[]): Promise<void> {
  const given = perCounter(lines, (l) => l.skuId);
  if (given.size === 0) return;
  const ids = [...given.keys()];
  const db = typedSql(em);
  if (ids.length > 1) await db.selectFrom('Sku').select('id').where('id', 'in', ids).orderBy('id').forNoKeyUpdate().execute();
  const back = sql<{ id: number; units: number }>`unnest(${ids}::int[], ${[...given.values()]}::int[])`;
  await db
    .updateTable('Sku')
    .from(back.as<'d'>(sql`d(id, units)`))
    .set((eb) => ({ stock: eb('Sku.stock', '+', eb.ref('d.units')) }))
    .whereRef('Sku.id', '=', 'd.id')
    .execute();
}

/** Gives back activity units, then SKU units (the lock order), and records them. */
async function giveBack(em: EntityManager, kind: MovementKind, activity: ActivityLine[], skus: SkuLine[]): Promise<void> {
  await addActivityStock(em, activity);
  await addSkuStock(em, skus);
  await record(em, kind, 1, [...activity, ...skus]);
}

/**
 * Subscriber of `order.cancelled` (services/wiring.ts), so no canceller has to remember it: what a
 * cancelled order took at checkout comes back. A pending order cancelled (by its customer or the
 * payment window) and an expired group's paid seats give back everything; an order closed because
 * refunds covered it gave its units back with each refund (`giveBackRefundStock`), so nothing here.
 */
export async function giveBackStockOfCancelledOrders(tx: ServiceContext, cancelled: readonly { orderId: number; reason: CancelReason | null }[]): Promise<void> {
  const orders = (...reasons: CancelReason[]) => cancelled.filter((m) => m.reason !== null && reasons.includes(m.reason)).map((m) => m.orderId);
  await giveBackOrderStock(tx.em, orders('customer', 'payment_timeout'), MovementKind.Cancellation);
  await giveBackOrderStock(tx.em, orders('group_expired'), MovementKind.GroupExpiry);
}

/**
 * Everything some orders took at checkout comes back: their SKU units, and their flash-sale-priced
 * units to the activity (a cancelled pending order, the paid seats of an expired group).
 */
async function giveBackOrderStock(em: EntityManager, orderIds: readonly number[], kind: MovementKind.Cancellation | MovementKind.GroupExpiry): Promise<void> {
  if (orderIds.length === 0) return;
  const db = typedSql(em);
  const skus = await db
    .selectFrom('OrderItem')
    .select((eb) => ['sku', 'order', eb.cast<number>(eb.fn.sum('quantity'), 'integer').as('units')])
    .where('order', 'in', [...orderIds])
    .groupBy(['sku', 'order'])
    .execute();
  const activity = await db
    .selectFrom('OrderItem')
    .select((eb) => ['flashSaleItem', 'order', eb.cast<number>(eb.fn.sum('quantity'), 'integer').as('units')])
    .where('order', 'in', [...orderIds])
    .where('flashSaleItem', 'is not', null)
    .$narrowType<{ flashSaleItem: NotNull }>()
    .groupBy(['flashSaleItem', 'order'])
    .execute();
  await giveBack(
    em,
    kind,
    activity.map((a) => ({ flashSaleItemId: a.flashSaleItem, orderId: a.order, units: a.units })),
    skus.map((s) => ({ skuId: s.sku, orderId: s.order, units: s.units })),
  );
}

/**
 * The units of a refund completed before shipment come back: to their SKUs, and the flash-sale-priced
 * ones to their activity.
 */
export async function giveBackRefundStock(em: EntityManager, refundId: number): Promise<void> {
  const lines = await typedSql(em)
    .selectFrom('RefundItem as ri')
    .innerJoin('OrderItem as oi', 'oi.id', 'ri.orderItem')
    .select((eb) => ['oi.sku', 'oi.flashSaleItem', 'oi.order', eb.cast<number>(eb.fn.sum('ri.quantity'), 'integer').as('units')])
    .where('ri.refund', '=', refundId)
    .groupBy(['oi.sku', 'oi.flashSaleItem', 'oi.order'])
    .execute();
  const activity = lines.flatMap((l) => (l.flashSaleItem === null ? [] : [{ flashSaleItemId: l.flashSaleItem, orderId: l.order, refundId, units: l.units }]));
  await giveBack(em, MovementKind.Refund, activity, lines.map((l) => ({ skuId: l.sku, orderId: l.order, refundId, units: l.units })));
}

/**
 * Checkout (the transactional writer): takes each activity item's units for its orders, ascending ids,
 * each decrement guarded. Returns the first item short of units (nothing is then recorded; the caller
 * rolls back), or undefined when every unit was taken.
 */
export async function takeActivityStock(em: EntityManager, lines: readonly ActivityLine[]): Promise<{ flashSaleItemId: number } | undefined> {
  for (const [itemId, units] of perCounter(lines, (l) => l.flashSaleItemId)) {
    const taken = await typedSql(em)
      .updateTable('FlashSaleItem')
      .set((eb) => ({ remainingStock: eb('remainingStock', '-', units) }))
      .where('id', '=', itemId)
      .where('remainingStock', '>=', units)
      .returning('id')
      .executeTakeFirst();
    if (!taken) return { flashSaleItemId: itemId };
  }
  await record(em, MovementKind.Sale, -1, lines);
  return undefined;
}

/** What `takeSkuStock` could not take: the SKU, the units asked for and what it had. */
export interface SkuShortfall {
  skuId: number;
  requested: number;
  available: number;
}

/**
 * Checkout (the transactional writer): takes each SKU's units for its orders, ascending ids, each
 * decrement guarded. Returns the stock left per SKU, or the first SKU short of units (the caller rolls
 * back).
 */
export async function takeSkuStock(em: EntityManager, lines: readonly SkuLine[]): Promise<{ remaining: Map<number, number> } | { short: SkuShortfall }> {
  const db = typedSql(em);
  const remaining = new Map<number, number>();
  for (const [skuId, units] of perCounter(lines, (l) => l.skuId)) {
    const taken = await db
      .updateTable('Sku')
      .set((eb) => ({ stock: eb('stock', '-', units) }))
      .where('id', '=', skuId)
      .where('stock', '>=', units)
      .returning('stock')
      .executeTakeFirst();
    if (!taken) {
      const sku = await db.selectFrom('Sku').select('stock').where('id', '=', skuId).executeTakeFirstOrThrow();
      return { short: { skuId, requested: units, available: sku.stock } };
    }
    remaining.set(skuId, taken.stock);
  }
  await record(em, MovementKind.Sale, -1, lines);
  return { remaining };
}

/** A shop's change of one SKU's stock: `set` is a stock-take (the counted figure), `delta` adds (or removes) units. */
export type StockChange = { skuId: number; set: number } | { skuId: number; delta: number };

/**
 * The shop's own stock changes (product upsert: a new SKU's first stock, a stock-take, a delta), each
 * an `adjustment` movement of what it actually changed, ascending ids. A delta that would take a SKU
 * below zero changes nothing for that SKU: its id is returned (the caller refuses and rolls back).
 */
export async function adjustSkuStock(em: EntityManager, changes: readonly StockChange[]): Promise<Set<number>> {
  const db = typedSql(em);
  const short = new Set<number>();
  const moved: SkuLine[] = [];
  for (const change of [...changes].sort((a, b) => a.skuId - b.skuId)) {
    if ('set' in change) {
      // The figure before, read under the row lock the update then keeps: the movement is the difference.
      const before = db.selectFrom('Sku').select(['id', 'stock']).where('id', '=', change.skuId).forNoKeyUpdate();
      const row = await db
        .updateTable('Sku')
        .from(before.as('b'))
        .set({ stock: change.set })
        .whereRef('Sku.id', '=', 'b.id')
        .returning((eb) => eb(eb.val(change.set), '-', eb.ref('b.stock')).as('delta'))
        .executeTakeFirst();
      if (row) moved.push({ skuId: change.skuId, units: row.delta });
    } else if (change.delta !== 0) {
      const row = await db
        .updateTable('Sku')
        .set((eb) => ({ stock: eb('stock', '+', change.delta) }))
        .where('id', '=', change.skuId)
        .where((eb) => eb(eb('stock', '+', change.delta), '>=', 0))
        .returning('id')
        .executeTakeFirst();
      if (row) moved.push({ skuId: change.skuId, units: change.delta });
      else short.add(change.skuId);
    }
  }
  await record(em, MovementKind.Adjustment, 1, moved);
  return short;
}

/**
 * A flash-sale item's reserve set by the shop (a new item's, or an edit's): the activity stock left
 * moves by the change of the reserve, recorded as an `adjustment`. False when the new reserve is
 * below what the item has already sold (nothing changes).
 */
export async function setActivityReserve(em: EntityManager, flashSaleItemId: number, reserved: number): Promise<boolean> {
  const db = typedSql(em);
  const before = db.selectFrom('FlashSaleItem').select(['id', 'reservedStock']).where('id', '=', flashSaleItemId).forNoKeyUpdate();
  const row = await db
    .updateTable('FlashSaleItem')
    .from(before.as('b'))
    .set((eb) => ({
      reservedStock: reserved,
      remainingStock: eb(eb('FlashSaleItem.remainingStock', '+', reserved), '-', eb.ref('b.reservedStock')),
    }))
    .whereRef('FlashSaleItem.id', '=', 'b.id')
    .where((eb) => eb(eb(eb('FlashSaleItem.remainingStock', '+', reserved), '-', eb.ref('b.reservedStock')), '>=', 0))
    .returning((eb) => eb(eb.val(reserved), '-', eb.ref('b.reservedStock')).as('delta'))
    .executeTakeFirst();
  if (!row) return false;
  await record(em, MovementKind.Adjustment, 1, [{ flashSaleItemId, units: row.delta }]);
  return true;
}
