import { Arg, Args, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import * as points from '../services/points/points-mall.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PageArgs } from './types/page.types.js';
import {
  CreatePointsProductInput, CreatePointsProductPayload, FulfilRedemptionInput, FulfilRedemptionPayload, PointsProductPage, RedeemPointsProductInput,
  RedeemPointsProductPayload, RedemptionListArgs, RedemptionPage, UpdatePointsProductInput, UpdatePointsProductPayload,
} from './types/points.types.js';

@Resolver()
export class PointsResolver {
  @Query(() => PointsProductPage, { description: 'Published points products, newest first, with their remaining stock' })
  pointsProducts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.listPointsProducts(ctx, withoutNulls(args));
  }

  @Mutation(() => RedeemPointsProductPayload, { description: 'Redeem a published points product with points (customer)' })
  redeemPointsProduct(@Arg('input', () => RedeemPointsProductInput) input: RedeemPointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    const { pointsProductId, ...redemption } = input;
    return answer(ctx, RedeemPointsProductPayload, () => points.redeemPointsProduct(ctx, pointsProductId, redemption));
  }

  @Query(() => RedemptionPage, { description: "The caller's own redemptions, newest first (customer)" })
  myRedemptions(@Args(() => RedemptionListArgs) args: RedemptionListArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.myRedemptions(ctx, withoutNulls(args));
  }

  @Query(() => PointsProductPage, { description: 'Every points product, published or not (platform admin)' })
  adminPointsProducts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.adminListPointsProducts(ctx, withoutNulls(args));
  }

  @Mutation(() => CreatePointsProductPayload, { description: 'Create a points product (platform admin)' })
  createPointsProduct(@Arg('input', () => CreatePointsProductInput) input: CreatePointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreatePointsProductPayload, () => points.createPointsProduct(ctx, input));
  }

  @Mutation(() => UpdatePointsProductPayload, { description: 'Change a points product (platform admin)' })
  updatePointsProduct(@Arg('input', () => UpdatePointsProductInput) input: UpdatePointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    const { pointsProductId, ...changes } = input;
    return answer(ctx, UpdatePointsProductPayload, () => points.updatePointsProduct(ctx, pointsProductId, changes));
  }

  @Query(() => RedemptionPage, { description: 'Every redemption, newest first (platform admin)' })
  adminRedemptions(@Args(() => RedemptionListArgs) args: RedemptionListArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.adminListRedemptions(ctx, withoutNulls(args));
  }

  @Mutation(() => FulfilRedemptionPayload, { description: 'Mark a pending redemption fulfilled (platform admin)' })
  fulfilRedemption(@Arg('input', () => FulfilRedemptionInput) input: FulfilRedemptionInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, FulfilRedemptionPayload, () => points.fulfilRedemption(ctx, input.redemptionId));
  }
}
