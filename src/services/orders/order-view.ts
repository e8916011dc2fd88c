import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate, opt } from '../../shared/values.js';
import { BASE_CURRENCY } from '../../currency.js';
import { intArray } from '../../db/sql.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { CANCEL_REASONS, OrderStatus } from '../../entities/order.entity.js';
import type { RegionCode } from '../shipping/regions.js';
import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';
import { ShippingAddressView } from '../shipping/shipping-address.js';
import { orderRowsById, type OrderItemRow, type OrderRow, type ShipmentRow } from './order.repository.js';

export type { OrderRow };

export const OrderItemView = z.strictObject({
  id,
  productId: id,
  skuId: id,
  productName: z.string(),
  skuName: z.string(),
  unitPrice: money.describe('Unit price snapshot taken at checkout'),
  quantity: count,
  amount: money,
  pricing: z.enum(ItemPricing),
  shippedQuantity: count,
  flashSaleItemId: id.optional().describe('The flash-sale activity item that priced a flash_sale item'),
  refundQuantity: count.describe('Units in open or completed refunds and returns'),
  reviewed: z.boolean().describe('The customer reviewed it (one review per item)'),
});
export type OrderItemView = z.infer<typeof OrderItemView>;

/** Units of one order item in a parcel. */
export const ShipmentPartView = z.strictObject({ orderItemId: id, quantity: count });

export const ShipmentView = z.strictObject({
  id,
  companyCode: z.string().describe('Code of the shipping company (see shippingCompanies)'),
  carrier: z.string().describe("The company's name when the parcel was sent"),
  trackingNumber: z.string(),
  createdAt: timestamp,
  items: z.array(ShipmentPartView).optional().describe('Absent when the parcel carried the whole order'),
});
export type ShipmentView = z.infer<typeof ShipmentView>;

export const OrderView = z.strictObject({
  id,
  customerId: id,
  shop: ShopRef,
  status: z.enum(OrderStatus),
  currency: z.string(),
  itemsTotal: money,
  discount: money.describe('Realized coupon discount'),
  couponId: id.optional().describe('The coupon applied at checkout'),
  freightFee: money.describe('Computed by the server from the lines and the shipping region'),
  total: money.describe('itemsTotal - discount + freightFee'),
  shippingAddress: ShippingAddressView.describe('Where the order goes (every order has one)'),
  createdAt: timestamp,
  paidAt: timestamp.optional(),
  shippedAt: timestamp.optional(),
  deliveredAt: timestamp.optional(),
  completedAt: timestamp.optional().describe('When the after-sale window closed the order'),
  cancelledAt: timestamp.optional(),
  cancelReason: z.enum(CANCEL_REASONS).optional(),
  groupId: id.optional().describe('Group-buying order: the group it takes a seat in'),
  groupPrice: money.optional().describe('Group-buying order: the seat price snapshotted at checkout'),
  items: z.array(OrderItemView),
  shipments: z.array(ShipmentView),
});
export type OrderView = z.infer<typeof OrderView>;

/**
 * Full views of several orders in one statement whatever their number (orders with shops; their
 * items and their shipments with parcel contents as JSON lists, whose keys are the column names),
 * returned in the order of `ids`.
 */
export async function orderViews(em: EntityManager, ids: number[]): Promise<OrderView[]> {
  const byId = new Map(orderViewsFromRows(await orderRows(em, ids)).map((view) => [view.id, view]));
  return ids.map((id) => byId.get(id)).filter((o): o is OrderView => o !== undefined);
}

/**
 * The rows `orderViews` is made from (in no particular order): what a checkout's Idempotency-Key
 * keeps. SQL text (order.repository.ts), not a builder: its rows must be the ones checkout's write
 * statement builds in SQL, whole rows under their column names.
 */
export async function orderRows(em: EntityManager, ids: number[]): Promise<OrderRow[]> {
  if (ids.length === 0) return [];
  return orderRowsById.run(em, [intArray(ids)]);
}

/** Views from rows shaped as `OrderRow`, in row order. */
export function orderViewsFromRows(orders: OrderRow[]): OrderView[] {
  return orders.map(
    (o): OrderView => ({
      id: o.id,
      customerId: o.customer_id,
      shop: { id: o.shop_id, slug: o.shop_slug, name: o.shop_name },
      status: o.status,
      currency: BASE_CURRENCY.code,
      itemsTotal: o.items_total,
      discount: o.discount,
      couponId: opt(o.coupon_id),
      freightFee: o.freight_fee,
      total: o.total,
      // In the view's own order: the column's jsonb keeps its keys in another, and a replayed answer
      // must be the first one byte for byte (docs/api.md, "Retries").
      // Regions are checked when an address is written (regions.ts), so a stored one is one of the codes.
      shippingAddress: { recipient: o.shipping_address.recipient, phone: o.shipping_address.phone, region: o.shipping_address.region as RegionCode, address: o.shipping_address.address },
      createdAt: toDate(o.created_at),
      paidAt: toDate(o.paid_at),
      shippedAt: toDate(o.shipped_at),
      deliveredAt: toDate(o.delivered_at),
      completedAt: toDate(o.completed_at),
      cancelledAt: toDate(o.cancelled_at),
      cancelReason: opt(o.cancel_reason),
      groupId: opt(o.group_id),
      groupPrice: opt(o.group_price),
      items: o.item_rows.map(toItemView),
      shipments: o.shipment_rows.map(toShipmentView),
    }),
  );
}

function toItemView(i: OrderItemRow): OrderItemView {
  return {
    id: i.id, productId: i.product_id, skuId: i.sku_id, productName: i.product_name, skuName: i.sku_name,
    unitPrice: i.unit_price, quantity: i.quantity, amount: i.amount, pricing: i.pricing, shippedQuantity: i.shipped_quantity, refundQuantity: i.refund_quantity, reviewed: i.reviewed ?? false,
    flashSaleItemId: opt(i.flash_sale_item_id),
  };
}

function toShipmentView(s: ShipmentRow): ShipmentView {
  const parts = s.items.map((p) => ({ orderItemId: p.order_item_id, quantity: p.quantity }));
  return { id: s.id, companyCode: s.company_code, carrier: s.carrier, trackingNumber: s.tracking_number, createdAt: toDate(s.created_at), items: parts.length ? parts : undefined };
}
