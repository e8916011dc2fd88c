import { z } from 'zod';
import { ProductStatus } from '../../entities/product.entity.js';
import { ContentKind } from '../../entities/home-content-item.entity.js';
import { count, id, itemsOf, money, named, page, ShopRef, timestamp } from './common.js';
import { BrandView, ShopProfileView, SkuView } from '../../services/catalog/catalog-views.js';
import { ContentItemView, HomeContentView } from '../../services/catalog/home-content.service.js';
import { RatingSummary as RatingSummaryView, StarCount as StarCountView } from '../../services/catalog/rating-summary.js';

export const Currency = named(
  'Currency',
  z.strictObject({ code: z.string(), symbol: z.string(), minorUnitDigits: z.number().int().min(0) }),
);

const categoryFields = {
  id,
  parentId: id.nullable(),
  name: z.string(),
  slug: z.string(),
  depth: z.number().int().min(0),
  path: z.string(),
  position: z.number().int().min(0),
};
export const Category = named('Category', z.strictObject(categoryFields));

interface CategoryNodeShape {
  children: CategoryNodeShape[];
}
export const CategoryNode: z.ZodType<CategoryNodeShape> = named(
  'CategoryNode',
  z.strictObject({
    ...categoryFields,
    get children() {
      return z.array(CategoryNode);
    },
  }),
);
export const CategoryTree = named('CategoryTree', itemsOf(CategoryNode));

export const Brand = named('Brand', BrandView);
export const BrandList = named('BrandList', itemsOf(Brand));

export const ShopProfile = named('ShopProfile', ShopProfileView);

export const Shop = named('Shop', ShopRef.extend({ profile: ShopProfile.optional(), favorited: z.boolean().optional() }));
export const ShopPage = named('ShopPage', page(Shop));

export const Sku = named('Sku', SkuView);

/** A SKU as a guest cart shows its line: with its product and shop. */
export const SkuSummary = named(
  'SkuSummary',
  z.strictObject({ skuId: id, name: z.string(), price: money, stock: count, productId: id, productName: z.string(), imageUrl: z.string().nullable(), shopId: id, shopName: z.string() }),
);
export const SkuSummaryList = named('SkuSummaryList', itemsOf(SkuSummary));

const productFields = {
  id,
  name: z.string(),
  description: z.string().optional(),
  imageUrl: z.string().optional(),
  status: z.enum(ProductStatus),
  priceFrom: money,
  shop: ShopRef,
  categoryId: id,
  brandId: id.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  soldCount: count,
  favorited: z.boolean().optional(),
};
export const Product = named('Product', z.strictObject(productFields));
export const ProductPage = named('ProductPage', page(Product));

export const StarCount = named('StarCount', StarCountView);
export const RatingSummary = named('RatingSummary', RatingSummaryView);

export const ProductDetail = named(
  'ProductDetail',
  z.strictObject({
    ...productFields,
    shop: Shop,
    brand: Brand.optional(),
    categoryPath: z.array(Category),
    skus: z.array(Sku),
    rating: RatingSummary,
  }),
);

export const MerchantProduct = named('MerchantProduct', z.strictObject({ ...productFields, skus: z.array(Sku), freightTemplateId: id.nullable().describe('Null: the product ships free') }));
export const MerchantProductPage = named('MerchantProductPage', page(MerchantProduct));

export const ContentItem = named('ContentItem', ContentItemView);
export const HomeContent = named('HomeContent', HomeContentView);
export const ContentKindList = named('ContentKindList', z.strictObject({ kind: z.enum(ContentKind), items: z.array(ContentItem) }));
