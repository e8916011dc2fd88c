import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { transitionOrder } from './order-lifecycle.js';

/**
 * Closes the shipping of a paid order once every unit is shipped or refunded and no money-only
 * refund is still open (the guards of `ship` and `closeRefunded`): the order becomes `shipped`, or,
 * when nothing was shipped, `cancelled` with reason `refunded`. Call it with the order row locked,
 * after a shipment or a refund completion. Returns the new state, or null when the order stays.
 */
export async function closeShippingIfDone(tx: ServiceContext, orderId: number): Promise<OrderStatus | null> {
  const moved = await transitionOrder(tx, ['ship', 'closeRefunded'], orderId, { reason: 'refunded' });
  return moved?.to ?? null;
}
