import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { selects } from '../graphql/lookahead.js';
import * as products from '../services/catalog/product.service.js';
import * as merchant from '../services/catalog/merchant-product.service.js';
import { skuSummaries } from '../services/catalog/sku-summaries.js';
import { pathIds, type ProductDetailView, type ProductView } from '../services/catalog/catalog-views.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { RatingSummary } from './types/after-sale.types.js';
import { answer } from './answer.js';
import {
  BrandType, CategoryType, MerchantProductListArgs, SkuSummaryType, ProductListArgs, ProductPageType, ProductType, PublishProductInput, PublishProductPayload, SkuType,
  UnpublishProductInput, UnpublishProductPayload, UpsertProductInput, UpsertProductPayload,
} from './types/catalog.types.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

/** A product as the services return it: details (SKUs, brand, path) are present on some reads only. */
type AnyProduct = ProductView & Partial<Pick<ProductDetailView, 'skus' | 'brand' | 'categoryPath' | 'rating'>>;

@Resolver(() => ProductType)
export class ProductResolver {
  @Allow(Permission.Public)
  @Query(() => ProductPageType, { description: 'Published products, newest first unless sorted' })
  products(@Args(() => ProductListArgs) args: ProductListArgs, @Ctx() { ctx }: GraphQLContext, @Info() info: GraphQLResolveInfo) {
    // SKUs and shop profiles the query asks for come in the listing's own statement.
    return products.listProducts(ctx, withoutNulls(args), {
      skus: selects(info, ['items', 'skus']),
      shopProfiles: selects(info, ['items', 'shop', 'profile']),
    });
  }

  @Allow(Permission.Public)
  @Query(() => [SkuSummaryType], { description: "SKUs of published products among these ids, in their order (a guest cart's lines); others are left out" })
  async skuSummaries(@Arg('ids', () => [Int]) ids: number[], @Ctx() { ctx }: GraphQLContext) {
    return (await skuSummaries(ctx, { ids })).items;
  }

  @Allow(Permission.Public)
  @Query(() => ProductType, { nullable: true, description: 'One published product' })
  async product(@Arg('id', () => Int) id: number, @Ctx() { ctx, loaders }: GraphQLContext) {
    const product = await products.getProduct(ctx, id);
    loaders.shopProfiles.prime(product.shop.id, product.shop.profile ?? null);
    return product;
  }

  @Allow(Permission.ShopCatalogManage)
  @Query(() => ProductPageType, { description: "Shop operator: the own shop's products in every state, newest first unless `sort` says otherwise" })
  merchantProducts(@Args(() => MerchantProductListArgs) args: MerchantProductListArgs, @Ctx() { ctx }: GraphQLContext) {
    return merchant.listMerchantProducts(ctx, withoutNulls(args));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => UpsertProductPayload, { description: 'Shop operator: create (no id) or update a product of the own shop' })
  upsertProduct(@Arg('input', () => UpsertProductInput) input: UpsertProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UpsertProductPayload, () => merchant.upsertProduct(ctx, input));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => PublishProductPayload, { description: 'Shop operator: show a draft or unpublished product on the storefront' })
  publishProduct(@Arg('input', () => PublishProductInput) input: PublishProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, PublishProductPayload, () => merchant.publishProduct(ctx, input.productId));
  }

  @Allow(Permission.ShopCatalogManage)
  @Mutation(() => UnpublishProductPayload, { description: 'Shop operator: withdraw a published product' })
  unpublishProduct(@Arg('input', () => UnpublishProductInput) input: UnpublishProductInput, @Ctx() { ctx }: GraphQLContext) {
    return answer(ctx, UnpublishProductPayload, () => merchant.unpublishProduct(ctx, input.productId));
  }

  @FieldResolver(() => Boolean, { description: 'Whether the calling customer favorited it (false for anyone else)' })
  favorited(@Root() product: AnyProduct, @Ctx() { loaders }: GraphQLContext) {
    return product.favorited ?? loaders.favoritedProducts.load(product.id);
  }

  @FieldResolver(() => [SkuType])
  skus(@Root() product: AnyProduct, @Ctx() { loaders }: GraphQLContext) {
    return product.skus ?? loaders.skus.load(product.id);
  }

  @FieldResolver(() => RatingSummary, { description: 'Visible reviews only: count, average and per-star counts' })
  rating(@Root() product: AnyProduct, @Ctx() { loaders }: GraphQLContext) {
    return product.rating ?? loaders.ratings.load(product.id);
  }

  @FieldResolver(() => BrandType, { nullable: true })
  brand(@Root() product: AnyProduct, @Ctx() { loaders }: GraphQLContext) {
    if (product.brandId === null) return null;
    return product.brand ?? loaders.brands.load(product.brandId);
  }

  @FieldResolver(() => CategoryType)
  category(@Root() product: AnyProduct, @Ctx() { loaders }: GraphQLContext) {
    return loaders.categories.load(product.categoryId);
  }

  @FieldResolver(() => [CategoryType])
  async categoryPath(@Root() product: AnyProduct, @Ctx() { loaders }: GraphQLContext) {
    if (product.categoryPath) return product.categoryPath;
    const own = await loaders.categories.load(product.categoryId);
    const path = await loaders.categories.loadMany(own ? pathIds(own.path) : []);
    return path.filter((c) => c && !(c instanceof Error));
  }
}
