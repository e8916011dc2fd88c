import { sql } from 'kysely';
import { notFound } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { RefundStatus } from '../../entities/refund.entity.js';
import { toDate } from '../../shared/values.js';
import { BASE_CURRENCY } from '../../currency.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { idParam, parseInput, z } from '../../shared/validate.js';
import { idPage, pageFields, pageOf, type Page } from '../../shared/pagination.js';
import { orderViews, type OrderView } from './order-view.js';
import { refusals } from '../../error-codes.js';
import type { OperationsTodayView } from './operations-view.js';

/**
 * The live operations page's reads (docs/api.md "Orders, payment and invoices"): today's counters and the paid orders
 * waiting for shipment. A shop operator sees their own shop; a platform admin sees every shop, or
 * one when `shopId` is given. Served by the partial and time indexes of migration
 * `Migration20261125010000OperationsIndexes`.
 */

export interface OperationsScope {
  /** The shop the figures cover; null: every shop (platform admin). */
  shopId: number | null;
}

const isTimeZone = (value: string) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

const ScopeFields = { shopId: idParam.optional() };
export const TodayInput = z.object({
  ...ScopeFields,
  timeZone: z.string().max(64).refine(isTimeZone, 'not a known IANA time zone').optional().default('UTC'),
});
export const AwaitingInput = z.object({ ...ScopeFields, ...pageFields });

/** A member: the acting shop (another shop's id is 404); platform staff: every shop or the one asked; anyone else 403. */
function scopeOf(ctx: ServiceContext, shopId: number | undefined): OperationsScope {
  const { actor, grant } = requirePermission(ctx, Permission.OpsRead);
  if (grant === 'platform' || actor?.shopId == null) return { shopId: shopId ?? null };
  if (shopId !== undefined && shopId !== actor.shopId) throw notFound('Shop', { shop_id: shopId });
  return { shopId: actor.shopId };
}

const COUNT = sql<number>`count(*)::int`;

export const operationsTodayRefusals = refusals('NOT_FOUND');

/** Today's counters in one statement. */
export async function operationsToday(ctx: ServiceContext, input: unknown): Promise<OperationsTodayView> {
  const { shopId, timeZone } = parseInput(TodayInput, input ?? {});
  const scope = scopeOf(ctx, shopId);
  const row = await typedSql(ctx.em)
    .with('b', (db) => db.selectNoFrom(sql<string>`date_trunc('day', now() at time zone ${timeZone}) at time zone ${timeZone}`.as('since')))
    .selectFrom('b')
    .select((eb) => {
      const orders = () => {
        const all = eb.selectFrom('Order as o');
        return scope.shopId === null ? all : all.where('o.shop', '=', scope.shopId);
      };
      const refunds = () => {
        const all = eb.selectFrom('Refund as r');
        return scope.shopId === null ? all : all.where('r.shop', '=', scope.shopId);
      };
      return [
        'b.since',
        orders().select(COUNT.as('n')).whereRef('o.createdAt', '>=', 'b.since').as('placed'),
        orders().select(COUNT.as('n')).whereRef('o.paidAt', '>=', 'b.since').as('paid'),
        orders().select((o) => o.fn.coalesce(o.fn.sum<string>('o.total'), sql<string>`0`).as('sum')).whereRef('o.paidAt', '>=', 'b.since').as('paidAmount'),
        orders().select(COUNT.as('n')).whereRef('o.cancelledAt', '>=', 'b.since').as('cancelled'),
        orders().select(COUNT.as('n')).where('o.status', '=', OrderStatus.Paid).as('awaiting'),
        refunds().select(COUNT.as('n')).whereRef('r.createdAt', '>=', 'b.since').as('refundsRequested'),
        refunds().select(COUNT.as('n')).where('r.status', '=', RefundStatus.Requested).as('refundsOpen'),
      ];
    })
    .executeTakeFirstOrThrow();
  return {
    ...scope,
    timeZone,
    since: toDate(row.since),
    currency: BASE_CURRENCY.code,
    ordersPlaced: row.placed ?? 0,
    ordersPaid: row.paid ?? 0,
    paidAmount: Number(row.paidAmount ?? 0),
    ordersCancelled: row.cancelled ?? 0,
    awaitingShipment: row.awaiting ?? 0,
    refundsRequested: row.refundsRequested ?? 0,
    refundsOpen: row.refundsOpen ?? 0,
  };
}

export const ordersAwaitingShipmentRefusals = refusals('NOT_FOUND');

/** Paid orders not yet fully shipped, oldest first (the next to ship on top), with their items. */
export async function ordersAwaitingShipment(ctx: ServiceContext, input: unknown): Promise<Page<OrderView>> {
  const { shopId, ...paging } = parseInput(AwaitingInput, input ?? {});
  const scope = scopeOf(ctx, shopId);
  const all = typedSql(ctx.em).selectFrom('Order').where('status', '=', OrderStatus.Paid);
  const awaiting = scope.shopId === null ? all : all.where('shop', '=', scope.shopId);
  const { ids, total } = await idPage(awaiting, paging, 'asc');
  return pageOf(await orderViews(ctx.em, ids), paging, total);
}
