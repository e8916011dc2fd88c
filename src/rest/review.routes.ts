import type { Router } from 'express';
import * as reviews from '../after-sale/review.service.js';
import { route, Reply } from './route.js';

/** Product reviews: the buyer writes, the public reads, the shop replies, admins moderate. */
export function reviewRoutes(router: Router) {
  route(router, '/orders/:orderId/items/:orderItemId/review', {
    post: async ({ ctx, params, body }) => new Reply(201, await reviews.reviewOrderItem(ctx, { ...(body as object), ...params })),
  });
  route(router, '/products/:productId/reviews', { get: ({ ctx, params, query }) => reviews.listProductReviews(ctx, { ...query, ...params }) });
  route(router, '/merchant/reviews', { get: ({ ctx, query }) => reviews.listShopReviews(ctx, query) });
  route(router, '/merchant/reviews/:reviewId/reply', { post: ({ ctx, params, body }) => reviews.replyToReview(ctx, { ...(body as object), ...params }) });
  route(router, '/admin/reviews', { get: ({ ctx, query }) => reviews.listAllReviews(ctx, query) });
  route(router, '/admin/reviews/:reviewId/hide', { post: ({ ctx, params }) => reviews.setReviewHidden(ctx, params, true) });
  route(router, '/admin/reviews/:reviewId/show', { post: ({ ctx, params }) => reviews.setReviewHidden(ctx, params, false) });
}
