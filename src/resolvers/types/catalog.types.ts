import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import { ProductStatus } from '../../entities/product.entity.js';
import { PageArgs, PageType } from './page.types.js';
import { ContentKind } from '../../entities/home-content-item.entity.js';
import { ContentKindEnum, MerchantProductSortEnum, ProductSort, ProductSortEnum, ProductStatusEnum, SortOrder, SortOrderEnum } from './enums.js';
import type { MerchantProductSort } from '../../services/catalog/merchant-product.service.js';
import { PayloadType } from './payload.types.js';
import { putShopProfileRefusals } from '../../services/catalog/shop.service.js';
import { publishProductRefusals, unpublishProductRefusals, upsertProductRefusals } from '../../services/catalog/merchant-product.service.js';
import { ContentItemView, HomeContentView, replaceHomeContentRefusals } from '../../services/catalog/home-content.service.js';
import { objectType } from './object-type.js';
import { BrandView, CurrencyView, ShopProfileView, SkuView } from '../../services/catalog/catalog-views.js';
import { SkuSummaryView } from '../../services/catalog/sku-summaries.js';

// Made from the catalog's view schemas (object-type.ts).
export const CurrencyType = objectType('Currency', CurrencyView);
export type CurrencyType = CurrencyView;
export const BrandType = objectType('Brand', BrandView);
export type BrandType = BrandView;
export const ShopProfileType = objectType('ShopProfile', ShopProfileView);
export type ShopProfileType = ShopProfileView;

// Shop, Category and Product stay written (their field resolvers, and fields in another order than REST's),
// held to the catalog's view schemas by test/one-description.test.ts.
@ObjectType('Shop')
export class ShopType {
  @Field(() => Int) id!: number;
  @Field() slug!: string;
  @Field() name!: string;
  @Field(() => ShopProfileType, { nullable: true, description: 'Null when the shop has no profile' })
  profile?: ShopProfileType;
}

@ObjectType('ShopPage')
export class ShopPageType extends PageType(ShopType) {}

@ObjectType('Category')
export class CategoryType {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) parentId!: number | null;
  @Field() name!: string;
  @Field() slug!: string;
  @Field(() => Int, { description: '0 for a top-level category' }) depth!: number;
  @Field({ description: 'Materialized path of ids from the root, e.g. `/1/7/19/`' }) path!: string;
  @Field(() => Int) position!: number;
  @Field(() => [CategoryType], { description: 'Direct children in display order (nest the field for deeper levels)' })
  children?: CategoryType[];
}

export const SkuType = objectType('Sku', SkuView);
export type SkuType = SkuView;

export const SkuSummaryType = objectType('SkuSummary', SkuSummaryView);
export type SkuSummaryType = SkuSummaryView;

@ObjectType('Product')
export class ProductType {
  @Field(() => Int) id!: number;
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) imageUrl?: string;
  @Field(() => ProductStatusEnum) status!: ProductStatus;
  @Field(() => Int, { description: 'The lowest SKU price' }) priceFrom!: number;
  @Field(() => Int, { description: 'Units sold in orders that reached payment, computed on read' }) soldCount!: number;
  @Field(() => ShopType) shop!: ShopType;
  @Field(() => Int) categoryId!: number;
  @Field(() => Int, { nullable: true }) brandId!: number | null;
  @Field(() => BrandType, { nullable: true }) brand?: BrandType;
  @Field(() => CategoryType) category?: CategoryType;
  @Field(() => [CategoryType], { description: 'From the top-level category down to the product\'s own' })
  categoryPath?: CategoryType[];
  @Field(() => [SkuType]) skus?: SkuType[];
  @Field(() => Int, { nullable: true, description: "The shop's own reads (merchantProducts and the product mutations): its freight template, null when it ships free. Null on storefront reads" })
  freightTemplateId?: number | null;
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
}

@ObjectType('ProductPage')
export class ProductPageType extends PageType(ProductType) {}

// Made from the home content service's view schemas (object-type.ts).
export const ContentItemType = objectType('ContentItem', ContentItemView);
export type ContentItemType = ContentItemView;
export const HomeContentType = objectType('HomeContent', HomeContentView);
export type HomeContentType = HomeContentView;

@InputType({ description: 'A brand of the ordered list' })
export class BrandInput {
  @Field(() => Int, { nullable: true, description: 'An existing brand to keep; without id a brand is created' }) id?: number;
  @Field() name!: string;
  @Field({ nullable: true }) logoUrl?: string;
}

@InputType()
export class ReplaceBrandsInput {
  @Field(() => [BrandInput], { description: 'The complete list in its order: brands left out are deleted' }) items!: BrandInput[];
}

@InputType()
export class PutShopProfileInput {
  @Field(() => Int) shopId!: number;
  @Field() logoUrl!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) bannerUrl?: string;
  @Field({ nullable: true }) contactPhone?: string;
  @Field({ nullable: true }) address?: string;
}

@InputType()
export class ContentItemInput {
  @Field() title!: string;
  @Field({ nullable: true }) subtitle?: string;
  @Field({ nullable: true }) imageUrl?: string;
  @Field({ description: 'A storefront route: /, /products/{id}, /shops/{slug}, /categories/{id}, /brands/{id}, /flash-sales, /group-buys, /points, /coupons' })
  destination!: string;
  @Field({ nullable: true, description: 'Defaults to true' }) active?: boolean;
}

@InputType()
export class ReplaceHomeContentInput {
  @Field(() => ContentKindEnum) kind!: ContentKind;
  @Field(() => [ContentItemInput], { description: 'The complete list in its order (positions 0..n-1)' }) items!: ContentItemInput[];
}

@InputType()
export class SkuInput {
  @Field(() => Int, { nullable: true, description: 'An existing SKU of the product; without id a SKU is created' }) id?: number;
  @Field() name!: string;
  @Field(() => Int) price!: number;
  @Field(() => Int, { nullable: true, description: 'Required for a new SKU; left out, an existing SKU keeps its stock; sent for an existing SKU, a stock-take' }) stock?: number;
  @Field(() => Int, { nullable: true, description: 'Existing SKUs: units to add (negative: remove), race-safe with sales' }) stockDelta?: number;
}

@InputType()
export class UpsertProductInput {
  @Field(() => Int, { nullable: true, description: 'Without id a draft product is created; with id that product is updated' }) id?: number;
  @Field() name!: string;
  @Field({ nullable: true }) description?: string;
  @Field({ nullable: true }) imageUrl?: string;
  @Field(() => Int) categoryId!: number;
  @Field(() => Int, { nullable: true }) brandId?: number;
  @Field(() => [SkuInput], { description: 'The complete SKU list: SKUs left out are deleted' }) skus!: SkuInput[];
}

@InputType()
export class PublishProductInput {
  @Field(() => Int) productId!: number;
}

@InputType()
export class UnpublishProductInput {
  @Field(() => Int) productId!: number;
}

@ArgsType()
export class ProductListArgs extends PageArgs {
  @Field(() => String, { nullable: true, description: 'Keyword: words of the name, brand, shop, categories or description (blank: none); at most 200 characters. Default order with it: most relevant first, then best sellers' })
  q?: string | null;
  @Field(() => Int, { nullable: true, description: 'A category: products of its whole subtree' }) category?: number | null;
  @Field(() => Int, { nullable: true }) brandId?: number | null;
  @Field(() => Int, { nullable: true }) shopId?: number | null;
  @Field(() => Int, { nullable: true, description: 'Lowest SKU price at least this (minor units)' }) priceMin?: number | null;
  @Field(() => Int, { nullable: true, description: 'Lowest SKU price at most this (minor units)' }) priceMax?: number | null;
  @Field(() => ProductSortEnum, { nullable: true, description: 'Default: newest first; with `q`, most relevant first' }) sort?: ProductSort | null;
  @Field(() => SortOrderEnum, { nullable: true }) order?: SortOrder | null;
}

@ArgsType()
export class MerchantProductListArgs extends PageArgs {
  @Field(() => ProductStatusEnum, { nullable: true }) status?: ProductStatus | null;
  @Field(() => Int, { nullable: true, description: 'One product of the shop by id, in any state' }) id?: number | null;
  @Field(() => String, { nullable: true, description: "Words the product's name contains, case-insensitive; at most 200 characters" }) q?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true: only products with a SKU whose stock is below STOCK_LOW_THRESHOLD' }) lowStock?: boolean | null;
  @Field(() => MerchantProductSortEnum, { nullable: true, description: 'Default: newest first' }) sort?: MerchantProductSort | null;
}

export const ReplaceBrandsPayload = PayloadType('ReplaceBrands', 'brands', () => [BrandType], 'The stored list, in order');
export const PutShopProfilePayload = PayloadType('PutShopProfile', 'profile', () => ShopProfileType, 'The stored profile', putShopProfileRefusals);
export const ReplaceHomeContentPayload = PayloadType('ReplaceHomeContent', 'items', () => [ContentItemType], 'The stored list, in order', replaceHomeContentRefusals);
export const UpsertProductPayload = PayloadType('UpsertProduct', 'product', () => ProductType, 'The product as stored', upsertProductRefusals);
export const PublishProductPayload = PayloadType('PublishProduct', 'product', () => ProductType, 'The product, published', publishProductRefusals);
export const UnpublishProductPayload = PayloadType('UnpublishProduct', 'product', () => ProductType, 'The product, unpublished', unpublishProductRefusals);
