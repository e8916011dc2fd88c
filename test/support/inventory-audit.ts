import type { TestApp } from './harness.js';

/**
 * Every stock counter equals the sum of its movements: a SKU's stock, an activity item's stock left.
 * The fixtures record a counter's first stock as an adjustment, as the shop's own upsert does, so the
 * sum starts at the starting stock; every later change (checkout, cancellation, group expiry, refund,
 * a shop's edit) must have written its movement for this to hold. Returns how many counters it read.
 */
export async function expectStockAudited(t: TestApp): Promise<number> {
  const counters = await t.sql<{ counter: string; id: number; held: number; moved: number }>(`
    select 'sku' as counter, s.id, s.stock as held, coalesce(sum(m.delta), 0)::int as moved
      from sku s left join stock_movement m on m.sku_id = s.id group by s.id
    union all
    select 'flash_sale_item', i.id, i.remaining_stock, coalesce(sum(m.delta), 0)::int
      from flash_sale_item i left join stock_movement m on m.flash_sale_item_id = i.id group by i.id`);
  const off = counters.filter((c) => c.held !== c.moved);
  if (off.length > 0) {
    throw new Error(`stock that its movements do not explain:\n${off.map((c) => `  ${c.counter} ${c.id}: holds ${c.held}, movements add up to ${c.moved}`).join('\n')}`);
  }
  return counters.length;
}

/** For `afterAll`: the suite's stock is audited, then the app closes (whatever the audit found). */
export async function auditStockAndClose(t: TestApp): Promise<void> {
  try {
    await expectStockAudited(t);
  } finally {
    await t.close();
  }
}
