import type { Router } from 'express';
import * as reviews from '../services/after-sale/review.service.js';
import { route, Reply } from './route.js';
import { ProductReviewPage, Review, ReviewPage } from './responses/after-sale.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Reviews';

/** Product reviews: the buyer writes, the public reads, the shop replies, admins moderate. */
export function reviewRoutes(router: Router) {
  route(router, '/orders/:orderId/items/:orderItemId/review', {
    post: {
      doc: {
        tag, summary: 'Review a delivered order item', permission: Permission.Customer, body: reviews.ReviewInput, response: Review, status: 201,
        errors: reviews.reviewOrderItemRefusals,
      },
      handle: async ({ ctx, params, body }) => new Reply(201, await reviews.reviewOrderItem(ctx, { ...(body as object), ...params })),
    },
  });
  route(router, '/products/:productId/reviews', {
    get: {
      doc: { tag, summary: "A product's visible reviews and rating summary", permission: Permission.Public, query: reviews.ProductReviewsInput, response: ProductReviewPage, errors: reviews.listProductReviewsRefusals },
      handle: ({ ctx, params, query }) => reviews.listProductReviews(ctx, { ...query, ...params }),
    },
  });
  route(router, '/merchant/reviews', {
    get: { doc: { tag, summary: "Reviews of the shop's products", permission: Permission.ShopAfterSaleManage, query: reviews.ShopReviewsInput, response: ReviewPage }, handle: ({ ctx, query }) => reviews.listShopReviews(ctx, query) },
  });
  route(router, '/merchant/reviews/:reviewId/reply', {
    post: {
      doc: { tag, summary: 'Reply to a review, once', permission: Permission.ShopAfterSaleManage, body: reviews.ReplyInput, response: Review, errors: reviews.replyToReviewRefusals },
      handle: ({ ctx, params, body }) => reviews.replyToReview(ctx, { ...(body as object), ...params }),
    },
  });
  route(router, '/admin/reviews', {
    get: { doc: { tag, summary: 'Every review, hidden ones too', permission: Permission.PlatformReviewsModerate, query: reviews.AdminReviewsInput, response: ReviewPage }, handle: ({ ctx, query }) => reviews.listAllReviews(ctx, query) },
  });
  route(router, '/admin/reviews/:reviewId/hide', {
    post: { doc: { tag, summary: 'Hide a review from the public', permission: Permission.PlatformReviewsModerate, response: Review, errors: reviews.setReviewHiddenRefusals }, handle: ({ ctx, params }) => reviews.setReviewHidden(ctx, params, true) },
  });
  route(router, '/admin/reviews/:reviewId/show', {
    post: { doc: { tag, summary: 'Show a hidden review again', permission: Permission.PlatformReviewsModerate, response: Review, errors: reviews.setReviewHiddenRefusals }, handle: ({ ctx, params }) => reviews.setReviewHidden(ctx, params, false) },
  });
}
