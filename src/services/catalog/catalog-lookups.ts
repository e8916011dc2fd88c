import type { EntityManager } from '@mikro-orm/postgresql';
import {
  brandsByIds as brandRows, categoriesByIds as categoryRows, categoriesByParentIds as childRows, productsByIds as productRows,
  profilesByShopIds as profileRows, skusByProductIds as skuRows,
} from './catalog.repository.js';
import {
  toBrandView, toCategoryView, toProductView, toProfileView, toSkuView,
  type BrandView, type CategoryView, type ProductView, type ShopProfileView, type SkuView,
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
  for (const row of await profileRows.run(em, {}, { ids: unique(shopIds) })) {
    const profile = toProfileView(row, row.shopId);
    if (profile) out.set(row.shopId, profile);
  }
  return out;
}

export async function brandsByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, BrandView>> {
  const out = new Map<number, BrandView>();
  if (ids.length === 0) return out;
  for (const row of await brandRows.run(em, {}, { ids: unique(ids) })) out.set(row.id, toBrandView(row));
  return out;
}

export async function categoriesByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, CategoryView>> {
  const out = new Map<number, CategoryView>();
  if (ids.length === 0) return out;
  for (const row of await categoryRows.run(em, {}, { ids: unique(ids) })) out.set(row.id, toCategoryView(row));
  return out;
}

/** Children of each parent, in display order. */
export async function categoriesByParentIds(em: EntityManager, parentIds: readonly number[]): Promise<Map<number, CategoryView[]>> {
  const out = new Map<number, CategoryView[]>(parentIds.map((id) => [id, []]));
  if (parentIds.length === 0) return out;
  for (const row of await childRows.run(em, {}, { ids: unique(parentIds) })) if (row.parent !== null) out.get(row.parent)?.push(toCategoryView(row));
  return out;
}

/** Products by id in any lifecycle state (an order line's product may have been withdrawn since), with sold_count. */
export async function productsByIds(em: EntityManager, ids: readonly number[]): Promise<Map<number, ProductView>> {
  if (ids.length === 0) return new Map();
  const rows = await productRows.run(em, {}, { ids: unique(ids) });
  return new Map(rows.map((row) => [row.id, { ...toProductView(row), soldCount: row.soldCount }]));
}

/** SKUs of each product, in creation order. */
export async function skusByProductIds(em: EntityManager, productIds: readonly number[]): Promise<Map<number, SkuView[]>> {
  const out = new Map<number, SkuView[]>(productIds.map((id) => [id, []]));
  if (productIds.length === 0) return out;
  for (const row of await skuRows.run(em, {}, { ids: unique(productIds) })) out.get(row.product)?.push(toSkuView(row));
  return out;
}
