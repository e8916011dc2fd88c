import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';

/**
 * Closes the shipping of a paid order once every unit is shipped or refunded and no money-only
 * refund is still open (its units might have to ship after all). The order becomes `shipped`, or,
 * when nothing was shipped, `cancelled` with reason `refunded`. Call it with the order row locked,
 * after a shipment or a refund completion. Returns the new state, or null when the order stays.
 */
export async function closeShippingIfDone(em: EntityManager, orderId: number): Promise<OrderStatus | null> {
  const db = typedSql(em);
  const progress = db
    .selectFrom('OrderItem')
    .select((eb) => [
      eb.fn<boolean>('bool_or', [eb('shippedQuantity', '>', 0)]).as('shipped'),
      eb.fn<boolean>('bool_and', [eb(eb('shippedQuantity', '+', eb.ref('refundQuantity')), '>=', eb.ref('quantity'))]).as('done'),
    ])
    .where('order', '=', orderId);
  const now = sql<Date>`now()`;
  const row = await db
    .updateTable('Order')
    .from(progress.as('s'))
    .set((eb) => ({
      status: eb.case().when('s.shipped', '=', true).then(OrderStatus.Shipped).else(OrderStatus.Cancelled).end(),
      shippedAt: eb.case().when('s.shipped', '=', true).then(now).end(),
      cancelledAt: eb.case().when('s.shipped', '=', true).then(null).else(now).end(),
      cancelReason: eb.case().when('s.shipped', '=', true).then(null).else('refunded').end(),
    }))
    .where('Order.id', '=', orderId)
    .where('Order.status', '=', OrderStatus.Paid)
    .where('s.done', '=', true)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('Refund as r')
            .select(eb.lit(1).as('open'))
            .whereRef('r.order', '=', 'Order.id')
            .where('r.kind', '=', RefundKind.Refund)
            .where('r.status', '=', RefundStatus.Requested),
        ),
      ),
    )
    .returning('Order.status')
    .executeTakeFirst();
  // Refunded in full before anything shipped: the order never sold anything, so its lines leave sold_count.
  if (row?.status === OrderStatus.Cancelled) await db.updateTable('OrderItem').set({ sold: false }).where('order', '=', orderId).execute();
  return row?.status ?? null;
}
