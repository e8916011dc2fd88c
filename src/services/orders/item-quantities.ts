import { sql } from 'kysely';

/** Units of order items named by a request (a shipment's parcel, an after-sale request). */
export interface ItemQuantity {
  orderItemId: number;
  quantity: number;
}

/** The same item named twice in one request counts once with the summed quantity. */
export function mergeParts(parts: ItemQuantity[]): ItemQuantity[] {
  const merged = new Map<number, number>();
  for (const p of parts) merged.set(p.orderItemId, (merged.get(p.orderItemId) ?? 0) + p.quantity);
  return [...merged].map(([orderItemId, quantity]) => ({ orderItemId, quantity }));
}

/**
 * The parts as a table `p(item, quantity)` to join in a typed statement, so one update moves the
 * counters of every item of a request (`... from itemQuantities(parts) where OrderItem.id = p.item`).
 */
export const itemQuantities = (parts: ItemQuantity[]) =>
  sql<{ item: number; quantity: number }>`(select unnest(${parts.map((p) => p.orderItemId)}::int[]) as item, unnest(${parts.map((p) => p.quantity)}::int[]) as quantity)`.as('p');
