import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as flashSales from '../services/promotions/flash-sale.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PageArgs } from './types/page.types.js';
import {
  CreateFlashSaleInput, CreateFlashSalePayload, DeleteFlashSaleInput, DeleteFlashSalePayload, DisableFlashSaleInput, DisableFlashSalePayload,
  EnableFlashSaleInput, EnableFlashSalePayload, FlashSale, FlashSaleListArgs, FlashSalePage, UpdateFlashSaleInput, UpdateFlashSalePayload,
} from './types/flash-sale.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@Resolver()
export class FlashSaleResolver {
  @Allow(Permission.Public)
  @Query(() => FlashSalePage, { description: 'Enabled flash sales active now (and, if asked, upcoming ones), soonest first' })
  flashSales(@Args(() => FlashSaleListArgs) args: FlashSaleListArgs, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.listFlashSales(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Query(() => FlashSalePage, { description: "The operator's shop's flash sales, newest first" })
  merchantFlashSales(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.listShopFlashSales(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Query(() => FlashSale, { nullable: true, description: "One of the operator's shop's flash sales" })
  merchantFlashSale(@Arg('id', () => Int) flashSaleId: number, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.getShopFlashSale(ctx, { flashSaleId });
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => CreateFlashSalePayload, { description: 'Create a flash sale (disabled until enabled)' })
  createFlashSale(@Arg('input', () => CreateFlashSaleInput) input: CreateFlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, CreateFlashSalePayload, () => flashSales.createFlashSale(ctx, input));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => UpdateFlashSalePayload, { description: 'Replace name, window and items; items are matched by SKU' })
  updateFlashSale(@Arg('input', () => UpdateFlashSaleInput) input: UpdateFlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpdateFlashSalePayload, () => flashSales.updateFlashSale(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => DeleteFlashSalePayload, { description: 'Delete a session that priced no order (disable it otherwise)' })
  deleteFlashSale(@Arg('input', () => DeleteFlashSaleInput) input: DeleteFlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DeleteFlashSalePayload, async () => {
      await flashSales.deleteFlashSale(ctx, { ...input });
      return input.flashSaleId;
    });
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => EnableFlashSalePayload, { description: 'Enable; refused (FLASH_SALE_OVERLAP) when a SKU is in an overlapping enabled session' })
  enableFlashSale(@Arg('input', () => EnableFlashSaleInput) input: EnableFlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, EnableFlashSalePayload, () => flashSales.enableFlashSale(ctx, { ...input }));
  }

  @Allow(Permission.ShopPromotionsManage)
  @Mutation(() => DisableFlashSalePayload, { description: 'Disable: it prices nothing and leaves the storefront' })
  disableFlashSale(@Arg('input', () => DisableFlashSaleInput) input: DisableFlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, DisableFlashSalePayload, () => flashSales.disableFlashSale(ctx, { ...input }));
  }
}
