import type { EntityManager } from '@mikro-orm/postgresql';
import { opt } from '../../shared/values.js';
import { BASE_CURRENCY } from '../../currency.js';
import { typedSql } from '../../db/typed-sql.js';
import type { DisputeStatus } from '../../entities/dispute.entity.js';
import type { RefundKind } from '../../entities/refund.entity.js';

/** A dispute as the customer, the shop and the platform read it: both sides' reasons and the ruling. */
export interface DisputeView {
  id: number;
  refundId: number;
  orderId: number;
  customerId: number;
  shop: { id: number; slug: string; name: string };
  status: DisputeStatus;
  /** The customer's reason for escalating. */
  reason: string;
  refundKind: RefundKind;
  /** What the rejected request asked for. */
  requestedAmount: number;
  /** The shop's reason for rejecting. */
  shopRejectReason?: string;
  currency: string;
  /** The platform's ruling, once ruled. */
  ruling?: string;
  /** What the ruling refunded (0 unless refunded). */
  refundedAmount: number;
  /** The completed refund the ruling created. */
  ruledRefundId?: number;
  createdAt: Date;
  ruledAt?: Date;
}

/** Views of several disputes in one query, in the order of `ids`. */
export async function disputeViews(em: EntityManager, ids: number[]): Promise<DisputeView[]> {
  if (ids.length === 0) return [];
  const rows = await typedSql(em)
    .selectFrom('Dispute as d')
    .innerJoin('Refund as r', 'r.id', 'd.refund')
    .innerJoin('Shop as s', 's.id', 'd.shop')
    .selectAll('d')
    .select(['r.kind as refundKind', 'r.amount as requestedAmount', 'r.rejectReason', 's.slug as shopSlug', 's.name as shopName'])
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
