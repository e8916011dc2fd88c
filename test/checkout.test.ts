import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newProduct, newShop } from './support/fixtures.js';
import { addToCart, checkoutBody, checkoutOk, shopWithProduct, stockOf } from './support/shopping.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { waitFor } from './support/subscriptions.js';
import { auditStockAndClose, expectStockAudited } from './support/inventory-audit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

describe('cart', () => {
  it('is for signed-in customers only: anonymous 401', async () => {
    expect((await t.api('GET', '/api/cart')).status).toBe(401);
    expect((await t.api('PUT', '/api/cart/items/1', { body: { quantity: 1 } })).status).toBe(401);
  });

  it('sets, replaces and removes lines, with shop and current stock', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1500, stock: 3 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 2);
    const cart = await addToCart(t, customer.token, product.skuIds[0], 5);
    expect(cart.lines).toEqual([
      expect.objectContaining({ sku_id: product.skuIds[0], quantity: 5, unit_price: 1500, line_total: 7500, stock: 3, shop: expect.objectContaining({ id: shop.id }) }),
    ]);
    const removed = await t.api('PUT', `/api/cart/items/${product.skuIds[0]}`, { token: customer.token, body: { quantity: 0 } });
    expect(removed.body.lines).toEqual([]);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    expect((await t.api('DELETE', `/api/cart/items/${product.skuIds[0]}`, { token: customer.token })).body.lines).toEqual([]);
  });

  it('refuses unpublished products, unknown SKUs and bad quantities', async () => {
    const shop = await newShop(t);
    const category = await newCategory(t);
    const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'draft' });
    const customer = await newCustomer(t);
    const res = await t.api('PUT', `/api/cart/items/${draft.skuIds[0]}`, { token: customer.token, body: { quantity: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('PRODUCT_UNAVAILABLE');
    expect((await t.api('PUT', '/api/cart/items/99999999', { token: customer.token, body: { quantity: 1 } })).status).toBe(404);
    for (const quantity of [-1, 1.5, 'two', 1000]) {
      const bad = await t.api('PUT', `/api/cart/items/${draft.skuIds[0]}`, { token: customer.token, body: { quantity } });
      expect(bad.status).toBe(400);
    }
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.lines).toEqual([]);
  });
});

describe('checkout', () => {
  it('creates one order per shop with price snapshots, totals and stock taken; the cart empties', async () => {
    const a = await shopWithProduct(t, [{ price: 1200, stock: 10 }, { price: 800, stock: 10 }]);
    const b = await shopWithProduct(t, [{ price: 5000, stock: 4 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, a.product.skuIds[0], 2);
    await addToCart(t, customer.token, a.product.skuIds[1], 1);
    await addToCart(t, customer.token, b.product.skuIds[0], 3);

    const orders = await checkoutOk(t, customer.token);
    expect(orders).toHaveLength(2);
    const byShop = Object.fromEntries(orders.map((o: any) => [o.shop.id, o]));
    expect(byShop[a.shop.id]).toMatchObject({ status: 'pending_payment', items_total: 3200, discount: 0, total: 3200, currency: 'CNY' });
    expect(byShop[a.shop.id].items.map((i: any) => [i.sku_id, i.unit_price, i.quantity, i.amount])).toEqual([
      [a.product.skuIds[0], 1200, 2, 2400],
      [a.product.skuIds[1], 800, 1, 800],
    ]);
    expect(byShop[b.shop.id]).toMatchObject({ total: 15000 });
    expect(await stockOf(t, a.product.skuIds[0])).toBe(8);
    expect(await stockOf(t, b.product.skuIds[0])).toBe(1);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.lines).toEqual([]);

    // The snapshot does not follow later price changes.
    await t.sql('update sku set price = 9999 where id = ?', [a.product.skuIds[0]]);
    const again = await t.api('GET', `/api/orders/${byShop[a.shop.id].id}`, { token: customer.token });
    expect(again.body.items[0].unit_price).toBe(1200);
  });

  it('with one short line creates nothing, changes no stock, keeps the cart, and names the SKU', async () => {
    const a = await shopWithProduct(t, [{ price: 1000, stock: 5 }]);
    const b = await shopWithProduct(t, [{ price: 1000, stock: 2 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, a.product.skuIds[0], 5);
    await addToCart(t, customer.token, b.product.skuIds[0], 3);
    const before = await t.sql('select count(*)::int as n from shop_order');

    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { sku_id: b.product.skuIds[0], requested: 3, available: 2 } });
    expect(await t.sql('select count(*)::int as n from shop_order')).toEqual(before);
    expect(await stockOf(t, a.product.skuIds[0])).toBe(5);
    expect(await stockOf(t, b.product.skuIds[0])).toBe(2);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.lines).toHaveLength(2);
  });

  it('refuses an empty cart and a product unpublished after it was added', async () => {
    const customer = await newCustomer(t);
    const empty = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    expect(empty.status).toBe(422);
    expect(empty.body.error.code).toBe('CART_EMPTY');
    const { product } = await shopWithProduct(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    await t.sql(`update product set status = 'unpublished' where id = ?`, [product.id]);
    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    expect(res.body.error).toMatchObject({ code: 'PRODUCT_UNAVAILABLE', details: { sku_id: product.skuIds[0] } });
  });

  it('refuses unknown fields in the body with 400', async () => {
    const customer = await newCustomer(t);
    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody({ total: 1 }) });
    expect(res.status).toBe(400);
  });

  it('sells exactly the stock when 50 customers race for a SKU of stock 10', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const sku = product.skuIds[0];
    const customers = await Promise.all(Array.from({ length: 50 }, () => newCustomer(t)));
    for (const c of customers) await addToCart(t, c.token, sku, 1);

    const results = await Promise.all(customers.map((c) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody() })));
    const won = results.filter((r) => r.status === 201);
    const lost = results.filter((r) => r.status !== 201);
    expect(won).toHaveLength(10);
    for (const r of lost) expect(r.body.error.code).toBe('INSUFFICIENT_STOCK');
    expect(await stockOf(t, sku)).toBe(0);
    const [sold] = await t.sql('select coalesce(sum(quantity), 0)::int as n from order_item where sku_id = ?', [sku]);
    expect(sold.n).toBe(10);
    const [negative] = await t.sql('select count(*)::int as n from sku where stock < 0');
    expect(negative.n).toBe(0);
    // Each winner's units are one sale movement naming its order; the refused took nothing.
    const moves = await t.sql(`select m.delta, m.kind from stock_movement m join shop_order o on o.id = m.order_id where m.sku_id = ?`, [sku]);
    expect(moves).toEqual(Array.from({ length: 10 }, () => ({ delta: -1, kind: 'sale' })));
    await expectStockAudited(t);
  });

  it('checks out two multi-shop carts over the same SKUs in parallel without deadlock', async () => {
    const a = await shopWithProduct(t, [{ price: 100, stock: 100 }]);
    const b = await shopWithProduct(t, [{ price: 100, stock: 100 }]);
    const customers = await Promise.all(Array.from({ length: 20 }, () => newCustomer(t)));
    for (const [i, c] of customers.entries()) {
      // Half add A first, half B first: the locking order must not depend on it.
      const skus = i % 2 ? [a.product.skuIds[0], b.product.skuIds[0]] : [b.product.skuIds[0], a.product.skuIds[0]];
      for (const s of skus) await addToCart(t, c.token, s, 2);
    }
    const results = await Promise.all(customers.map((c) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody() })));
    expect(results.map((r) => r.status)).toEqual(customers.map(() => 201));
    expect(await stockOf(t, a.product.skuIds[0])).toBe(60);
    expect(await stockOf(t, b.product.skuIds[0])).toBe(60);
  });

  it('publishes order.placed after commit, and nothing when checkout is refused', async () => {
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    try {
      const { shop, product } = await shopWithProduct(t, [{ price: 700, stock: 1 }]);
      const customer = await newCustomer(t);
      await addToCart(t, customer.token, product.skuIds[0], 2);
      await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
      // (Only this customer's: an earlier test's events may still be arriving.)
      expect(seen.filter((e) => e.type === 'order.placed' && e.customerId === customer.id)).toHaveLength(0);
      await addToCart(t, customer.token, product.skuIds[0], 1);
      const [order] = await checkoutOk(t, customer.token);
      // Events arrive through PostgreSQL NOTIFY, in commit order: once this one is here, one from the
      // refused checkout would have arrived before it.
      await waitFor(() => seen.some((e) => e.type === 'order.placed' && e.customerId === customer.id));
      expect(seen.filter((e) => e.type === 'order.placed' && e.customerId === customer.id)).toEqual([
        expect.objectContaining({ shopIds: [shop.id], payload: expect.objectContaining({ orderId: order.id }) }),
      ]);
    } finally {
      stop();
    }
  });
});

describe('idempotent checkout', () => {
  it('replays the first answer for the same key instead of ordering again', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const first = await checkoutOk(t, customer.token, { 'idempotency-key': 'checkout-1' });
    // Even with a new cart line, the same key answers the first checkout again.
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const second = await checkoutOk(t, customer.token, { 'idempotency-key': 'checkout-1' });
    expect(second.map((o: any) => o.id)).toEqual(first.map((o: any) => o.id));
    expect(second).toEqual(first);
    expect(await stockOf(t, product.skuIds[0])).toBe(9);
    const [orders] = await t.sql('select count(*)::int as n from shop_order where customer_id = ?', [customer.id]);
    expect(orders.n).toBe(1);
  });

  it('acts once when the same key arrives many times at once: every request answers the one order', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody(), headers: { 'idempotency-key': 'burst' } })),
    );
    const [orders] = await t.sql('select count(*)::int as n, min(id) as id from shop_order where customer_id = ?', [customer.id]);
    expect(orders.n).toBe(1);
    for (const r of results) {
      expect(r.status).toBe(201);
      expect(r.body.orders.map((o: any) => o.id)).toEqual([orders.id]);
    }
    expect(await stockOf(t, product.skuIds[0])).toBe(9);
  });

  it('leaves the key free after a refusal (nothing committed), and keys are per customer', async () => {
    const a = await newCustomer(t);
    const b = await newCustomer(t);
    const refusedOnce = await t.api('POST', '/api/checkout', { token: a.token, body: checkoutBody(), headers: { 'idempotency-key': 'shared' } });
    expect(refusedOnce.body.error.code).toBe('CART_EMPTY');
    const [keys] = await t.sql('select count(*)::int as n from idempotency_key where user_id = ?', [a.id]);
    expect(keys.n).toBe(0);
    const { product } = await shopWithProduct(t);
    await addToCart(t, a.token, product.skuIds[0], 1);
    const ordered = await t.api('POST', '/api/checkout', { token: a.token, body: checkoutBody(), headers: { 'idempotency-key': 'shared' } });
    expect(ordered.status).toBe(201);
    const replay = await t.api('POST', '/api/checkout', { token: a.token, body: checkoutBody(), headers: { 'idempotency-key': 'shared' } });
    expect(replay.body).toEqual(ordered.body);
    await addToCart(t, b.token, product.skuIds[0], 1);
    expect((await t.api('POST', '/api/checkout', { token: b.token, body: checkoutBody(), headers: { 'idempotency-key': 'shared' } })).status).toBe(201);
  });
});

describe('double submission', () => {
  it('checks one cart out once when the same checkout arrives several times at once without a key', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, product.skuIds[0], 3);
    const results = await Promise.all(Array.from({ length: 4 }, () => t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body.error.code).toBe('CART_EMPTY');
    const [orders] = await t.sql('select count(*)::int as n from shop_order where customer_id = ?', [customer.id]);
    expect(orders.n).toBe(1);
    expect(await stockOf(t, product.skuIds[0])).toBe(97);
  });
});
