import { fixedStatement } from '../../db/prepared-queries.js';
import { z } from '../../shared/validate.js';
import { OrderRow } from '../orders/order.repository.js';

/**
 * Checkout's one write statement (what it does and why: place-orders-statement.ts), kept as SQL:
 * it says in SQL what a builder would only obscure (data-modifying CTEs in a set order, guards
 * compared in a verdict). Its parameters, in order: the cart lines, the coupons, the flash-sale
 * units, the demand per SKU, the orders, their items and the Idempotency-Keys (JSON lists), then
 * the shops', customers', coupons', activity items' and SKUs' ids (integer arrays), and STOCK_LOW_THRESHOLD.
 * The orders' shops are share-locked before anything is taken (`shop_lock`): a shop suspended or
 * closed meanwhile refuses the statement (SHOP_NOT_ACTIVE), and a move of the shop that comes later
 * waits for its commit (catalog/shop-status.ts says why).
 *
 * It stores its own events in the outbox (it has no transaction another statement could join): an
 * `order.placed` per order and a `stock.low` per SKU whose stock it took below the threshold. Their
 * payloads are the ones `announcePlaced` (orders/order-lifecycle.ts) and `emitStockLow`
 * (inventory/stock-events.ts) build for the transactional writer; test/checkout-writers.test.ts holds
 * the two writers' events equal.
 */

/** A new order's row (as `orderRows` reads one), with the stock left per SKU id (on every row, the same). */
export const PlacedRow = OrderRow.extend({ remaining: z.record(z.string(), z.number().int()).nullable(), events: z.number().int() });
export type PlacedRow = z.infer<typeof PlacedRow>;

/** The `order.placed` insert of `placeOrders`, which its traced twin replaces. */
const PLACED_EVENTS = `     placed_events as (
       insert into event (type, shop_ids, customer_id, payload, occurred_at)
       select 'order.placed', array[o.shop_id], o.customer_id, jsonb_build_object('orderId', o.id, 'total', o.total, 'status', o.status), now()
         from new_orders o order by o.id`;

export const placeOrders = fixedStatement({
  name: 'place_orders',
  row: PlacedRow,
  text: `
with cart_in as (select * from json_to_recordset(?::json) as l(customer_id int, sku_id int, quantity int)),
     coupons_in as (select * from json_to_recordset(?::json) as k(customer_id int, shop_id int, coupon_id int)),
     flash_in as (select * from json_to_recordset(?::json) as f(id int, customer_id int, quantity int, per_customer_limit int)),
     flash_demand as (select f.id, sum(f.quantity)::int as quantity from flash_in f group by f.id),
     stock_in as (select * from json_to_recordset(?::json) as d(sku_id int, quantity int)),
     orders_in as (
       select * from json_to_recordset(?::json)
           as o(n int, customer_id int, shop_id int, items_total int, discount int, coupon_id int, freight_fee int, total int,
                shipping_address jsonb, group_id int, group_price int)
     ),
     items_in as (
       select * from json_to_recordset(?::json)
           as i(n int, customer_id int, shop_id int, product_id int, sku_id int, product_name text, sku_name text, unit_price int,
                quantity int, pricing text, flash_sale_item_id int)
     ),
     keys_in as (select * from json_to_recordset(?::json) as k(user_id int, scope text, key text, request_hash text)),
     shop_lock as (
       select sh.id, sh.status from shop sh where sh.id = any(?::int[]) order by sh.id for share
     ),
     cart as (
       delete from cart_item c using cart_in l
        where c.customer_id = any(?::int[]) and c.customer_id = l.customer_id and c.sku_id = l.sku_id and c.quantity = l.quantity
          and (select count(*) from shop_lock) >= 0
       returning c.customer_id, c.sku_id
     ),
     redeemed as (
       update coupon c set status = 'used', used_at = now()
         from coupons_in k
        where c.id = any(?::int[]) and c.id = k.coupon_id and c.customer_id = k.customer_id and c.status = 'available'
          and (select count(*) from cart) >= 0
       returning c.id
     ),
     new_orders as (
       insert into shop_order (customer_id, shop_id, items_total, discount, coupon_id, freight_fee, total, shipping_address,
                               group_id, group_price, created_at)
       select o.customer_id, o.shop_id, o.items_total, o.discount, o.coupon_id, o.freight_fee, o.total, o.shipping_address,
              o.group_id, o.group_price, now()
         from orders_in o where (select count(*) from redeemed) >= 0 order by o.n
       returning *
     ),
     new_items as (
       insert into order_item (order_id, product_id, sku_id, product_name, sku_name, unit_price, quantity, amount, pricing, flash_sale_item_id)
       select o.id, i.product_id, i.sku_id, i.product_name, i.sku_name, i.unit_price, i.quantity, i.unit_price * i.quantity, i.pricing,
              i.flash_sale_item_id
         from items_in i join new_orders o on o.customer_id = i.customer_id and o.shop_id = i.shop_id order by i.n
       returning *
     ),
     placed as (
       select o.*, sh.slug as shop_slug, sh.name as shop_name,
              (select json_agg(i order by i.id) from new_items i where i.order_id = o.id) as item_rows,
              '[]'::json as shipment_rows
         from new_orders o join shop sh on sh.id = o.shop_id
     ),
     answered as (
       insert into idempotency_key (user_id, scope, key, request_hash, response, created_at)
       select k.user_id, k.scope, k.key, k.request_hash,
              json_build_object('orders', (select json_agg(to_json(p) order by p.id) from placed p where p.customer_id = k.user_id)),
              now()
         from keys_in k
       returning user_id
     ),
     counted as (
       insert into flash_sale_purchase as p (flash_sale_item_id, customer_id, quantity)
       select f.id, f.customer_id, f.quantity from flash_in f
        where f.quantity <= f.per_customer_limit and (select count(*) from answered) >= 0
        order by f.id, f.customer_id
       on conflict (flash_sale_item_id, customer_id) do update set quantity = p.quantity + excluded.quantity
        where p.quantity + excluded.quantity <= (
          select f.per_customer_limit from flash_in f where f.id = excluded.flash_sale_item_id and f.customer_id = excluded.customer_id)
       returning p.flash_sale_item_id, p.customer_id
     ),
     moved as (
       insert into stock_movement (sku_id, flash_sale_item_id, delta, kind, order_id, created_at)
       select null, i.flash_sale_item_id, -sum(i.quantity), 'sale', i.order_id, now()
         from new_items i where i.flash_sale_item_id is not null group by i.order_id, i.flash_sale_item_id
       union all
       select i.sku_id, null, -sum(i.quantity), 'sale', i.order_id, now() from new_items i group by i.order_id, i.sku_id
       returning id
     ),
     flash_lock as (
       select i.id, i.remaining_stock from flash_sale_item i
        where i.id = any(?::int[]) and (select count(*) from counted) >= 0 and (select count(*) from moved) >= 0
        order by i.id for no key update
     ),
     flash as (
       update flash_sale_item i set remaining_stock = i.remaining_stock - f.quantity
         from flash_demand f join flash_lock l on l.id = f.id
        where i.id = f.id and i.remaining_stock >= f.quantity
       returning i.id
     ),
     stock_lock as (
       select s.id, s.stock from sku s
        where s.id = any(?::int[]) and (select count(*) from flash) >= 0
        order by s.id for no key update
     ),
     stock as (
       update sku s set stock = s.stock - d.quantity
         from stock_in d join stock_lock l on l.id = d.sku_id
        where s.id = d.sku_id and s.stock >= d.quantity
       returning s.id, s.stock, s.product_id, d.quantity
     ),
     placed_events as (
       insert into event (type, shop_ids, customer_id, payload, occurred_at)
       select 'order.placed', array[o.shop_id], o.customer_id, jsonb_build_object('orderId', o.id, 'total', o.total, 'status', o.status), now()
         from new_orders o order by o.id
       returning id
     ),
     low_events as (
       insert into event (type, shop_ids, customer_id, payload, occurred_at)
       select 'stock.low', array[p.shop_id], null,
              jsonb_build_object('skuId', s.id, 'productId', s.product_id, 'stock', s.stock, 'threshold', ?::int), now()
         from stock s join product p on p.id = s.product_id
        where s.stock < ?::int and s.stock + s.quantity >= ?::int and (select count(*) from placed_events) >= 0
        order by s.id
       returning id
     ),
     verdict as (
       select case
         when exists (select 1 from shop_lock l where l.status <> 'active') then mf_refuse('SHOP_NOT_ACTIVE', (
           select json_build_object('shop_id', l.id, 'status', l.status) from shop_lock l where l.status <> 'active' order by l.id limit 1))
         when (select count(*) from cart) <> (select count(*) from cart_in) then mf_refuse('CART_CHANGED', (
           select json_build_object('customer_id', l.customer_id) from cart_in l
            where not exists (select 1 from cart c where c.customer_id = l.customer_id and c.sku_id = l.sku_id)
            order by l.customer_id limit 1))
         when (select count(*) from redeemed) <> (select count(*) from coupons_in) then mf_refuse('COUPON_ALREADY_USED', (
           select json_build_object('customer_id', k.customer_id, 'shop_id', k.shop_id, 'coupon_id', k.coupon_id) from coupons_in k
            where k.coupon_id not in (select id from redeemed) order by k.customer_id, k.coupon_id limit 1))
         when (select count(*) from counted) <> (select count(*) from flash_in) then mf_refuse('FLASH_SALE_LIMIT_CHANGED', (
           select json_build_object('customer_id', f.customer_id) from flash_in f
            where not exists (select 1 from counted c where c.flash_sale_item_id = f.id and c.customer_id = f.customer_id)
            order by f.customer_id limit 1))
         when (select count(*) from flash) <> (select count(*) from flash_demand) then mf_refuse('FLASH_SALE_STOCK_CHANGED', (
           select json_build_object('flash_sale_item_id', l.id, 'remaining', l.remaining_stock) from flash_lock l
            where l.id not in (select id from flash) order by l.id limit 1))
         when (select count(*) from stock) <> (select count(*) from stock_in) then mf_refuse('INSUFFICIENT_STOCK', (
           select json_build_object('sku_id', d.sku_id, 'requested', d.quantity, 'available', l.stock)
             from stock_in d join stock_lock l on l.id = d.sku_id
            where d.sku_id not in (select id from stock) order by d.sku_id limit 1))
         else 0 end as refused
     )
select p.*, (select json_object_agg(s.id, s.stock) from stock s) as remaining,
       (select count(*) from placed_events)::int + (select count(*) from low_events)::int as events
  from placed p cross join verdict v
 where v.refused = 0
 order by p.id`,
});

/**
 * The same statement while tracing is on (src/tracing.ts): each `order.placed` event also stores the
 * `traceparent` of the checkout that placed it, from one more parameter (a JSON list of customer ids
 * and trace parents, just before STOCK_LOW_THRESHOLD), so the relay and the webhook deliveries link
 * to that checkout's trace. A statement of its own, so that with tracing off the statement above
 * runs unchanged. `stock.low` events belong to every checkout of the batch: none is stored with them.
 */
export const placeTracedOrders = fixedStatement({
  name: 'place_orders_traced',
  row: PlacedRow,
  text: replaceOnce(placeOrders.text, PLACED_EVENTS, `     traces_in as (select * from json_to_recordset(?::json) as t(customer_id int, trace_parent text)),
     placed_events as (
       insert into event (type, shop_ids, customer_id, payload, occurred_at, trace_parent)
       select 'order.placed', array[o.shop_id], o.customer_id, jsonb_build_object('orderId', o.id, 'total', o.total, 'status', o.status), now(),
              t.trace_parent
         from new_orders o left join traces_in t on t.customer_id = o.customer_id order by o.id`),
});

function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error('place_orders_traced: the fragment to replace is not in place_orders once');
  return text.slice(0, at) + to + text.slice(at + from.length);
}
