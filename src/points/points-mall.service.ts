import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound, refused } from '../errors.js';
import { BalanceKind } from '../entities/balance.entity.js';
import { EventTypes } from '../events/event-types.js';
import { RedemptionStatus } from '../entities/redemption.entity.js';
import type { ShippingAddress } from '../entities/order.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireAdmin, requireCustomer } from '../shared/guards.js';
import { debit } from '../accounts/ledger.service.js';
import { ShippingAddressInput } from '../shipping/freight-fees.js';
import { pageOffset, pageFrom, pageFields, type Page } from '../shared/pagination.js';
import { emit, inTransaction } from '../shared/transaction.js';
import { idParam, parseInput, z } from '../shared/validate.js';

/**
 * The points mall: platform-owned products bought with points, and redemption orders (separate from
 * cash orders). Products are managed by platform admins; customers redeem and see their own orders.
 */
export interface PointsProductView {
  id: number;
  name: string;
  description?: string;
  imageUrl?: string;
  pointsPrice: number;
  /** Units left to redeem. */
  stock: number;
  published: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface RedemptionView {
  id: number;
  customerId: number;
  pointsProductId: number;
  status: RedemptionStatus;
  productName: string;
  pointsPrice: number;
  quantity: number;
  pointsTotal: number;
  shippingAddress: ShippingAddress;
  createdAt: Date;
  fulfilledAt?: Date;
}

/** Limits: a redemption total (price times quantity) stays within a 32-bit integer, as GraphQL `Int` needs. */
export const MAX_REDEEM_QUANTITY = 100;
const MAX_POINTS_PRICE = 10_000_000;
const MAX_STOCK = 1_000_000;

const text = (max: number) => z.string().trim().min(1).max(max);
const optionalText = (max: number) => z.string().trim().max(max).nullish().transform((v) => (v ? v : null));
const imageUrl = z.string().trim().max(500).url('must be a URL').nullish().transform((v) => v ?? null);

const CreateProductInput = z.strictObject({
  name: text(200),
  description: optionalText(5000),
  imageUrl,
  pointsPrice: z.number().int().min(1).max(MAX_POINTS_PRICE),
  stock: z.number().int().min(0).max(MAX_STOCK),
  published: z.boolean().default(false),
});

/** Every field optional (PUT changes the fields sent). Stock changes by a signed delta, never by overwriting. */
const UpdateProductInput = z
  .object({
    name: text(200),
    description: optionalText(5000),
    imageUrl,
    pointsPrice: z.number().int().min(1).max(MAX_POINTS_PRICE),
    stockDelta: z.number().int().min(-MAX_STOCK).max(MAX_STOCK),
    published: z.boolean(),
  })
  .partial()
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'send at least one field to change');

const RedeemInput = z.strictObject({
  quantity: z.number().int().min(1).max(MAX_REDEEM_QUANTITY).default(1),
  shippingAddress: ShippingAddressInput,
});

const PageQuery = z.object(pageFields);
const RedemptionListQuery = z.object({
  ...pageFields,
  status: z.enum(RedemptionStatus).optional(),
});

const PRODUCT_COLUMNS = 'id, name, description, image_url, points_price, stock, published, created_at, updated_at';
const REDEMPTION_COLUMNS =
  'id, user_id, points_product_id, status, product_name, points_price, quantity, points_total, shipping_address, created_at, fulfilled_at';

interface ProductRow {
  id: number;
  name: string;
  description: string | null;
  image_url: string | null;
  points_price: number;
  stock: number;
  published: boolean;
  created_at: Date;
  updated_at: Date;
}

interface RedemptionRow {
  id: number;
  user_id: number;
  points_product_id: number;
  status: RedemptionStatus;
  product_name: string;
  points_price: number;
  quantity: number;
  points_total: string | number;
  shipping_address: ShippingAddress;
  created_at: Date;
  fulfilled_at: Date | null;
}

type Counted<R> = R & { total: string | number };

function toProductView(r: ProductRow): PointsProductView {
  return {
    id: r.id,
    name: r.name,
    description: r.description ?? undefined,
    imageUrl: r.image_url ?? undefined,
    pointsPrice: r.points_price,
    stock: r.stock,
    published: r.published,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  };
}

function toRedemptionView(r: RedemptionRow): RedemptionView {
  return {
    id: r.id,
    customerId: r.user_id,
    pointsProductId: r.points_product_id,
    status: r.status,
    productName: r.product_name,
    pointsPrice: r.points_price,
    quantity: r.quantity,
    pointsTotal: Number(r.points_total),
    shippingAddress: r.shipping_address,
    createdAt: new Date(r.created_at),
    fulfilledAt: r.fulfilled_at ? new Date(r.fulfilled_at) : undefined,
  };
}

const insufficientStock = (pointsProductId: number, requested: number, available: number) =>
  refused('INSUFFICIENT_STOCK', 'Not enough stock left for this quantity', { points_product_id: pointsProductId, requested, available });

async function countOf(em: EntityManager, sql: string, params: unknown[]): Promise<number> {
  const [row] = await em.execute<{ n: string }[]>(sql, params);
  return Number(row.n);
}

// ---------------------------------------------------------------------------------------------------
// Products

/** Public: published points products, newest first, each with its remaining stock (sold-out ones too, at 0). */
export async function listPointsProducts(ctx: ServiceContext, query: unknown): Promise<Page<PointsProductView>> {
  const page = parseInput(PageQuery, query);
  const rows = await ctx.em.execute<Counted<ProductRow>[]>(
    `select ${PRODUCT_COLUMNS}, count(*) over () as total from points_product where published
      order by id desc limit ? offset ?`,
    [page.pageSize, pageOffset(page)],
  );
  return pageFrom(rows, page, toProductView, () => countOf(ctx.em, 'select count(*) as n from points_product where published', []));
}

/** Admin: every points product, published or not, newest first. */
export async function adminListPointsProducts(ctx: ServiceContext, query: unknown): Promise<Page<PointsProductView>> {
  requireAdmin(ctx);
  const page = parseInput(PageQuery, query);
  const rows = await ctx.em.execute<Counted<ProductRow>[]>(
    `select ${PRODUCT_COLUMNS}, count(*) over () as total from points_product order by id desc limit ? offset ?`,
    [page.pageSize, pageOffset(page)],
  );
  return pageFrom(rows, page, toProductView, () => countOf(ctx.em, 'select count(*) as n from points_product', []));
}

export async function createPointsProduct(ctx: ServiceContext, input: unknown): Promise<PointsProductView> {
  requireAdmin(ctx);
  const data = parseInput(CreateProductInput, input);
  const [row] = await ctx.em.execute<ProductRow[]>(
    `insert into points_product (name, description, image_url, points_price, stock, published, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, now(), now()) returning ${PRODUCT_COLUMNS}`,
    [data.name, data.description, data.imageUrl, data.pointsPrice, data.stock, data.published],
  );
  return toProductView(row);
}

/**
 * Changes the fields sent, in one statement. Stock moves by `stockDelta` under a guard (never below
 * zero), so an edit racing with redemptions cannot overwrite their decrements.
 */
export async function updatePointsProduct(ctx: ServiceContext, productId: unknown, input: unknown): Promise<PointsProductView> {
  requireAdmin(ctx);
  const id = parseInput(idParam, productId);
  const data = parseInput(UpdateProductInput, input);
  const sets: string[] = [];
  const params: unknown[] = [];
  const columns = { name: 'name', description: 'description', imageUrl: 'image_url', pointsPrice: 'points_price', published: 'published' } as const;
  for (const [key, column] of Object.entries(columns) as [keyof typeof columns, string][]) {
    if (data[key] === undefined) continue;
    sets.push(`${column} = ?`);
    params.push(data[key]);
  }
  const delta = data.stockDelta ?? 0;
  if (delta !== 0) {
    sets.push('stock = stock + ?');
    params.push(delta);
  }
  const [row] = await ctx.em.execute<ProductRow[]>(
    `update points_product set ${[...sets, 'updated_at = now()'].join(', ')}
      where id = ? and stock + ? >= 0 returning ${PRODUCT_COLUMNS}`,
    [...params, id, delta],
  );
  if (row) return toProductView(row);
  const [current] = await ctx.em.execute<{ stock: number }[]>('select stock from points_product where id = ?', [id]);
  if (!current) throw notFound('Points product', { id });
  throw insufficientStock(id, -delta, current.stock);
}

// ---------------------------------------------------------------------------------------------------
// Redemptions

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
    const [product] = await tx.em.execute<Pick<ProductRow, 'id' | 'name' | 'points_price' | 'stock'>[]>(
      'select id, name, points_price, stock from points_product where id = ? and published',
      [id],
    );
    if (!product) throw notFound('Points product', { id });
    if (product.stock < data.quantity) throw insufficientStock(id, data.quantity, product.stock);

    const pointsTotal = product.points_price * data.quantity;
    const [redemption] = await tx.em.execute<RedemptionRow[]>(
      `insert into redemption (user_id, points_product_id, status, product_name, points_price, quantity, points_total, shipping_address, created_at)
       values (?, ?, ?, ?, ?, ?, ?, ?::jsonb, now()) returning ${REDEMPTION_COLUMNS}`,
      [actor.userId, id, RedemptionStatus.PendingFulfillment, product.name, product.points_price, data.quantity, pointsTotal, JSON.stringify(data.shippingAddress)],
    );
    await debit(tx.em, {
      userId: actor.userId,
      kind: BalanceKind.Points,
      amount: pointsTotal,
      reason: 'redemption',
      reference: { type: 'redemption', id: redemption.id },
    });

    const taken = await tx.em.execute<{ stock: number }[]>(
      `update points_product set stock = stock - ?
        where id = ? and published and stock >= ? and points_price = ? returning stock`,
      [data.quantity, id, data.quantity, product.points_price],
    );
    if (taken.length === 0) {
      const [now] = await tx.em.execute<Pick<ProductRow, 'published' | 'stock' | 'points_price'>[]>(
        'select published, stock, points_price from points_product where id = ?',
        [id],
      );
      if (!now?.published) throw notFound('Points product', { id });
      if (now.points_price !== product.points_price) {
        throw conflict('POINTS_PRICE_CHANGED', 'The points price changed while redeeming; look again and retry', {
          price: now.points_price,
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
    return toRedemptionView(redemption);
  });
}

async function listRedemptions(
  ctx: ServiceContext,
  filter: { userId?: number; status?: RedemptionStatus },
  page: { page: number; pageSize: number },
): Promise<Page<RedemptionView>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.userId !== undefined) {
    where.push('user_id = ?');
    params.push(filter.userId);
  }
  if (filter.status !== undefined) {
    where.push('status = ?');
    params.push(filter.status);
  }
  const whereSql = where.length > 0 ? `where ${where.join(' and ')}` : '';
  const rows = await ctx.em.execute<Counted<RedemptionRow>[]>(
    `select ${REDEMPTION_COLUMNS}, count(*) over () as total from redemption ${whereSql}
      order by id desc limit ? offset ?`,
    [...params, page.pageSize, pageOffset(page)],
  );
  return pageFrom(rows, page, toRedemptionView, () => countOf(ctx.em, `select count(*) as n from redemption ${whereSql}`, params));
}

/** The calling customer's own redemptions, newest first (optionally of one status). */
export async function myRedemptions(ctx: ServiceContext, query: unknown): Promise<Page<RedemptionView>> {
  const actor = requireCustomer(ctx);
  const { status, ...page } = parseInput(RedemptionListQuery, query);
  return listRedemptions(ctx, { userId: actor.userId, status }, page);
}

/** Admin: every redemption, newest first (optionally of one status, e.g. the fulfilment queue). */
export async function adminListRedemptions(ctx: ServiceContext, query: unknown): Promise<Page<RedemptionView>> {
  requireAdmin(ctx);
  const { status, ...page } = parseInput(RedemptionListQuery, query);
  return listRedemptions(ctx, { status }, page);
}

/**
 * Marks a redemption fulfilled, only from `pending_fulfillment`: one conditional UPDATE, so two
 * concurrent fulfilments fulfil once and the other gets REDEMPTION_NOT_PENDING.
 */
export async function fulfilRedemption(ctx: ServiceContext, redemptionId: unknown): Promise<RedemptionView> {
  requireAdmin(ctx);
  const id = parseInput(idParam, redemptionId);
  const [row] = await ctx.em.execute<RedemptionRow[]>(
    `update redemption set status = ?, fulfilled_at = now() where id = ? and status = ? returning ${REDEMPTION_COLUMNS}`,
    [RedemptionStatus.Fulfilled, id, RedemptionStatus.PendingFulfillment],
  );
  if (row) return toRedemptionView(row);
  const [current] = await ctx.em.execute<{ status: RedemptionStatus }[]>('select status from redemption where id = ?', [id]);
  if (!current) throw notFound('Redemption', { id });
  throw conflict('REDEMPTION_NOT_PENDING', `Only a redemption pending fulfillment can be fulfilled; this one is ${current.status}`, {
    status: current.status,
  });
}
