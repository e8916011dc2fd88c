import { Arg, Args, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as flashSales from '../services/promotions/flash-sale.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { PageArgs } from './types/page.types.js';
import { FlashSale, FlashSaleInput, FlashSaleListArgs, FlashSalePage } from './types/flash-sale.types.js';

@Resolver()
export class FlashSaleResolver {
  @Query(() => FlashSalePage, { description: 'Enabled flash sales active now (and, if asked, upcoming ones), soonest first' })
  flashSales(@Args(() => FlashSaleListArgs) args: FlashSaleListArgs, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.listFlashSales(ctx, withoutNulls(args));
  }

  @Query(() => FlashSalePage, { description: "The operator's shop's flash sales, newest first" })
  merchantFlashSales(@Args(() => PageArgs) args: PageArgs, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.listShopFlashSales(ctx, withoutNulls(args));
  }

  @Query(() => FlashSale)
  merchantFlashSale(@Arg('id', () => Int) flashSaleId: number, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.getShopFlashSale(ctx, { flashSaleId });
  }

  @Mutation(() => FlashSale, { description: 'Create a flash sale (disabled until enabled)' })
  createFlashSale(@Arg('input', () => FlashSaleInput) input: FlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.createFlashSale(ctx, input);
  }

  @Mutation(() => FlashSale, { description: 'Replace name, window and items; items are matched by SKU' })
  updateFlashSale(@Arg('id', () => Int) flashSaleId: number, @Arg('input', () => FlashSaleInput) input: FlashSaleInput, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.updateFlashSale(ctx, { ...input, flashSaleId });
  }

  @Mutation(() => Boolean)
  async deleteFlashSale(@Arg('id', () => Int) flashSaleId: number, @Ctx() { ctx }: GraphQLContext) {
    await flashSales.deleteFlashSale(ctx, { flashSaleId });
    return true;
  }

  @Mutation(() => FlashSale, { description: 'Enable; refused (FLASH_SALE_OVERLAP) when a SKU is in an overlapping enabled session' })
  enableFlashSale(@Arg('id', () => Int) flashSaleId: number, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.enableFlashSale(ctx, { flashSaleId });
  }

  @Mutation(() => FlashSale)
  disableFlashSale(@Arg('id', () => Int) flashSaleId: number, @Ctx() { ctx }: GraphQLContext) {
    return flashSales.disableFlashSale(ctx, { flashSaleId });
  }
}
