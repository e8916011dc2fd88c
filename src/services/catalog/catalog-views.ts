import type { Database } from '../../db/typed-sql.js';
import type { Brand } from '../../entities/brand.entity.js';
import { ProductStatus, type Product } from '../../entities/product.entity.js';
import type { ShopProfile } from '../../entities/shop-profile.entity.js';
import type { Sku } from '../../entities/sku.entity.js';
import { opt, toDate } from '../../shared/values.js';
import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';
import { RatingSummary } from './rating-summary.js';

/**
 * The plain shapes the catalog services return, and the one mapper of each, from the rows of the
 * catalog's statements (catalog.repository.ts, product.repository.ts: their row types are inferred
 * from the builders, and the compiler checks them against what these mappers read) or from entities.
 * Optional fields a row does not have stay undefined (REST omits them).
 */

/** A shop as other resources name it. */
export const ShopRef = z.strictObject({ id, slug: z.string(), name: z.string() });
export type ShopRef = z.infer<typeof ShopRef>;

/** A shop's storefront profile: REST publishes this schema and GraphQL's type is made from it. */
export const ShopProfileView = z.strictObject({
  shopId: id,
  logoUrl: z.string(),
  description: z.string().optional(),
  bannerUrl: z.string().optional(),
  contactPhone: z.string().optional(),
  address: z.string().optional(),
  updatedAt: timestamp,
});
export type ShopProfileView = z.infer<typeof ShopProfileView>;

/**
 * A shop; `profile` is absent (not null) when the shop has none. Where the profile was read with the
 * shop, the key is there even when its value is undefined (GraphQL then needs no second look). REST
 * publishes this schema; GraphQL's Shop stays written (it resolves its coupons and `favorited`), held
 * to it by test/one-description.test.ts.
 */
export const ShopView = ShopRef.extend({
  profile: ShopProfileView.optional(),
  // Shop reads by a customer: whether they favorited it (absent for other callers).
  favorited: z.boolean().optional(),
});
export type ShopView = z.infer<typeof ShopView>;

/** The platform's one base currency: REST publishes this schema and GraphQL's type is made from it. */
export const CurrencyView = z
  .strictObject({
    code: z.string(),
    symbol: z.string(),
    // Digits after the decimal point: amounts are integers of 10^-digits units.
    minorUnitDigits: z.number().int().min(0),
  })
  .describe('The platform base currency; every amount is an integer of its minor units');
export type CurrencyView = z.infer<typeof CurrencyView>;

/** A brand of the ordered list: REST publishes this schema and GraphQL's type is made from it. */
export const BrandView = z.strictObject({ id, name: z.string(), logoUrl: z.string().optional(), position: z.number().int().min(0) });
export type BrandView = z.infer<typeof BrandView>;

/**
 * A category, and a node of the tree with its children: REST publishes these schemas; GraphQL's
 * Category stays written (its children are a field resolver), held to them by test/one-description.test.ts.
 */
export const CategoryView = z.strictObject({
  id,
  parentId: id.nullable(),
  name: z.string(),
  slug: z.string(),
  depth: z.number().int().min(0).describe('0 for a top-level category'),
  path: z.string().describe('Materialized path of ids from the root, e.g. `/1/7/19/`'),
  position: z.number().int().min(0),
});
export type CategoryView = z.infer<typeof CategoryView>;

export type CategoryNode = CategoryView & { children: CategoryNode[] };
export const CategoryNode: z.ZodType<CategoryNode> = z.strictObject({
  ...CategoryView.shape,
  get children() {
    // Direct children, in display order.
    return z.array(CategoryNode);
  },
});

/** A SKU of a product: REST publishes this schema and GraphQL's type is made from it. */
export const SkuView = z.strictObject({ id, name: z.string(), price: money.describe('Minor units of the base currency'), stock: count });
export type SkuView = z.infer<typeof SkuView>;

/**
 * A product, its public page and what its shop sees of it: REST publishes these schemas; GraphQL's
 * Product stays written (it resolves its shop, brand, category and SKUs), held to them by
 * test/one-description.test.ts.
 */
const productFields = {
  id,
  name: z.string(),
  description: z.string().optional(),
  imageUrl: z.string().optional(),
  status: z.enum(ProductStatus),
  priceFrom: money.describe('The lowest SKU price'),
  shop: ShopRef,
  categoryId: id,
  brandId: id.nullable(),
  createdAt: timestamp,
  updatedAt: timestamp,
  // See sold-count.ts.
  soldCount: count.describe('Units sold in orders that reached payment, computed on read'),
  // Public reads by a customer: whether they favorited it (absent for other callers).
  favorited: z.boolean().optional(),
};
export const ProductView = z.strictObject(productFields);
export type ProductView = z.infer<typeof ProductView>;

/** A product as read from its row, before its sold_count is looked up. */
export type ProductRow = Omit<ProductView, 'soldCount'>;

/** The public product page: the product with its SKUs, shop (and profile), brand and category path. */
export const ProductDetailView = z.strictObject({
  ...productFields,
  shop: ShopView,
  brand: BrandView.optional(),
  categoryPath: z.array(CategoryView).describe("From the top-level category down to the product's own"),
  skus: z.array(SkuView),
  // Visible reviews: count, average and per-star counts.
  rating: RatingSummary,
});
export type ProductDetailView = z.infer<typeof ProductDetailView>;

/** What a merchant sees of their own product, in whatever lifecycle state, with its SKUs. */
export const MerchantProductView = z.strictObject({
  ...productFields,
  skus: z.array(SkuView),
  freightTemplateId: id.nullable().describe('Null: the product ships free'),
});
export type MerchantProductView = z.infer<typeof MerchantProductView>;

/** The ids along a materialized path, root first: `/1/7/19/` gives [1, 7, 19]. */
export const pathIds = (path: string) => path.split('/').filter(Boolean).map(Number);

// Products.

type ProductTable = Database['Product'];
type ShopTable = Database['Shop'];

/**
 * A product row of the catalog's statements (`PRODUCT_COLUMNS` of catalog.repository.ts), as
 * `toProductView` reads it; timestamps as the pool returns them, text.
 */
export interface ProductColumns {
  id: ProductTable['id'];
  name: ProductTable['name'];
  description: ProductTable['description'];
  imageUrl: ProductTable['imageUrl'];
  status: ProductTable['status'];
  priceFrom: ProductTable['priceFrom'];
  categoryId: ProductTable['category'];
  brandId: ProductTable['brand'];
  createdAt: string;
  updatedAt: string;
  shopId: ShopTable['id'];
  shopSlug: ShopTable['slug'];
  shopName: ShopTable['name'];
}

export function toProductView(row: ProductColumns): ProductRow {
  return {
    id: row.id,
    name: row.name,
    description: opt(row.description),
    imageUrl: opt(row.imageUrl),
    status: row.status,
    priceFrom: row.priceFrom,
    shop: { id: row.shopId, slug: row.shopSlug, name: row.shopName },
    categoryId: row.categoryId,
    brandId: row.brandId,
    createdAt: toDate(row.createdAt),
    updatedAt: toDate(row.updatedAt),
  };
}

/** The same view from the entity (merchant use cases), its shop loaded. */
export function productViewOf(product: Product): ProductRow {
  return {
    id: product.id,
    name: product.name,
    description: product.description ?? undefined,
    imageUrl: product.imageUrl ?? undefined,
    status: product.status,
    priceFrom: product.priceFrom,
    shop: { id: product.shop.id, slug: product.shop.slug, name: product.shop.name },
    categoryId: product.category.id,
    brandId: product.brand?.id ?? null,
    createdAt: product.createdAt,
    updatedAt: product.updatedAt,
  };
}

// SKUs: the columns of a SKU row are its view's fields.

export type SkuColumns = Pick<Database['Sku'], 'id' | 'name' | 'price' | 'stock'>;

export function toSkuView(sku: Pick<Sku, 'id' | 'name' | 'price' | 'stock'>): SkuView {
  return { id: sku.id, name: sku.name, price: sku.price, stock: sku.stock };
}

// Shop profiles.

type ProfileTable = Database['ShopProfile'];

/** A left-joined profile's columns (`PROFILE_COLUMNS` of catalog.repository.ts), read by `toProfileView`. */
interface ProfileColumnValues {
  logoUrl: ProfileTable['logoUrl'];
  profileDescription: ProfileTable['description'];
  bannerUrl: ProfileTable['bannerUrl'];
  contactPhone: ProfileTable['contactPhone'];
  address: ProfileTable['address'];
  profileUpdatedAt: string;
}

/** A left-joined profile: every column null when the shop has none, absent when the statement left them out. */
export type ProfileColumns = ProfileColumnValues | { [C in keyof ProfileColumnValues]?: ProfileColumnValues[C] | null };

/** Undefined when the shop has no profile (or the statement did not read it). */
export function toProfileView(row: ProfileColumns, shopId: number): ShopProfileView | undefined {
  if (row.logoUrl == null || row.profileUpdatedAt == null) return undefined;
  return {
    shopId,
    logoUrl: row.logoUrl,
    description: opt(row.profileDescription ?? null),
    bannerUrl: opt(row.bannerUrl ?? null),
    contactPhone: opt(row.contactPhone ?? null),
    address: opt(row.address ?? null),
    updatedAt: toDate(row.profileUpdatedAt),
  };
}

/** The same view from the entity (shop directory, profile writes). */
export function profileViewOf(profile: ShopProfile): ShopProfileView {
  return {
    shopId: profile.shop.id,
    logoUrl: profile.logoUrl,
    description: profile.description ?? undefined,
    bannerUrl: profile.bannerUrl ?? undefined,
    contactPhone: profile.contactPhone ?? undefined,
    address: profile.address ?? undefined,
    updatedAt: profile.updatedAt,
  };
}

// Brands and categories: the statements name their columns after the entity's properties, so a row
// and an entity share one mapper.

/** A brand entity or row. */
export function toBrandView(brand: Pick<Brand, 'id' | 'name' | 'logoUrl' | 'position'>): BrandView {
  return { id: brand.id, name: brand.name, logoUrl: brand.logoUrl ?? undefined, position: brand.position };
}

/** A category row (its properties' names). */
export function toCategoryView(row: Database['Category']): CategoryView {
  return {
    id: row.id,
    parentId: row.parent,
    name: row.name,
    slug: row.slug,
    depth: row.depth,
    path: row.path,
    position: row.position,
  };
}
