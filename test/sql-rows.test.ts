import pg from 'pg';
import type { z } from 'zod';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCouponTemplate, newCustomer, newOperator, newShop } from './support/fixtures.js';
import { ADDRESS, addToCart, checkoutOk, payOk, shipOk, shopWithProduct } from './support/shopping.js';
import { newFlashSale } from './support/flash-sales.js';
import { numberedPlaceholders } from '../src/db/prepared-statements.js';
import { intArray } from '../src/db/sql.js';
import { FIXED_STATEMENTS } from '../src/db/prepared-queries.js';
import { ItemPricing } from '../src/entities/order-item.entity.js';
import { placementValues } from '../src/services/checkout/place-orders-statement.js';
import { PlacedRow, placeOrders, placeTracedOrders } from '../src/services/checkout/place-orders.repository.js';
import { OrderRow, orderRowsById } from '../src/services/orders/order.repository.js';
import { MergedCartRow, mergeCartLines } from '../src/services/checkout/cart.repository.js';
import { storeEvents, storeTracedEvents } from '../src/shared/outbox.repository.js';
import { EventRow, feedForAdmin, feedForCustomer, feedForShop, pruneEvents, RELAY_SQL, retentionHorizon, SequencedRow } from '../src/services/events/outbox.repository.js';
import {
  claimDeliveries, disableEndpoint, lockDueEndpoints, logAttempt, reclaimLapsed, settleAttempts,
} from '../src/services/events/webhooks/webhooks.repository.js';
import { pruneSalesChanges } from '../src/services/catalog/sales-changes.repository.js';
import '../src/services/repositories.js';

/**
 * The hot statements kept as SQL text declare their rows with a zod schema (the row type is the
 * schema's). Each runs here on the migrated schema with real rows: the columns it returns are exactly
 * the schema's, each column's PostgreSQL type is one the schema's type reads as, a column taken
 * straight from a table is nullable exactly when the schema says so, and every row (the JSON inside
 * included) parses strictly.
 */
let t: TestApp;
let client: pg.Client;
beforeAll(async () => {
  t = await startTestApp();
  // Timestamps as text, as the server's pool returns them (its type parsers leave them to the ORM).
  const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => ([1114, 1184].includes(oid) ? (v: string) => v : pg.types.getTypeParser(oid, format)) };
  client = new pg.Client({ connectionString: t.dbUrl, types } as pg.ClientConfig);
  await client.connect();
});
afterAll(async () => {
  await client.end();
  await t.close();
});

/** PostgreSQL types (by OID) a zod type of a column reads. */
const TYPES: Record<string, number[]> = {
  number: [20, 21, 23], // int8, int2, int4
  string: [25, 1043, 1184, 1114], // text, varchar, timestamptz, timestamp (as text: the pool's parsers)
  enum: [25, 1043],
  boolean: [16],
  object: [114, 3802], // json, jsonb
  array: [114, 3802],
  record: [114, 3802],
};

/** PostgreSQL arrays (by OID) a zod array of a column type reads: int2[], int4[], int8[]; text[], varchar[]. */
const ARRAY_TYPES: Record<string, number[]> = { number: [1005, 1007, 1016], string: [1009, 1015] };

interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
  element?: { _zod: { def: ZodDef } };
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The schema's type of a column (an array's element type too), and whether it may be null. */
function columnType(schema: z.ZodType): { type: string; element?: string; nullable: boolean } {
  const def = defOf(schema);
  if (def.type === 'nullable') return { ...columnType(def.innerType as unknown as z.ZodType), nullable: true };
  if (def.type === 'array') return { type: def.type, element: columnType(def.element as unknown as z.ZodType).type, nullable: false };
  return { type: def.type, nullable: false };
}

const reads = (declared: { type: string; element?: string }, oid: number) =>
  TYPES[declared.type]?.includes(oid) || (declared.element !== undefined && ARRAY_TYPES[declared.element]?.includes(oid));

async function expectRowsMatch(text: string, values: unknown[], schema: z.ZodObject) {
  const result = await client.query({ text: numberedPlaceholders(text), values });
  expect(result.rows.length).toBeGreaterThan(0);
  const shape = schema.shape as Record<string, z.ZodType>;
  expect(result.fields.map((f) => f.name).sort()).toEqual(Object.keys(shape).sort());
  for (const field of result.fields) {
    const declared = columnType(shape[field.name]);
    expect({ column: field.name, type: reads(declared, field.dataTypeID) ? 'matches' : `oid ${field.dataTypeID} for ${declared.type}` }).toEqual({
      column: field.name,
      type: 'matches',
    });
    if (field.tableID !== 0) {
      const { rows } = await client.query<{ nullable: boolean }>('select not attnotnull as nullable from pg_attribute where attrelid = $1 and attnum = $2', [
        field.tableID,
        field.columnID,
      ]);
      expect({ column: field.name, nullable: declared.nullable }).toEqual({ column: field.name, nullable: rows[0].nullable });
    }
  }
  for (const row of result.rows) schema.strict().parse(row);
}

/** The statements this file runs, each against its schema. */
const CHECKED = [
  'merge_cart_lines', 'order_rows', 'place_orders', 'place_orders_traced',
  'store_events', 'store_events_traced', 'event_feed_admin', 'event_feed_customer', 'event_feed_shop', 'event_prune', 'event_retention_horizon',
  'webhook_lock_due_endpoints', 'webhook_claim', 'webhook_log_attempt', 'webhook_settle_attempts', 'webhook_reclaim_lapsed', 'webhook_disable',
  'sales_change_prune',
];

it('every fixed statement is checked here', () => {
  expect([...FIXED_STATEMENTS.keys()].sort()).toEqual([...CHECKED].sort());
});

it('the guest cart merge returns what its schema declares', async () => {
  const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
  const customer = await newCustomer(t);
  await client.query('begin');
  try {
    await expectRowsMatch(mergeCartLines.text, [intArray(product.skuIds), intArray([2]), customer.id, customer.id], MergedCartRow);
  } finally {
    await client.query('rollback');
  }
});

it("checkout's write statement and the order rows return what their schema declares", async () => {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 50 }, { price: 2000, stock: 50 }]);
  const [plain, flashed] = product.skuIds;
  const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: flashed, activityPrice: 500, reservedStock: 5, perCustomerLimit: 1 }] });
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const operator = await newOperator(t, shop.id);

  // Orders of every kind of row: a coupon, a flash-sale split line, paid and shipped with a parcel.
  const template = await newCouponTemplate(t, shop.id, { amountOff: 300 });
  const claimed = await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: customer.token });
  await addToCart(t, customer.token, plain, 2);
  const [withCoupon] = await checkoutOk(t, customer.token, {}, { coupons: { [shop.id]: claimed.body.id } });
  await payOk(t, customer.token, withCoupon.id);
  await shipOk(t, operator.token, withCoupon.id, [{ order_item_id: withCoupon.items[0].id, quantity: 1 }]);
  await addToCart(t, customer.token, flashed, 2);
  const [split] = await checkoutOk(t, customer.token);
  expect(split.items.map((i: { pricing: string }) => i.pricing)).toEqual([ItemPricing.FlashSale, ItemPricing.Standard]);
  await expectRowsMatch(orderRowsById.text, [intArray([withCoupon.id, split.id])], OrderRow);

  // The write statement itself, with a placement of a flash-sale split line (its rows, then rolled back).
  await client.query('begin');
  try {
    await addToCart(t, customer.token, plain, 1);
    const [line] = await t.sql<{ id: number }>('select id from cart_item where customer_id = ?', [customer.id]);
    expect(line).toBeDefined();
    const values = placementValues([
      {
        customerId: customer.id,
        shippingAddress: ADDRESS,
        cartLines: [{ skuId: plain, quantity: 1 }],
        flashSale: new Map(),
        freight: new Map([[shop.id, 0]]),
        drafts: [
          {
            shopId: shop.id,
            discount: 0,
            items: [{ skuId: plain, skuName: 'Variant 1', productId: product.id, productName: 'P', unitPrice: 1000, quantity: 1, pricing: ItemPricing.Standard }],
          },
        ],
      },
    ]);
    // Then the low-stock threshold, three times (its `stock.low` outbox rows), as writeOrders passes it.
    await expectRowsMatch(placeOrders.text, [...values, 10, 10, 10], PlacedRow);
  } finally {
    await client.query('rollback');
  }
  expect(sale.itemIds).toHaveLength(1);
});

it('the traced twins (tracing on) return what their schemas declare and store the trace context with the events', async () => {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 50 }]);
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
  await addToCart(t, customer.token, product.skuIds[0], 1);
  await client.query('begin');
  try {
    const stored = await client.query<{ id: string }>(numberedPlaceholders(storeTracedEvents.text), [
      JSON.stringify([{ type: 'stock.low', shop_ids: [shop.id], customer_id: null, payload: { skuId: 1, productId: 1, stock: 0, threshold: 5 }, occurred_at: new Date().toISOString(), trace_parent: traceparent }]),
    ]);
    expect(stored.rows).toHaveLength(1);
    await expectRowsMatch(storeTracedEvents.text, [JSON.stringify([{ type: 'stock.low', shop_ids: [shop.id], customer_id: null, payload: {}, occurred_at: new Date().toISOString(), trace_parent: null }])], storeTracedEvents.row as unknown as z.ZodObject);
    const values = placementValues([
      {
        customerId: customer.id,
        shippingAddress: ADDRESS,
        cartLines: [{ skuId: product.skuIds[0], quantity: 1 }],
        flashSale: new Map(),
        freight: new Map([[shop.id, 0]]),
        drafts: [
          {
            shopId: shop.id,
            discount: 0,
            items: [{ skuId: product.skuIds[0], skuName: 'Variant 1', productId: product.id, productName: 'P', unitPrice: 1000, quantity: 1, pricing: ItemPricing.Standard }],
          },
        ],
      },
    ]);
    // The trace contexts come just before the low-stock threshold, as writeOrders passes them.
    await expectRowsMatch(placeTracedOrders.text, [...values, JSON.stringify([{ customer_id: customer.id, trace_parent: traceparent }]), 10, 10, 10], PlacedRow);
    const { rows } = await client.query<{ type: string; trace_parent: string | null }>(
      `select type, trace_parent from event where id = $1 or (type = 'order.placed' and customer_id = $2) order by id`,
      [stored.rows[0].id, customer.id],
    );
    expect(rows).toEqual([
      { type: 'stock.low', trace_parent: traceparent },
      { type: 'order.placed', trace_parent: traceparent },
    ]);
  } finally {
    await client.query('rollback');
  }
});

it("the outbox's and the webhooks' statements return what their schemas declare", async () => {
  const shop = await newShop(t);
  const customer = await newCustomer(t);
  const row = (statement: { row: unknown }) => statement.row as z.ZodObject;
  await client.query('begin');
  try {
    // An endpoint for the events below, failing for two days already (so a failed attempt finds it overdue).
    const { rows: [endpoint] } = await client.query<{ id: number }>(
      `insert into webhook_endpoint (url, event_types, secret, previous_secret, previous_secret_until, failing_since, created_at)
       values ('http://127.0.0.1:9/rows', '{stock.low}', 'whsec_AAAA', 'whsec_BBBB', now() + interval '1 hour', now() - interval '2 days', now()) returning id`,
    );
    const event = (skuId: number, customerId: number | null) => ({
      type: 'stock.low', shop_ids: [shop.id], customer_id: customerId, payload: { skuId, productId: 1, stock: 0, threshold: 5 }, occurred_at: new Date().toISOString(),
    });
    await expectRowsMatch(storeEvents.text, [JSON.stringify([event(1, customer.id), event(2, null), event(3, null), event(4, null), event(5, null)])], row(storeEvents));
    // The relay numbers them and writes their deliveries, in one call of its stored function.
    const { rows: [round] } = await client.query<{ round: unknown }>(RELAY_SQL.round, [500, 'mallfront_rows_test']);
    expect(SequencedRow.parse(round.round)).toEqual({ sequenced: 5, last: expect.any(String), deliveries: 5 });

    await expectRowsMatch(feedForAdmin.text, ['0', '{stock.low}', 100], EventRow);
    await expectRowsMatch(feedForShop.text, ['0', '{stock.low}', shop.id, 100], EventRow);
    await expectRowsMatch(feedForCustomer.text, ['0', '{stock.low}', customer.id, 100], EventRow);
    await expectRowsMatch(retentionHorizon.text, [], row(retentionHorizon));

    await expectRowsMatch(lockDueEndpoints.text, [true], row(lockDueEndpoints));
    await expectRowsMatch(lockDueEndpoints.text, [false], row(lockDueEndpoints));
    await expectRowsMatch(claimDeliveries.text, [4, `{${endpoint.id}}`, false, 15_000], row(claimDeliveries));
    await expectRowsMatch(logAttempt.text, [endpoint.id, null, 200, 3, null, 'ok'], row(logAttempt));
    const { rows: claimed } = await client.query<{ id: string }>(`select id::text as id from webhook_delivery where endpoint_id = $1 and state = 'delivering' order by id`, [endpoint.id]);
    expect(claimed).toHaveLength(4);
    const failed = { n: 0, delivery_id: claimed[0].id, endpoint_id: endpoint.id, attempted_at: new Date().toISOString(), status: 503, latency_ms: 2, error: null, head: 'busy', ok: false, state: 'pending', wait_ms: 5000 };
    await expectRowsMatch(settleAttempts.text, [JSON.stringify([failed]), 86_400], row(settleAttempts));
    await client.query(`update webhook_delivery set lease_until = now() - interval '1 second' where endpoint_id = $1 and state = 'delivering'`, [endpoint.id]);
    await expectRowsMatch(reclaimLapsed.text, [], row(reclaimLapsed));
    await expectRowsMatch(disableEndpoint.text, ['failing', endpoint.id], row(disableEndpoint));
    // A retention in the past prunes every published event: this one's too.
    await expectRowsMatch(pruneEvents.text, [-1], row(pruneEvents));
  } finally {
    await client.query('rollback');
  }
});

it('the sales-change log retention returns what its schema declares', async () => {
  const { product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  await addToCart(t, customer.token, product.skuIds[0], 1);
  const [order] = await checkoutOk(t, customer.token);
  await payOk(t, customer.token, order.id);
  expect((await client.query('select 1 from sales_change where product_id = $1', [product.id])).rowCount).toBe(1);
  // A retention in the past prunes every change logged: this one's too.
  await expectRowsMatch(pruneSalesChanges.text, [-1], pruneSalesChanges.row as unknown as z.ZodObject);
});
