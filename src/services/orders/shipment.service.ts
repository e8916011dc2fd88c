import { conflict, notFound, refused } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { Shipment } from '../../entities/shipment.entity.js';
import { ShipmentItem } from '../../entities/shipment-item.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { EventTypes } from '../events/event-types.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { id, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { orderViews, type OrderView } from './order-view.js';
import { activeCompanyName, companyCode } from '../shipping/shipping-company.service.js';
import { closeShippingIfDone } from './fulfilment.js';
import { itemQuantities, mergeParts } from './item-quantities.js';
import { refusals } from '../../error-codes.js';

export const ShipmentInput = z.strictObject({
  orderId: id,
  companyCode,
  trackingNumber: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(80),
  /** Absent: everything not yet shipped goes in this parcel. */
  items: z
    .array(z.strictObject({ orderItemId: id, quantity: z.number().int().min(1).max(1_000_000) }))
    .min(1)
    .optional(),
});

export const createShipmentRefusals = refusals('NOT_FOUND', 'ORDER_ITEM_NOT_IN_ORDER', 'ORDER_NOT_SHIPPABLE', 'SHIPMENT_EXCEEDS_ORDER', 'SHIPPING_COMPANY_UNKNOWN');

/**
 * The shop ships a paid order, whole or in parts, with a company of the dictionary. Shipped
 * quantities are guarded per item (never more than was bought and not refunded); when every unit is
 * shipped or refunded the order becomes `shipped`.
 */
export async function createShipment(ctx: ServiceContext, input: unknown): Promise<OrderView> {
  const operator = requireShopPermission(ctx, Permission.ShopOrdersFulfil);
  const data = parseInput(ShipmentInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const order = await db
      .selectFrom('Order')
      .select(['status', 'customer'])
      .where('id', '=', data.orderId)
      .where('shop', '=', operator.shopId)
      .forUpdate()
      .executeTakeFirst();
    if (!order) throw notFound('Order', { order_id: data.orderId });
    if (order.status !== OrderStatus.Paid) {
      throw conflict('ORDER_NOT_SHIPPABLE', 'Only a paid order that is not fully shipped can be shipped', { status: order.status });
    }
    const carrier = await activeCompanyName(tx.em, data.companyCode);
    const items = await db
      .selectFrom('OrderItem')
      .select(['id', 'quantity', 'shippedQuantity', 'refundQuantity'])
      .where('order', '=', data.orderId)
      .orderBy('id')
      .execute();
    // Units in a money-only refund (open or completed) are not shipped.
    const left = (i: (typeof items)[number]) => i.quantity - i.shippedQuantity - i.refundQuantity;
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
    const shipment = tx.em.create(Shipment, { order: data.orderId, company: data.companyCode, carrier, trackingNumber: data.trackingNumber });
    // A parcel without contents carries the whole order.
    if (data.items) for (const part of parts) tx.em.create(ShipmentItem, { shipment, orderItem: part.orderItemId, quantity: part.quantity });
    await tx.em.flush();
    // Under the order's lock, so the quantities checked above still hold; the CHECK backs them.
    await db
      .updateTable('OrderItem')
      .from(itemQuantities(parts))
      .set((eb) => ({ shippedQuantity: eb('OrderItem.shippedQuantity', '+', eb.ref('p.quantity')) }))
      .whereRef('OrderItem.id', '=', 'p.item')
      .execute();
    await closeShippingIfDone(tx, data.orderId);
    emit(tx, {
      type: EventTypes.SHIPMENT_CREATED,
      shopIds: [operator.shopId],
      customerId: order.customer,
      payload: { orderId: data.orderId, shipmentId: shipment.id, companyCode: data.companyCode, carrier, trackingNumber: data.trackingNumber },
    });
    return (await orderViews(tx.em, [data.orderId]))[0];
  });
}
