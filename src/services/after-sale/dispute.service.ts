import { sql, type ExpressionBuilder } from 'kysely';
import { conflict, notFound } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { Dispute, DisputeStatus } from '../../entities/dispute.entity.js';
import { RefundStatus } from '../../entities/refund.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requirePlatformPermission, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { id, NOT_BLANK, parseInput, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import { containsPattern } from '../../shared/values.js';
import { EventTypes } from '../events/event-types.js';
import { moveDispute, refuseUnlessMovable } from './dispute-lifecycle.js';
import { disputeViews, type DisputeView } from './dispute-view.js';
import { refundByRuling } from './refund.service.js';

/**
 * Disputes (issue 41, "the platform rules"): a customer whose refund or return the shop rejected
 * escalates it once, with a reason; a platform admin rules: refund (fully or partly, from the shop's
 * share, through the ledger as any refund: refund.service.ts `refundByRuling`) or uphold the
 * rejection, with a ruling both sides read. The status moves only through dispute-lifecycle.ts.
 */

const text = z.string().trim().regex(NOT_BLANK, 'must not be blank').max(500);
export const EscalateInput = z.strictObject({ refundId: id, reason: text });
const DisputeRef = z.strictObject({ disputeId: id });
export const RefundDisputeInput = DisputeRef.extend({ amount: z.number().int().min(1).max(1_000_000_000), reason: text });
export const UpholdDisputeInput = DisputeRef.extend({ reason: text });
export const DisputeListInput = z.object({ ...pageFields, status: z.enum(DisputeStatus).optional() });
export const AdminDisputeListInput = DisputeListInput.extend({
  /** Part of the customer's or the shop's name or of the customer's reason, or the order's number. */
  q: z.string().trim().max(200).optional(),
});

const now = sql<Date>`now()`;
const view = async (tx: ServiceContext, disputeId: number) => (await disputeViews(tx.em, [disputeId]))[0];

export const escalateRefundRefusals = refusals('NOT_FOUND', 'REFUND_NOT_REJECTED', 'DISPUTE_EXISTS');

/**
 * The customer escalates one of their own rejected refunds or returns (anyone else's is 404). Once:
 * a second escalation is 409 DISPUTE_EXISTS (checked first for a clear answer; the unique key
 * settles a race). Publishes `dispute.opened`.
 */
export async function escalateRefund(ctx: ServiceContext, input: unknown): Promise<DisputeView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(EscalateInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const refund = await db
      .selectFrom('Refund')
      .select(['id', 'order', 'shop', 'status'])
      .where('id', '=', data.refundId)
      .where('customer', '=', customer.userId)
      .executeTakeFirst();
    if (!refund) throw notFound('Refund', { refund_id: data.refundId });
    if (refund.status !== RefundStatus.Rejected) {
      throw conflict('REFUND_NOT_REJECTED', `Only a request the shop rejected can be escalated; this one is ${refund.status}`, { refund_id: refund.id, status: refund.status });
    }
    const existing = await db.selectFrom('Dispute').select('id').where('refund', '=', refund.id).executeTakeFirst();
    if (existing) throw conflict('DISPUTE_EXISTS', 'This refund has already been escalated to the platform', { refund_id: refund.id, dispute_id: existing.id });
    const dispute = tx.em.create(Dispute, { refund: refund.id, order: refund.order, shop: refund.shop, customer: customer.userId, reason: data.reason });
    await tx.em.flush();
    emit(tx, {
      type: EventTypes.DISPUTE_OPENED,
      shopIds: [refund.shop],
      customerId: customer.userId,
      payload: { disputeId: dispute.id, refundId: refund.id, orderId: refund.order, status: DisputeStatus.Open },
    });
    return view(tx, dispute.id);
  });
}

/**
 * The dispute locked for a ruling: the order row first (as every refund use case locks it, so a
 * ruling and a refund of the same order queue instead of deadlocking), then the dispute row. A second
 * admin ruling at once waits here and then finds the dispute ruled.
 */
async function lockDispute(tx: ServiceContext, disputeId: number) {
  const db = typedSql(tx.em);
  const found = await db.selectFrom('Dispute').select('order').where('id', '=', disputeId).executeTakeFirst();
  if (!found) throw notFound('Dispute', { dispute_id: disputeId });
  await db.selectFrom('Order').select('id').where('id', '=', found.order).forUpdate().execute();
  return db.selectFrom('Dispute').select(['id', 'status', 'refund', 'order', 'shop', 'customer']).where('id', '=', disputeId).forUpdate().executeTakeFirstOrThrow();
}

function emitResolved(tx: ServiceContext, d: { id: number; refund: number; order: number; shop: number; customer: number }, status: DisputeStatus, amount: number) {
  emit(tx, { type: EventTypes.DISPUTE_RESOLVED, shopIds: [d.shop], customerId: d.customer, payload: { disputeId: d.id, refundId: d.refund, orderId: d.order, status, amount } });
}

export const refundDisputeRefusals = refusals('NOT_FOUND', 'DISPUTE_WRONG_STATE', 'DISPUTE_AMOUNT_TOO_HIGH');

/**
 * A platform admin rules for the customer: `amount` (all of the rejected request or part of it) is
 * refunded from the shop's share through a new completed refund, with the ruling as its reason.
 * Publishes `refund.completed` and `dispute.resolved`.
 */
export async function refundDispute(ctx: ServiceContext, input: unknown): Promise<DisputeView> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformDisputesRule);
  const data = parseInput(RefundDisputeInput, input);
  return inTransaction(ctx, async (tx) => {
    const dispute = await lockDispute(tx, data.disputeId);
    refuseUnlessMovable(dispute, 'refund');
    const ruledRefund = await refundByRuling(tx, { rejectedRefundId: dispute.refund, amount: data.amount, reason: data.reason });
    await moveDispute(tx, dispute.id, 'refund', { ruling: data.reason, refundedAmount: data.amount, ruledRefund, ruledBy: admin.userId, ruledAt: now });
    emitResolved(tx, dispute, DisputeStatus.Refunded, data.amount);
    return view(tx, dispute.id);
  });
}

export const upholdDisputeRefusals = refusals('NOT_FOUND', 'DISPUTE_WRONG_STATE');

/** A platform admin upholds the shop's rejection, with the ruling both sides read. Publishes `dispute.resolved`. */
export async function upholdDispute(ctx: ServiceContext, input: unknown): Promise<DisputeView> {
  const admin = requirePlatformPermission(ctx, Permission.PlatformDisputesRule);
  const data = parseInput(UpholdDisputeInput, input);
  return inTransaction(ctx, async (tx) => {
    const dispute = await lockDispute(tx, data.disputeId);
    await moveDispute(tx, dispute.id, 'uphold', { ruling: data.reason, ruledBy: admin.userId, ruledAt: now });
    emitResolved(tx, dispute, DisputeStatus.Upheld, 0);
    return view(tx, dispute.id);
  });
}

type Owner = { column: 'customer' | 'shop'; id: number } | null;

async function listDisputes(ctx: ServiceContext, owner: Owner, input: { status?: DisputeStatus; q?: string } & PageRequest): Promise<Page<DisputeView>> {
  const { status, q, ...paging } = input;
  let rows = typedSql(ctx.em).selectFrom('Dispute');
  if (owner) rows = rows.where(owner.column, '=', owner.id);
  if (status) rows = rows.where('status', '=', status);
  if (q) rows = rows.where(disputeMatches(q));
  const { ids, total } = await idPage(rows, paging, 'desc');
  return pageOf(await disputeViews(ctx.em, ids), paging, total);
}

/**
 * A dispute an admin looks for by the words they have: the customer's or the shop's name, the
 * customer's reason, or the order's number. The names are matched in subqueries so the page of ids
 * stays one query over Dispute; the desk reads few pages, so the match scans (no index of its own).
 */
function disputeMatches(q: string) {
  const pattern = containsPattern(q);
  const orderId = /^#?\d{1,9}$/.test(q) ? Number(q.replace('#', '')) : null;
  return (eb: ExpressionBuilder<Database, 'Dispute'>) =>
    eb.or([
      eb('Dispute.reason', 'ilike', pattern),
      eb.exists(eb.selectFrom('User as u').select('u.id').whereRef('u.id', '=', 'Dispute.customer').where('u.displayName', 'ilike', pattern)),
      eb.exists(eb.selectFrom('Shop as s').select('s.id').whereRef('s.id', '=', 'Dispute.shop').where('s.name', 'ilike', pattern)),
      ...(orderId === null ? [] : [eb('Dispute.order', '=', orderId)]),
    ]);
}

/** The customer's disputes, newest first, with the shop's reason and the ruling. */
export const listMyDisputes = (ctx: ServiceContext, input: unknown) => listDisputes(ctx, { column: 'customer', id: requireCustomer(ctx).userId }, parseInput(DisputeListInput, input ?? {}));

/** The operator's shop's disputes, newest first: the customer's reason and the ruling. */
export const listShopDisputes = (ctx: ServiceContext, input: unknown) => listDisputes(ctx, { column: 'shop', id: requireShopPermission(ctx, Permission.ShopAfterSaleManage).shopId }, parseInput(DisputeListInput, input ?? {}));

/** Every dispute, newest first, optionally of one status and matching the admin's words (platform admin). */
export function listDisputesForAdmin(ctx: ServiceContext, input: unknown): Promise<Page<DisputeView>> {
  requirePlatformPermission(ctx, Permission.PlatformDisputesRule);
  return listDisputes(ctx, null, parseInput(AdminDisputeListInput, input ?? {}));
}

export const getDisputeRefusals = refusals('NOT_FOUND');

/** One dispute (platform admin). */
export async function getDispute(ctx: ServiceContext, input: unknown): Promise<DisputeView> {
  requirePlatformPermission(ctx, Permission.PlatformDisputesRule);
  const { disputeId } = parseInput(DisputeRef, input);
  const [found] = await disputeViews(ctx.em, [disputeId]);
  if (!found) throw notFound('Dispute', { dispute_id: disputeId });
  return found;
}
