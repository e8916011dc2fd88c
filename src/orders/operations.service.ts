import { notFound, forbidden } from '../errors.js';
import { Role } from '../entities/user.entity.js';
import { BASE_CURRENCY } from '../currency.js';
import type { ServiceContext } from '../shared/context.js';
import { requireUser } from '../shared/guards.js';
import { idParam, parseInput, z } from '../shared/validate.js';
import { idPage, pageFields, type Page } from '../shared/pagination.js';
import { orderViews, type OrderView } from './order-view.js';

/**
 * The live operations page's reads (README "Operations"): today's counters and the paid orders
 * waiting for shipment. A shop operator sees their own shop; a platform admin sees every shop, or
 * one when `shopId` is given. Served by the partial and time indexes of migration
 * `Migration20261125000000OperationsIndexes`.
 */

export interface OperationsScope {
  /** The shop the figures cover; null: every shop (platform admin). */
  shopId: number | null;
}

export interface OperationsToday extends OperationsScope {
  /** The IANA time zone whose calendar day is "today". */
  timeZone: string;
  /** Start of today in that time zone. */
  since: Date;
  currency: string;
  /** Orders created since `since` (every state). */
  ordersPlaced: number;
  /** Orders paid since `since`, and the sum of their totals (minor units). */
  ordersPaid: number;
  paidAmount: number;
  /** Orders cancelled since `since` (by the customer, the payment window or a group's end). */
  ordersCancelled: number;
  /** Orders paid and not yet fully shipped, now (whatever the day they were paid). */
  awaitingShipment: number;
  /** Refunds and returns asked for since `since`. */
  refundsRequested: number;
  /** Refunds and returns waiting for the shop's decision, now. */
  refundsOpen: number;
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
const TodayInput = z.object({
  ...ScopeFields,
  timeZone: z.string().max(64).refine(isTimeZone, 'not a known IANA time zone').optional().default('UTC'),
});
const AwaitingInput = z.object({ ...ScopeFields, ...pageFields });

/** Operator: their shop (another shop's id is 404); admin: every shop or the one asked; anyone else 403. */
function scopeOf(ctx: ServiceContext, shopId: number | undefined): OperationsScope {
  const actor = requireUser(ctx);
  if (actor.role === Role.PlatformAdmin) return { shopId: shopId ?? null };
  if (actor.role === Role.ShopOperator && actor.shopId !== null) {
    if (shopId !== undefined && shopId !== actor.shopId) throw notFound('Shop', { shop_id: shopId });
    return { shopId: actor.shopId };
  }
  throw forbidden('This needs the shop_operator or platform_admin role');
}

/** Today's counters in one statement. */
export async function operationsToday(ctx: ServiceContext, input: unknown): Promise<OperationsToday> {
  const { shopId, timeZone } = parseInput(TodayInput, input ?? {});
  const scope = scopeOf(ctx, shopId);
  const [row] = await ctx.em.execute<
    {
      since: Date;
      placed: number;
      paid: number;
      paid_amount: string;
      cancelled: number;
      awaiting: number;
      refunds_requested: number;
      refunds_open: number;
    }[]
  >(
    `with b as (select (date_trunc('day', now() at time zone ?) at time zone ?) as since, ?::int as shop)
     select b.since,
       (select count(*)::int from shop_order o where o.created_at >= b.since and (b.shop is null or o.shop_id = b.shop)) as placed,
       p.paid, p.paid_amount,
       (select count(*)::int from shop_order o where o.cancelled_at >= b.since and (b.shop is null or o.shop_id = b.shop)) as cancelled,
       (select count(*)::int from shop_order o where o.status = 'paid' and (b.shop is null or o.shop_id = b.shop)) as awaiting,
       (select count(*)::int from refund r where r.created_at >= b.since and (b.shop is null or r.shop_id = b.shop)) as refunds_requested,
       (select count(*)::int from refund r where r.status = 'requested' and (b.shop is null or r.shop_id = b.shop)) as refunds_open
     from b cross join lateral (
       select count(*)::int as paid, coalesce(sum(o.total), 0)::bigint as paid_amount
         from shop_order o where o.paid_at >= b.since and (b.shop is null or o.shop_id = b.shop)
     ) p`,
    [timeZone, timeZone, scope.shopId],
  );
  return {
    ...scope,
    timeZone,
    since: new Date(row.since),
    currency: BASE_CURRENCY.code,
    ordersPlaced: row.placed,
    ordersPaid: row.paid,
    paidAmount: Number(row.paid_amount),
    ordersCancelled: row.cancelled,
    awaitingShipment: row.awaiting,
    refundsRequested: row.refunds_requested,
    refundsOpen: row.refunds_open,
  };
}

/** Paid orders not yet fully shipped, oldest first (the next to ship on top), with their items. */
export async function ordersAwaitingShipment(ctx: ServiceContext, input: unknown): Promise<Page<OrderView>> {
  const { shopId, page, pageSize } = parseInput(AwaitingInput, input ?? {});
  const scope = scopeOf(ctx, shopId);
  const { ids, total } = await idPage(
    ctx.em,
    { table: 'shop_order', where: `status = 'paid' and (?::int is null or shop_id = ?::int)`, params: [scope.shopId, scope.shopId], order: 'asc' },
    { page, pageSize },
  );
  return { items: await orderViews(ctx.em, ids), page, pageSize, total };
}
