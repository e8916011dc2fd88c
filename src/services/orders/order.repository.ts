import { fixedStatement } from '../../db/prepared-queries.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { CANCEL_REASONS, OrderStatus } from '../../entities/order.entity.js';
import { z } from '../../shared/validate.js';

/**
 * Orders as their views read them, whole rows under their column names: what `orderRows` returns,
 * what checkout's write statement builds in SQL for the orders it inserts, and what a checkout's
 * Idempotency-Key keeps as its answer. Declared once here (test/sql-rows.test.ts holds both
 * statements' rows to it); timestamps are text (PostgreSQL's in a result, ISO inside stored JSON).
 */
const id = z.number().int();
const count = z.number().int();
const stamp = z.string();

/** An `order_item` row, as `json_agg` of the whole row gives it. */
export const OrderItemRow = z.strictObject({
  id,
  order_id: id,
  product_id: id,
  sku_id: id,
  product_name: z.string(),
  sku_name: z.string(),
  unit_price: count,
  quantity: count,
  amount: count,
  pricing: z.enum(ItemPricing),
  shipped_quantity: count,
  sold: z.boolean(),
  flash_sale_item_id: id.nullable(),
  refund_quantity: count,
  /** Whether the customer reviewed it (a placed order's new lines are not). */
  reviewed: z.boolean().optional(),
  commission_rate_bp: count.nullable(),
});
export type OrderItemRow = z.infer<typeof OrderItemRow>;

/** A `shipment` row, with what the parcel holds (empty: the whole order). */
export const ShipmentRow = z.strictObject({
  id,
  order_id: id,
  company_code: z.string(),
  carrier: z.string(),
  tracking_number: z.string(),
  created_at: stamp,
  items: z.array(z.strictObject({ order_item_id: id, quantity: count })),
});
export type ShipmentRow = z.infer<typeof ShipmentRow>;

/** A `shop_order` row (`o.*`) with its shop, items and shipments. */
export const OrderRow = z.strictObject({
  id,
  customer_id: id,
  shop_id: id,
  status: z.enum(OrderStatus),
  items_total: count,
  discount: count,
  total: count,
  created_at: stamp,
  paid_at: stamp.nullable(),
  shipped_at: stamp.nullable(),
  delivered_at: stamp.nullable(),
  completed_at: stamp.nullable(),
  cancelled_at: stamp.nullable(),
  cancel_reason: z.enum(CANCEL_REASONS).nullable(),
  coupon_id: id.nullable(),
  group_id: id.nullable(),
  group_price: count.nullable(),
  freight_fee: count,
  commission: count,
  earnings_released_at: stamp.nullable(),
  shipping_address: z.strictObject({ recipient: z.string(), phone: z.string(), region: z.string(), address: z.string() }),
  shop_slug: z.string(),
  shop_name: z.string(),
  item_rows: z.array(OrderItemRow),
  shipment_rows: z.array(ShipmentRow),
});
export type OrderRow = z.infer<typeof OrderRow>;

/** Full rows of several orders in one statement whatever their number, in no particular order. */
export const orderRowsById = fixedStatement({
  name: 'order_rows',
  row: OrderRow,
  text: `
select o.*, s.slug as shop_slug, s.name as shop_name,
       (select coalesce(json_agg(i order by i.id), '[]') from (
          select oi.*, exists (select 1 from review r where r.order_item_id = oi.id) as reviewed from order_item oi where oi.order_id = o.id) i
       ) as item_rows,
       (select coalesce(json_agg(parcel order by parcel.id), '[]') from (
          select sh.*, coalesce(json_agg(json_build_object('order_item_id', si.order_item_id, 'quantity', si.quantity) order by si.id)
                   filter (where si.id is not null), '[]') as items
            from shipment sh left join shipment_item si on si.shipment_id = sh.id
           where sh.order_id = o.id group by sh.id) parcel
       ) as shipment_rows
  from shop_order o join shop s on s.id = o.shop_id
 where o.id = any(?::int[])`,
});
