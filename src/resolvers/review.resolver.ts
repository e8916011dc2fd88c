import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as reviews from '../services/after-sale/review.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  AdminReviewListArgs, HideReviewInput, HideReviewPayload, ProductReviewListArgs, ProductReviewPage, ReplyToReviewInput, ReplyToReviewPayload,
  ReviewOrderItemInput, ReviewOrderItemPayload, ReviewPage, ShopReviewListArgs, ShowReviewInput, ShowReviewPayload,
} from './types/after-sale.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class ReviewResolver {
  @Allow(Permission.Customer)
  @Mutation(() => ReviewOrderItemPayload, { description: 'The buyer reviews an item of their delivered order, once' })
  reviewOrderItem(@Arg('input', () => ReviewOrderItemInput) input: ReviewOrderItemInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ReviewOrderItemPayload, () => reviews.reviewOrderItem(ctx, withoutNulls({ ...input })));
  }

  @Allow(Permission.Public)
  @Query(() => ProductReviewPage, { nullable: true, description: "A published product's visible reviews, newest first, with the rating summary; null for an unknown product" })
  productReviews(@Args(() => ProductReviewListArgs) args: ProductReviewListArgs, @Ctx() { ctx }: GraphQLContext) {
    return reviews.listProductReviews(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Query(() => ReviewPage, { description: "The operator's shop's reviews, newest first; replied: false lists those awaiting a reply" })
  merchantReviews(@Args(() => ShopReviewListArgs) args: ShopReviewListArgs, @Ctx() { ctx }: GraphQLContext) {
    return reviews.listShopReviews(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopAfterSaleManage)
  @Mutation(() => ReplyToReviewPayload, { description: "The shop's one reply to a review of its product" })
  replyToReview(@Arg('input', () => ReplyToReviewInput) input: ReplyToReviewInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ReplyToReviewPayload, () => reviews.replyToReview(ctx, { ...input }));
  }

  @Allow(Permission.PlatformReviewsModerate)
  @Query(() => ReviewPage, { description: 'Moderation: every review, newest first' })
  adminReviews(@Args(() => AdminReviewListArgs) args: AdminReviewListArgs, @Ctx() { ctx }: GraphQLContext) {
    return reviews.listAllReviews(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformReviewsModerate)
  @Mutation(() => HideReviewPayload, { description: 'Moderation: leave a review out of public reads and the rating' })
  hideReview(@Arg('input', () => HideReviewInput) input: HideReviewInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, HideReviewPayload, () => reviews.setReviewHidden(ctx, { ...input }, true));
  }

  @Allow(Permission.PlatformReviewsModerate)
  @Mutation(() => ShowReviewPayload, { description: 'Moderation: show a hidden review again' })
  showReview(@Arg('input', () => ShowReviewInput) input: ShowReviewInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ShowReviewPayload, () => reviews.setReviewHidden(ctx, { ...input }, false));
  }
}
