import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError, causeChain, refused } from '../../errors.js';
import type { ErrorCode } from '../../error-codes.js';
import { queryRows } from '../../db/prepared-statements.js';
import { intArray } from '../../db/sql.js';
import { orderViewsFromRows, type OrderRow } from '../orders/order-view.js';
import { StaleReadConflict } from '../../shared/transaction.js';
import type { Placed, Placement } from './order-writer.js';
import { orderTotals } from '../../shared/checkout-draft.js';

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
 *
 * The statement takes the checkouts of several distinct customers at once (the combined writer
 * shares it among concurrent checkouts), each with its own guards' refusals named in the error, and
 * writes each checkout's Idempotency-Key with its orders' rows as the answer to replay.
 * Returns one `Placed` per placement, in order.
 */
export async function writeOrders(em: EntityManager, placements: Placement[]): Promise<Placed[]> {
  const orders = placements.flatMap(({ customerId, drafts, freight, shippingAddress }) =>
    drafts.map((draft) => {
      const totals = orderTotals(draft, freight.get(draft.shopId)!);
      return {
        customer_id: customerId,
        shop_id: draft.shopId,
        items_total: totals.itemsTotal,
        discount: totals.discount,
        coupon_id: draft.couponId ?? null,
        freight_fee: totals.freightFee,
        total: totals.total,
        shipping_address: shippingAddress,
        group_id: draft.group?.id ?? null,
        group_price: draft.group?.price ?? null,
      };
    }),
  ).map((order, n) => ({ ...order, n }));
  const items = placements.flatMap(({ customerId, drafts }) =>
    drafts.flatMap((draft) =>
      draft.items.map((item) => ({
        customer_id: customerId,
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
    ),
  ).map((item, n) => ({ ...item, n }));
  const cart = placements.flatMap(({ customerId, cartLines }) => cartLines.map((l) => ({ customer_id: customerId, sku_id: l.skuId, quantity: l.quantity })));
  const flash = placements.flatMap(({ customerId, flashSale }) =>
    [...flashSale].map(([id, take]) => ({ id, customer_id: customerId, quantity: take.quantity, per_customer_limit: take.limit })),
  );
  const keys = placements.flatMap(({ idempotency }) =>
    idempotency ? [{ user_id: idempotency.userId, scope: idempotency.scope, key: idempotency.key, request_hash: idempotency.requestHash }] : [],
  );
  const demand = new Map<number, number>();
  for (const item of items) demand.set(item.sku_id, (demand.get(item.sku_id) ?? 0) + item.quantity);

  try {
    const rows = await queryRows<PlacedRow>(em, PLACE_ORDERS, [
      JSON.stringify(cart),
      JSON.stringify(flash),
      JSON.stringify([...demand].map(([sku_id, quantity]) => ({ sku_id, quantity }))),
      JSON.stringify(orders),
      JSON.stringify(items),
      JSON.stringify(keys),
      intArray([...new Set(cart.map((l) => l.customer_id))]),
      intArray([...new Set(flash.map((f) => f.id))]),
      intArray([...demand.keys()]),
    ]);
    const remaining = new Map<number, number>(Object.entries(rows[0]?.remaining ?? {}).map(([id, stock]) => [Number(id), stock]));
    const views = orderViewsFromRows(rows);
    return placements.map(({ customerId }) => ({ views: views.filter((v) => v.customerId === customerId), remaining }));
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}

/** A new order's row (as `orderViews` reads one), with the stock left per SKU id (on every row, the same). */
type PlacedRow = OrderRow & { remaining: Record<string, number> | null };

/** The write statement (exported for the plan test). */
export const PLACE_ORDERS = `
with cart_in as (select * from json_to_recordset(?::json) as l(customer_id int, sku_id int, quantity int)),
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
     cart as (
       delete from cart_item c using cart_in l
        where c.customer_id = any(?::int[]) and c.customer_id = l.customer_id and c.sku_id = l.sku_id and c.quantity = l.quantity
       returning c.customer_id, c.sku_id
     ),
     new_orders as (
       insert into shop_order (customer_id, shop_id, items_total, discount, coupon_id, freight_fee, total, shipping_address,
                               group_id, group_price, created_at)
       select o.customer_id, o.shop_id, o.items_total, o.discount, o.coupon_id, o.freight_fee, o.total, o.shipping_address,
              o.group_id, o.group_price, now()
         from orders_in o where (select count(*) from cart) >= 0 order by o.n
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
              jsonb_build_object('orders', (select jsonb_agg(to_jsonb(p) order by p.id) from placed p where p.customer_id = k.user_id)),
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
     flash_lock as (
       select i.id, i.remaining_stock from flash_sale_item i
        where i.id = any(?::int[]) and (select count(*) from counted) >= 0
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
       returning s.id, s.stock
     ),
     verdict as (
       select case
         when (select count(*) from cart) <> (select count(*) from cart_in) then mf_refuse('CART_CHANGED', (
           select json_build_object('customer_id', l.customer_id) from cart_in l
            where not exists (select 1 from cart c where c.customer_id = l.customer_id and c.sku_id = l.sku_id)
            order by l.customer_id limit 1))
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
select p.*, (select json_object_agg(s.id, s.stock) from stock s) as remaining
  from placed p cross join verdict v
 where v.refused = 0
 order by p.id`;

/**
 * What `mf_refuse` raised, as the error the checkout reports (or reruns on); undefined for anything
 * else. The ORM's wrapper may prefix the message with the query, hence the suffix match. What the
 * statement found short is kept beside the error (`shortfalls`) for settling a combined write.
 */
function refusalOf(error: unknown): Error | undefined {
  for (const link of causeChain(error)) {
    if (link.code !== 'MF001') continue;
    const message = String(link.message);
    const details = (JSON.parse(typeof link.detail === 'string' ? link.detail : '{}') ?? {}) as Shortfall;
    const rerun = RERUN_CODES.find((code) => message.endsWith(code));
    const refusal = message.endsWith('INSUFFICIENT_STOCK')
      ? refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${details.sku_id}`, { ...details })
      : rerun && new StaleReadConflict(rerun, RERUNS[rerun]);
    if (refusal) shortfalls.set(refusal, details);
    return refusal || undefined;
  }
  return undefined;
}

/** What the statement's `mf_refuse` names as short (see the verdict in PLACE_ORDERS). */
interface Shortfall {
  customer_id?: number;
  flash_sale_item_id?: number;
  remaining?: number;
  sku_id?: number;
  requested?: number;
  available?: number;
}

/** The refusals that rerun the checkout, with what its customer is told if the last attempt fails too. */
const RERUN_CODES = ['CART_CHANGED', 'FLASH_SALE_LIMIT_CHANGED', 'FLASH_SALE_STOCK_CHANGED'] as const satisfies readonly ErrorCode[];
const RERUNS: Record<(typeof RERUN_CODES)[number], string> = {
  CART_CHANGED: 'Your cart changed while checking out; try again',
  FLASH_SALE_LIMIT_CHANGED: 'Your flash-sale purchases changed while checking out; try again',
  FLASH_SALE_STOCK_CHANGED: 'The flash-sale stock changed while checking out; try again',
};

const shortfalls = new WeakMap<Error, Shortfall>();

/**
 * A combined write failed: which of its placements fail for the same reason, and with what error (an
 * entry per placement, undefined for those to write again together). The refusal names what fell
 * short: one customer's cart or flash-sale counter (that customer's placement fails), or an activity
 * item's or SKU's stock and how much it had left (the placements that fit in it, in arrival order,
 * are written again; the others get what their own statement would have answered). Undefined when
 * the failure is not a refusal.
 */
export function settleRefusal(error: unknown, placements: Placement[]): (Error | undefined)[] | undefined {
  const details = error instanceof Error ? shortfalls.get(error) : undefined;
  if (!details || !(error instanceof AppError)) return undefined;
  switch (error.code) {
    case 'CART_CHANGED':
    case 'FLASH_SALE_LIMIT_CHANGED':
      return placements.map((p) => (p.customerId === details.customer_id ? error : undefined));
    case 'FLASH_SALE_STOCK_CHANGED': {
      let left = details.remaining ?? 0;
      const itemId = details.flash_sale_item_id;
      return placements.map((p) => {
        const take = itemId === undefined ? 0 : (p.flashSale.get(itemId)?.quantity ?? 0);
        if (take > left) return error;
        left -= take;
        return undefined;
      });
    }
    case 'INSUFFICIENT_STOCK': {
      const skuId = details.sku_id;
      let left = details.available ?? 0;
      return placements.map((p) => {
        const requested = p.drafts.flatMap((d) => d.items).filter((i) => i.skuId === skuId).reduce((n, i) => n + i.quantity, 0);
        if (requested > left) return refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${skuId}`, { sku_id: skuId, requested, available: left });
        left -= requested;
        return undefined;
      });
    }
    default:
      return undefined;
  }
}
