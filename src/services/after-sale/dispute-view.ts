import type { EntityManager } from '@mikro-orm/postgresql';
import { opt } from '../../shared/values.js';
import { BASE_CURRENCY } from '../../currency.js';
import { typedSql } from '../../db/typed-sql.js';
import { DisputeStatus } from '../../entities/dispute.entity.js';
import { RefundKind } from '../../entities/refund.entity.js';
import { z } from '../../shared/validate.js';
import { id, money, timestamp } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

/**
 * A dispute as the customer, the shop and the platform read it: both sides' reasons and the ruling.
 * REST publishes this schema and GraphQL's type is made from it.
 */
export const DisputeView = z
  .strictObject({
    id,
    refundId: id.describe('The rejected refund or return escalated'),
    orderId: id,
    customerId: id,
    customerName: z.string().describe("The customer's display name, as the shop and the platform read it"),
    shop: ShopRef,
    status: z.enum(DisputeStatus),
    reason: z.string().describe("The customer's reason for escalating"),
    refundKind: z.enum(RefundKind),
    requestedAmount: money.describe('What the rejected request asked for'),
    shopRejectReason: z.string().optional().describe("The shop's reason for rejecting"),
    currency: z.string(),
    ruling: z.string().optional().describe("The platform's ruling, read by both sides"),
    refundedAmount: money.describe('What the ruling refunded (0 unless refunded)'),
    ruledRefundId: id.optional().describe('The completed refund the ruling created'),
    createdAt: timestamp,
    ruledAt: timestamp.optional(),
  })
  .describe("A rejected refund escalated to the platform, as the customer, the shop and the platform's admins read it");
export type DisputeView = z.infer<typeof DisputeView>;

/** Views of several disputes in one query, in the order of `ids`. */
export async function disputeViews(em: EntityManager, ids: number[]): Promise<DisputeView[]> {
  if (ids.length === 0) return [];
  const rows = await typedSql(em)
    .selectFrom('Dispute as d')
    .innerJoin('Refund as r', 'r.id', 'd.refund')
    .innerJoin('Shop as s', 's.id', 'd.shop')
    .innerJoin('User as u', 'u.id', 'd.customer')
    .selectAll('d')
    .select(['r.kind as refundKind', 'r.amount as requestedAmount', 'r.rejectReason', 's.slug as shopSlug', 's.name as shopName', 'u.displayName as customerName'])
    .where('d.id', 'in', ids)
    .execute();
  const byId = new Map<number, DisputeView>(
    rows.map((d) => [
      d.id,
      {
        id: d.id,
        refundId: d.refund,
        orderId: d.order,
        customerId: d.customer,
        customerName: d.customerName,
        shop: { id: d.shop, slug: d.shopSlug, name: d.shopName },
        status: d.status,
        reason: d.reason,
        refundKind: d.refundKind,
        requestedAmount: d.requestedAmount,
        shopRejectReason: opt(d.rejectReason),
        currency: BASE_CURRENCY.code,
        ruling: opt(d.ruling),
        refundedAmount: d.refundedAmount,
        ruledRefundId: opt(d.ruledRefund),
        createdAt: d.createdAt,
        ruledAt: opt(d.ruledAt),
      },
    ]),
  );
  return ids.map((i) => byId.get(i)).filter((d): d is DisputeView => d !== undefined);
}
