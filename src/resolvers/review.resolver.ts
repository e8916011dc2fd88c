import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as reviews from '../services/after-sale/review.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import {
  AdminReviewListArgs, ProductReviewListArgs, ProductReviewPage, Review, ReviewInput, ReviewPage, ShopReviewListArgs,
} from './types/after-sale.types.js';

@Resolver()
export class ReviewResolver {
  @Mutation(() => Review, { description: 'The buyer reviews an item of their delivered order, once' })
  reviewOrderItem(
    @Arg('orderId', () => Int) orderId: number,
    @Arg('orderItemId', () => Int) orderItemId: number,
    @Arg('input', () => ReviewInput) input: ReviewInput,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return reviews.reviewOrderItem(ctx, { ...withoutNulls(input), orderId, orderItemId });
  }

  @Query(() => ProductReviewPage, { description: "A published product's visible reviews, newest first, with the rating summary" })
  productReviews(@Args(() => ProductReviewListArgs) args: ProductReviewListArgs, @Ctx() { ctx }: GraphQLContext) {
    return reviews.listProductReviews(ctx, withoutNulls(args));
  }

  @Query(() => ReviewPage, { description: "The operator's shop's reviews, newest first; replied: false lists those awaiting a reply" })
  merchantReviews(@Args(() => ShopReviewListArgs) args: ShopReviewListArgs, @Ctx() { ctx }: GraphQLContext) {
    return reviews.listShopReviews(ctx, withoutNulls(args));
  }

  @Mutation(() => Review, { description: "The shop's one reply to a review of its product" })
  replyToReview(@Arg('id', () => Int) reviewId: number, @Arg('text') text: string, @Ctx() { ctx }: GraphQLContext) {
    return reviews.replyToReview(ctx, { reviewId, text });
  }

  @Query(() => ReviewPage, { description: 'Moderation: every review, newest first' })
  adminReviews(@Args(() => AdminReviewListArgs) args: AdminReviewListArgs, @Ctx() { ctx }: GraphQLContext) {
    return reviews.listAllReviews(ctx, withoutNulls(args));
  }

  @Mutation(() => Review)
  hideReview(@Arg('id', () => Int) reviewId: number, @Ctx() { ctx }: GraphQLContext) {
    return reviews.setReviewHidden(ctx, { reviewId }, true);
  }

  @Mutation(() => Review)
  showReview(@Arg('id', () => Int) reviewId: number, @Ctx() { ctx }: GraphQLContext) {
    return reviews.setReviewHidden(ctx, { reviewId }, false);
  }
}
