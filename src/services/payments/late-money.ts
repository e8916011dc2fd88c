import { typedSql } from '../../db/typed-sql.js';
import { PaymentRefundStatus } from '../../entities/payment.entity.js';
import { refusals } from '../../error-codes.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { parseInput, z } from '../../shared/validate.js';
import type { LateMoneyView } from './late-money-view.js';

/**
 * Late money (issue 40, item 5): what a gateway captured for orders that could no longer be paid (a
 * capture after the payment window cancelled them, a group seat filled meanwhile) goes back to the
 * method by itself (payment-refunds.ts, `refundLateMoney`). Such a payment refund is the one with no
 * after-sale refund behind it, so this list is those rows: what the platform's support desk and
 * finance look at, each with its payment, the orders it could not pay and where the refund stands.
 */
export const LateMoneyListInput = z.object({ ...pageFields, status: z.enum(PaymentRefundStatus).optional() });

export const listLateMoneyRefusals = refusals('FORBIDDEN');

/** Platform admin: the late money sent back to the methods, newest first, optionally by where it stands. */
export async function listLateMoney(ctx: ServiceContext, input: unknown): Promise<Page<LateMoneyView>> {
  requirePlatformPermission(ctx, Permission.PlatformMoneyManage);
  const { status, ...paging } = parseInput(LateMoneyListInput, input ?? {});
  let rows = typedSql(ctx.em).selectFrom('PaymentRefund').where('refund', 'is', null);
  if (status) rows = rows.where('status', '=', status);
  const { ids, total } = await idPage(rows, paging, 'desc');
  return pageOf(await lateMoneyViews(ctx, ids), paging, total);
}

async function lateMoneyViews(ctx: ServiceContext, ids: readonly number[]): Promise<LateMoneyView[]> {
  if (ids.length === 0) return [];
  const db = typedSql(ctx.em);
  const rows = await db
    .selectFrom('PaymentRefund as r')
    .innerJoin('Payment as p', 'p.id', 'r.payment')
    .innerJoin('User as u', 'u.id', 'p.customer')
    .select(['r.id', 'r.payment', 'p.provider', 'p.providerReference', 'p.customer', 'u.displayName as customerName', 'r.amount', 'r.status', 'r.providerReference as refundReference', 'r.createdAt', 'r.updatedAt'])
    .where('r.id', 'in', [...ids])
    .execute();
  const unpaid = await db.selectFrom('PaymentOrder').select(['payment', 'order']).where('payment', 'in', rows.map((r) => r.payment)).where('captured', '=', false).orderBy('order').execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    return [{
      id: row.id, paymentId: row.payment, method: row.provider, providerReference: row.providerReference, customerId: row.customer, customerName: row.customerName,
      amount: row.amount, status: row.status, unpaidOrderIds: unpaid.filter((u) => u.payment === row.payment).map((u) => u.order),
      refundReference: row.refundReference, createdAt: row.createdAt, updatedAt: row.updatedAt,
    }];
  });
}
