import { EventTypes } from '../events/event-types.js';
import { toDate } from '../shared/values.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound } from '../errors.js';
import type { ServiceContext } from '../shared/context.js';
import { requireAdmin, requireCustomer, requireOperator } from '../shared/guards.js';
import { emit, inTransaction } from '../shared/transaction.js';
import { id, parseInput, z } from '../shared/validate.js';
import { pageOffset, pageFields, type Page, type PageRequest } from '../shared/pagination.js';
import { ratingSummaries, type RatingSummary } from '../catalog/rating-summary.js';

export interface ReviewView {
  id: number;
  productId: number;
  shopId: number;
  orderItemId: number;
  skuName: string;
  /** The reviewer's display name masked to its first character. */
  author: string;
  rating: number;
  text: string;
  imageUrls: string[];
  /** Always false in public reads, which leave hidden reviews out. */
  hidden: boolean;
  reply?: { text: string; repliedAt: Date };
  createdAt: Date;
}

export interface ProductReviewPage extends Page<ReviewView> {
  summary: RatingSummary;
}

const httpUrl = z.url({ protocol: /^https?$/ }).max(500);
const ReviewInput = z.strictObject({
  orderId: id,
  orderItemId: id,
  rating: z.number().int().min(1).max(5),
  text: z.string().trim().min(1).max(2000),
  imageUrls: z.array(httpUrl).max(9).default([]),
});
const ReviewRef = z.strictObject({ reviewId: id });
const ReplyInput = ReviewRef.extend({ text: z.string().trim().min(1).max(1000) });

const mask = (name: string) => `${[...name.trim()][0] ?? '*'}***`;

/** Reviews with the SKU name and the author; `withTotal` adds the row count of the whole filter. */
const selectReviews = (withTotal = false) => `
  select r.*, oi.sku_name, u.display_name${withTotal ? ', count(*) over () as total_count' : ''}
    from review r join order_item oi on oi.id = r.order_item_id join app_user u on u.id = r.customer_id`;
const flag = z.union([z.boolean(), z.stringbool()]).optional();

function toView(r: any): ReviewView {
  return {
    id: r.id, productId: r.product_id, shopId: r.shop_id, orderItemId: r.order_item_id, skuName: r.sku_name,
    author: mask(r.display_name), rating: r.rating, text: r.body, imageUrls: r.image_urls, hidden: r.hidden,
    reply: r.reply === null ? undefined : { text: r.reply, repliedAt: toDate(r.replied_at) },
    createdAt: toDate(r.created_at),
  };
}

async function oneReview(em: EntityManager, reviewId: number): Promise<ReviewView> {
  const [row] = await em.execute<any[]>(`${selectReviews()} where r.id = ?`, [reviewId]);
  return toView(row);
}

/** A page of reviews, newest first; `where` uses `r.` columns. Total 0 beyond the last page costs a count. */
async function reviewPage(em: EntityManager, where: string, params: unknown[], paging: PageRequest): Promise<Page<ReviewView>> {
  const rows = await em.execute<any[]>(
    `${selectReviews(true)} where ${where} order by r.id desc limit ? offset ?`,
    [...params, paging.pageSize, pageOffset(paging)],
  );
  let total = rows.length > 0 ? Number(rows[0].total_count) : 0;
  if (rows.length === 0 && paging.page > 1) {
    total = (await em.execute<{ n: number }[]>(`select count(*)::int as n from review r where ${where}`, params))[0].n;
  }
  return { items: rows.map(toView), page: paging.page, pageSize: paging.pageSize, total };
}

/**
 * The buyer reviews one item of their own delivered order, once. One insert decides: it selects the
 * item only when the order is the caller's and delivered, and the unique key on the item refuses a second.
 */
export async function reviewOrderItem(ctx: ServiceContext, input: unknown): Promise<ReviewView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(ReviewInput, input);
  return inTransaction(ctx, async (tx) => {
    const [created] = await tx.em.execute<{ id: number; shop_id: number; product_id: number }[]>(
      `insert into review (order_item_id, product_id, shop_id, customer_id, rating, body, image_urls, created_at)
       select oi.id, oi.product_id, o.shop_id, o.customer_id, ?, ?, ?::jsonb, now()
         from order_item oi join shop_order o on o.id = oi.order_id
        where oi.id = ? and o.id = ? and o.customer_id = ? and o.status = 'delivered'
       on conflict (order_item_id) do nothing
       returning id, shop_id, product_id`,
      [data.rating, data.text, JSON.stringify(data.imageUrls), data.orderItemId, data.orderId, customer.userId],
    );
    if (!created) {
      const [found] = await tx.em.execute<{ status: string; reviewed: boolean }[]>(
        `select o.status, exists (select 1 from review where order_item_id = oi.id) as reviewed
           from order_item oi join shop_order o on o.id = oi.order_id where oi.id = ? and o.id = ? and o.customer_id = ?`,
        [data.orderItemId, data.orderId, customer.userId],
      );
      if (!found) throw notFound('Order item', { order_id: data.orderId, order_item_id: data.orderItemId });
      if (found.reviewed) throw conflict('REVIEW_EXISTS', 'This item has already been reviewed', { order_item_id: data.orderItemId });
      throw conflict('ORDER_NOT_DELIVERED', 'Only items of a delivered order can be reviewed', { status: found.status });
    }
    emit(tx, { type: EventTypes.REVIEW_CREATED, shopIds: [created.shop_id], customerId: customer.userId, payload: { reviewId: created.id, productId: created.product_id, rating: data.rating } });
    return oneReview(tx.em, created.id);
  });
}

const ProductReviewsInput = z.object({ ...pageFields, productId: id, rating: z.coerce.number().int().min(1).max(5).optional() });

/**
 * A published product's visible reviews, newest first, optionally of one rating, with the rating
 * summary. The total comes from the summary, so a page costs two queries.
 */
export async function listProductReviews(ctx: ServiceContext, input: unknown): Promise<ProductReviewPage> {
  const { productId, rating, page, pageSize } = parseInput(ProductReviewsInput, input);
  const [product] = await ctx.em.execute(`select id from product where id = ? and status = 'published'`, [productId]);
  if (!product) throw notFound('Product', { product_id: productId });
  const [[summary], rows] = await Promise.all([
    ratingSummaries(ctx.em, [productId]),
    ctx.em.execute<any[]>(
      `${selectReviews()}
        where r.product_id = ? and not r.hidden and (?::int is null or r.rating = ?::int)
        order by r.id desc limit ? offset ?`,
      [productId, rating ?? null, rating ?? null, pageSize, pageOffset({ page, pageSize })],
    ),
  ]);
  const total = rating ? summary.perStar[rating - 1].count : summary.count;
  return { items: rows.map(toView), page, pageSize, total, summary };
}

const ShopReviewsInput = z.object({ ...pageFields, replied: flag });

/** The operator's shop's reviews (hidden ones too), newest first; `replied=false` lists those waiting for a reply. */
export async function listShopReviews(ctx: ServiceContext, input: unknown): Promise<Page<ReviewView>> {
  const operator = requireOperator(ctx);
  const { replied, ...paging } = parseInput(ShopReviewsInput, input ?? {});
  return reviewPage(ctx.em, 'r.shop_id = ? and (?::boolean is null or (r.reply is not null) = ?::boolean)', [operator.shopId, replied ?? null, replied ?? null], paging);
}

const AdminReviewsInput = z.object({ ...pageFields,
  hidden: flag,
  productId: id.optional(),
});

/** Moderation list: every review, newest first, by hidden flag and product. */
export async function listAllReviews(ctx: ServiceContext, input: unknown): Promise<Page<ReviewView>> {
  requireAdmin(ctx);
  const { hidden, productId, ...paging } = parseInput(AdminReviewsInput, input ?? {});
  return reviewPage(
    ctx.em,
    '(?::boolean is null or r.hidden = ?::boolean) and (?::int is null or r.product_id = ?::int)',
    [hidden ?? null, hidden ?? null, productId ?? null, productId ?? null],
    paging,
  );
}

/** The shop replies once to a review of its product; another shop's review is 404, a second reply 409. */
export async function replyToReview(ctx: ServiceContext, input: unknown): Promise<ReviewView> {
  const operator = requireOperator(ctx);
  const { reviewId, text } = parseInput(ReplyInput, input);
  return inTransaction(ctx, async (tx) => {
    const [replied] = await tx.em.execute<{ customer_id: number }[]>(
      'update review set reply = ?, replied_at = now() where id = ? and shop_id = ? and reply is null returning customer_id',
      [text, reviewId, operator.shopId],
    );
    if (!replied) {
      const [existing] = await tx.em.execute('select id from review where id = ? and shop_id = ?', [reviewId, operator.shopId]);
      if (!existing) throw notFound('Review', { review_id: reviewId });
      throw conflict('REVIEW_ALREADY_REPLIED', 'This review already has a reply', { review_id: reviewId });
    }
    emit(tx, { type: EventTypes.REVIEW_REPLIED, shopIds: [operator.shopId], customerId: replied.customer_id, payload: { reviewId } });
    return oneReview(tx.em, reviewId);
  });
}

/** An admin hides (or shows again) a review; repeating either is harmless. */
export async function setReviewHidden(ctx: ServiceContext, input: unknown, hidden: boolean): Promise<ReviewView> {
  requireAdmin(ctx);
  const { reviewId } = parseInput(ReviewRef, input);
  return inTransaction(ctx, async (tx) => {
    const changed = await tx.em.execute(
      `update review set hidden = ?, hidden_at = case when ? then coalesce(hidden_at, now()) end where id = ? returning id`,
      [hidden, hidden, reviewId],
    );
    if (changed.length === 0) throw notFound('Review', { review_id: reviewId });
    return oneReview(tx.em, reviewId);
  });
}
