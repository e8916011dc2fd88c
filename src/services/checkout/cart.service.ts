import { refused, notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { typedSql } from '../../db/typed-sql.js';
import { cartLines, putCartLine } from './cart.repository.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { id, parseInput, z } from '../../shared/validate.js';
import { refusals } from '../../error-codes.js';

export interface CartLineView {
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  imageUrl?: string;
  unitPrice: number;
  quantity: number;
  lineTotal: number;
  /** Current stock of the SKU: the cart may hold more, checkout refuses it. */
  stock: number;
  shop: { id: number; slug: string; name: string };
  /** False when the product was unpublished after being added: checkout refuses the line. */
  available: boolean;
}

export interface CartView {
  lines: CartLineView[];
  itemCount: number;
  total: number;
}

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

export const setCartItemRefusals = refusals('NOT_FOUND', 'PRODUCT_UNAVAILABLE');

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
    const sku = await typedSql(ctx.em).selectFrom('Sku as s').innerJoin('Product as p', 'p.id', 's.product').select('p.status').where('s.id', '=', skuId).executeTakeFirst();
    if (!sku) throw notFound('SKU', { sku_id: skuId });
    throw refused('PRODUCT_UNAVAILABLE', 'This product is not on sale', { sku_id: skuId });
  }
  return getCart(ctx);
}

const CartLine = z.object({ skuId: id });

export const removeCartItemRefusals = refusals('NOT_FOUND', 'PRODUCT_UNAVAILABLE');

export async function removeCartItem(ctx: ServiceContext, input: unknown): Promise<CartView> {
  return setCartItem(ctx, { ...parseInput(CartLine, input), quantity: 0 });
}
