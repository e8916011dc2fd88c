import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate } from '../shared/values.js';
import { conflict, notFound } from '../errors.js';
import { intArray } from '../db/sql.js';
import { GroupState } from '../entities/group-buy.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireOperator } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { id, money, parseInput, z } from '../shared/validate.js';
import { pageOffset, pageFields, type Page } from '../shared/pagination.js';
import { expireGroupsOfActivity } from './group-buy-lifecycle.js';

/** Group-buying activities: the shop's management and the public reads (with open groups). */

export interface GroupBuyView {
  id: number;
  shop: { id: number; slug: string; name: string };
  productId: number;
  productName: string;
  skuId: number;
  skuName: string;
  /** The SKU's standard price now, for comparison. */
  standardPrice: number;
  groupPrice: number;
  capacity: number;
  lifetimeMinutes: number;
  startsAt: Date;
  endsAt: Date;
  /** New groups can be opened now. */
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface GroupView {
  id: number;
  state: GroupState;
  capacity: number;
  seatsTaken: number;
  seatsLeft: number;
  groupPrice: number;
  openedAt: Date;
  expiresAt: Date;
}

export interface GroupBuyDetail extends GroupBuyView {
  /** Open groups that can still be joined, soonest expiry first (at most 100). */
  groups: GroupView[];
}

export interface MerchantGroupBuyView extends GroupBuyView {
  /** How many of the activity's groups are in each state. */
  groupCounts: Record<GroupState, number>;
}

const OPEN_GROUPS_SHOWN = 100;

const timestamp = z.union([z.date(), z.iso.datetime({ offset: true }).transform((s) => new Date(s))]);

const ActivityInput = z
  .object({
    skuId: id,
    groupPrice: money.min(1),
    capacity: z.number().int().min(2).max(100),
    lifetimeMinutes: z.number().int().min(1).max(43_200),
    startsAt: timestamp,
    endsAt: timestamp,
  })
  .strict()
  .refine((a) => a.endsAt > a.startsAt, { message: 'must be after startsAt', path: ['endsAt'] });

const ActivityRef = z.object({ activityId: id });
const PublicList = z.object({ ...pageFields, shopId: id.optional(), productId: id.optional() });

const VIEW_COLUMNS = `a.id, a.shop_id, sh.slug as shop_slug, sh.name as shop_name, a.product_id, p.name as product_name,
  a.sku_id, s.name as sku_name, s.price as standard_price, a.group_price, a.capacity, a.lifetime_minutes,
  a.starts_at, a.ends_at, a.starts_at <= now() and a.ends_at > now() as active, a.created_at, a.updated_at`;
const VIEW_JOINS = `group_buy_activity a join sku s on s.id = a.sku_id join product p on p.id = a.product_id join shop sh on sh.id = a.shop_id`;

/** Raw queries return timestamptz as text; views carry Dates (ISO 8601 over both doors). */

function toView(r: any): GroupBuyView {
  return {
    id: r.id,
    shop: { id: r.shop_id, slug: r.shop_slug, name: r.shop_name },
    productId: r.product_id,
    productName: r.product_name,
    skuId: r.sku_id,
    skuName: r.sku_name,
    standardPrice: r.standard_price,
    groupPrice: r.group_price,
    capacity: r.capacity,
    lifetimeMinutes: r.lifetime_minutes,
    startsAt: toDate(r.starts_at),
    endsAt: toDate(r.ends_at),
    active: r.active,
    createdAt: toDate(r.created_at),
    updatedAt: toDate(r.updated_at),
  };
}

/** One page of rows that carry `count(*) over ()`; an empty page past the end counts separately. */
async function pageOf<T>(
  rows: (T & { total: string | number })[],
  request: { page: number; pageSize: number },
  count: () => Promise<number>,
): Promise<Page<T>> {
  const total = rows.length > 0 ? Number(rows[0].total) : request.page === 1 ? 0 : await count();
  return { items: rows, page: request.page, pageSize: request.pageSize, total };
}

/** Public: activities running now whose product is on sale, ending soonest first; optional shop and product filters. */
export async function listGroupBuys(ctx: ServiceContext, input: unknown): Promise<Page<GroupBuyView>> {
  const request = parseInput(PublicList, input ?? {});
  const where = `a.starts_at <= now() and a.ends_at > now() and p.status = 'published'
    and (?::int is null or a.shop_id = ?) and (?::int is null or a.product_id = ?)`;
  const filters = [request.shopId ?? null, request.shopId ?? null, request.productId ?? null, request.productId ?? null];
  const rows = await ctx.em.execute<any[]>(
    `select ${VIEW_COLUMNS}, count(*) over () as total from ${VIEW_JOINS} where ${where} order by a.ends_at, a.id limit ? offset ?`,
    [...filters, request.pageSize, pageOffset(request)],
  );
  const page = await pageOf(rows, request, async () => {
    const [row] = await ctx.em.execute<{ n: number }[]>(`select count(*)::int as n from ${VIEW_JOINS} where ${where}`, filters);
    return row.n;
  });
  return { ...page, items: rows.map(toView) };
}

/**
 * Public: one activity whose product is on sale (running or not: `active` says), with its open
 * groups. Groups past their lifetime are expired first, so the list holds only joinable groups.
 */
export async function getGroupBuy(ctx: ServiceContext, input: unknown): Promise<GroupBuyDetail> {
  const { activityId } = parseInput(ActivityRef, input);
  await expireGroupsOfActivity(ctx, activityId);
  const [rows, groups] = await Promise.all([
    ctx.em.execute<any[]>(`select ${VIEW_COLUMNS} from ${VIEW_JOINS} where a.id = ? and p.status = 'published'`, [activityId]),
    ctx.em.execute<any[]>(
      `select id, state, capacity, paid_seats, group_price, created_at, expires_at from group_buy_group
        where activity_id = ? and state = 'open' and expires_at > now() order by expires_at, id limit ?`,
      [activityId, OPEN_GROUPS_SHOWN],
    ),
  ]);
  if (rows.length === 0) throw notFound('Group-buying activity', { activity_id: activityId });
  return {
    ...toView(rows[0]),
    groups: groups.map((g) => ({
      id: g.id,
      state: g.state,
      capacity: g.capacity,
      seatsTaken: g.paid_seats,
      seatsLeft: g.capacity - g.paid_seats,
      groupPrice: g.group_price,
      openedAt: toDate(g.created_at),
      expiresAt: toDate(g.expires_at),
    })),
  };
}

/** Views of the shop's activities with their group counts per state (two queries for a page). */
async function merchantViews(em: EntityManager, rows: any[]): Promise<MerchantGroupBuyView[]> {
  if (rows.length === 0) return [];
  const counts = await em.execute<{ activity_id: number; state: GroupState; n: number }[]>(
    `select activity_id, state, count(*)::int as n from group_buy_group where activity_id = any(?::int[]) group by activity_id, state`,
    [intArray(rows.map((r) => r.id))],
  );
  return rows.map((r) => {
    const groupCounts = Object.fromEntries(Object.values(GroupState).map((s) => [s, 0])) as Record<GroupState, number>;
    for (const c of counts) if (c.activity_id === r.id) groupCounts[c.state] = c.n;
    return { ...toView(r), groupCounts };
  });
}

async function merchantView(em: EntityManager, activityId: number): Promise<MerchantGroupBuyView> {
  const rows = await em.execute<any[]>(`select ${VIEW_COLUMNS} from ${VIEW_JOINS} where a.id = ?`, [activityId]);
  return (await merchantViews(em, rows))[0];
}

/** The operator's activities, newest first, whatever their window. */
export async function listShopGroupBuys(ctx: ServiceContext, input: unknown): Promise<Page<MerchantGroupBuyView>> {
  const operator = requireOperator(ctx);
  const request = parseInput(z.object(pageFields), input ?? {});
  const rows = await ctx.em.execute<any[]>(
    `select ${VIEW_COLUMNS}, count(*) over () as total from ${VIEW_JOINS} where a.shop_id = ? order by a.id desc limit ? offset ?`,
    [operator.shopId, request.pageSize, pageOffset(request)],
  );
  const page = await pageOf(rows, request, async () => {
    const [row] = await ctx.em.execute<{ n: number }[]>('select count(*)::int as n from group_buy_activity where shop_id = ?', [operator.shopId]);
    return row.n;
  });
  return { ...page, items: await merchantViews(ctx.em, rows) };
}

/** The SKU's product, when the SKU belongs to the operator's shop; another shop's SKU is 404. */
async function ownSkuProduct(em: EntityManager, skuId: number, shopId: number): Promise<number> {
  const [row] = await em.execute<{ product_id: number }[]>(
    'select s.product_id from sku s join product p on p.id = s.product_id where s.id = ? and p.shop_id = ?',
    [skuId, shopId],
  );
  if (!row) throw notFound('SKU', { sku_id: skuId });
  return row.product_id;
}

export async function createGroupBuy(ctx: ServiceContext, input: unknown): Promise<MerchantGroupBuyView> {
  const operator = requireOperator(ctx);
  const data = parseInput(ActivityInput, input);
  return inTransaction(ctx, async (tx) => {
    const productId = await ownSkuProduct(tx.em, data.skuId, operator.shopId);
    const [row] = await tx.em.execute<{ id: number }[]>(
      `insert into group_buy_activity (shop_id, product_id, sku_id, group_price, capacity, lifetime_minutes, starts_at, ends_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, now(), now()) returning id`,
      [operator.shopId, productId, data.skuId, data.groupPrice, data.capacity, data.lifetimeMinutes, data.startsAt, data.endsAt],
    );
    return merchantView(tx.em, row.id);
  });
}

/**
 * Replaces an activity's terms. Groups already opened keep the capacity and price they opened with;
 * the SKU cannot change once a group exists (409 GROUP_BUY_HAS_GROUPS).
 */
export async function updateGroupBuy(ctx: ServiceContext, input: unknown): Promise<MerchantGroupBuyView> {
  const operator = requireOperator(ctx);
  const { activityId } = parseInput(ActivityRef, input);
  const data = parseInput(ActivityInput, withoutKey(input, 'activityId'));
  return inTransaction(ctx, async (tx) => {
    // `for update` waits for a checkout opening a group on this activity, so the check below sees it.
    const [current] = await tx.em.execute<{ sku_id: number; product_id: number }[]>(
      'select sku_id, product_id from group_buy_activity where id = ? and shop_id = ? for update',
      [activityId, operator.shopId],
    );
    if (!current) throw notFound('Group-buying activity', { activity_id: activityId });
    let productId = current.product_id;
    if (data.skuId !== current.sku_id) {
      if (await hasGroups(tx.em, activityId)) {
        throw conflict('GROUP_BUY_HAS_GROUPS', 'The SKU of an activity cannot change once groups were opened', { activity_id: activityId });
      }
      productId = await ownSkuProduct(tx.em, data.skuId, operator.shopId);
    }
    await tx.em.execute(
      `update group_buy_activity set product_id = ?, sku_id = ?, group_price = ?, capacity = ?, lifetime_minutes = ?, starts_at = ?, ends_at = ?, updated_at = now()
        where id = ?`,
      [productId, data.skuId, data.groupPrice, data.capacity, data.lifetimeMinutes, data.startsAt, data.endsAt, activityId],
    );
    return merchantView(tx.em, activityId);
  });
}

/** Deletes an activity that never had a group; one with groups is kept (end its window instead). */
export async function deleteGroupBuy(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireOperator(ctx);
  const { activityId } = parseInput(ActivityRef, input);
  await inTransaction(ctx, async (tx) => {
    const [current] = await tx.em.execute('select id from group_buy_activity where id = ? and shop_id = ? for update', [activityId, operator.shopId]);
    if (!current) throw notFound('Group-buying activity', { activity_id: activityId });
    if (await hasGroups(tx.em, activityId)) {
      throw conflict('GROUP_BUY_HAS_GROUPS', 'An activity with groups cannot be deleted; end its window instead', { activity_id: activityId });
    }
    await tx.em.execute('delete from group_buy_activity where id = ?', [activityId]);
  });
}

async function hasGroups(em: EntityManager, activityId: number): Promise<boolean> {
  const rows = await em.execute('select 1 from group_buy_group where activity_id = ? limit 1', [activityId]);
  return rows.length > 0;
}

function withoutKey(input: unknown, key: string): unknown {
  if (!input || typeof input !== 'object') return input;
  const { [key]: _omitted, ...rest } = input as Record<string, unknown>;
  return rest;
}
