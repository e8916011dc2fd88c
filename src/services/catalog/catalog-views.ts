import type { Database } from '../../db/typed-sql.js';
import type { Brand } from '../../entities/brand.entity.js';
import type { Product, ProductStatus } from '../../entities/product.entity.js';
import type { ShopProfile } from '../../entities/shop-profile.entity.js';
import type { Sku } from '../../entities/sku.entity.js';
import { opt, toDate } from '../../shared/values.js';
import { z } from '../../shared/validate.js';
import { count, id, money, timestamp } from '../../shared/view-fields.js';
import type { RatingSummary } from './rating-summary.js';

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
 * shop, the key is there even when its value is undefined (GraphQL then needs no second look).
 */
export interface ShopView extends ShopRef {
  profile?: ShopProfileView;
  /** Shop reads by a customer: whether they favorited it (absent for other callers). */
  favorited?: boolean;
}

/** A brand of the ordered list: REST publishes this schema and GraphQL's type is made from it. */
export const BrandView = z.strictObject({ id, name: z.string(), logoUrl: z.string().optional(), position: z.number().int().min(0) });
export type BrandView = z.infer<typeof BrandView>;

export interface CategoryView {
  id: number;
  parentId: number | null;
  name: string;
  slug: string;
  depth: number;
  /** Materialized path of ids from the root, e.g. `/1/7/19/`. */
  path: string;
  position: number;
}

/** A SKU of a product: REST publishes this schema and GraphQL's type is made from it. */
export const SkuView = z.strictObject({ id, name: z.string(), price: money.describe('Minor units of the base currency'), stock: count });
export type SkuView = z.infer<typeof SkuView>;

export interface ProductView {
  id: number;
  name: string;
  description?: string;
  imageUrl?: string;
  status: ProductStatus;
  /** The lowest SKU price. */
  priceFrom: number;
  shop: ShopRef;
  categoryId: number;
  brandId: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Units sold in orders that reached payment, computed on read (see sold-count.ts). */
  soldCount: number;
  /** Public reads by a customer: whether they favorited it (absent for other callers). */
  favorited?: boolean;
}

/** A product as read from its row, before its sold_count is looked up. */
export type ProductRow = Omit<ProductView, 'soldCount'>;

/** The public product page: the product with its SKUs, shop (and profile), brand and category path. */
export interface ProductDetailView extends ProductView {
  shop: ShopView;
  brand?: BrandView;
  /** From the top-level category down to the product's own. */
  categoryPath: CategoryView[];
  skus: SkuView[];
  /** Visible reviews: count, average and per-star counts. */
  rating: RatingSummary;
}

/** What a merchant sees of their own product, in whatever lifecycle state, with its SKUs. */
export interface MerchantProductView extends ProductView {
  skus: SkuView[];
  /** The product's freight template; null: it ships free. */
  freightTemplateId: number | null;
}

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
