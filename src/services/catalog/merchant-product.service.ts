import { ForeignKeyConstraintViolationException, LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { conflict, notFound, refused, validationError } from '../../errors.js';
import { Brand } from '../../entities/brand.entity.js';
import { Category } from '../../entities/category.entity.js';
import { Product, ProductStatus } from '../../entities/product.entity.js';
import { Shop } from '../../entities/shop.entity.js';
import { Sku } from '../../entities/sku.entity.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireShopPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { idParam, parseInput, queryFlag, z } from '../../shared/validate.js';
import { UpsertInput } from './product.inputs.js';
import { pageFields, pageOf, pageWindow, type Page } from '../../shared/pagination.js';
import { productViewOf, toSkuView, type MerchantProductView } from './catalog-views.js';
import { soldCounts } from './sold-count.js';
import { refusals } from '../../error-codes.js';
import { refuseInactiveShops } from './shop-status.js';
import { adjustSkuStock, type StockChange } from '../inventory/inventory.service.js';
import { containsPattern } from '../../shared/values.js';
import { auditedRows } from '../../shared/audit.js';

/**
 * Product management for a shop operator, limited to their own shop: another shop's product is
 * answered as not found. Lifecycle: created as `draft`; `publish` shows it on the storefront (from
 * draft or unpublished, while the shop is active); `unpublish` withdraws a published or held product
 * (`held`: its shop is suspended or closed, shops/shop-lifecycle.ts). Edits keep the state.
 */

/**
 * The orders of the shop console's product table, each the order of an index within one shop
 * (product_shop_id_id_idx, product_shop_name_idx, product_shop_price_idx), ties by id.
 */
export const MerchantProductSort = { Newest: 'newest', Oldest: 'oldest', NameAsc: 'name_asc', NameDesc: 'name_desc', PriceAsc: 'price_asc', PriceDesc: 'price_desc' } as const;
export type MerchantProductSort = (typeof MerchantProductSort)[keyof typeof MerchantProductSort];

const PRODUCT_ORDER: Record<MerchantProductSort, { name?: 'asc' | 'desc'; priceFrom?: 'asc' | 'desc'; id: 'asc' | 'desc' }> = {
  newest: { id: 'desc' },
  oldest: { id: 'asc' },
  name_asc: { name: 'asc', id: 'asc' },
  name_desc: { name: 'desc', id: 'desc' },
  price_asc: { priceFrom: 'asc', id: 'asc' },
  price_desc: { priceFrom: 'desc', id: 'desc' },
};

export const ListInput = z.strictObject({
  status: z.enum(ProductStatus).optional(),
  /** The table's order; newest first when left out. */
  sort: z.enum(MerchantProductSort).optional(),
  /** One product of the shop, in any state (the console's editor opens it by id). */
  id: idParam.optional(),
  /** Words the product's name contains, case-insensitive (the shop console's search box). */
  q: z.string().trim().max(200).optional(),
  /** true: only products with a SKU whose stock is below STOCK_LOW_THRESHOLD (the console's low-stock list). */
  lowStock: queryFlag.optional(),
  ...pageFields,
});

export { UpsertInput };

/**
 * The operator's own product with its row locked until the transaction ends: edits of one product
 * take turns, so `price_from` matches the SKUs that win. Another shop's product is not found.
 */
async function lockOwnProduct(em: EntityManager, shopId: number, id: number): Promise<Product> {
  const product = await em.findOne(Product, { id, shop: shopId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
  if (!product) throw notFound('Product', { id });
  return product;
}

/** Merchant views of products whose shop and SKUs are loaded: one sold_count query for all of them. */
async function merchantViews(em: EntityManager, products: Product[]): Promise<MerchantProductView[]> {
  const sold = await soldCounts(em, products.map((p) => p.id));
  return products.map((p) => ({
    ...productViewOf(p),
    soldCount: sold.get(p.id) ?? 0,
    skus: p.skus.getItems().map(toSkuView),
    freightTemplateId: p.freightTemplate?.id ?? null,
  }));
}

async function ownProductView(em: EntityManager, product: Product): Promise<MerchantProductView> {
  await em.populate(product, ['shop', 'skus']);
  const [view] = await merchantViews(em, [product]);
  return view;
}

/** The operator's products in every state, newest first unless `sort` says otherwise, with their SKUs; optionally by status, name words, low stock. */
export async function listMerchantProducts(ctx: ServiceContext, input: unknown = {}): Promise<Page<MerchantProductView>> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const q = parseInput(ListInput, input);
  // The shop's rows come by product_shop_id_index; name and stock filter within one shop's products.
  const [products, total] = await ctx.em.findAndCount(
    Product,
    {
      shop: shopId,
      ...(q.status && { status: q.status }),
      ...(q.id && { id: q.id }),
      ...(q.q && { name: { $ilike: containsPattern(q.q) } }),
      ...(q.lowStock && { skus: { stock: { $lt: ctx.config.stockLowThreshold } } }),
    },
    { populate: ['shop', 'skus'], orderBy: PRODUCT_ORDER[q.sort ?? MerchantProductSort.Newest], ...pageWindow(q) },
  );
  return pageOf(await merchantViews(ctx.em, products), q, total);
}

type Upsert = z.output<typeof UpsertInput>;

/** Category and brand must exist; SKU ids must be this product's. One query. */
async function checkReferences(em: EntityManager, input: Upsert, productId: number | null): Promise<void> {
  const facts = await typedSql(em)
    .selectNoFrom((eb) => [
      eb.exists(eb.selectFrom('Category').select('id').where('id', '=', input.categoryId)).as('category'),
      eb.exists(eb.selectFrom('Brand').select('id').where('id', '=', input.brandId ?? 0)).as('brand'),
      sql<Database['Sku']['id'][]>`array(${eb.selectFrom('Sku').select('id').where('product', '=', productId ?? 0)})`.as('skuIds'),
    ])
    .executeTakeFirstOrThrow();
  const problems: { field: string; message: string }[] = [];
  if (!facts.category) problems.push({ field: 'categoryId', message: `no category ${input.categoryId}` });
  if (input.brandId != null && !facts.brand) problems.push({ field: 'brandId', message: `no brand ${input.brandId}` });
  const own = new Set(facts.skuIds);
  input.skus.forEach((sku, i) => {
    if (sku.id != null && !own.has(sku.id)) problems.push({ field: `skus.${i}.id`, message: `no SKU ${sku.id} on this product` });
  });
  if (problems.length > 0) throw validationError(`${problems[0].field}: ${problems[0].message}`, { problems });
}

export const upsertProductRefusals = refusals('INSUFFICIENT_STOCK', 'NOT_FOUND', 'SKU_IN_USE');

/**
 * Creates (no id) or updates (id) a product of the operator's shop with its complete SKU list: SKUs
 * with an id are updated, SKUs without one are created, the product's other SKUs are deleted (409
 * SKU_IN_USE when something such as an order still refers to one; nothing changes then).
 * `priceFrom` becomes the lowest SKU price, in the same transaction.
 */
export async function upsertProduct(ctx: ServiceContext, input: unknown): Promise<MerchantProductView> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const data = parseInput(UpsertInput, input);
  return inTransaction(ctx, async (tx) => {
    const { em } = tx;
    const existing = data.id == null ? null : await lockOwnProduct(em, shopId, data.id);
    await checkReferences(em, data, existing?.id ?? null);
    const fields = {
      name: data.name,
      description: data.description || null,
      imageUrl: data.imageUrl ?? null,
      category: em.getReference(Category, data.categoryId),
      brand: data.brandId == null ? null : em.getReference(Brand, data.brandId),
      priceFrom: Math.min(...data.skus.map((s) => s.price)),
    };
    let product: Product;
    if (existing) {
      // Statements, not flushes: the audit log reads the SKUs they change (shared/audit.ts).
      await auditedRows(tx, { type: 'Sku', column: 'product_id', value: existing.id }, async () => {
        await deleteLeftOutSkus(em, existing.id, data.skus);
        await changeStock(em, data.skus);
      });
      // Loaded after the stock changes, so the answer shows the stock they left.
      await em.populate(existing, ['skus']);
      // An edit always counts as one, even when no field changed.
      product = em.assign(existing, { ...fields, updatedAt: new Date() });
    } else {
      product = em.create(Product, { ...fields, shop: em.getReference(Shop, shopId), status: ProductStatus.Draft });
    }
    const kept = new Map(product.skus.getItems().map((sku) => [sku.id, sku]));
    const created: { sku: Sku; stock: number }[] = [];
    for (const sku of data.skus) {
      const own = sku.id == null ? undefined : kept.get(sku.id);
      if (own) em.assign(own, { name: sku.name, price: sku.price });
      // A new SKU starts empty; its first stock is inventory's adjustment (UpsertInput requires it).
      else created.push({ sku: em.create(Sku, { product, name: sku.name, price: sku.price, stock: 0 }), stock: sku.stock ?? 0 });
    }
    await em.flush();
    await auditedRows(tx, { type: 'Sku', column: 'product_id', value: product.id }, () => adjustSkuStock(em, created.map(({ sku, stock }) => ({ skuId: sku.id, set: stock }))));
    // The new SKUs' stock as inventory left it (the entities still hold the 0 they were created with).
    for (const { sku } of created) await em.refresh(sku);
    return ownProductView(em, product);
  });
}

/** Deletes the product's SKUs left out of the list, in one statement; the foreign keys of orders (and others) refuse a SKU in use. */
async function deleteLeftOutSkus(em: EntityManager, productId: number, skus: Upsert['skus']): Promise<void> {
  const kept = skus.flatMap((s) => (s.id == null ? [] : [s.id]));
  try {
    await em.nativeDelete(Sku, { product: productId, id: { $nin: kept } });
  } catch (error) {
    if (error instanceof ForeignKeyConstraintViolationException) {
      throw conflict('SKU_IN_USE', 'A SKU left out of the list is still referenced (for example by an order) and cannot be deleted; keep it in the list');
    }
    throw error;
  }
}

/**
 * The stock of kept SKUs, through inventory (each change an `adjustment` movement): `stock` replaces
 * the figure (a stock-take), `stockDelta` adds to it in one conditional update, refused for every SKU
 * when it would take one below zero (the transaction rolls back).
 */
async function changeStock(em: EntityManager, skus: Upsert['skus']): Promise<void> {
  const changes = skus.flatMap((s): StockChange[] =>
    s.id == null ? [] : s.stock != null ? [{ skuId: s.id, set: s.stock }] : s.stockDelta ? [{ skuId: s.id, delta: s.stockDelta }] : [],
  );
  const short = await adjustSkuStock(em, changes);
  // The first short SKU in the merchant's list is the one named.
  const first = skus.find((s) => s.id != null && short.has(s.id));
  if (first) {
    throw refused('INSUFFICIENT_STOCK', `SKU ${first.id} has fewer units than the delta removes`, { sku_id: first.id ?? undefined, stock_delta: first.stockDelta ?? undefined });
  }
}

/**
 * Moves an own product to `to` when its state is one of `from`; already in `to` is a no-op. `first`
 * runs before the product is locked (publishing's check of the shop).
 */
async function transition(
  ctx: ServiceContext,
  productId: unknown,
  to: ProductStatus,
  from: ProductStatus[],
  first?: (tx: ServiceContext, shopId: number) => Promise<void>,
): Promise<MerchantProductView> {
  const { shopId } = requireShopPermission(ctx, Permission.ShopCatalogManage);
  const id = parseInput(idParam, productId);
  return inTransaction(ctx, async (tx) => {
    const { em } = tx;
    await first?.(tx, shopId);
    const product = await lockOwnProduct(em, shopId, id);
    const status: ProductStatus = product.status;
    if (status !== to) {
      if (!from.includes(status)) throw conflict('PRODUCT_STATE_CONFLICT', `A ${status} product cannot be moved to ${to}`, { status });
      product.status = to;
      await em.flush();
    }
    return ownProductView(em, product);
  });
}

export const publishProductRefusals = refusals('NOT_FOUND', 'PRODUCT_STATE_CONFLICT', 'SHOP_NOT_ACTIVE');

/**
 * Publishing needs an active shop: the shop's row is share-locked before the product (the order a
 * shop's move locks them in), so a product is never published after its shop's suspension held the others.
 */
export const publishProduct = (ctx: ServiceContext, productId: unknown) =>
  transition(ctx, productId, ProductStatus.Published, [ProductStatus.Draft, ProductStatus.Unpublished], (tx, shopId) => refuseInactiveShops(tx, [shopId]));

export const unpublishProductRefusals = refusals('NOT_FOUND', 'PRODUCT_STATE_CONFLICT');

export const unpublishProduct = (ctx: ServiceContext, productId: unknown) =>
  // A held product may be withdrawn too: it then stays unpublished when its shop is reinstated.
  transition(ctx, productId, ProductStatus.Unpublished, [ProductStatus.Published, ProductStatus.Held]);
