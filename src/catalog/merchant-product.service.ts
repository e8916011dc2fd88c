import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound, refused, validationError } from '../errors.js';
import { ProductStatus } from '../entities/product.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { requireOperator } from '../shared/guards.js';
import { inTransaction } from '../shared/transaction.js';
import { parseInput, idParam, money, quantity, z } from '../shared/validate.js';
import { pageFields, pageOffset, type Page } from '../shared/pagination.js';
import { intArray } from '../db/sql.js';
import { PRODUCT_COLUMNS, toProductView, withSkus, type MerchantProductView } from './catalog-views.js';

/**
 * Product management for a shop operator, limited to their own shop: another shop's product is
 * answered as not found. Lifecycle: created as `draft`; `publish` shows it on the storefront (from
 * draft or unpublished); `unpublish` withdraws a published product. Edits keep the state.
 */

const ListInput = z.strictObject({ status: z.enum(ProductStatus).optional(), ...pageFields });

const SkuInput = z.strictObject({
  /** An existing SKU of this product; without id a SKU is created. */
  id: idParam.nullish(),
  name: z.string().trim().min(1).max(120),
  price: money,
  /**
   * Sets the stock. Required for a new SKU; left out on an existing SKU the stock stays as it is, so
   * an edit cannot overwrite units sold since the merchant read them. On an existing SKU it is a
   * stock-take: the counted figure replaces whatever concurrent sales left.
   */
  stock: quantity.nullish(),
  /** Existing SKUs only: adds (or with a minus, removes) units in one guarded update, race-safe with sales. */
  stockDelta: z.number().int().min(-1_000_000).max(1_000_000).nullish(),
});

const UpsertInput = z
  .strictObject({
    id: idParam.nullish(),
    name: z.string().trim().min(1).max(200),
    description: z.string().trim().max(10_000).nullish(),
    imageUrl: z.httpUrl().max(500).nullish(),
    categoryId: idParam,
    brandId: idParam.nullish(),
    skus: z.array(SkuInput).min(1, 'a product needs at least one SKU').max(100),
  })
  .superRefine((input, issue) => {
    const seen = new Set<number>();
    input.skus.forEach((sku, i) => {
      if (sku.id == null && sku.stock == null) issue.addIssue({ code: 'custom', path: ['skus', i, 'stock'], message: 'a new SKU needs its stock' });
      if (sku.id == null && sku.stockDelta != null) issue.addIssue({ code: 'custom', path: ['skus', i, 'stockDelta'], message: 'only an existing SKU takes a stock delta' });
      if (sku.stock != null && sku.stockDelta != null) issue.addIssue({ code: 'custom', path: ['skus', i, 'stockDelta'], message: 'send stock or stockDelta, not both' });
      if (sku.id != null) {
        if (seen.has(sku.id)) issue.addIssue({ code: 'custom', path: ['skus', i, 'id'], message: 'appears twice in the list' });
        seen.add(sku.id);
      }
    });
  });

async function loadOwnProduct(em: EntityManager, shopId: number, id: number): Promise<MerchantProductView> {
  const rows = await em.execute(
    `select ${PRODUCT_COLUMNS} from product p join shop s on s.id = p.shop_id where p.id = ? and p.shop_id = ?`,
    [id, shopId],
  );
  if (rows.length === 0) throw notFound('Product', { id });
  const [product] = await withSkus(em, rows.map(toProductView));
  return product;
}

/** The operator's products in every state, newest first, with their SKUs. */
export async function listMerchantProducts(ctx: ServiceContext, input: unknown = {}): Promise<Page<MerchantProductView>> {
  const { shopId } = requireOperator(ctx);
  const q = parseInput(ListInput, input);
  const filter = q.status ? 'p.shop_id = ? and p.status = ?' : 'p.shop_id = ?';
  const params = q.status ? [shopId, q.status] : [shopId];
  const [rows, [count]] = await Promise.all([
    ctx.em.execute(
      `select ${PRODUCT_COLUMNS} from product p join shop s on s.id = p.shop_id where ${filter} order by p.id desc limit ? offset ?`,
      [...params, q.pageSize, pageOffset(q)],
    ),
    ctx.em.execute<{ total: number }[]>(`select count(*)::int as total from product p where ${filter}`, params),
  ]);
  return { items: await withSkus(ctx.em, rows.map(toProductView)), page: q.page, pageSize: q.pageSize, total: count.total };
}

type Upsert = z.output<typeof UpsertInput>;

/** Category and brand must exist; SKU ids must be this product's. One query. */
async function checkReferences(em: EntityManager, input: Upsert, productId: number | null): Promise<void> {
  const [facts] = await em.execute<{ category: boolean; brand: boolean; sku_ids: number[] }[]>(
    `select exists(select 1 from category where id = ?) as category,
            exists(select 1 from brand where id = ?) as brand,
            array(select id from sku where product_id = ?) as sku_ids`,
    [input.categoryId, input.brandId ?? 0, productId ?? 0],
  );
  const problems: { field: string; message: string }[] = [];
  if (!facts.category) problems.push({ field: 'categoryId', message: `no category ${input.categoryId}` });
  if (input.brandId != null && !facts.brand) problems.push({ field: 'brandId', message: `no brand ${input.brandId}` });
  const own = new Set(facts.sku_ids);
  input.skus.forEach((sku, i) => {
    if (sku.id != null && !own.has(sku.id)) problems.push({ field: `skus.${i}.id`, message: `no SKU ${sku.id} on this product` });
  });
  if (problems.length > 0) throw validationError(`${problems[0].field}: ${problems[0].message}`, { problems });
}

/**
 * Creates (no id) or updates (id) a product of the operator's shop with its complete SKU list: SKUs
 * with an id are updated, SKUs without one are created, the product's other SKUs are deleted (409
 * SKU_IN_USE when something such as an order still refers to one; nothing changes then).
 * `priceFrom` becomes the lowest SKU price, in the same transaction.
 */
export async function upsertProduct(ctx: ServiceContext, input: unknown): Promise<MerchantProductView> {
  const { shopId } = requireOperator(ctx);
  const data = parseInput(UpsertInput, input);
  const priceFrom = Math.min(...data.skus.map((s) => s.price));
  const fields = [data.name, data.description || null, data.imageUrl ?? null, data.categoryId, data.brandId ?? null, priceFrom];
  return inTransaction(ctx, async (tx) => {
    const em = tx.em;
    let id: number;
    if (data.id != null) {
      // The row lock orders concurrent edits of one product, so price_from matches the SKUs that win.
      const [own] = await em.execute('select id from product where id = ? and shop_id = ? for update', [data.id, shopId]);
      if (!own) throw notFound('Product', { id: data.id });
      id = data.id;
      await checkReferences(em, data, id);
      await em.execute(
        `update product set name = ?, description = ?, image_url = ?, category_id = ?, brand_id = ?, price_from = ?, updated_at = now()
          where id = ?`,
        [...fields, id],
      );
    } else {
      await checkReferences(em, data, null);
      const [created] = await em.execute<{ id: number }[]>(
        `insert into product (shop_id, name, description, image_url, category_id, brand_id, price_from, status, created_at, updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, now(), now()) returning id`,
        [shopId, ...fields, ProductStatus.Draft],
      );
      id = created.id;
    }
    await writeSkus(em, id, data.skus);
    return loadOwnProduct(em, shopId, id);
  });
}

async function writeSkus(em: EntityManager, productId: number, skus: Upsert['skus']): Promise<void> {
  const kept = skus
    .filter((s) => s.id != null)
    .map((s) => ({ id: s.id, name: s.name, price: s.price, stock: s.stock ?? null, stock_delta: s.stockDelta ?? 0 }));
  try {
    await em.execute('delete from sku where product_id = ? and id <> all(?::int[])', [productId, intArray(kept.map((s) => s.id!))]);
  } catch (error) {
    if (error instanceof ForeignKeyConstraintViolationException) {
      throw conflict('SKU_IN_USE', 'A SKU left out of the list is still referenced (for example by an order) and cannot be deleted; keep it in the list');
    }
    throw error;
  }
  if (kept.length > 0) {
    // A negative delta is guarded like any decrement: it applies to every SKU or the upsert is refused.
    const updated = await em.execute<{ id: number }[]>(
      `update sku set name = x.name, price = x.price, stock = coalesce(x.stock, sku.stock + x.stock_delta)
         from jsonb_to_recordset(?::jsonb) as x(id int, name text, price int, stock int, stock_delta int)
        where sku.id = x.id and sku.product_id = ? and (x.stock is not null or sku.stock + x.stock_delta >= 0)
        returning sku.id`,
      [JSON.stringify(kept), productId],
    );
    if (updated.length < kept.length) {
      const done = new Set(updated.map((r) => r.id));
      const short = kept.find((k) => !done.has(k.id!));
      throw refused('INSUFFICIENT_STOCK', `SKU ${short?.id} has fewer units than the delta removes`, { sku_id: short?.id, stock_delta: short?.stock_delta });
    }
  }
  const created = skus.flatMap((s, ord) => (s.id == null ? [{ ord, name: s.name, price: s.price, stock: s.stock }] : []));
  if (created.length > 0) {
    await em.execute(
      `insert into sku (product_id, name, price, stock)
       select ?, x.name, x.price, x.stock from jsonb_to_recordset(?::jsonb) as x(ord int, name text, price int, stock int) order by x.ord`,
      [productId, JSON.stringify(created)],
    );
  }
}

/** Moves an own product to `to` when its state is one of `from`; already in `to` is a no-op. */
async function transition(ctx: ServiceContext, productId: unknown, to: ProductStatus, from: ProductStatus[]): Promise<MerchantProductView> {
  const { shopId } = requireOperator(ctx);
  const id = parseInput(idParam, productId);
  return inTransaction(ctx, async (tx) => {
    const [row] = await tx.em.execute<{ status: ProductStatus }[]>(
      `with target as (select id, status from product where id = ? and shop_id = ? for update),
            changed as (update product p set status = ?, updated_at = now() from target
                         where p.id = target.id and target.status = any(?::text[]) returning p.id)
       select target.status from target`,
      [id, shopId, to, `{${from.join(',')}}`],
    );
    if (!row) throw notFound('Product', { id });
    if (row.status !== to && !from.includes(row.status)) {
      throw conflict('PRODUCT_STATE_CONFLICT', `A ${row.status} product cannot be moved to ${to}`, { status: row.status });
    }
    return loadOwnProduct(tx.em, shopId, id);
  });
}

export const publishProduct = (ctx: ServiceContext, productId: unknown) =>
  transition(ctx, productId, ProductStatus.Published, [ProductStatus.Draft, ProductStatus.Unpublished]);

export const unpublishProduct = (ctx: ServiceContext, productId: unknown) =>
  transition(ctx, productId, ProductStatus.Unpublished, [ProductStatus.Published]);
