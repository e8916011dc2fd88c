import type { Database } from '../../db/typed-sql.js';
import type { Brand } from '../../entities/brand.entity.js';
import type { Product, ProductStatus } from '../../entities/product.entity.js';
import type { ShopProfile } from '../../entities/shop-profile.entity.js';
import type { Sku } from '../../entities/sku.entity.js';
import { opt, toDate } from '../../shared/values.js';
import type { RatingSummary } from './rating-summary.js';

/**
 * The plain shapes the catalog services return, and the one mapper of each. The storefront's hot
 * statements (docs/performance.md) are hand SQL: their column lists are here with their row types,
 * typed from the entities; the other use cases map entities. Optional fields a row does not have stay
 * undefined (REST omits them).
 */

export interface ShopRef {
  id: number;
  slug: string;
  name: string;
}

export interface ShopProfileView {
  shopId: number;
  logoUrl: string;
  description?: string;
  bannerUrl?: string;
  contactPhone?: string;
  address?: string;
  updatedAt: Date;
}

/**
 * A shop; `profile` is absent (not null) when the shop has none. Where the profile was read with the
 * shop, the key is there even when its value is undefined (GraphQL then needs no second look).
 */
export interface ShopView extends ShopRef {
  profile?: ShopProfileView;
  /** Shop reads by a customer: whether they favorited it (absent for other callers). */
  favorited?: boolean;
}

export interface BrandView {
  id: number;
  name: string;
  logoUrl?: string;
  position: number;
}

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

export interface SkuView {
  id: number;
  name: string;
  /** Minor units of the base currency. */
  price: number;
  stock: number;
}

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
}

/** The ids along a materialized path, root first: `/1/7/19/` gives [1, 7, 19]. */
export const pathIds = (path: string) => path.split('/').filter(Boolean).map(Number);

/** A timestamp as hand SQL returns it: PostgreSQL's text (the ORM's parsers leave it to hydration), read by `toDate`. */
type AsText<T> = T extends Date ? string : T;

// Products.

type ProductTable = Database['Product'];
type ShopTable = Database['Shop'];

/** Columns for `from product p join shop s on s.id = p.shop_id`, read by `toProductView`. */
export const PRODUCT_COLUMNS = `p.id, p.name, p.description, p.image_url, p.status, p.price_from, p.category_id, p.brand_id,
  p.created_at, p.updated_at, s.id as shop_id, s.slug as shop_slug, s.name as shop_name`;

export interface ProductColumns {
  id: ProductTable['id'];
  name: ProductTable['name'];
  description: ProductTable['description'];
  image_url: ProductTable['imageUrl'];
  status: ProductTable['status'];
  price_from: ProductTable['priceFrom'];
  category_id: ProductTable['category'];
  brand_id: ProductTable['brand'];
  created_at: AsText<ProductTable['createdAt']>;
  updated_at: AsText<ProductTable['updatedAt']>;
  shop_id: ShopTable['id'];
  shop_slug: ShopTable['slug'];
  shop_name: ShopTable['name'];
}

export function toProductView(row: ProductColumns): ProductRow {
  return {
    id: row.id,
    name: row.name,
    description: opt(row.description),
    imageUrl: opt(row.image_url),
    status: row.status,
    priceFrom: row.price_from,
    shop: { id: row.shop_id, slug: row.shop_slug, name: row.shop_name },
    categoryId: row.category_id,
    brandId: row.brand_id,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
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

/** A product's SKUs in creation order as a JSON list of `SkuColumns`, for statements that read them with the product. */
export const skusJsonOf = (productId: string) =>
  `(select coalesce(json_agg(k order by k.id), '[]') from (select id, name, price, stock from sku where product_id = ${productId}) k)`;

export function toSkuView(sku: Pick<Sku, 'id' | 'name' | 'price' | 'stock'>): SkuView {
  return { id: sku.id, name: sku.name, price: sku.price, stock: sku.stock };
}

// Shop profiles.

type ProfileTable = Database['ShopProfile'];

/** Profile columns for statements that read it with the product (hence the prefixed names), read by `toProfileView`. */
export const PROFILE_COLUMNS = `pr.logo_url, pr.description as profile_description, pr.banner_url, pr.contact_phone,
  pr.address, pr.updated_at as profile_updated_at`;

interface ProfileColumnValues {
  logo_url: ProfileTable['logoUrl'];
  profile_description: ProfileTable['description'];
  banner_url: ProfileTable['bannerUrl'];
  contact_phone: ProfileTable['contactPhone'];
  address: ProfileTable['address'];
  profile_updated_at: AsText<ProfileTable['updatedAt']>;
}

/** PROFILE_COLUMNS of a left-joined profile: all null when the shop has none, absent when the statement left them out. */
export type ProfileColumns = ProfileColumnValues | { [C in keyof ProfileColumnValues]?: null };

/** Undefined when the shop has no profile (or the statement did not read it). */
export function toProfileView(row: ProfileColumns, shopId: number): ShopProfileView | undefined {
  if (row.logo_url == null) return undefined;
  return {
    shopId,
    logoUrl: row.logo_url,
    description: opt(row.profile_description),
    bannerUrl: opt(row.banner_url),
    contactPhone: opt(row.contact_phone),
    address: opt(row.address),
    updatedAt: toDate(row.profile_updated_at),
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

// Brands and categories: hand SQL names its columns after the entity's properties, so rows and
// entities share one mapper.

export const BRAND_COLUMNS = 'id, name, logo_url as "logoUrl", position';

/** A brand entity or a row of BRAND_COLUMNS. */
export function toBrandView(brand: Pick<Brand, 'id' | 'name' | 'logoUrl' | 'position'>): BrandView {
  return { id: brand.id, name: brand.name, logoUrl: brand.logoUrl ?? undefined, position: brand.position };
}

export const CATEGORY_COLUMNS = 'c.id, c.parent_id as parent, c.name, c.slug, c.depth, c.path, c.position';

/** A row of CATEGORY_COLUMNS, hand SQL or typed SQL. */
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
