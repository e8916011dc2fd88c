import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as flashSales from '../promotions/flash-sale.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { FlashSale, FlashSaleInput, FlashSalePage } from './types/flash-sale.types.js';

@Resolver()
export class FlashSaleResolver {
  @Query(() => FlashSalePage, { description: 'Enabled flash sales active now (and, if asked, upcoming ones), soonest first' })
  flashSales(
    @Arg('includeUpcoming', () => Boolean, { nullable: true }) includeUpcoming: boolean | undefined,
    @Arg('shopId', () => Int, { nullable: true }) shopId: number | undefined,
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Arg('productId', () => Int, { nullable: true, description: 'Only sessions with an item of this product' }) productId: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return flashSales.listFlashSales(ctx, {
      includeUpcoming: includeUpcoming ?? undefined,
      shopId: shopId ?? undefined,
      productId: productId ?? undefined,
      page: page ?? undefined,
      pageSize: pageSize ?? undefined,
    });
  }

  @Query(() => FlashSalePage, { description: "The operator's shop's flash sales, newest first" })
  merchantFlashSales(
    @Arg('page', () => Int, { nullable: true }) page: number | undefined,
    @Arg('pageSize', () => Int, { nullable: true }) pageSize: number | undefined,
    @Ctx() { ctx }: GraphQLContext,
  ) {
    return flashSales.listShopFlashSales(ctx, { page: page ?? undefined, pageSize: pageSize ?? undefined });
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
