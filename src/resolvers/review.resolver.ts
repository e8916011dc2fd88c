import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as reviews from '../after-sale/review.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { ProductReviewPage, Review, ReviewInput, ReviewPage } from './types/after-sale.types.js';

const paging = (page?: number | null, pageSize?: number | null) => ({ page: page ?? undefined, pageSize: pageSize ?? undefined });

@Resolver()
export class ReviewResolver {
  @Mutation(() => Review, { description: 'The buyer reviews an item of their delivered order, once' })
  reviewOrderItem(
    @Arg('orderId', () => Int) orderId: number,
    @Arg('orderItemId', () => Int) orderItemId: number,
    @Arg('input', () => ReviewInput) input: ReviewInput,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return reviews.reviewOrderItem(ctx, { ...input, imageUrls: input.imageUrls ?? undefined, orderId, orderItemId });
  }

  @Query(() => ProductReviewPage, { description: "A published product's visible reviews, newest first, with the rating summary" })
  productReviews(
    @Arg('productId', () => Int) productId: number,
    @Arg('rating', () => Int, { nullable: true }) rating: number | undefined,
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return reviews.listProductReviews(ctx, { productId, rating: rating ?? undefined, ...paging(page, pageSize) });
  }

  @Query(() => ReviewPage, { description: "The operator's shop's reviews, newest first; replied: false lists those awaiting a reply" })
  merchantReviews(
    @Arg('replied', () => Boolean, { nullable: true }) replied: boolean | undefined,
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return reviews.listShopReviews(ctx, { replied: replied ?? undefined, ...paging(page, pageSize) });
  }

  @Mutation(() => Review, { description: "The shop's one reply to a review of its product" })
  replyToReview(@Arg('id', () => Int) reviewId: number, @Arg('text') text: string, @Ctx() { ctx }: GraphQLContext) {
    return reviews.replyToReview(ctx, { reviewId, text });
  }

  @Query(() => ReviewPage, { description: 'Moderation: every review, newest first' })
  adminReviews(
    @Arg('hidden', () => Boolean, { nullable: true }) hidden: boolean | undefined,
    @Arg('productId', () => Int, { nullable: true }) productId: number | undefined,
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return reviews.listAllReviews(ctx, { hidden: hidden ?? undefined, productId: productId ?? undefined, ...paging(page, pageSize) });
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
