import type { TestApp, ApiResponse } from './harness.js';
import { newCustomer, type TestUser } from './fixtures.js';
import { checkoutBody, expectLedgerReplays } from './shopping.js';
import { expectStockAudited } from './inventory-audit.js';

/**
 * Shoppers that keep buying while the database is being broken, the way a careful client does:
 * every checkout and payment carries an Idempotency-Key, and an answer of 5xx (or no answer) is
 * retried with the same key until the server gives a real answer. What they were told is kept, so
 * the test can hold it against what the database committed.
 */
export interface ShoppingRecord {
  customers: TestUser[];
  /** Every order a checkout answered (first answer or replay). */
  ordered: Set<number>;
  /** Every order a payment answered as paid. */
  paid: Set<number>;
  /** Answers of 5xx or no answer, each retried with its key afterwards. */
  failures: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Repeats a request with the same key until it is answered by the service (anything but 5xx or no answer). */
async function untilAnswered(send: () => Promise<ApiResponse>, record: ShoppingRecord, deadline: number): Promise<ApiResponse> {
  for (;;) {
    const res = await send().catch(() => undefined);
    if (res && res.status < 500) return res;
    record.failures++;
    if (Date.now() > deadline) throw new Error(`still no answer after the faults ended (last: ${res?.status} ${JSON.stringify(res?.body)})`);
    await sleep(50);
  }
}

/**
 * `clients` customers buy `skuId` one unit at a time, checking out and paying, until `shopUntil`;
 * retries of requests that met a fault may go on until `answerBy`.
 */
export async function shopThroughFaults(
  t: TestApp,
  options: { skuId: number; clients: number; shopForMs: number; answerWithinMs: number; onShopping?: () => void },
): Promise<ShoppingRecord> {
  const customers = await Promise.all(Array.from({ length: options.clients }, () => newCustomer(t, { available: 1_000_000, points: 0 })));
  // The fixtures are made without retries: faults start only once the shoppers exist.
  options.onShopping?.();
  const record: ShoppingRecord = { customers, ordered: new Set(), paid: new Set(), failures: 0 };
  const shopUntil = Date.now() + options.shopForMs;
  const answerBy = shopUntil + options.answerWithinMs;

  await Promise.all(
    customers.map(async (customer, client) => {
      for (let n = 0; Date.now() < shopUntil; n++) {
        const cart = await untilAnswered(() => t.api('PUT', `/api/cart/items/${options.skuId}`, { token: customer.token, body: { quantity: 1 } }), record, answerBy);
        if (cart.status !== 200) throw new Error(`cart: ${cart.status} ${JSON.stringify(cart.body)}`);
        const headers = { 'idempotency-key': `checkout-${client}-${n}` };
        const placed = await untilAnswered(() => t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody(), headers }), record, answerBy);
        if (placed.status !== 201) throw new Error(`checkout: ${placed.status} ${JSON.stringify(placed.body)}`);
        for (const order of placed.body.orders as { id: number }[]) {
          record.ordered.add(order.id);
          const pay = { 'idempotency-key': `pay-${order.id}` };
          const paid = await untilAnswered(() => t.api('POST', `/api/orders/${order.id}/pay`, { token: customer.token, headers: pay }), record, answerBy);
          if (paid.status !== 200 || paid.body.status !== 'paid') throw new Error(`pay: ${paid.status} ${JSON.stringify(paid.body)}`);
          record.paid.add(order.id);
        }
      }
    }),
  );
  return record;
}

/**
 * What the database holds agrees with what the shoppers were told, and with itself: every order
 * committed was answered to its client (first time or by replaying its key), none twice; every
 * order has its items; each paid order has exactly one payment in the ledger and every balance
 * replays from its ledger; the stock taken equals the units ordered.
 */
export async function expectNothingLost(t: TestApp, record: ShoppingRecord, stock: { skuId: number; initial: number }) {
  const ids = record.customers.map((c) => c.id);
  const orders = await t.sql<{ id: number; status: string; items: number; payments: number; sold_items: number }>(
    `select o.id, o.status,
            (select count(*)::int from order_item i where i.order_id = o.id) as items,
            (select count(*)::int from order_item i where i.order_id = o.id and i.sold) as sold_items,
            (select count(*)::int from ledger_entry l join balance b on b.id = l.balance_id where b.user_id is not null and l.reference_type = 'order' and l.reference_id = o.id and l.reason = 'order_payment') as payments
       from shop_order o where o.customer_id = any(?::int[]) order by o.id`,
    [`{${ids.join(',')}}`],
  );
  expect(orders.map((o) => o.id)).toEqual([...record.ordered].sort((a, b) => a - b));
  for (const order of orders) {
    expect(order.items).toBeGreaterThan(0);
    const paid = order.status === 'paid';
    expect({ id: order.id, paid, payments: order.payments, soldItems: order.sold_items }).toEqual({
      id: order.id,
      paid: record.paid.has(order.id),
      payments: paid ? 1 : 0,
      soldItems: paid ? order.items : 0,
    });
  }
  const [units] = await t.sql<{ ordered: number; stock: number }>(
    `select (select coalesce(sum(i.quantity), 0)::int from order_item i join shop_order o on o.id = i.order_id
              where i.sku_id = ? and o.status <> 'cancelled') as ordered,
            (select stock from sku where id = ?) as stock`,
    [stock.skuId, stock.skuId],
  );
  expect(stock.initial - units.stock).toBe(units.ordered);
  await expectLedgerReplays(t);
  await expectStockAudited(t);
}

/** Connections the app's pool has handed out and not had back, once in-flight work has settled. */
export async function poolSettles(t: TestApp, pool: { totalCount: number; idleCount: number; waitingCount: number }) {
  for (let i = 0; i < 50 && pool.totalCount - pool.idleCount > 0; i++) await sleep(100);
  return { checkedOut: pool.totalCount - pool.idleCount, waiting: pool.waitingCount, total: pool.totalCount };
}
