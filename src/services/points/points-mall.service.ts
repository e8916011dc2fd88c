import type { FilterQuery } from '@mikro-orm/core';
import { sql } from 'kysely';
import { conflict, notFound, refused } from '../../errors.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { PointsProduct } from '../../entities/points-product.entity.js';
import { EventTypes } from '../events/event-types.js';
import { Redemption, RedemptionStatus } from '../../entities/redemption.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { debitPoints } from '../accounts/ledger.service.js';
import { ShippingAddressInput } from '../shipping/freight-fees.js';
import { PageQuery, pageFields, pageOf, pageWindow, type Page, type PageRequest } from '../../shared/pagination.js';
import { opt } from '../../shared/values.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { atLeastOneField, httpUrl, idParam, parseInput, NOT_BLANK, z } from '../../shared/validate.js';
import { refusals } from '../../error-codes.js';
import { auditedWrite } from '../../shared/audit.js';
import { count, id as viewId, timestamp } from '../../shared/view-fields.js';
import { ShippingAddressView } from '../shipping/shipping-address.js';
import type { RegionCode } from '../shipping/regions.js';

/**
 * The points mall: platform-owned products bought with points, and redemption orders (separate from
 * cash orders). Products are managed by platform admins; customers redeem and see their own orders.
 */
/** The views of the points mall: REST publishes these schemas and GraphQL's types are made from them. */
export const PointsProductView = z
  .strictObject({
    id: viewId,
    name: z.string(),
    description: z.string().optional(),
    imageUrl: z.string().optional(),
    pointsPrice: z.number().int().positive().describe('Price of one unit, in points'),
    stock: count.describe('Units left to redeem'),
    published: z.boolean(),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .describe('A platform-owned item of the points mall');
export type PointsProductView = z.infer<typeof PointsProductView>;

export const RedemptionView = z
  .strictObject({
    id: viewId,
    customerId: viewId,
    // So the fulfilment desk sees who it is.
    customerName: z.string().describe("The customer's display name"),
    pointsProductId: viewId,
    status: z.enum(RedemptionStatus),
    productName: z.string().describe('Product name when redeemed'),
    pointsPrice: z.number().int().positive().describe('Unit price in points when redeemed'),
    quantity: z.number().int().positive(),
    pointsTotal: z.number().int().positive().describe('Points debited'),
    shippingAddress: ShippingAddressView,
    createdAt: timestamp,
    fulfilledAt: timestamp.optional(),
  })
  .describe('A redemption order of the points mall, with a snapshot of the redeemed line');
export type RedemptionView = z.infer<typeof RedemptionView>;

/** Limits: a redemption total (price times quantity) stays within a 32-bit integer, as GraphQL `Int` needs. */
export const MAX_REDEEM_QUANTITY = 100;
const MAX_POINTS_PRICE = 10_000_000;
const MAX_STOCK = 1_000_000;

const text = (max: number) => z.string().trim().regex(NOT_BLANK, 'must not be blank').max(max);
const optionalText = (max: number) => z.string().trim().max(max).nullish().transform((v) => (v ? v : null));
const image = httpUrl().nullish().transform((v) => v ?? null);

export const CreateProductInput = z.strictObject({
  name: text(200),
  description: optionalText(5000),
  imageUrl: image,
  pointsPrice: z.number().int().min(1).max(MAX_POINTS_PRICE),
  stock: z.number().int().min(0).max(MAX_STOCK),
  published: z.boolean().default(false),
});

/** Every field optional (PUT changes the fields sent). Stock changes by a signed delta, never by overwriting. */
export const UpdateProductInput = atLeastOneField(
  z
    .object({
      name: text(200),
      description: optionalText(5000),
      imageUrl: image,
      pointsPrice: z.number().int().min(1).max(MAX_POINTS_PRICE),
      stockDelta: z.number().int().min(-MAX_STOCK).max(MAX_STOCK),
      published: z.boolean(),
    })
    .partial()
    .strict(),
);

export const RedeemInput = z.strictObject({
  quantity: z.number().int().min(1).max(MAX_REDEEM_QUANTITY).default(1),
  shippingAddress: ShippingAddressInput,
});

export const RedemptionListQuery = z.object({
  ...pageFields,
  status: z.enum(RedemptionStatus).optional(),
});

type ProductRow = Pick<PointsProduct, 'id' | 'name' | 'description' | 'imageUrl' | 'pointsPrice' | 'stock' | 'published' | 'createdAt' | 'updatedAt'>;

function toProductView(p: ProductRow): PointsProductView {
  return {
    id: p.id,
    name: p.name,
    description: opt(p.description ?? null),
    imageUrl: opt(p.imageUrl ?? null),
    pointsPrice: p.pointsPrice,
    stock: p.stock,
    published: p.published,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
  };
}

/** A relation as an entity holds it (a reference) or as a typed row does (its key). */
const keyOf = (relation: number | { id: number }) => (typeof relation === 'number' ? relation : relation.id);

/** The display names of these customers, in one query. */
async function customerNames(em: EntityManager, userIds: readonly number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await typedSql(em).selectFrom('User').select(['id', 'displayName']).where('id', 'in', [...new Set(userIds)]).execute();
  return new Map(rows.map((r) => [r.id, r.displayName]));
}

/** Views of redemptions from the entity (redeemed, listed) or from the row a typed update returns (fulfilled), with their customers' names. */
async function redemptionViews(em: EntityManager, redemptions: readonly (Redemption | Database['Redemption'])[]): Promise<RedemptionView[]> {
  const names = await customerNames(em, redemptions.map((r) => keyOf(r.user)));
  return redemptions.map((r) => toRedemptionView(r, names.get(keyOf(r.user)) ?? ''));
}

function toRedemptionView(r: Redemption | Database['Redemption'], customerName: string): RedemptionView {
  return {
    id: r.id,
    customerId: keyOf(r.user),
    customerName,
    pointsProductId: keyOf(r.pointsProduct),
    status: r.status,
    productName: r.productName,
    pointsPrice: r.pointsPrice,
    quantity: r.quantity,
    pointsTotal: r.pointsTotal,
    // Its region was checked on the way in (ShippingAddressInput).
    shippingAddress: { ...r.shippingAddress, region: r.shippingAddress.region as RegionCode },
    createdAt: r.createdAt,
    fulfilledAt: opt(r.fulfilledAt ?? null),
  };
}

const insufficientStock = (pointsProductId: number, requested: number, available: number) =>
  refused('INSUFFICIENT_STOCK', 'Not enough stock left for this quantity', { points_product_id: pointsProductId, requested, available });

// ---------------------------------------------------------------------------------------------------
// Products

/** Public: published points products, newest first, each with its remaining stock (sold-out ones too, at 0). */
export async function listPointsProducts(ctx: ServiceContext, query: unknown): Promise<Page<PointsProductView>> {
  const paging = parseInput(PageQuery, query);
  const [products, total] = await ctx.em.findAndCount(PointsProduct, { published: true }, { orderBy: { id: 'desc' }, ...pageWindow(paging) });
  return pageOf(products.map(toProductView), paging, total);
}

/** Admin: every points product, published or not, newest first. */
export async function adminListPointsProducts(ctx: ServiceContext, query: unknown): Promise<Page<PointsProductView>> {
  requirePlatformPermission(ctx, Permission.PlatformPointsManage);
  const paging = parseInput(PageQuery, query);
  const [products, total] = await ctx.em.findAndCount(PointsProduct, {}, { orderBy: { id: 'desc' }, ...pageWindow(paging) });
  return pageOf(products.map(toProductView), paging, total);
}

export async function createPointsProduct(ctx: ServiceContext, input: unknown): Promise<PointsProductView> {
  requirePlatformPermission(ctx, Permission.PlatformPointsManage);
  const data = parseInput(CreateProductInput, input);
  return inTransaction(ctx, async (tx) => {
    const product = tx.em.create(PointsProduct, data);
    await tx.em.flush();
    return toProductView(product);
  });
}

export const updatePointsProductRefusals = refusals('INSUFFICIENT_STOCK', 'NOT_FOUND');

/**
 * Changes the fields sent, in one statement. Stock moves by `stockDelta` under a guard (never below
 * zero), so an edit racing with redemptions cannot overwrite their decrements.
 */
export async function updatePointsProduct(ctx: ServiceContext, productId: unknown, input: unknown): Promise<PointsProductView> {
  requirePlatformPermission(ctx, Permission.PlatformPointsManage);
  const id = parseInput(idParam, productId);
  const { stockDelta = 0, ...fields } = parseInput(UpdateProductInput, input);
  const db = typedSql(ctx.em);
  const row = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'PointsProduct', id }, () =>
      typedSql(tx.em)
        .updateTable('PointsProduct')
        .set((eb) => ({ ...fields, stock: eb('stock', '+', stockDelta), updatedAt: sql<Date>`now()` }))
        .where('id', '=', id)
        .where((eb) => eb(eb('stock', '+', stockDelta), '>=', 0))
        .returningAll()
        .executeTakeFirst(),
    ),
  );
  if (row) return toProductView(row);
  const current = await db.selectFrom('PointsProduct').select('stock').where('id', '=', id).executeTakeFirst();
  if (!current) throw notFound('Points product', { id });
  throw insufficientStock(id, -stockDelta, current.stock);
}

// ---------------------------------------------------------------------------------------------------
// Redemptions

export const redeemPointsProductRefusals = refusals('INSUFFICIENT_POINTS', 'INSUFFICIENT_STOCK', 'NOT_FOUND', 'POINTS_PRICE_CHANGED');

/**
 * Redeems a published points product, in one transaction: the redemption order (with its snapshot)
 * is written and the points debited with the order as reference, then the stock is taken by a guarded
 * decrement that also checks `published` and the price read, which locks the hot product row only for
 * the commit. Any failure rolls all of it back: no order, no stock change, no ledger entry.
 */
export async function redeemPointsProduct(ctx: ServiceContext, productId: unknown, input: unknown): Promise<RedemptionView> {
  const actor = requireCustomer(ctx);
  const id = parseInput(idParam, productId);
  const data = parseInput(RedeemInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const product = await db
      .selectFrom('PointsProduct')
      .select(['name', 'pointsPrice', 'stock'])
      .where('id', '=', id)
      .where('published', '=', true)
      .executeTakeFirst();
    if (!product) throw notFound('Points product', { id });
    if (product.stock < data.quantity) throw insufficientStock(id, data.quantity, product.stock);

    const pointsTotal = product.pointsPrice * data.quantity;
    const redemption = tx.em.create(Redemption, {
      user: actor.userId,
      pointsProduct: id,
      productName: product.name,
      pointsPrice: product.pointsPrice,
      quantity: data.quantity,
      pointsTotal,
      shippingAddress: data.shippingAddress,
    });
    await tx.em.flush();
    await debitPoints(tx.em, {
      userId: actor.userId,
      amount: pointsTotal,
      reason: 'redemption',
      reference: { type: 'redemption', id: redemption.id },
    });

    const taken = await db
      .updateTable('PointsProduct')
      .set((eb) => ({ stock: eb('stock', '-', data.quantity) }))
      .where('id', '=', id)
      .where('published', '=', true)
      .where('stock', '>=', data.quantity)
      .where('pointsPrice', '=', product.pointsPrice)
      .returning('stock')
      .executeTakeFirst();
    if (!taken) {
      const now = await db.selectFrom('PointsProduct').select(['published', 'stock', 'pointsPrice']).where('id', '=', id).executeTakeFirst();
      if (!now?.published) throw notFound('Points product', { id });
      if (now.pointsPrice !== product.pointsPrice) {
        throw conflict('POINTS_PRICE_CHANGED', 'The points price changed while redeeming; look again and retry', {
          price: now.pointsPrice,
        });
      }
      throw insufficientStock(id, data.quantity, now.stock);
    }

    emit(tx, {
      type: EventTypes.REDEMPTION_CREATED,
      shopIds: [],
      customerId: actor.userId,
      payload: { redemptionId: redemption.id, pointsProductId: id, quantity: data.quantity, points: pointsTotal },
    });
    return (await redemptionViews(tx.em, [redemption]))[0];
  });
}

async function listRedemptions(
  ctx: ServiceContext,
  filter: { userId?: number; status?: RedemptionStatus },
  paging: PageRequest,
): Promise<Page<RedemptionView>> {
  const where: FilterQuery<Redemption> = {};
  if (filter.userId !== undefined) where.user = filter.userId;
  if (filter.status !== undefined) where.status = filter.status;
  const [redemptions, total] = await ctx.em.findAndCount(Redemption, where, { orderBy: { id: 'desc' }, ...pageWindow(paging) });
  return pageOf(await redemptionViews(ctx.em, redemptions), paging, total);
}

/** The calling customer's own redemptions, newest first (optionally of one status). */
export async function myRedemptions(ctx: ServiceContext, query: unknown): Promise<Page<RedemptionView>> {
  const actor = requireCustomer(ctx);
  const { status, ...paging } = parseInput(RedemptionListQuery, query);
  return listRedemptions(ctx, { userId: actor.userId, status }, paging);
}

/** Admin: every redemption, newest first (optionally of one status, e.g. the fulfilment queue). */
export async function adminListRedemptions(ctx: ServiceContext, query: unknown): Promise<Page<RedemptionView>> {
  requirePlatformPermission(ctx, Permission.PlatformRedemptionsManage);
  const { status, ...paging } = parseInput(RedemptionListQuery, query);
  return listRedemptions(ctx, { status }, paging);
}

export const fulfilRedemptionRefusals = refusals('NOT_FOUND', 'REDEMPTION_NOT_PENDING');

/**
 * Marks a redemption fulfilled, only from `pending_fulfillment`: one conditional UPDATE, so two
 * concurrent fulfilments fulfil once and the other gets REDEMPTION_NOT_PENDING.
 */
export async function fulfilRedemption(ctx: ServiceContext, redemptionId: unknown): Promise<RedemptionView> {
  requirePlatformPermission(ctx, Permission.PlatformRedemptionsManage);
  const id = parseInput(idParam, redemptionId);
  const db = typedSql(ctx.em);
  const row = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'Redemption', id }, () =>
      typedSql(tx.em)
        .updateTable('Redemption')
        .set({ status: RedemptionStatus.Fulfilled, fulfilledAt: sql<Date>`now()` })
        .where('id', '=', id)
        .where('status', '=', RedemptionStatus.PendingFulfillment)
        .returningAll()
        .executeTakeFirst(),
    ),
  );
  if (row) return (await redemptionViews(ctx.em, [row]))[0];
  const current = await db.selectFrom('Redemption').select('status').where('id', '=', id).executeTakeFirst();
  if (!current) throw notFound('Redemption', { id });
  throw conflict('REDEMPTION_NOT_PENDING', `Only a redemption pending fulfillment can be fulfilled; this one is ${current.status}`, {
    status: current.status,
  });
}
