import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate, opt } from '../../shared/values.js';
import { BASE_CURRENCY } from '../../currency.js';
import { intArray } from '../../db/sql.js';
import type { ItemPricing } from '../../entities/order-item.entity.js';
import type { CancelReason, OrderStatus, ShippingAddress } from '../../entities/order.entity.js';
import { orderRowsById, type OrderItemRow, type OrderRow, type ShipmentRow } from './order.repository.js';

export type { OrderRow };

export interface OrderItemView {
  id: number;
  productId: number;
  skuId: number;
  productName: string;
  skuName: string;
  unitPrice: number;
  quantity: number;
  amount: number;
  pricing: ItemPricing;
  shippedQuantity: number;
  /** The flash-sale activity item that priced a `flash_sale` item. */
  flashSaleItemId?: number;
  /** Units in open or completed refunds and returns. */
  refundQuantity: number;
  /** The customer reviewed it (one review per item). */
  reviewed: boolean;
}

export interface ShipmentView {
  id: number;
  companyCode: string;
  /** The company's name when the parcel was sent. */
  carrier: string;
  trackingNumber: string;
  createdAt: Date;
  /** What the parcel holds; absent when it carried the whole order. */
  items?: { orderItemId: number; quantity: number }[];
}

export interface OrderView {
  id: number;
  customerId: number;
  shop: { id: number; slug: string; name: string };
  status: OrderStatus;
  currency: string;
  itemsTotal: number;
  discount: number;
  /** The coupon applied at checkout; absent when none. */
  couponId?: number;
  freightFee: number;
  total: number;
  shippingAddress: ShippingAddress;
  createdAt: Date;
  paidAt?: Date;
  shippedAt?: Date;
  deliveredAt?: Date;
  /** When the after-sale window closed the order (its shop's earnings released). */
  completedAt?: Date;
  cancelledAt?: Date;
  cancelReason?: CancelReason;
  /** Group-buying order: the group it takes a seat in and the seat price, snapshotted at checkout. */
  groupId?: number;
  groupPrice?: number;
  items: OrderItemView[];
  shipments: ShipmentView[];
}

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
      shippingAddress: { recipient: o.shipping_address.recipient, phone: o.shipping_address.phone, region: o.shipping_address.region, address: o.shipping_address.address },
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
