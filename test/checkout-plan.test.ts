import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { shopWithProduct } from './support/shopping.js';
import { newCustomer } from './support/fixtures.js';
import { numberedPlaceholders } from '../src/db/prepared-statements.js';
import { placeOrders } from '../src/services/checkout/place-orders.repository.js';

/**
 * The checkout write runs as a prepared statement with a generic plan (the server's sessions force
 * generic plans). Such a plan cannot know how many rows the JSON inputs hold; it once locked the SKUs
 * through a sequential scan of the whole table (2 ms per checkout with 30,000 SKUs). With a catalog of
 * that size, every table the statement locks or updates must be reached through an index.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const { shop, product } = await shopWithProduct(t, [{ price: 100, stock: 10 }]);
  await t.sql(`insert into sku (product_id, name, price, stock) select ?, 'Bulk ' || g, 100, 10 from generate_series(1, 30000) g`, [product.id]);
  // Enough coupons that reading them all would show: the statement reaches the checkout's by id.
  const customer = await newCustomer(t);
  await t.sql(
    `insert into coupon (customer_id, shop_id, name, discount_kind, amount_off, min_order_amount, valid_from, valid_until, claimed_at)
     select ?, ?, 'Bulk ' || g, 'fixed', 100, 0, now(), now() + interval '1 day', now() from generate_series(1, 30000) g`,
    [customer.id, shop.id],
  );
  await t.sql('analyze sku');
  await t.sql('analyze coupon');
});
afterAll(() => t.close());

it('reaches SKUs, activity items and cart lines by index in the generic plan', async () => {
  const client = new pg.Client({ connectionString: t.dbUrl });
  await client.connect();
  try {
    await client.query('set plan_cache_mode = force_generic_plan');
    await client.query(`prepare place_orders as ${numberedPlaceholders(placeOrders.text)}`);
    // The last three: the low-stock threshold its `stock.low` events (outbox rows) compare with.
    // Before them: the JSON arrays, then the shops', customers', coupons', activity items' and SKUs' ids.
    const args = ['[]', '[]', '[]', '[]', '[]', '[]', '[]', '{1}', '{1}', '{}', '{1}', '{1}', 10, 10, 10];
    const { rows } = await client.query(`explain execute place_orders(${args.map((a) => (typeof a === 'number' ? a : `'${a}'`)).join(', ')})`);
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Update on sku/);
    expect(plan).not.toMatch(/Seq Scan on (sku|cart_item|shop_order|order_item|coupon|flash_sale_item)\b/);
  } finally {
    await client.end();
  }
});
