import pg from 'pg';
import type { z } from 'zod';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCouponTemplate, newCustomer, newOperator } from './support/fixtures.js';
import { ADDRESS, addToCart, checkoutOk, payOk, shipOk, shopWithProduct } from './support/shopping.js';
import { newFlashSale } from './support/flash-sales.js';
import { numberedPlaceholders } from '../src/db/prepared-statements.js';
import { intArray } from '../src/db/sql.js';
import { FIXED_STATEMENTS } from '../src/db/prepared-queries.js';
import { ItemPricing } from '../src/entities/order-item.entity.js';
import { placementValues } from '../src/services/checkout/place-orders-statement.js';
import { PlacedRow, placeOrders } from '../src/services/checkout/place-orders.repository.js';
import { OrderRow, orderRowsById } from '../src/services/orders/order.repository.js';
import { MergedCartRow, mergeCartLines } from '../src/services/checkout/cart.repository.js';
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

interface ZodDef {
  type: string;
  innerType?: { _zod: { def: ZodDef } };
}
const defOf = (schema: z.ZodType) => (schema as unknown as { _zod: { def: ZodDef } })._zod.def;

/** The schema's type of a column, and whether it may be null. */
function columnType(schema: z.ZodType): { type: string; nullable: boolean } {
  const def = defOf(schema);
  if (def.type === 'nullable') return { type: columnType(def.innerType as unknown as z.ZodType).type, nullable: true };
  return { type: def.type, nullable: false };
}

async function expectRowsMatch(text: string, values: unknown[], schema: z.ZodObject) {
  const result = await client.query({ text: numberedPlaceholders(text), values });
  expect(result.rows.length).toBeGreaterThan(0);
  const shape = schema.shape as Record<string, z.ZodType>;
  expect(result.fields.map((f) => f.name).sort()).toEqual(Object.keys(shape).sort());
  for (const field of result.fields) {
    const declared = columnType(shape[field.name]);
    expect({ column: field.name, type: TYPES[declared.type]?.includes(field.dataTypeID) ? 'matches' : `oid ${field.dataTypeID} for ${declared.type}` }).toEqual({
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

/**
 * The outbox's and the webhooks' statements (issue 29) run in test/outbox.test.ts and
 * test/webhooks*.test.ts, but their rows are not yet held to their schemas here: a debt named in
 * issue 29's note, listed so that no new statement joins it unnoticed.
 */
const ROWS_NOT_YET_CHECKED = [
  'event_feed_admin', 'event_feed_customer', 'event_feed_shop', 'event_prune', 'event_retention_horizon', 'store_events',
  'webhook_claim', 'webhook_delivery_content', 'webhook_disable', 'webhook_due_endpoints', 'webhook_endpoint_health',
  'webhook_lock_endpoint', 'webhook_log_attempt', 'webhook_reclaim_lapsed', 'webhook_settle',
];

it('every fixed statement is checked here', () => {
  const unchecked = [...FIXED_STATEMENTS.keys()].filter((name) => !ROWS_NOT_YET_CHECKED.includes(name));
  expect(unchecked.sort()).toEqual(['merge_cart_lines', 'order_rows', 'place_orders']);
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
