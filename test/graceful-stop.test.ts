import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { addToCart, checkoutBody, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  // The test stops the app itself; dropping its database is what is left.
  await t.close().catch(() => undefined);
});

describe('stopping', () => {
  it('finishes a request in flight before it stops, and refuses new connections meanwhile', async () => {
    const { product } = await shopWithProduct(t, [{ price: 100, stock: 5 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);

    // Hold the SKU row so the checkout is still running when the stop begins.
    const blocker = new pg.Client({ connectionString: t.dbUrl });
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query('select * from sku where id = $1 for update', [product.skuIds[0]]);

    const checkout = t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    await new Promise((r) => setTimeout(r, 300));
    let stopped = false;
    const stopping = t.app.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 300));
    expect(stopped).toBe(false);
    await expect(fetch(`${t.baseUrl}/healthz`)).rejects.toThrow();

    await blocker.query('commit');
    await blocker.end();
    const res = await checkout;
    expect(res.status).toBe(201);
    await stopping;
    expect(stopped).toBe(true);
    const [order] = await t.sql('select count(*)::int as n from shop_order where customer_id = ?', [customer.id]);
    expect(order.n).toBe(1);
  });
});
