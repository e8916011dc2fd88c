import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as groupBuys from '../services/promotions/group-buy.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PageArgs } from './types/page.types.js';
import {
  CreateGroupBuyInput, CreateGroupBuyPayload, DeleteGroupBuyInput, DeleteGroupBuyPayload, GroupBuyDetail, GroupBuyListArgs, GroupBuyPage,
  MerchantGroupBuyPage, UpdateGroupBuyInput, UpdateGroupBuyPayload,
} from './types/group-buy.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class GroupBuyResolver {
  @Allow(Permission.Public)
  @Query(() => GroupBuyPage, { description: 'Group-buying activities running now, ending soonest first' })
  groupBuys(@Args(() => GroupBuyListArgs) args: GroupBuyListArgs, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.listGroupBuys(ctx, withoutNulls(args));
  }

  @Allow(Permission.Public)
  @Query(() => GroupBuyDetail, { nullable: true, description: 'One activity with its open groups' })
  groupBuy(@Arg('id', () => Int) activityId: number, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.getGroupBuy(ctx, { activityId });
  }

  @Allow(Permission.ShopPromotionsManage)
  @Query(() => MerchantGroupBuyPage, { description: "The operator's activities, newest first" })
  merchantGroupBuys(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return groupBuys.listShopGroupBuys(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => CreateGroupBuyPayload, { description: 'Offer one SKU of the own shop in groups' })
  createGroupBuy(@Arg('input', () => CreateGroupBuyInput) input: CreateGroupBuyInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreateGroupBuyPayload, () => groupBuys.createGroupBuy(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => UpdateGroupBuyPayload, { description: "Replace an activity's terms; open groups keep theirs" })
  updateGroupBuy(@Arg('input', () => UpdateGroupBuyInput) input: UpdateGroupBuyInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpdateGroupBuyPayload, () => groupBuys.updateGroupBuy(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => DeleteGroupBuyPayload, { description: 'Delete an activity that never had a group' })
  deleteGroupBuy(@Arg('input', () => DeleteGroupBuyInput) input: DeleteGroupBuyInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DeleteGroupBuyPayload, async () => {
      await groupBuys.deleteGroupBuy(ctx, { ...input });
      return input.activityId;
    });
  }
}
