import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import * as shopStates from '../services/shops/shop-state.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { answer } from './answer.js';
import { CloseShopInput, CloseShopPayload, ReinstateShopInput, ReinstateShopPayload, SuspendShopInput, SuspendShopPayload } from './types/shop-state.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class ShopStateResolver {
  @Allow(Permission.PlatformShopsManage)
  @Mutation(() => SuspendShopPayload, { description: "Platform admin: suspend an active shop, with a reason: its products leave the storefront, its payouts are held" })
  suspendShop(@Arg('input', () => SuspendShopInput) input: SuspendShopInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, SuspendShopPayload, () => shopStates.suspendShop(ctx, { ...input }));
  }

  @Allow(Permission.PlatformShopsManage)
  @Mutation(() => ReinstateShopPayload, { description: 'Platform admin: reinstate a suspended shop; the products it held are published again' })
  reinstateShop(@Arg('input', () => ReinstateShopInput) input: ReinstateShopInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, ReinstateShopPayload, () => shopStates.reinstateShop(ctx, { ...input }));
  }

  @Allow(Permission.PlatformShopsManage)
  @Mutation(() => CloseShopPayload, { description: 'Platform admin: close a shop for good (no open order or refund, nothing on its balance)' })
  closeShop(@Arg('input', () => CloseShopInput) input: CloseShopInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CloseShopPayload, () => shopStates.closeShop(ctx, { ...input }));
  }
}
