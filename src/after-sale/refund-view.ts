import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate, opt } from '../shared/values.js';
import { BASE_CURRENCY } from '../currency.js';
import { intArray } from '../db/sql.js';
import type { RefundKind, RefundStatus } from '../entities/refund.entity.js';

export interface RefundItemView {
  orderItemId: number;
  productId: number;
  productName: string;
  skuName: string;
  quantity: number;
  amount: number;
}

export interface RefundView {
  id: number;
  orderId: number;
  customerId: number;
  shop: { id: number; slug: string; name: string };
  kind: RefundKind;
  status: RefundStatus;
  reason: string;
  currency: string;
  /** What completion credits: the items' amounts plus `freightAmount`. */
  amount: number;
  freightAmount: number;
  items: RefundItemView[];
  rejectReason?: string;
  /** The parcel the customer sent back (returns). */
  returnShipment?: { companyCode: string; carrier: string; trackingNumber: string; shippedAt: Date };
  createdAt: Date;
  decidedAt?: Date;
  completedAt?: Date;
  cancelledAt?: Date;
}


/** Full views of several refunds in two queries, in the order of `ids`. */
export async function refundViews(em: EntityManager, ids: number[]): Promise<RefundView[]> {
  if (ids.length === 0) return [];
  const [refunds, items] = await Promise.all([
    em.execute<any[]>(
      `select r.*, s.slug as shop_slug, s.name as shop_name, c.name as company_name
         from refund r join shop s on s.id = r.shop_id left join shipping_company c on c.code = r.return_company_code
        where r.id = any(?::int[])`,
      [intArray(ids)],
    ),
    em.execute<any[]>(
      `select ri.refund_id, ri.order_item_id, ri.quantity, ri.amount, oi.product_id, oi.product_name, oi.sku_name
         from refund_item ri join order_item oi on oi.id = ri.order_item_id
        where ri.refund_id = any(?::int[]) order by ri.id`,
      [intArray(ids)],
    ),
  ]);
  const itemsByRefund = new Map<number, RefundItemView[]>();
  for (const i of items) {
    const list = itemsByRefund.get(i.refund_id) ?? [];
    list.push({ orderItemId: i.order_item_id, productId: i.product_id, productName: i.product_name, skuName: i.sku_name, quantity: i.quantity, amount: i.amount });
    itemsByRefund.set(i.refund_id, list);
  }
  const byId = new Map(
    refunds.map((r): [number, RefundView] => [
      r.id,
      {
        id: r.id,
        orderId: r.order_id,
        customerId: r.customer_id,
        shop: { id: r.shop_id, slug: r.shop_slug, name: r.shop_name },
        kind: r.kind,
        status: r.status,
        reason: r.reason,
        currency: BASE_CURRENCY.code,
        amount: r.amount,
        freightAmount: r.freight_amount,
        items: itemsByRefund.get(r.id) ?? [],
        rejectReason: opt(r.reject_reason),
        returnShipment: r.shipped_back_at
          ? { companyCode: r.return_company_code, carrier: r.company_name, trackingNumber: r.return_tracking_number, shippedAt: toDate(r.shipped_back_at) }
          : undefined,
        createdAt: toDate(r.created_at),
        decidedAt: toDate(r.decided_at),
        completedAt: toDate(r.completed_at),
        cancelledAt: toDate(r.cancelled_at),
      },
    ]),
  );
  return ids.map((i) => byId.get(i)).filter((r): r is RefundView => r !== undefined);
}
