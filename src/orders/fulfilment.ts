import type { EntityManager } from '@mikro-orm/postgresql';
import { OrderStatus } from '../entities/order.entity.js';

/**
 * Closes the shipping of a paid order once every unit is shipped or refunded and no money-only
 * refund is still open (its units might have to ship after all). The order becomes `shipped`, or,
 * when nothing was shipped, `cancelled` with reason `refunded`. Call it with the order row locked,
 * after a shipment or a refund completion. Returns the new state, or null when the order stays.
 */
export async function closeShippingIfDone(em: EntityManager, orderId: number): Promise<OrderStatus | null> {
  const [row] = await em.execute<{ status: OrderStatus }[]>(
    `update shop_order o
        set status = case when s.shipped then 'shipped' else 'cancelled' end,
            shipped_at = case when s.shipped then now() end,
            cancelled_at = case when s.shipped then null else now() end,
            cancel_reason = case when s.shipped then null else 'refunded' end
       from (select bool_or(shipped_quantity > 0) as shipped, bool_and(shipped_quantity + refund_quantity >= quantity) as done
               from order_item where order_id = ?) s
      where o.id = ? and o.status = 'paid' and s.done
        and not exists (select 1 from refund r where r.order_id = o.id and r.kind = 'refund' and r.status = 'requested')
      returning o.status`,
    [orderId, orderId],
  );
  // Refunded in full before anything shipped: the order never sold anything, so its lines leave sold_count.
  if (row?.status === OrderStatus.Cancelled) await em.execute('update order_item set sold = false where order_id = ?', [orderId]);
  return row?.status ?? null;
}
