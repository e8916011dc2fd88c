import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as applications from '../services/shops/shop-application.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import {
  ApplyForShopInput, ApplyForShopPayload, ApproveShopApplicationInput, ApproveShopApplicationPayload, RejectShopApplicationInput,
  RejectShopApplicationPayload, AdminShopApplicationListArgs, ShopApplication, ShopApplicationListArgs, ShopApplicationPage, WithdrawShopApplicationInput, WithdrawShopApplicationPayload,
} from './types/shop-application.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class ShopApplicationResolver {
  @Allow(Permission.Customer)
  @Mutation(() => ApplyForShopPayload, { description: 'A customer applies to open a shop (one open application at a time)' })
  applyForShop(@Arg('input', () => ApplyForShopInput) input: ApplyForShopInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ApplyForShopPayload, () => applications.applyForShop(ctx, withoutNulls({ ...input, categoryIds: [...input.categoryIds] })));
  }

  @Allow(Permission.SignedIn)
  @Query(() => ShopApplicationPage, { description: "The caller's shop applications, newest first" })
  myShopApplications(@Args(() => ShopApplicationListArgs) args: ShopApplicationListArgs, @Ctx() { ctx }: GraphQLContext) {
    return applications.listMyShopApplications(ctx, withoutNulls(args));
  }

  @Allow(Permission.SignedIn)
  @Query(() => ShopApplication, { nullable: true, description: "One of the caller's shop applications, with a rejection's reason" })
  myShopApplication(@Arg('id', () => Int) applicationId: number, @Ctx() { ctx }: GraphQLContext) {
    return applications.getMyShopApplication(ctx, { applicationId });
  }

  @Allow(Permission.SignedIn)
  @Mutation(() => WithdrawShopApplicationPayload, { description: 'The applicant withdraws an application still submitted' })
  withdrawShopApplication(@Arg('input', () => WithdrawShopApplicationInput) input: WithdrawShopApplicationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, WithdrawShopApplicationPayload, () => applications.withdrawShopApplication(ctx, { ...input }));
  }

  @Allow(Permission.PlatformShopsManage)
  @Query(() => ShopApplicationPage, { description: 'Platform admin: every shop application, newest first' })
  shopApplications(@Args(() => AdminShopApplicationListArgs) args: AdminShopApplicationListArgs, @Ctx() { ctx }: GraphQLContext) {
    return applications.listShopApplications(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformShopsManage)
  @Query(() => ShopApplication, { nullable: true, description: 'Platform admin: one shop application' })
  shopApplication(@Arg('id', () => Int) applicationId: number, @Ctx() { ctx }: GraphQLContext) {
    return applications.getShopApplication(ctx, { applicationId });
  }

  @Allow(Permission.PlatformShopsManage)
  @Mutation(() => ApproveShopApplicationPayload, { description: 'Platform admin: create the shop and make the applicant its operator, in one transaction' })
  approveShopApplication(@Arg('input', () => ApproveShopApplicationInput) input: ApproveShopApplicationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ApproveShopApplicationPayload, () => applications.approveShopApplication(ctx, { ...input }));
  }

  @Allow(Permission.PlatformShopsManage)
  @Mutation(() => RejectShopApplicationPayload, { description: 'Platform admin: reject, with the reason the applicant reads' })
  rejectShopApplication(@Arg('input', () => RejectShopApplicationInput) input: RejectShopApplicationInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, RejectShopApplicationPayload, () => applications.rejectShopApplication(ctx, { ...input }));
  }
}
