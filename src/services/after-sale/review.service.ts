import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { EventTypes } from '../events/event-types.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { OrderItem } from '../../entities/order-item.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { Review } from '../../entities/review.entity.js';
import { conflict, notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer, requirePlatformPermission, requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { httpUrl, id, parseInput, queryFlag, NOT_BLANK, z } from '../../shared/validate.js';
import { pageFields, pageOf, pageOffset, windowTotal, type Page, type PageRequest } from '../../shared/pagination.js';
import { ratingSummaries, type RatingSummary } from '../catalog/rating-summary.js';
import { refusals } from '../../error-codes.js';
import { auditedWrite } from '../../shared/audit.js';
import { containsPattern } from '../../shared/values.js';
import type { ReviewView } from './review-view.js';

export { ReviewView } from './review-view.js';

export interface ProductReviewPage extends Page<ReviewView> {
  summary: RatingSummary;
}

export const ReviewInput = z.strictObject({
  orderId: id,
  orderItemId: id,
  rating: z.number().int().min(1).max(5),
  text: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(2000),
  imageUrls: z.array(httpUrl()).max(9).default([]),
});
const ReviewRef = z.strictObject({ reviewId: id });
export const ReplyInput = ReviewRef.extend({ text: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(1000) });

const mask = (name: string) => `${[...name.trim()][0] ?? '*'}***`;

/** Reviews with the SKU name and the author, newest first; callers add their filter. */
const reviews = (em: EntityManager) =>
  typedSql(em)
    .selectFrom('Review as r')
    .innerJoin('OrderItem as oi', 'oi.id', 'r.orderItem')
    .innerJoin('User as u', 'u.id', 'r.customer')
    .innerJoin('Product as p', 'p.id', 'r.product')
    .innerJoin('Shop as s', 's.id', 'r.shop');
type Reviews = ReturnType<typeof reviews>;

const withAuthor = (query: Reviews) => query.selectAll('r').select(['oi.skuName', 'u.displayName', 'p.name as productName', 's.name as shopName']).orderBy('r.id', 'desc');

type ReviewRow = Database['Review'] & { skuName: string; displayName: string; productName: string; shopName: string };

function toView(r: ReviewRow): ReviewView {
  return {
    id: r.id, productId: r.product, productName: r.productName, shopId: r.shop, shopName: r.shopName, orderItemId: r.orderItem, skuName: r.skuName,
    author: mask(r.displayName), rating: r.rating, text: r.body, imageUrls: r.imageUrls, hidden: r.hidden,
    reply: r.reply !== null && r.repliedAt !== null ? { text: r.reply, repliedAt: r.repliedAt } : undefined,
    createdAt: r.createdAt,
  };
}

async function oneReview(em: EntityManager, reviewId: number): Promise<ReviewView> {
  return toView(await withAuthor(reviews(em).where('r.id', '=', reviewId)).executeTakeFirstOrThrow());
}

/** A page of the reviews `filtered` keeps, newest first, with the total of the whole filter. */
async function reviewPage(filtered: Reviews, paging: PageRequest): Promise<Page<ReviewView>> {
  const rows = await withAuthor(filtered)
    .select(sql<number>`(count(*) over ())::int`.as('total'))
    .limit(paging.pageSize)
    .offset(pageOffset(paging))
    .execute();
  const total = await windowTotal(rows, paging, async () => (await filtered.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n);
  return pageOf(rows.map(toView), paging, total);
}

export const reviewOrderItemRefusals = refusals('NOT_FOUND', 'ORDER_NOT_DELIVERED', 'REVIEW_EXISTS');

/**
 * The buyer reviews one item of their own delivered order, once: the unique key on the item refuses
 * a second review, also when two arrive at once.
 */
export async function reviewOrderItem(ctx: ServiceContext, input: unknown): Promise<ReviewView> {
  const customer = requireCustomer(ctx);
  const data = parseInput(ReviewInput, input);
  return inTransaction(ctx, async (tx) => {
    const item = await tx.em.findOne(
      OrderItem,
      { id: data.orderItemId, order: { id: data.orderId, customer: customer.userId } },
      { populate: ['order'] },
    );
    if (!item) throw notFound('Order item', { order_id: data.orderId, order_item_id: data.orderItemId });
    const { order } = item;
    const status: OrderStatus = order.status;
    // A completed order was delivered: its after-sale window is over, not its reviews.
    if (status !== OrderStatus.Delivered && status !== OrderStatus.Completed) {
      throw conflict('ORDER_NOT_DELIVERED', 'Only items of a delivered order can be reviewed', { status });
    }
    const review = tx.em.create(Review, {
      orderItem: item,
      product: item.product,
      shop: order.shop,
      customer: customer.userId,
      rating: data.rating,
      body: data.text,
      imageUrls: data.imageUrls,
    });
    try {
      await tx.em.flush();
    } catch (error) {
      if (error instanceof UniqueConstraintViolationException) {
        throw conflict('REVIEW_EXISTS', 'This item has already been reviewed', { order_item_id: data.orderItemId });
      }
      throw error;
    }
    emit(tx, { type: EventTypes.REVIEW_CREATED, shopIds: [order.shop.id], customerId: customer.userId, payload: { reviewId: review.id, productId: item.product.id, rating: data.rating } });
    return oneReview(tx.em, review.id);
  });
}

export const ProductReviewsInput = z.object({ ...pageFields, productId: id, rating: z.coerce.number().int().min(1).max(5).optional() });

export const listProductReviewsRefusals = refusals('NOT_FOUND');

/**
 * A published product's visible reviews, newest first, optionally of one rating, with the rating
 * summary. The total comes from the summary, so a page costs two queries.
 */
export async function listProductReviews(ctx: ServiceContext, input: unknown): Promise<ProductReviewPage> {
  const { productId, rating, page, pageSize } = parseInput(ProductReviewsInput, input);
  const product = await typedSql(ctx.em).selectFrom('Product').select('id').where('id', '=', productId).where('status', '=', ProductStatus.Published).executeTakeFirst();
  if (!product) throw notFound('Product', { product_id: productId });
  // `not hidden`, as the partial index on visible reviews says it.
  const visible = reviews(ctx.em).where('r.product', '=', productId).where((eb) => eb.not(eb.ref('r.hidden')));
  const [[summary], rows] = await Promise.all([
    ratingSummaries(ctx.em, [productId]),
    withAuthor(rating ? visible.where('r.rating', '=', rating) : visible)
      .limit(pageSize)
      .offset(pageOffset({ page, pageSize }))
      .execute(),
  ]);
  const total = rating ? summary.perStar[rating - 1].count : summary.count;
  return { items: rows.map(toView), page, pageSize, total, summary };
}

export const ShopReviewsInput = z.object({ ...pageFields, replied: queryFlag.optional() });

/** The operator's shop's reviews (hidden ones too), newest first; `replied=false` lists those waiting for a reply. */
export async function listShopReviews(ctx: ServiceContext, input: unknown): Promise<Page<ReviewView>> {
  const operator = requireShopPermission(ctx, Permission.ShopAfterSaleManage);
  const { replied, ...paging } = parseInput(ShopReviewsInput, input ?? {});
  const shops = reviews(ctx.em).where('r.shop', '=', operator.shopId);
  if (replied === undefined) return reviewPage(shops, paging);
  return reviewPage(shops.where('r.reply', replied ? 'is not' : 'is', null), paging);
}

export const AdminReviewsInput = z.object({ ...pageFields,
  hidden: queryFlag.optional(),
  productId: id.optional(),
  /** Part of the review's text, or of its product's or shop's name. */
  q: z.string().trim().max(200).optional(),
  /** Only reviews of this many stars. */
  rating: z.coerce.number().int().min(1).max(5).optional(),
});

/**
 * Moderation list: every review, newest first, by hidden flag, product, stars and words. The words
 * are read in the text and in the product's and shop's names, as a moderator looks for a complaint
 * or a seller; a moderation desk reads few pages, so the match scans the reviews (no index of its own).
 */
export async function listAllReviews(ctx: ServiceContext, input: unknown): Promise<Page<ReviewView>> {
  requirePlatformPermission(ctx, Permission.PlatformReviewsModerate);
  const { hidden, productId, q, rating, ...paging } = parseInput(AdminReviewsInput, input ?? {});
  let all = reviews(ctx.em);
  if (hidden !== undefined) all = all.where('r.hidden', '=', hidden);
  if (productId !== undefined) all = all.where('r.product', '=', productId);
  if (rating !== undefined) all = all.where('r.rating', '=', rating);
  if (q) {
    const pattern = containsPattern(q);
    all = all.where((eb) => eb.or([eb('r.body', 'ilike', pattern), eb('p.name', 'ilike', pattern), eb('s.name', 'ilike', pattern)]));
  }
  return reviewPage(all, paging);
}

export const replyToReviewRefusals = refusals('NOT_FOUND', 'REVIEW_ALREADY_REPLIED');

/** The shop replies once to a review of its product; another shop's review is 404, a second reply 409. */
export async function replyToReview(ctx: ServiceContext, input: unknown): Promise<ReviewView> {
  const operator = requireShopPermission(ctx, Permission.ShopAfterSaleManage);
  const { reviewId, text } = parseInput(ReplyInput, input);
  return inTransaction(ctx, async (tx) => {
    const db = typedSql(tx.em);
    const replied = await auditedWrite(tx, { type: 'Review', id: reviewId }, () =>
      db
        .updateTable('Review')
        .set({ reply: text, repliedAt: sql<Date>`now()` })
        .where('id', '=', reviewId)
        .where('shop', '=', operator.shopId)
        .where('reply', 'is', null)
        .returning('customer')
        .executeTakeFirst(),
    );
    if (!replied) {
      const existing = await db.selectFrom('Review').select('id').where('id', '=', reviewId).where('shop', '=', operator.shopId).executeTakeFirst();
      if (!existing) throw notFound('Review', { review_id: reviewId });
      throw conflict('REVIEW_ALREADY_REPLIED', 'This review already has a reply', { review_id: reviewId });
    }
    emit(tx, { type: EventTypes.REVIEW_REPLIED, shopIds: [operator.shopId], customerId: replied.customer, payload: { reviewId } });
    return oneReview(tx.em, reviewId);
  });
}

export const setReviewHiddenRefusals = refusals('NOT_FOUND');

/** An admin hides (or shows again) a review; repeating either is harmless (the first hiding time stays). */
export async function setReviewHidden(ctx: ServiceContext, input: unknown, hidden: boolean): Promise<ReviewView> {
  requirePlatformPermission(ctx, Permission.PlatformReviewsModerate);
  const { reviewId } = parseInput(ReviewRef, input);
  return inTransaction(ctx, async (tx) => {
    const changed = await auditedWrite(tx, { type: 'Review', id: reviewId }, () =>
      typedSql(tx.em)
        .updateTable('Review')
        .set((eb) => ({ hidden, hiddenAt: hidden ? eb.fn.coalesce('hiddenAt', sql<Date>`now()`) : null }))
        .where('id', '=', reviewId)
        .returning('id')
        .executeTakeFirst(),
    );
    if (!changed) throw notFound('Review', { review_id: reviewId });
    return oneReview(tx.em, reviewId);
  });
}
