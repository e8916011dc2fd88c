import type { TestApp } from './harness.js';

/** A moment `n` minutes from now (negative: in the past). */
export const minutesFromNow = (n: number) => new Date(Date.now() + n * 60_000);

export interface FlashItemSpec {
  skuId: number;
  activityPrice: number;
  reservedStock: number;
  perCustomerLimit?: number;
}

/**
 * A flash-sale session written straight to the database (setup is not what is under test), active
 * now and enabled unless told otherwise. Returns the session id and its item ids in the given order.
 */
export async function newFlashSale(
  t: TestApp,
  spec: { shopId: number; items: FlashItemSpec[]; startsAt?: Date; endsAt?: Date; enabled?: boolean; name?: string },
): Promise<{ id: number; itemIds: number[] }> {
  const startsAt = spec.startsAt ?? minutesFromNow(-10);
  const endsAt = spec.endsAt ?? minutesFromNow(60);
  const enabled = spec.enabled ?? true;
  const [session] = await t.sql<{ id: number }>(
    `insert into flash_sale (shop_id, name, starts_at, ends_at, enabled, created_at, updated_at) values (?, ?, ?, ?, ?, now(), now()) returning id`,
    [spec.shopId, spec.name ?? 'Test flash sale', startsAt, endsAt, enabled],
  );
  const itemIds: number[] = [];
  for (const item of spec.items) {
    const [row] = await t.sql<{ id: number }>(
      `insert into flash_sale_item (flash_sale_id, sku_id, activity_price, reserved_stock, remaining_stock, per_customer_limit, enabled, sale_window)
       values (?, ?, ?, ?, ?, ?, ?, tstzrange(?, ?, '[)')) returning id`,
      [session.id, item.skuId, item.activityPrice, item.reservedStock, item.reservedStock, item.perCustomerLimit ?? 1000, enabled, startsAt, endsAt],
    );
    if (item.reservedStock !== 0) {
      await t.sql(`insert into stock_movement (flash_sale_item_id, delta, kind, created_at) values (?, ?, 'adjustment', now())`, [row.id, item.reservedStock]);
    }
    itemIds.push(row.id);
  }
  return { id: session.id, itemIds };
}

export async function activityStockOf(t: TestApp, itemId: number): Promise<number> {
  return (await t.sql('select remaining_stock from flash_sale_item where id = ?', [itemId]))[0].remaining_stock;
}

/** Activity-priced units an order item still holds: its quantity less units refunded before shipment. */
const HELD_UNITS = `oi.quantity - coalesce((select sum(ri.quantity) from refund_item ri join refund r on r.id = ri.refund_id
                     where ri.order_item_id = oi.id and r.kind = 'refund' and r.status = 'completed'), 0)`;

/**
 * The bookkeeping of every activity item adds up: taken activity stock (reserved - remaining) equals
 * the activity-priced units held by orders that are not cancelled (less units refunded before
 * shipment), and each customer's counter equals their own such units. Returns the number of items checked.
 */
export async function expectFlashSaleBooksBalance(t: TestApp): Promise<number> {
  const items = await t.sql(`
    select i.id, i.reserved_stock - i.remaining_stock as taken,
           coalesce((select sum(${HELD_UNITS}) from order_item oi join shop_order o on o.id = oi.order_id
                      where oi.flash_sale_item_id = i.id and o.status <> 'cancelled'), 0)::int as ordered
      from flash_sale_item i`);
  for (const i of items) if (i.taken !== i.ordered) throw new Error(`item ${i.id}: ${i.taken} taken but ${i.ordered} ordered`);
  const counters = await t.sql(`
    select p.flash_sale_item_id, p.customer_id, p.quantity,
           coalesce((select sum(${HELD_UNITS}) from order_item oi join shop_order o on o.id = oi.order_id
                      where oi.flash_sale_item_id = p.flash_sale_item_id and o.customer_id = p.customer_id and o.status <> 'cancelled'), 0)::int as ordered
      from flash_sale_purchase p`);
  for (const c of counters) {
    if (c.quantity !== c.ordered) throw new Error(`customer ${c.customer_id} item ${c.flash_sale_item_id}: counter ${c.quantity}, ordered ${c.ordered}`);
  }
  return items.length;
}
