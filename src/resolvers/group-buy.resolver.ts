import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as groupBuys from '../promotions/group-buy.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { GroupBuyDetail, GroupBuyInput, GroupBuyPage, MerchantGroupBuy, MerchantGroupBuyPage } from './types/group-buy.types.js';

@Resolver()
export class GroupBuyResolver {
  @Query(() => GroupBuyPage, { description: 'Group-buying activities running now, ending soonest first' })
  groupBuys(
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Arg('shopId', () => Int, { nullable: true }) shopId: number | undefined,
    @Arg('productId', () => Int, { nullable: true }) productId: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return groupBuys.listGroupBuys(ctx, { page: page ?? undefined, pageSize: pageSize ?? undefined, shopId: shopId ?? undefined, productId: productId ?? undefined });
  }

  @Query(() => GroupBuyDetail, { description: 'One activity with its open groups' })
  groupBuy(@Arg('id', () => Int) activityId: number, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.getGroupBuy(ctx, { activityId });
  }

  @Query(() => MerchantGroupBuyPage, { description: "The operator's activities, newest first" })
  merchantGroupBuys(
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return groupBuys.listShopGroupBuys(ctx, { page: page ?? undefined, pageSize: pageSize ?? undefined });
  }

  @Mutation(() => MerchantGroupBuy)
  createGroupBuy(@Arg('input', () => GroupBuyInput) input: GroupBuyInput, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.createGroupBuy(ctx, { ...input });
  }

  @Mutation(() => MerchantGroupBuy, { description: "Replace an activity's terms; open groups keep theirs" })
  updateGroupBuy(@Arg('id', () => Int) activityId: number, @Arg('input', () => GroupBuyInput) input: GroupBuyInput, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.updateGroupBuy(ctx, { ...input, activityId });
  }

  @Mutation(() => Boolean, { description: 'Delete an activity that never had a group' })
  async deleteGroupBuy(@Arg('id', () => Int) activityId: number, @Ctx() { ctx }: GraphQLContext) {
    await groupBuys.deleteGroupBuy(ctx, { activityId });
    return true;
  }
}
