import { refused, notFound } from '../../errors.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { queryRows } from '../../db/prepared-statements.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
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

/** A cart line as the read below returns it, typed from the entities of its columns. */
interface CartRow {
  sku_id: Database['Sku']['id'];
  sku_name: Database['Sku']['name'];
  price: Database['Sku']['price'];
  stock: Database['Sku']['stock'];
  quantity: Database['CartItem']['quantity'];
  product_id: Database['Product']['id'];
  product_name: Database['Product']['name'];
  image_url: Database['Product']['imageUrl'];
  status: Database['Product']['status'];
  shop_id: Database['Shop']['id'];
  shop_slug: Database['Shop']['slug'];
  shop_name: Database['Shop']['name'];
}

/**
 * The customer's cart with shop and current stock per line, in one prepared statement: every cart
 * change answers with it, so it is on the checkout's hot path (docs/performance.md).
 */
export async function getCart(ctx: ServiceContext): Promise<CartView> {
  const customer = requireCustomer(ctx);
  const rows = await queryRows<CartRow>(
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
  const put = await queryRows<{ sku_id: number }>(
    ctx.em,
    `insert into cart_item (customer_id, sku_id, quantity, added_at)
     select ?, s.id, ?, now() from sku s join product p on p.id = s.product_id where s.id = ? and p.status = 'published'
     on conflict (customer_id, sku_id) do update set quantity = excluded.quantity
     returning sku_id`,
    [customer.userId, quantity, skuId],
  );
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
