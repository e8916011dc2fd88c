import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as groupBuys from '../services/promotions/group-buy.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { PageArgs } from './types/page.types.js';
import { GroupBuyDetail, GroupBuyInput, GroupBuyListArgs, GroupBuyPage, MerchantGroupBuy, MerchantGroupBuyPage } from './types/group-buy.types.js';

@Resolver()
export class GroupBuyResolver {
  @Query(() => GroupBuyPage, { description: 'Group-buying activities running now, ending soonest first' })
  groupBuys(@Args(() => GroupBuyListArgs) args: GroupBuyListArgs, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.listGroupBuys(ctx, withoutNulls(args));
  }

  @Query(() => GroupBuyDetail, { description: 'One activity with its open groups' })
  groupBuy(@Arg('id', () => Int) activityId: number, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.getGroupBuy(ctx, { activityId });
  }

  @Query(() => MerchantGroupBuyPage, { description: "The operator's activities, newest first" })
  merchantGroupBuys(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.listShopGroupBuys(ctx, withoutNulls(args));
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
