import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as points from '../services/points/points-mall.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { PageArgs } from './types/page.types.js';
import {
  CreatePointsProductInput, PointsProductPage, PointsProductType, RedeemInput, RedemptionListArgs, RedemptionPage, RedemptionType,
  UpdatePointsProductInput,
} from './types/points.types.js';

@Resolver()
export class PointsResolver {
  @Query(() => PointsProductPage, { description: 'Published points products, newest first, with their remaining stock' })
  pointsProducts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.listPointsProducts(ctx, withoutNulls(args));
  }

  @Mutation(() => RedemptionType, { description: 'Redeem a published points product with points (customer)' })
  redeemPointsProduct(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => RedeemInput) input: RedeemInput,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return points.redeemPointsProduct(ctx, id, input);
  }

  @Query(() => RedemptionPage, { description: "The caller's own redemptions, newest first (customer)" })
  myRedemptions(@Args(() => RedemptionListArgs) args: RedemptionListArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.myRedemptions(ctx, withoutNulls(args));
  }

  @Query(() => PointsProductPage, { description: 'Every points product, published or not (platform admin)' })
  adminPointsProducts(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.adminListPointsProducts(ctx, withoutNulls(args));
  }

  @Mutation(() => PointsProductType, { description: 'Create a points product (platform admin)' })
  createPointsProduct(@Arg('input', () => CreatePointsProductInput) input: CreatePointsProductInput, @Ctx() { ctx }: GraphQLContext) {
    return points.createPointsProduct(ctx, input);
  }

  @Mutation(() => PointsProductType, { description: 'Change a points product (platform admin)' })
  updatePointsProduct(
    @Arg('id', () => Int) id: number,
    @Arg('input', () => UpdatePointsProductInput) input: UpdatePointsProductInput,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return points.updatePointsProduct(ctx, id, input);
  }

  @Query(() => RedemptionPage, { description: 'Every redemption, newest first (platform admin)' })
  adminRedemptions(@Args(() => RedemptionListArgs) args: RedemptionListArgs, @Ctx() { ctx }: GraphQLContext) {
    return points.adminListRedemptions(ctx, withoutNulls(args));
  }

  @Mutation(() => RedemptionType, { description: 'Mark a pending redemption fulfilled (platform admin)' })
  fulfilRedemption(@Arg('id', () => Int) id: number, @Ctx() { ctx }: GraphQLContext) {
    return points.fulfilRedemption(ctx, id);
  }
}
