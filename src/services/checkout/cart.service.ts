import { refused, notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { typedSql } from '../../db/typed-sql.js';
import { intArray } from '../../db/sql.js';
import { cartLines, mergeCartLines, putCartLine } from './cart.repository.js';
import { inTransaction } from '../../shared/transaction.js';
import { recordAnswer, withIdempotency } from '../../shared/idempotency.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { refusals } from '../../error-codes.js';
import { shopNotActive } from '../catalog/shop-status.js';
import { MergeOutcome, type CartLineView, type CartView, type MergeCartView, type MergedLineView } from './cart-view.js';

export const SetQuantity = z.strictObject({ skuId: id, quantity: z.number().int().min(0).max(999) });

/**
 * The customer's cart with shop and current stock per line, in one prepared statement: every cart
 * change answers with it, so it is on the checkout's hot path (docs/performance.md).
 */
export async function getCart(ctx: ServiceContext): Promise<CartView> {
  const customer = requireCustomer(ctx);
  const rows = await cartLines.run(ctx.em, {}, { customerId: customer.userId });
  const lines = rows.map(
    (r): CartLineView => ({
      skuId: r.skuId,
      skuName: r.skuName,
      productId: r.productId,
      productName: r.productName,
      imageUrl: r.imageUrl ?? undefined,
      unitPrice: r.price,
      quantity: r.quantity,
      lineTotal: r.price * r.quantity,
      stock: r.stock,
      shop: { id: r.shopId, slug: r.shopSlug, name: r.shopName },
      available: r.status === ProductStatus.Published,
    }),
  );
  return {
    lines,
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    total: lines.reduce((n, l) => n + l.lineTotal, 0),
  };
}

export const setCartItemRefusals = refusals('NOT_FOUND', 'PRODUCT_UNAVAILABLE', 'SHOP_NOT_ACTIVE');

/**
 * Sets a line's quantity (0 removes it). Only SKUs of published products can be added: the upsert
 * itself checks it (one statement); only when it writes nothing is the SKU looked at again, to say why.
 */
export async function setCartItem(ctx: ServiceContext, input: unknown): Promise<CartView> {
  const customer = requireCustomer(ctx);
  const { skuId, quantity } = parseInput(SetQuantity, input);
  if (quantity === 0) {
    await typedSql(ctx.em).deleteFrom('CartItem').where('customer', '=', customer.userId).where('sku', '=', skuId).execute();
    return getCart(ctx);
  }
  const put = await putCartLine.run(ctx.em, {}, { customerId: customer.userId, skuId, quantity });
  if (put.length === 0) {
    const sku = await typedSql(ctx.em)
      .selectFrom('Sku as s')
      .innerJoin('Product as p', 'p.id', 's.product')
      .innerJoin('Shop as sh', 'sh.id', 'p.shop')
      .select(['p.status', 'sh.id as shopId', 'sh.status as shopStatus'])
      .where('s.id', '=', skuId)
      .executeTakeFirst();
    if (!sku) throw notFound('SKU', { sku_id: skuId });
    // Held: published, but its shop is suspended or closed (shops/shop-lifecycle.ts).
    if (sku.status === ProductStatus.Held) throw shopNotActive({ id: sku.shopId, status: sku.shopStatus });
    throw refused('PRODUCT_UNAVAILABLE', 'This product is not on sale', { sku_id: skuId });
  }
  return getCart(ctx);
}

const CartLine = z.object({ skuId: id });

export const removeCartItemRefusals = refusals('NOT_FOUND', 'PRODUCT_UNAVAILABLE', 'SHOP_NOT_ACTIVE');

export async function removeCartItem(ctx: ServiceContext, input: unknown): Promise<CartView> {
  return setCartItem(ctx, { ...parseInput(CartLine, input), quantity: 0 });
}

/** A guest cart as the browser kept it: each SKU once. */
export const MergeCartInput = z.strictObject({
  items: z
    .array(z.strictObject({ skuId: id, quantity: z.number().int().min(1).max(999) }))
    .min(1)
    .max(100)
    .refine((items) => new Set(items.map((i) => i.skuId)).size === items.length, 'Each SKU may appear once'),
});

export const mergeCartRefusals = refusals('IDEMPOTENCY_KEY_REUSED');

/**
 * Merges a guest cart (kept in the browser while signed out) into the customer's cart at sign-in: the
 * quantities add up, to the SKU's stock at most (never below what the cart already held, and a line
 * out of stock keeps one unit so it is not lost: checkout refuses it, the cart shows why). One
 * statement, lines taken in SKU order (two merges at once queue on the same rows instead of
 * deadlocking). Each guest line is answered with what became of it, so nothing is dropped silently.
 */
export async function mergeCart(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<MergeCartView> {
  const customer = requireCustomer(ctx);
  const items = [...parseInput(MergeCartInput, input).items].sort((a, b) => a.skuId - b.skuId);
  return withIdempotency(ctx, { scope: 'cart.merge', key: idempotencyKey, request: { items } }, (idempotency) =>
    inTransaction(ctx, async (tx) => {
      const merged = await mergeCartLines.run(tx.em, [intArray(items.map((i) => i.skuId)), intArray(items.map((i) => i.quantity)), customer.userId, customer.userId]);
      const unmerged = items.filter((i) => !merged.some((m) => m.skuId === i.skuId)).map((i) => i.skuId);
      const known = unmerged.length === 0 ? [] : await typedSql(tx.em).selectFrom('Sku').select('id').where('id', 'in', unmerged).execute();
      const lines = items.map((item): MergedLineView => {
        const row = merged.find((m) => m.skuId === item.skuId);
        if (!row) return { skuId: item.skuId, requested: item.quantity, inCart: 0, outcome: known.some((k) => k.id === item.skuId) ? MergeOutcome.Unavailable : MergeOutcome.NotFound };
        return { skuId: item.skuId, requested: item.quantity, inCart: row.quantity, outcome: row.quantity < row.before + item.quantity ? MergeOutcome.Capped : MergeOutcome.Merged };
      });
      const view = { cart: await getCart(tx), lines };
      await recordAnswer(tx, idempotency, view);
      return view;
    }),
  );
}
