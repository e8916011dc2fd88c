import type { EntityManager } from '@mikro-orm/postgresql';
import { toDate } from '../shared/values.js';
import type { ProductStatus } from '../entities/product.entity.js';
import { soldCountOf, soldCounts } from './sold-count.js';
import type { RatingSummary } from './rating-summary.js';
import { intArray } from '../db/sql.js';
import { queryRows } from '../fast-paths/prepared-statements.js';

/**
 * The plain shapes the catalog services return, the row mappers that build them, and the batched
 * lookups behind them. REST services call the lookups once per page; GraphQL calls the same ones
 * through per-request DataLoaders (src/graphql/loaders.ts), so there is one query per relation and
 * page, never one per row. Optional fields a row does not have stay undefined (REST omits them).
 */

const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;
/** Raw queries return timestamptz as text; views hold Dates (ISO 8601 in JSON, DateTimeISO in GraphQL). */
const date = (value: string | Date) => toDate(value);

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

/** What a merchant sees of their own product: any lifecycle state, with its SKUs. */
export interface MerchantProductView extends ProductView {
  skus: SkuView[];
}

/** Columns for `from product p join shop s on s.id = p.shop_id`, read by `toProductView`. */
export const PRODUCT_COLUMNS = `p.id, p.name, p.description, p.image_url, p.status, p.price_from, p.category_id, p.brand_id,
  p.created_at, p.updated_at, s.id as shop_id, s.slug as shop_slug, s.name as shop_name`;

export function toProductView(row: any): ProductRow {
  return {
    id: row.id,
    name: row.name,
    description: present(row.description),
    imageUrl: present(row.image_url),
    status: row.status,
    priceFrom: row.price_from,
    shop: { id: row.shop_id, slug: row.shop_slug, name: row.shop_name },
    categoryId: row.category_id,
    brandId: row.brand_id ?? null,
    createdAt: date(row.created_at),
    updatedAt: date(row.updated_at),
  };
}

export const PROFILE_COLUMNS = `pr.logo_url, pr.description as profile_description, pr.banner_url, pr.contact_phone,
  pr.address, pr.updated_at as profile_updated_at`;

/** Reads PROFILE_COLUMNS; undefined when the (left-joined) profile is missing. */
export function toProfileView(row: any, shopId: number): ShopProfileView | undefined {
  if (row.logo_url == null) return undefined;
  return {
    shopId,
    logoUrl: row.logo_url,
    description: present(row.profile_description),
    bannerUrl: present(row.banner_url),
    contactPhone: present(row.contact_phone),
    address: present(row.address),
    updatedAt: date(row.profile_updated_at),
  };
}

export function toBrandView(row: any): BrandView {
  return { id: row.id, name: row.name, logoUrl: present(row.logo_url), position: row.position };
}

export const CATEGORY_COLUMNS = 'c.id, c.parent_id, c.name, c.slug, c.depth, c.path, c.position';

export function toCategoryView(row: any): CategoryView {
  return {
    id: row.id,
    parentId: row.parent_id ?? null,
    name: row.name,
    slug: row.slug,
    depth: row.depth,
    path: row.path,
    position: row.position,
  };
}

/** The ids along a materialized path, root first: `/1/7/19/` gives [1, 7, 19]. */
export const pathIds = (path: string) => path.split('/').filter(Boolean).map(Number);

const unique = (ids: readonly number[]) => [...new Set(ids)];

// Batched lookups: one statement for any number of keys.

export async function profilesByShopIds(em: EntityManager, shopIds: readonly number[]): Promise<Map<number, ShopProfileView>> {
  const out = new Map<number, ShopProfileView>();
  if (shopIds.length === 0) return out;
  const rows = await queryRows(em, `select pr.shop_id, ${PROFILE_COLUMNS} from shop_profile pr where pr.shop_id = any(?::int[])`, [intArray(unique(shopIds))]);
  for (const row of rows) out.set(row.shop_id, toProfileView(row, row.shop_id)!);
  return out;
}

export async function brandsByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, BrandView>> {
  const out = new Map<number, BrandView>();
  if (ids.length === 0) return out;
  const rows = await queryRows(em, `select id, name, logo_url, position from brand where id = any(?::int[])`, [intArray(unique(ids))]);
  for (const row of rows) out.set(row.id, toBrandView(row));
  return out;
}

export async function categoriesByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, CategoryView>> {
  const out = new Map<number, CategoryView>();
  if (ids.length === 0) return out;
  const rows = await queryRows(em, `select ${CATEGORY_COLUMNS} from category c where c.id = any(?::int[])`, [intArray(unique(ids))]);
  for (const row of rows) out.set(row.id, toCategoryView(row));
  return out;
}

/** Children of each parent, in display order. */
export async function categoriesByParentIds(em: EntityManager, parentIds: readonly number[]): Promise<Map<number, CategoryView[]>> {
  const out = new Map<number, CategoryView[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return out;
  const rows = await queryRows(
    em,
    `select ${CATEGORY_COLUMNS} from category c where c.parent_id = any(?::int[]) order by c.parent_id, c.position, c.id`,
    [intArray(unique(parentIds))],
  );
  for (const row of rows) out.get(row.parent_id)!.push(toCategoryView(row));
  return out;
}

/** Products by id in any lifecycle state (an order line's product may have been withdrawn since), with sold_count. */
export async function productsByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, ProductView>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows(
    em,
    `select ${PRODUCT_COLUMNS}, ${soldCountOf('p.id')} as sold_count from product p join shop s on s.id = p.shop_id where p.id = any(?::int[])`,
    [intArray(unique(ids))],
  );
  return new Map(rows.map((row) => [row.id, { ...toProductView(row), soldCount: row.sold_count }]));
}

/** A product's SKUs in creation order as a JSON list (`SkuView` keys), for statements that read them with the product. */
export const skusJsonOf = (productId: string) =>
  `(select coalesce(json_agg(k order by k.id), '[]') from (select id, name, price, stock from sku where product_id = ${productId}) k)`;

/** SKUs of each product, in creation order. */
export async function skusByProductIds(em: EntityManager, productIds: readonly number[]): Promise<Map<number, SkuView[]>> {
  const out = new Map<number, SkuView[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return out;
  const rows = await queryRows(
    em,
    `select id, product_id, name, price, stock from sku where product_id = any(?::int[]) order by product_id, id`,
    [intArray(unique(productIds))],
  );
  for (const row of rows) out.get(row.product_id)!.push({ id: row.id, name: row.name, price: row.price, stock: row.stock });
  return out;
}

/** Attaches each product's SKUs and sold_count (two queries for the whole page, side by side). */
export async function withSkus(em: EntityManager, products: ProductRow[]): Promise<MerchantProductView[]> {
  const [skus, sold] = await Promise.all([skusByProductIds(em, products.map((p) => p.id)), soldCounts(em, products.map((p) => p.id))]);
  return products.map((p) => ({ ...p, soldCount: sold.get(p.id) ?? 0, skus: skus.get(p.id) ?? [] }));
}

/** Advisory-lock namespace of the ordered lists that are replaced as a whole (two-key form). */
const ORDERED_LIST_LOCK = 771_010;
const ORDERED_LISTS = ['brands', 'banners', 'promos', 'quick_links', 'floor_adverts'] as const;

/**
 * Serializes replaces of one ordered list until the transaction ends. Without it two concurrent
 * replaces (delete, then insert) could both keep their rows and merge into one list.
 */
export async function lockOrderedList(em: EntityManager, list: (typeof ORDERED_LISTS)[number]): Promise<void> {
  await em.execute('select pg_advisory_xact_lock(?, ?)', [ORDERED_LIST_LOCK, ORDERED_LISTS.indexOf(list)]);
}
