import { refused, notFound } from '../errors.js';
import type { ServiceContext } from '../shared/context.js';
import { requireCustomer } from '../shared/guards.js';
import { queryRows } from '../fast-paths/prepared-statements.js';
import { id, parseInput, z } from '../shared/validate.js';

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

const SetQuantity = z.strictObject({ skuId: id, quantity: z.number().int().min(0).max(999) });

/** The customer's cart with shop and current stock per line, in one query. */
export async function getCart(ctx: ServiceContext): Promise<CartView> {
  const customer = requireCustomer(ctx);
  const rows = await queryRows(
    ctx.em,
    `select c.sku_id, s.name as sku_name, s.price, s.stock, c.quantity, p.id as product_id, p.name as product_name,
            p.image_url, p.status, sh.id as shop_id, sh.slug as shop_slug, sh.name as shop_name
       from cart_item c
       join sku s on s.id = c.sku_id
       join product p on p.id = s.product_id
       join shop sh on sh.id = p.shop_id
      where c.customer_id = ?
      order by sh.id, c.added_at, c.id`,
    [customer.userId],
  );
  const lines = rows.map(
    (r): CartLineView => ({
      skuId: r.sku_id,
      skuName: r.sku_name,
      productId: r.product_id,
      productName: r.product_name,
      imageUrl: r.image_url ?? undefined,
      unitPrice: r.price,
      quantity: r.quantity,
      lineTotal: r.price * r.quantity,
      stock: r.stock,
      shop: { id: r.shop_id, slug: r.shop_slug, name: r.shop_name },
      available: r.status === 'published',
    }),
  );
  return {
    lines,
    itemCount: lines.reduce((n, l) => n + l.quantity, 0),
    total: lines.reduce((n, l) => n + l.lineTotal, 0),
  };
}

/**
 * Sets a line's quantity (0 removes it). Only SKUs of published products can be added: the upsert
 * itself checks it (one statement); only when it writes nothing is the SKU looked at again, to say why.
 */
export async function setCartItem(ctx: ServiceContext, input: unknown): Promise<CartView> {
  const customer = requireCustomer(ctx);
  const { skuId, quantity } = parseInput(SetQuantity, input);
  if (quantity === 0) {
    await ctx.em.execute('delete from cart_item where customer_id = ? and sku_id = ?', [customer.userId, skuId]);
    return getCart(ctx);
  }
  const put = await queryRows<{ sku_id: number }>(
    ctx.em,
    `insert into cart_item (customer_id, sku_id, quantity, added_at)
     select ?, s.id, ?, now() from sku s join product p on p.id = s.product_id where s.id = ? and p.status = 'published'
     on conflict (customer_id, sku_id) do update set quantity = excluded.quantity
     returning sku_id`,
    [customer.userId, quantity, skuId],
  );
  if (put.length === 0) {
    const [sku] = await ctx.em.execute<{ status: string }[]>('select p.status from sku s join product p on p.id = s.product_id where s.id = ?', [skuId]);
    if (!sku) throw notFound('SKU', { sku_id: skuId });
    throw refused('PRODUCT_UNAVAILABLE', 'This product is not on sale', { sku_id: skuId });
  }
  return getCart(ctx);
}

export async function removeCartItem(ctx: ServiceContext, input: unknown): Promise<CartView> {
  return setCartItem(ctx, { ...(input as object), quantity: 0 });
}
