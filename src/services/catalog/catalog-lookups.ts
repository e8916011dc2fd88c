import type { EntityManager } from '@mikro-orm/postgresql';
import type { Database } from '../../db/typed-sql.js';
import { intArray } from '../../db/sql.js';
import { queryRows } from '../../db/prepared-statements.js';
import { soldCountOf } from './sold-count.js';
import {
  BRAND_COLUMNS, CATEGORY_COLUMNS, PRODUCT_COLUMNS, PROFILE_COLUMNS, toBrandView, toCategoryView, toProductView, toProfileView, toSkuView,
  type BrandView, type CategoryView, type ProductColumns, type ProductView, type ProfileColumns, type ShopProfileView, type SkuView,
} from './catalog-views.js';

/**
 * Batched lookups: one prepared statement for any number of keys. REST services call them once per
 * page; GraphQL calls the same ones through per-request DataLoaders (src/graphql/loaders.ts), so there
 * is one query per relation and page, never one per row.
 */

const unique = (ids: readonly number[]) => [...new Set(ids)];

export async function profilesByShopIds(em: EntityManager, shopIds: readonly number[]): Promise<Map<number, ShopProfileView>> {
  const out = new Map<number, ShopProfileView>();
  if (shopIds.length === 0) return out;
  const rows = await queryRows<{ shop_id: Database['ShopProfile']['shop'] } & ProfileColumns>(
    em,
    `select pr.shop_id, ${PROFILE_COLUMNS} from shop_profile pr where pr.shop_id = any(?::int[])`,
    [intArray(unique(shopIds))],
  );
  for (const row of rows) {
    const profile = toProfileView(row, row.shop_id);
    if (profile) out.set(row.shop_id, profile);
  }
  return out;
}

export async function brandsByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, BrandView>> {
  const out = new Map<number, BrandView>();
  if (ids.length === 0) return out;
  const rows = await queryRows<Database['Brand']>(em, `select ${BRAND_COLUMNS} from brand where id = any(?::int[])`, [intArray(unique(ids))]);
  for (const row of rows) out.set(row.id, toBrandView(row));
  return out;
}

export async function categoriesByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, CategoryView>> {
  const out = new Map<number, CategoryView>();
  if (ids.length === 0) return out;
  const rows = await queryRows<Database['Category']>(em, `select ${CATEGORY_COLUMNS} from category c where c.id = any(?::int[])`, [intArray(unique(ids))]);
  for (const row of rows) out.set(row.id, toCategoryView(row));
  return out;
}

/** Children of each parent, in display order. */
export async function categoriesByParentIds(em: EntityManager, parentIds: readonly number[]): Promise<Map<number, CategoryView[]>> {
  const out = new Map<number, CategoryView[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return out;
  const rows = await queryRows<Database['Category']>(
    em,
    `select ${CATEGORY_COLUMNS} from category c where c.parent_id = any(?::int[]) order by c.parent_id, c.position, c.id`,
    [intArray(unique(parentIds))],
  );
  for (const row of rows) if (row.parent !== null) out.get(row.parent)?.push(toCategoryView(row));
  return out;
}

/** Products by id in any lifecycle state (an order line's product may have been withdrawn since), with sold_count. */
export async function productsByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, ProductView>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows<ProductColumns & { sold_count: number }>(
    em,
    `select ${PRODUCT_COLUMNS}, ${soldCountOf('p.id')} as sold_count from product p join shop s on s.id = p.shop_id where p.id = any(?::int[])`,
    [intArray(unique(ids))],
  );
  return new Map(rows.map((row) => [row.id, { ...toProductView(row), soldCount: row.sold_count }]));
}

/** SKUs of each product, in creation order. */
export async function skusByProductIds(em: EntityManager, productIds: readonly number[]): Promise<Map<number, SkuView[]>> {
  const out = new Map<number, SkuView[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return out;
  const rows = await queryRows<Database['Sku']>(
    em,
    `select id, product_id as product, name, price, stock from sku where product_id = any(?::int[]) order by product_id, id`,
    [intArray(unique(productIds))],
  );
  for (const row of rows) out.get(row.product)?.push(toSkuView(row));
  return out;
}
