import { LockMode, QueryOrder, type Loaded } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { BuyingGroup, GroupBuyActivity, GroupState } from '../../entities/group-buy.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { Sku } from '../../entities/sku.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { dateTime, id, money, onceFieldsFit, parseInput, z } from '../../shared/validate.js';
import { PageQuery, pageFields, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { expireGroupsOfActivity } from './group-buy-lifecycle.js';
import { refusals } from '../../error-codes.js';
import { count, id as viewId, money as viewMoney, timestamp } from '../../shared/view-fields.js';
import { ShopRef } from '../catalog/catalog-views.js';

/** Group-buying activities: the shop's management and the public reads (with open groups). */

/** The views of group buys: REST publishes these schemas and GraphQL's types are made from them. */
export const GroupBuyView = z
  .strictObject({
    id: viewId,
    shop: ShopRef,
    productId: viewId,
    productName: z.string(),
    skuId: viewId,
    skuName: z.string(),
    standardPrice: viewMoney.describe("The SKU's standard price now"),
    groupPrice: viewMoney.describe('Price of one seat'),
    capacity: z.number().int().positive().describe('Seats per group'),
    lifetimeMinutes: z.number().int().positive().describe('How long a group stays open after it is opened'),
    startsAt: timestamp,
    endsAt: timestamp,
    active: z.boolean().describe('New groups can be opened now'),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .describe("A shop's group-buying offer on one of its SKUs");
export type GroupBuyView = z.infer<typeof GroupBuyView>;

export const GroupView = z
  .strictObject({
    id: viewId,
    state: z.enum(GroupState),
    capacity: z.number().int().positive(),
    seatsTaken: count.describe('Paid seats'),
    seatsLeft: count,
    groupPrice: viewMoney,
    openedAt: timestamp,
    expiresAt: timestamp,
  })
  .describe('A concrete group under an activity');
export type GroupView = z.infer<typeof GroupView>;

export const GroupBuyDetailView = GroupBuyView.extend({
  groups: z.array(GroupView).describe('Open groups that can be joined, soonest expiry first (at most 100)'),
});
export type GroupBuyDetailView = z.infer<typeof GroupBuyDetailView>;

/** How many of an activity's groups are in each state. */
export const GroupCountsView = z.strictObject({
  [GroupState.Open]: count,
  [GroupState.Successful]: count,
  [GroupState.Expired]: count,
  [GroupState.Cancelled]: count,
});
export type GroupCountsView = z.infer<typeof GroupCountsView>;

export const MerchantGroupBuyView = GroupBuyView.extend({ groupCounts: GroupCountsView });
export type MerchantGroupBuyView = z.infer<typeof MerchantGroupBuyView>;

const OPEN_GROUPS_SHOWN = 100;


export const ActivityInput = z
  .object({
    skuId: id,
    groupPrice: money.min(1),
    capacity: z.number().int().min(2).max(100),
    lifetimeMinutes: z.number().int().min(1).max(43_200),
    startsAt: dateTime,
    endsAt: dateTime,
  })
  .strict()
  .refine((a) => a.endsAt > a.startsAt, { ...onceFieldsFit, message: 'must be after startsAt', path: ['endsAt'] });

const ActivityRef = z.object({ activityId: id });
export const PublicList = z.object({ ...pageFields, shopId: id.optional(), productId: id.optional() });

/** What a view needs loaded with the activity. */
const VIEW_POPULATE = ['shop', 'product', 'sku'] as const;
type LoadedActivity = Loaded<GroupBuyActivity, (typeof VIEW_POPULATE)[number]>;

function toView(a: LoadedActivity, now: Date): GroupBuyView {
  return {
    id: a.id,
    shop: { id: a.shop.id, slug: a.shop.slug, name: a.shop.name },
    productId: a.product.id,
    productName: a.product.name,
    skuId: a.sku.id,
    skuName: a.sku.name,
    standardPrice: a.sku.price,
    groupPrice: a.groupPrice,
    capacity: a.capacity,
    lifetimeMinutes: a.lifetimeMinutes,
    startsAt: a.startsAt,
    endsAt: a.endsAt,
    active: a.startsAt <= now && a.endsAt > now,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
  };
}

function groupView(g: BuyingGroup): GroupView {
  return {
    id: g.id,
    state: g.state,
    capacity: g.capacity,
    seatsTaken: g.paidSeats,
    seatsLeft: g.capacity - g.paidSeats,
    groupPrice: g.groupPrice,
    openedAt: g.createdAt,
    expiresAt: g.expiresAt,
  };
}

/** Public: activities running now whose product is on sale, ending soonest first; optional shop and product filters. */
export async function listGroupBuys(ctx: ServiceContext, input: unknown): Promise<Page<GroupBuyView>> {
  const { shopId, productId, ...request } = parseInput(PublicList, input ?? {});
  const now = new Date();
  const [activities, total] = await ctx.em.findAndCount(
    GroupBuyActivity,
    {
      startsAt: { $lte: now },
      endsAt: { $gt: now },
      product: { status: ProductStatus.Published, ...(productId !== undefined ? { id: productId } : {}) },
      ...(shopId !== undefined ? { shop: shopId } : {}),
    },
    { populate: VIEW_POPULATE, orderBy: [{ endsAt: QueryOrder.ASC }, { id: QueryOrder.ASC }], ...pageWindow(request) },
  );
  return pageOf(activities.map((a) => toView(a, now)), request, total);
}

export const getGroupBuyRefusals = refusals('NOT_FOUND');

/**
 * Public: one activity whose product is on sale (running or not: `active` says), with its open
 * groups. Groups past their lifetime are expired first, so the list holds only joinable groups.
 */
export async function getGroupBuy(ctx: ServiceContext, input: unknown): Promise<GroupBuyDetailView> {
  const { activityId } = parseInput(ActivityRef, input);
  await expireGroupsOfActivity(ctx, activityId);
  const now = new Date();
  const activity = await ctx.em.findOne(
    GroupBuyActivity,
    { id: activityId, product: { status: ProductStatus.Published } },
    { populate: VIEW_POPULATE },
  );
  if (!activity) throw notFound('Group-buying activity', { activity_id: activityId });
  const groups = await ctx.em.find(
    BuyingGroup,
    { activity: activityId, state: GroupState.Open, expiresAt: { $gt: now } },
    { orderBy: [{ expiresAt: QueryOrder.ASC }, { id: QueryOrder.ASC }], limit: OPEN_GROUPS_SHOWN },
  );
  return { ...toView(activity, now), groups: groups.map(groupView) };
}

/** Views of the shop's activities with their group counts per state (one more query for a page). */
async function merchantViews(em: EntityManager, activities: LoadedActivity[]): Promise<MerchantGroupBuyView[]> {
  if (activities.length === 0) return [];
  const counts = await typedSql(em)
    .selectFrom('BuyingGroup')
    .select((eb) => ['activity', 'state', eb.cast<number>(eb.fn.countAll(), 'integer').as('n')])
    .where('activity', 'in', activities.map((a) => a.id))
    .groupBy(['activity', 'state'])
    .execute();
  const now = new Date();
  return activities.map((a) => {
    const groupCounts = Object.fromEntries(Object.values(GroupState).map((s) => [s, 0])) as GroupCountsView;
    for (const c of counts) if (c.activity === a.id) groupCounts[c.state] = c.n;
    return { ...toView(a, now), groupCounts };
  });
}

async function merchantView(em: EntityManager, activityId: number): Promise<MerchantGroupBuyView> {
  const activity = await em.findOneOrFail(GroupBuyActivity, activityId, { populate: VIEW_POPULATE });
  return (await merchantViews(em, [activity]))[0];
}

/** The operator's activities, newest first, whatever their window. */
export async function listShopGroupBuys(ctx: ServiceContext, input: unknown): Promise<Page<MerchantGroupBuyView>> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const request = parseInput(PageQuery, input ?? {});
  const [activities, total] = await ctx.em.findAndCount(
    GroupBuyActivity,
    { shop: operator.shopId },
    { populate: VIEW_POPULATE, orderBy: { id: QueryOrder.DESC }, ...pageWindow(request) },
  );
  return pageOf(await merchantViews(ctx.em, activities), request, total);
}

/** The SKU, when it belongs to the operator's shop; another shop's SKU is 404. */
async function ownSku(em: EntityManager, skuId: number, shopId: number): Promise<Sku> {
  const sku = await em.findOne(Sku, { id: skuId, product: { shop: shopId } });
  if (!sku) throw notFound('SKU', { sku_id: skuId });
  return sku;
}

export const createGroupBuyRefusals = refusals('NOT_FOUND');

export async function createGroupBuy(ctx: ServiceContext, input: unknown): Promise<MerchantGroupBuyView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { skuId, ...terms } = parseInput(ActivityInput, input);
  return inTransaction(ctx, async (tx) => {
    const sku = await ownSku(tx.em, skuId, operator.shopId);
    const activity = tx.em.create(GroupBuyActivity, { shop: operator.shopId, product: sku.product, sku, ...terms });
    await tx.em.flush();
    return merchantView(tx.em, activity.id);
  });
}

/** The operator's activity, locked, or 404. `for update` waits for a checkout opening a group on it, so a check that follows sees that group. */
async function lockOwnActivity(em: EntityManager, activityId: number, shopId: number): Promise<GroupBuyActivity> {
  const activity = await em.findOne(GroupBuyActivity, { id: activityId, shop: shopId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!activity) throw notFound('Group-buying activity', { activity_id: activityId });
  return activity;
}

export const updateGroupBuyRefusals = refusals('GROUP_BUY_HAS_GROUPS', 'NOT_FOUND');

/**
 * Replaces an activity's terms. Groups already opened keep the capacity and price they opened with;
 * the SKU cannot change once a group exists (409 GROUP_BUY_HAS_GROUPS).
 */
export async function updateGroupBuy(ctx: ServiceContext, input: unknown): Promise<MerchantGroupBuyView> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { activityId } = parseInput(ActivityRef, input);
  const { skuId, ...terms } = parseInput(ActivityInput, withoutKey(input, 'activityId'));
  return inTransaction(ctx, async (tx) => {
    const activity = await lockOwnActivity(tx.em, activityId, operator.shopId);
    if (skuId !== activity.sku.id) {
      if (await hasGroups(tx.em, activityId)) {
        throw conflict('GROUP_BUY_HAS_GROUPS', 'The SKU of an activity cannot change once groups were opened', { activity_id: activityId });
      }
      const sku = await ownSku(tx.em, skuId, operator.shopId);
      tx.em.assign(activity, { sku, product: sku.product });
    }
    // A replace counts as an update even when nothing changed.
    tx.em.assign(activity, { ...terms, updatedAt: new Date() });
    await tx.em.flush();
    return merchantView(tx.em, activityId);
  });
}

export const deleteGroupBuyRefusals = refusals('GROUP_BUY_HAS_GROUPS', 'NOT_FOUND');

/** Deletes an activity that never had a group; one with groups is kept (end its window instead). */
export async function deleteGroupBuy(ctx: ServiceContext, input: unknown): Promise<void> {
  const operator = requireShopPermission(ctx, Permission.ShopPromotionsManage);
  const { activityId } = parseInput(ActivityRef, input);
  await inTransaction(ctx, async (tx) => {
    const activity = await lockOwnActivity(tx.em, activityId, operator.shopId);
    if (await hasGroups(tx.em, activityId)) {
      throw conflict('GROUP_BUY_HAS_GROUPS', 'An activity with groups cannot be deleted; end its window instead', { activity_id: activityId });
    }
    tx.em.remove(activity);
    await tx.em.flush();
  });
}

async function hasGroups(em: EntityManager, activityId: number): Promise<boolean> {
  return (await em.count(BuyingGroup, { activity: activityId })) > 0;
}

function withoutKey(input: unknown, key: string): unknown {
  if (!input || typeof input !== 'object') return input;
  return Object.fromEntries(Object.entries(input).filter(([k]) => k !== key));
}
