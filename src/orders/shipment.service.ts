import { conflict, notFound, refused } from '../errors.js';
import { intArray } from '../db/sql.js';
import { OrderStatus } from '../entities/order.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireOperator } from '../shared/guards.js';
import { EventTypes } from '../events/event-types.js';
import { emit, inTransaction } from '../shared/transaction.js';
import { id, parseInput, z } from '../shared/validate.js';
import { orderViews, type OrderView } from './order-view.js';
import { activeCompanyName, companyCode } from '../shipping/shipping-company.service.js';
import { closeShippingIfDone } from './fulfilment.js';

const ShipmentInput = z.strictObject({
  orderId: id,
  companyCode,
  trackingNumber: z.string().trim().min(1).max(80),
  /** Absent: everything not yet shipped goes in this parcel. */
  items: z
    .array(z.strictObject({ orderItemId: id, quantity: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .optional(),
});

/**
 * The shop ships a paid order, whole or in parts, with a company of the dictionary. Shipped
 * quantities are guarded per item (never more than was bought and not refunded); when every unit is
 * shipped or refunded the order becomes `shipped`.
 */
export async function createShipment(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const operator = requireOperator(ctx);
  const data = parseInput(ShipmentInput, input);
  return inTransaction(ctx, async (tx) => {
    const [order] = await tx.em.execute<{ status: OrderStatus; customer_id: number }[]>(
      'select status, customer_id from shop_order where id = ? and shop_id = ? for update',
      [data.orderId, operator.shopId],
    );
    if (!order) throw notFound('Order', { order_id: data.orderId });
    if (order.status !== OrderStatus.Paid) {
      throw conflict('ORDER_NOT_SHIPPABLE', 'Only a paid order that is not fully shipped can be shipped', { status: order.status });
    }
    const carrier = await activeCompanyName(tx.em, data.companyCode);
    const items = await tx.em.execute<{ id: number; quantity: number; shipped_quantity: number; refund_quantity: number }[]>(
      'select id, quantity, shipped_quantity, refund_quantity from order_item where order_id = ? order by id',
      [data.orderId],
    );
    // Units in a money-only refund (open or completed) are not shipped.
    const left = (i: (typeof items)[number]) => i.quantity - i.shipped_quantity - i.refund_quantity;
    const parts = data.items
      ? mergeParts(data.items)
      : items.filter((i) => left(i) > 0).map((i) => ({ orderItemId: i.id, quantity: left(i) }));
    if (parts.length === 0) throw conflict('ORDER_NOT_SHIPPABLE', 'Nothing is left to ship: the remaining units are being refunded', { status: order.status });
    for (const part of parts) {
      const item = items.find((i) => i.id === part.orderItemId);
      if (!item) throw refused('ORDER_ITEM_NOT_IN_ORDER', `Item ${part.orderItemId} is not part of this order`, { order_item_id: part.orderItemId });
      if (part.quantity > left(item)) {
        throw refused('SHIPMENT_EXCEEDS_ORDER', `Item ${item.id} has only ${left(item)} left to ship`, {
          order_item_id: item.id,
          remaining: left(item),
        });
      }
    }
    const [shipment] = await tx.em.execute<{ id: number }[]>(
      'insert into shipment (order_id, company_code, carrier, tracking_number, created_at) values (?, ?, ?, ?, now()) returning id',
      [data.orderId, data.companyCode, carrier, data.trackingNumber],
    );
    if (data.items) {
      await tx.em.execute(
        `insert into shipment_item (shipment_id, order_item_id, quantity) select ?, i, q from unnest(?::int[], ?::int[]) as p(i, q)`,
        [shipment.id, intArray(parts.map((p) => p.orderItemId)), intArray(parts.map((p) => p.quantity))],
      );
    }
    await tx.em.execute(
      `update order_item set shipped_quantity = shipped_quantity + p.q from unnest(?::int[], ?::int[]) as p(i, q) where order_item.id = p.i`,
      [intArray(parts.map((p) => p.orderItemId)), intArray(parts.map((p) => p.quantity))],
    );
    await closeShippingIfDone(tx.em, data.orderId);
    emit(tx, {
      type: EventTypes.SHIPMENT_CREATED,
      shopIds: [operator.shopId],
      customerId: order.customer_id,
      payload: { orderId: data.orderId, shipmentId: shipment.id, companyCode: data.companyCode, carrier, trackingNumber: data.trackingNumber },
    });
    return (await orderViews(tx.em, [data.orderId]))[0];
  });
}

/** The same item named twice in one request counts once with the summed quantity. */
export function mergeParts(parts: { orderItemId: number; quantity: number }[]) {
  const merged = new Map<number, number>();
  for (const p of parts) merged.set(p.orderItemId, (merged.get(p.orderItemId) ?? 0) + p.quantity);
  return [...merged].map(([orderItemId, quantity]) => ({ orderItemId, quantity }));
}
