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
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class PointsResolver {
  @Allow(Permission.Public)
  @Query(() => PointsProductPage, { description: 'Published points products, newest first, with their remaining stock' })
  pointsProducts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.listPointsProducts(ctx, withoutNulls(args));
  }

  @Allow(Permission.Customer)
  @Mutation(() => RedeemPointsProductPayload, { description: 'Redeem a published points product with points (customer)' })
  redeemPointsProduct(@Arg('input', () => RedeemPointsProductInput) input: RedeemPointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    const { pointsProductId, ...redemption } = input;
    return answer(ctx, RedeemPointsProductPayload, () => points.redeemPointsProduct(ctx, pointsProductId, redemption));
  }

  @Allow(Permission.Customer)
  @Query(() => RedemptionPage, { description: "The caller's own redemptions, newest first (customer)" })
  myRedemptions(@Args(() => RedemptionListArgs) args: RedemptionListArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.myRedemptions(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformPointsManage)
  @Query(() => PointsProductPage, { description: 'Every points product, published or not (platform admin)' })
  adminPointsProducts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.adminListPointsProducts(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformPointsManage)
  @Mutation(() => CreatePointsProductPayload, { description: 'Create a points product (platform admin)' })
  createPointsProduct(@Arg('input', () => CreatePointsProductInput) input: CreatePointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreatePointsProductPayload, () => points.createPointsProduct(ctx, input));
  }

  @Allow(Permission.PlatformPointsManage)
  @Mutation(() => UpdatePointsProductPayload, { description: 'Change a points product (platform admin)' })
  updatePointsProduct(@Arg('input', () => UpdatePointsProductInput) input: UpdatePointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    const { pointsProductId, ...changes } = input;
    return answer(ctx, UpdatePointsProductPayload, () => points.updatePointsProduct(ctx, pointsProductId, changes));
  }

  @Allow(Permission.PlatformRedemptionsManage)
  @Query(() => RedemptionPage, { description: 'Every redemption, newest first (platform admin)' })
  adminRedemptions(@Args(() => RedemptionListArgs) args: RedemptionListArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.adminListRedemptions(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformRedemptionsManage)
  @Mutation(() => FulfilRedemptionPayload, { description: 'Mark a pending redemption fulfilled (platform admin)' })
  fulfilRedemption(@Arg('input', () => FulfilRedemptionInput) input: FulfilRedemptionInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, FulfilRedemptionPayload, () => points.fulfilRedemption(ctx, input.redemptionId));
  }
}
