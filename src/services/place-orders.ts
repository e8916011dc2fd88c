import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../errors.js';
import { queryRows } from '../db/read.js';
import { intArray } from '../db/sql.js';
import type { ShippingAddress } from '../entities/order.entity.js';
import type { DraftOrder } from './checkout.service.js';
import type { FlashSaleTake } from './flash-sale-pricing.js';
import { orderViewsFromRows, type OrderView } from './order-view.js';
import { StaleReadConflict } from './transaction.js';

export interface Placement {
  customerId: number;
  shippingAddress: ShippingAddress;
  /** Fully priced drafts (flash sale, coupons), one per shop. */
  drafts: DraftOrder[];
  /** Freight fee per shop. */
  freight: Map<number, number>;
  /** The cart lines the checkout read (and now takes out of the cart); none for a group-buying checkout. */
  cartLines: { skuId: number; quantity: number }[];
  flashSale: FlashSaleTake;
}

export interface Placed {
  views: OrderView[];
  /** Stock left per SKU after the decrement (for `stock.low`). */
  remaining: Map<number, number>;
}

/**
 * Writes a checkout in one statement: takes the lines out of the cart, counts flash-sale units on the
 * customer's counters, takes the activity stock and the SKU stock (guarded decrements), inserts the
 * orders and their items, and returns the rows of the new orders' views.
 *
 * One statement because it is atomic by itself: outside a transaction it commits on its own, so the
 * hot rows (activity item, SKU) stay locked only while PostgreSQL runs it and commits, never across
 * a round trip to this process. Every guard compares what it wrote with what the checkout read; when
 * one falls short, the statement calls `mf_refuse` and fails as a whole (nothing written):
 * - cart lines gone or changed (a double submit, an edit meanwhile): rerun (`CART_CHANGED`);
 * - a per-customer counter or the activity stock moved since pricing: rerun, so the line is priced
 *   again from fresh figures;
 * - SKU stock short: `INSUFFICIENT_STOCK`, the whole checkout refused.
 *
 * Order of work: cart lines, orders and items first, then the per-customer counters and, last, the
 * hot rows: activity items (ascending id), SKUs (ascending id), the same lock order as every other
 * writer of these rows. Each step names the previous one in its WHERE clause, which makes PostgreSQL
 * run them in that order. So a checkout holds a hot row only for the two updates, the
 * end-of-statement checks and its commit; its inserts' WAL is mostly on disk already, flushed by
 * earlier commits. The rows to lock are looked up by `= any(array)`: the generic plan cannot know
 * how many rows the JSON inputs hold, and `in (select ... from json_to_recordset(...))` let it pick
 * a sequential scan of every SKU (2 ms per checkout).
 */
export async function placeOrders(em: EntityManager, placement: Placement): Promise<Placed> {
  const { customerId, drafts, freight } = placement;
  const orders = drafts.map((draft) => {
    const itemsTotal = draft.items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
    const freightFee = freight.get(draft.shopId)!;
    return {
      shop_id: draft.shopId,
      items_total: itemsTotal,
      discount: draft.discount,
      coupon_id: draft.couponId ?? null,
      freight_fee: freightFee,
      total: itemsTotal - draft.discount + freightFee,
      group_id: draft.group?.id ?? null,
      group_price: draft.group?.price ?? null,
    };
  });
  const items = drafts.flatMap((draft) =>
    draft.items.map((item) => ({
      shop_id: draft.shopId,
      product_id: item.productId,
      sku_id: item.skuId,
      product_name: item.productName,
      sku_name: item.skuName,
      unit_price: item.unitPrice,
      quantity: item.quantity,
      pricing: item.pricing,
      flash_sale_item_id: item.flashSaleItemId ?? null,
    })),
  ).map((item, n) => ({ ...item, n }));
  const demand = new Map<number, number>();
  for (const item of items) demand.set(item.sku_id, (demand.get(item.sku_id) ?? 0) + item.quantity);
  const flash = [...placement.flashSale].map(([id, take]) => ({ id, quantity: take.quantity, per_customer_limit: take.limit }));

  try {
    const rows = await queryRows(em, PLACE_ORDERS, [
      JSON.stringify(placement.cartLines.map((l) => ({ sku_id: l.skuId, quantity: l.quantity }))),
      JSON.stringify(flash),
      JSON.stringify([...demand].map(([sku_id, quantity]) => ({ sku_id, quantity }))),
      JSON.stringify(orders),
      JSON.stringify(items),
      customerId,
      customerId,
      JSON.stringify(placement.shippingAddress),
      customerId,
      intArray(flash.map((f) => f.id)),
      intArray([...demand.keys()]),
    ]);
    const remaining = new Map<number, number>(Object.entries(rows[0].remaining as Record<string, number>).map(([id, stock]) => [Number(id), stock]));
    return { views: orderViewsFromRows(rows), remaining };
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}

/** The write statement (exported for the plan test). */
export const PLACE_ORDERS = `
with cart_in as (select * from json_to_recordset(?::json) as l(sku_id int, quantity int)),
     flash_in as (select * from json_to_recordset(?::json) as f(id int, quantity int, per_customer_limit int)),
     stock_in as (select * from json_to_recordset(?::json) as d(sku_id int, quantity int)),
     orders_in as (
       select * from json_to_recordset(?::json)
           as o(shop_id int, items_total int, discount int, coupon_id int, freight_fee int, total int, group_id int, group_price int)
     ),
     items_in as (
       select * from json_to_recordset(?::json)
           as i(n int, shop_id int, product_id int, sku_id int, product_name text, sku_name text, unit_price int, quantity int,
                pricing text, flash_sale_item_id int)
     ),
     cart as (
       delete from cart_item c using cart_in l
        where c.customer_id = ? and c.sku_id = l.sku_id and c.quantity = l.quantity
       returning c.sku_id
     ),
     new_orders as (
       insert into shop_order (customer_id, shop_id, items_total, discount, coupon_id, freight_fee, total, shipping_address,
                               group_id, group_price, created_at)
       select ?, o.shop_id, o.items_total, o.discount, o.coupon_id, o.freight_fee, o.total, ?::jsonb, o.group_id, o.group_price, now()
         from orders_in o where (select count(*) from cart) >= 0 order by o.shop_id
       returning *
     ),
     new_items as (
       insert into order_item (order_id, product_id, sku_id, product_name, sku_name, unit_price, quantity, amount, pricing, flash_sale_item_id)
       select o.id, i.product_id, i.sku_id, i.product_name, i.sku_name, i.unit_price, i.quantity, i.unit_price * i.quantity, i.pricing,
              i.flash_sale_item_id
         from items_in i join new_orders o on o.shop_id = i.shop_id order by i.n
       returning *
     ),
     counted as (
       insert into flash_sale_purchase as p (flash_sale_item_id, customer_id, quantity)
       select f.id, ?, f.quantity from flash_in f
        where f.quantity <= f.per_customer_limit and (select count(*) from new_items) >= 0
        order by f.id
       on conflict (flash_sale_item_id, customer_id) do update set quantity = p.quantity + excluded.quantity
        where p.quantity + excluded.quantity <= (select f.per_customer_limit from flash_in f where f.id = excluded.flash_sale_item_id)
       returning p.flash_sale_item_id
     ),
     flash_lock as (
       select i.id from flash_sale_item i
        where i.id = any(?::int[]) and (select count(*) from counted) >= 0
        order by i.id for no key update
     ),
     flash as (
       update flash_sale_item i set remaining_stock = i.remaining_stock - f.quantity
         from flash_in f join flash_lock l on l.id = f.id
        where i.id = f.id and i.remaining_stock >= f.quantity
       returning i.id
     ),
     stock_lock as (
       select s.id from sku s
        where s.id = any(?::int[]) and (select count(*) from flash) >= 0
        order by s.id for no key update
     ),
     stock as (
       update sku s set stock = s.stock - d.quantity
         from stock_in d join stock_lock l on l.id = d.sku_id
        where s.id = d.sku_id and s.stock >= d.quantity
       returning s.id, s.stock
     ),
     verdict as (
       select case
         when (select count(*) from cart) <> (select count(*) from cart_in) then mf_refuse('CART_CHANGED', null)
         when (select count(*) from counted) <> (select count(*) from flash_in) then mf_refuse('FLASH_SALE_LIMIT_CHANGED', null)
         when (select count(*) from flash) <> (select count(*) from flash_in) then mf_refuse('FLASH_SALE_STOCK_CHANGED', null)
         when (select count(*) from stock) <> (select count(*) from stock_in) then mf_refuse('INSUFFICIENT_STOCK', (
           select json_build_object('sku_id', d.sku_id, 'requested', d.quantity, 'available', s.stock)
             from stock_in d join sku s on s.id = d.sku_id
            where d.sku_id not in (select id from stock) order by d.sku_id limit 1))
         else 0 end as refused
     )
select o.*, sh.slug as shop_slug, sh.name as shop_name,
       (select json_agg(i order by i.id) from new_items i where i.order_id = o.id) as item_rows,
       '[]'::json as shipment_rows,
       (select json_object_agg(s.id, s.stock) from stock s) as remaining
  from new_orders o join shop sh on sh.id = o.shop_id cross join verdict v
 where v.refused = 0
 order by o.id`;

const RERUN = new Set(['CART_CHANGED', 'FLASH_SALE_LIMIT_CHANGED', 'FLASH_SALE_STOCK_CHANGED']);

/**
 * What `mf_refuse` raised, as the error the checkout reports (or reruns on); undefined for anything
 * else. The ORM's wrapper may prefix the message with the query, hence the suffix match.
 */
function refusalOf(error: unknown): Error | undefined {
  for (let e: any = error, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (e.code !== 'MF001') continue;
    const message = String(e.message);
    const details = JSON.parse(e.detail ?? '{}');
    if (message.endsWith('INSUFFICIENT_STOCK')) return refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${details.sku_id}`, details);
    const code = [...RERUN].find((c) => message.endsWith(c));
    if (code === 'CART_CHANGED') return new StaleReadConflict(code, 'Your cart changed while checking out; try again');
    if (code) return new StaleReadConflict(code, 'The flash-sale stock changed while checking out; try again');
  }
  return undefined;
}
