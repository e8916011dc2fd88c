import type { EntityManager } from '@mikro-orm/postgresql';
import { opt } from '../../shared/values.js';
import { BASE_CURRENCY } from '../../currency.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

/** The views of refunds and returns: REST publishes these schemas and GraphQL's types are made from them. */
export const RefundItemView = z.strictObject({ orderItemId: id, productId: id, productName: z.string(), skuName: z.string(), quantity: count, amount: money });
export type RefundItemView = z.infer<typeof RefundItemView>;

/** The parcel the customer sent back (returns). */
export const ReturnShipmentView = z.strictObject({ companyCode: z.string(), carrier: z.string(), trackingNumber: z.string(), shippedAt: timestamp });
export type ReturnShipmentView = z.infer<typeof ReturnShipmentView>;

export const RefundView = z.strictObject({
  id,
  orderId: id,
  customerId: id,
  shop: ShopRef,
  kind: z.enum(RefundKind),
  status: z.enum(RefundStatus),
  reason: z.string(),
  currency: z.string(),
  amount: money.describe("What completion credits: the items' amounts plus freightAmount"),
  freightAmount: money,
  items: z.array(RefundItemView),
  rejectReason: z.string().optional(),
  returnShipment: ReturnShipmentView.optional(),
  createdAt: timestamp,
  decidedAt: timestamp.optional(),
  completedAt: timestamp.optional(),
  cancelledAt: timestamp.optional(),
});
export type RefundView = z.infer<typeof RefundView>;

/** Full views of several refunds in two queries, in the order of `ids`. */
export async function refundViews(em: EntityManager, ids: number[]): Promise<RefundView[]> {
  if (ids.length === 0) return [];
  const db = typedSql(em);
  const [refunds, items] = await Promise.all([
    db
      .selectFrom('Refund as r')
      .innerJoin('Shop as s', 's.id', 'r.shop')
      .leftJoin('ShippingCompany as c', 'c.code', 'r.returnCompany')
      .selectAll('r')
      .select(['s.slug as shopSlug', 's.name as shopName', 'c.name as companyName'])
      .where('r.id', 'in', ids)
      .execute(),
    db
      .selectFrom('RefundItem as ri')
      .innerJoin('OrderItem as oi', 'oi.id', 'ri.orderItem')
      .select(['ri.refund', 'ri.orderItem', 'ri.quantity', 'ri.amount', 'oi.product', 'oi.productName', 'oi.skuName'])
      .where('ri.refund', 'in', ids)
      .orderBy('ri.id')
      .execute(),
  ]);
  const itemsByRefund = new Map<number, RefundItemView[]>();
  for (const i of items) {
    const list = itemsByRefund.get(i.refund) ?? [];
    list.push({ orderItemId: i.orderItem, productId: i.product, productName: i.productName, skuName: i.skuName, quantity: i.quantity, amount: i.amount });
    itemsByRefund.set(i.refund, list);
  }
  const byId = new Map(refunds.map((r) => [r.id, toRefundView(r, itemsByRefund.get(r.id) ?? [])]));
  return ids.map((i) => byId.get(i)).filter((r): r is RefundView => r !== undefined);
}

type RefundRow = Database['Refund'] & { shopSlug: string; shopName: string; companyName: string | null };

function toRefundView(r: RefundRow, items: RefundItemView[]): RefundView {
  const { returnCompany, returnTrackingNumber, companyName, shippedBackAt } = r;
  return {
    id: r.id,
    orderId: r.order,
    customerId: r.customer,
    shop: { id: r.shop, slug: r.shopSlug, name: r.shopName },
    kind: r.kind,
    status: r.status,
    reason: r.reason,
    currency: BASE_CURRENCY.code,
    amount: r.amount,
    freightAmount: r.freightAmount,
    items,
    rejectReason: opt(r.rejectReason),
    // A return sent back always names its company and tracking number (a CHECK says so).
    returnShipment:
      shippedBackAt && returnCompany !== null && returnTrackingNumber !== null && companyName !== null
        ? { companyCode: returnCompany, carrier: companyName, trackingNumber: returnTrackingNumber, shippedAt: shippedBackAt }
        : undefined,
    createdAt: r.createdAt,
    decidedAt: opt(r.decidedAt),
    completedAt: opt(r.completedAt),
    cancelledAt: opt(r.cancelledAt),
  };
}
