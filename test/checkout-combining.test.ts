import { startTestApp, type TestApp } from './support/harness.js';
import { expiredTokenFor, newCustomer, newFreightTemplate, type TestUser } from './support/fixtures.js';
import { activityStockOf, newFlashSale } from './support/flash-sales.js';
import { ADDRESS, addToCart, checkoutBody, shopWithProduct, stockOf } from './support/shopping.js';
import type { Placement } from '../src/services/checkout/order-writer.js';
import { combinedOrderWriter } from '../src/services/checkout/combined-order-writer.js';
import { readCarts } from '../src/services/checkout/cart-reads.js';
import { ItemPricing } from '../src/entities/order-item.entity.js';
import { AppError } from '../src/errors.js';
import { StaleReadConflict } from '../src/shared/transaction.js';

/**
 * Concurrent checkouts share statements (StatementCombiner): token lookups, cart reads and the write.
 * Each checkout must still get exactly its own outcome: its own orders, prices and freight, or its
 * own refusal, while the others of its batch go through.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const writes = () => t.queries.filter((q) => /insert into shop_order/i.test(q)).length;

async function customersWithCart(n: number, skuId: number, quantity = 1): Promise<TestUser[]> {
  const customers = await Promise.all(Array.from({ length: n }, () => newCustomer(t)));
  for (const c of customers) await addToCart(t, c.token, skuId, quantity);
  return customers;
}

/** A product whose freight is 800 + 200 per further unit, and 2,000 + 1,000 to CN-XZ. */
async function productWithRegionalFreight() {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
  await newFreightTemplate(
    t,
    shop.id,
    { firstUnitFee: 800, additionalUnitFee: 200, freeThreshold: null, regions: [{ region: 'CN-XZ', firstUnitFee: 2_000, additionalUnitFee: 1_000, freeThreshold: null }] },
    [product.id],
  );
  return product;
}

/** What the order writer gets from a checkout of `quantity` units of one SKU (flash units first). */
function placement(customer: TestUser, shopId: number, skuId: number, productId: number, quantity: number, flash?: { itemId: number; units: number; price: number }): Placement {
  const flashUnits = flash?.units ?? 0;
  return {
    customerId: customer.id,
    shippingAddress: ADDRESS,
    drafts: [
      {
        shopId,
        discount: 0,
        items: [
          ...(flashUnits > 0
            ? [{ skuId, skuName: 'S', productId, productName: 'P', unitPrice: flash!.price, quantity: flashUnits, pricing: ItemPricing.FlashSale, flashSaleItemId: flash!.itemId }]
            : []),
          { skuId, skuName: 'S', productId, productName: 'P', unitPrice: 1000, quantity: quantity - flashUnits, pricing: ItemPricing.Standard },
        ].filter((i) => i.quantity > 0),
      },
    ],
    freight: new Map([[shopId, 0]]),
    cartLines: [{ skuId, quantity }],
    flashSale: flash ? new Map([[flash.itemId, { quantity: flashUnits, limit: 5 }]]) : new Map(),
  };
}

/** The combined writer outside a transaction, as a plain checkout calls it (concurrent calls share statements). */
const placeCombined = async (placement: Placement) => combinedOrderWriter.placeOrders(await t.context(), placement);

describe('combined checkouts', () => {
  it('writes each keyed checkout of a combined statement with its own key and its own orders as the answer', async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    const customers = await customersWithCart(16, product.skuIds[0]);
    t.resetQueryLog();
    const send = (c: TestUser) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody(), headers: { 'idempotency-key': 'same-key-each' } });
    const first = await Promise.all(customers.map(send));
    expect(writes()).toBeLessThan(customers.length);
    const replays = await Promise.all(customers.map(send));
    customers.forEach((c, i) => {
      expect(first[i].status).toBe(201);
      expect(first[i].body.orders[0].customer_id).toBe(c.id);
      expect(replays[i].body).toEqual(first[i].body);
    });
    const keys = await t.sql<{ n: number }>(`select count(*)::int as n from idempotency_key where key = 'same-key-each'`);
    expect(keys[0].n).toBe(customers.length);
  });

  it('writes many parallel checkouts in fewer statements, each customer getting exactly their own order', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    const skuId = product.skuIds[0];
    const customers = await customersWithCart(24, skuId, 2);
    t.resetQueryLog();
    const responses = await Promise.all(
      customers.map((c, i) =>
        t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody({ shipping_address: { ...ADDRESS, recipient: `Buyer ${i}` } }) }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(customers.map(() => 201));
    expect(writes()).toBeLessThan(customers.length);
    responses.forEach((r, i) => {
      expect(r.body.orders).toHaveLength(1);
      expect(r.body.orders[0]).toMatchObject({ customer_id: customers[i].id, shop: { id: shop.id }, items_total: 2000, shipping_address: { recipient: `Buyer ${i}` } });
      expect(r.body.orders[0].items).toEqual([expect.objectContaining({ sku_id: skuId, quantity: 2 })]);
    });
    const rows = await t.sql('select customer_id, count(*)::int n from shop_order where shop_id = ? group by customer_id', [shop.id]);
    expect(rows).toHaveLength(24);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    expect(await stockOf(t, skuId)).toBe(100 - 48);
    expect(await t.sql('select * from cart_item where customer_id = any(?::int[])', [`{${customers.map((c) => c.id).join(',')}}`])).toEqual([]);
  });

  it('prices each combined cart read for its own shipping region', async () => {
    const product = await productWithRegionalFreight();
    const customers = await customersWithCart(16, product.skuIds[0], 2);
    const regions = customers.map((_, i) => (i % 2 === 0 ? 'CN-SH' : 'CN-XZ'));
    const responses = await Promise.all(
      customers.map((c, i) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody({ shipping_address: { ...ADDRESS, region: regions[i] } }) })),
    );
    responses.forEach((r, i) => {
      expect(r.status).toBe(201);
      expect(r.body.orders[0].freight_fee).toBe(regions[i] === 'CN-SH' ? 800 + 200 : 2_000 + 1_000);
    });
  });

  it('reads one customer twice in a combined cart read, each time for its own region', async () => {
    const product = await productWithRegionalFreight();
    const [a, b] = await customersWithCart(2, product.skuIds[0], 1);
    const em = t.em();
    const carts = await readCarts([
      { em, customerId: a.id, region: 'CN-XZ' },
      { em, customerId: b.id, region: 'CN-SH' },
      { em, customerId: a.id, region: 'CN-SH' },
    ]);
    expect(carts.map((c) => c.lines.map((l) => l.skuId))).toEqual([[product.skuIds[0]], [product.skuIds[0]], [product.skuIds[0]]]);
    expect(carts.map((c) => c.freightTerms[0].firstUnitFee)).toEqual([2_000, 800, 800]);
  });

  it('lets the rest of a batch through when one customer changed their cart, and sends that one back to rerun', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    const skuId = product.skuIds[0];
    const customers = await customersWithCart(10, skuId, 1);
    // The 6th read one unit but now has three in the cart.
    await addToCart(t, customers[5].token, skuId, 3);
    t.resetQueryLog();
    const results = await Promise.allSettled(customers.map((c) => placeCombined(placement(c, shop.id, skuId, product.id, 1))));
    expect(writes()).toBeLessThan(10);
    results.forEach((r, i) => {
      if (i === 5) expect(r).toMatchObject({ status: 'rejected', reason: expect.any(StaleReadConflict) });
      else expect(r).toMatchObject({ status: 'fulfilled', value: { views: [expect.objectContaining({ customerId: customers[i].id })] } });
    });
    expect((results[5] as PromiseRejectedResult).reason.code).toBe('CART_CHANGED');
    expect(await t.sql('select quantity from cart_item where customer_id = ?', [customers[5].id])).toEqual([{ quantity: 3 }]);
    expect(await t.sql('select id from shop_order where customer_id = ?', [customers[5].id])).toEqual([]);
    expect(await stockOf(t, skuId)).toBe(91);
  });

  it('fills the activity stock when a batch asks for more than is left: those that fit are written, the rest rerun', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    const skuId = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId, activityPrice: 600, reservedStock: 5, perCustomerLimit: 5 }] });
    const itemId = sale.itemIds[0];
    const customers = await customersWithCart(12, skuId, 1);
    t.resetQueryLog();
    const results = await Promise.allSettled(
      customers.map((c) => placeCombined(placement(c, shop.id, skuId, product.id, 1, { itemId, units: 1, price: 600 }))),
    );
    const placed = results.filter((r) => r.status === 'fulfilled');
    const rerun = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(placed).toHaveLength(5);
    expect(rerun.map((r) => (r.reason as AppError).code)).toEqual(Array(7).fill('FLASH_SALE_STOCK_CHANGED'));
    expect(rerun.every((r) => r.reason instanceof StaleReadConflict)).toBe(true);
    // The first ran alone, the batch of the others failed and those that fit went again together (the
    // log holds statements that succeeded); writing the batch's checkouts one by one would take more.
    expect(writes()).toBeLessThanOrEqual(3);
    expect(await activityStockOf(t, itemId)).toBe(0);
    expect(await t.sql('select coalesce(sum(quantity), 0)::int n from flash_sale_purchase where flash_sale_item_id = ?', [itemId])).toEqual([{ n: 5 }]);
    expect(await t.sql('select coalesce(sum(quantity), 0)::int n from order_item where flash_sale_item_id = ?', [itemId])).toEqual([{ n: 5 }]);
    expect(await stockOf(t, skuId)).toBe(95);
  });

  it('refuses each checkout beyond the SKU stock with its own INSUFFICIENT_STOCK, the others placed', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 4 }]);
    const skuId = product.skuIds[0];
    const customers = await customersWithCart(10, skuId, 1);
    t.resetQueryLog();
    const results = await Promise.allSettled(customers.map((c) => placeCombined(placement(c, shop.id, skuId, product.id, 1))));
    expect(writes()).toBeLessThanOrEqual(3);
    const refusals = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected').map((r) => r.reason as AppError);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(4);
    expect(refusals).toHaveLength(6);
    for (const refusal of refusals) {
      expect(refusal).not.toBeInstanceOf(StaleReadConflict);
      expect(refusal).toMatchObject({ code: 'INSUFFICIENT_STOCK', status: 422, details: { sku_id: skuId, requested: 1, available: 0 } });
    }
    expect(await stockOf(t, skuId)).toBe(0);
    expect(await t.sql('select count(*)::int n from shop_order where shop_id = ?', [shop.id])).toEqual([{ n: 4 }]);
  });

  it('sells exactly the activity stock at the activity price over HTTP, the rest at the standard price', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 100 }]);
    const skuId = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId, activityPrice: 600, reservedStock: 7, perCustomerLimit: 1 }] });
    const customers = await customersWithCart(30, skuId, 1);
    const responses = await Promise.all(customers.map((c) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody() })));
    expect(responses.map((r) => r.status)).toEqual(customers.map(() => 201));
    const prices = responses.map((r) => r.body.orders[0].items[0].unit_price);
    expect(prices.filter((p) => p === 600)).toHaveLength(7);
    expect(prices.filter((p) => p === 1000)).toHaveLength(23);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(0);
    expect(await stockOf(t, skuId)).toBe(70);
  });
});

describe('combined token lookups', () => {
  it('answers each of many parallel requests for its own token: valid, revoked, expired or unknown', async () => {
    const customers = await Promise.all(Array.from({ length: 12 }, () => newCustomer(t)));
    const revoked = await newCustomer(t);
    await t.sql('update auth_token set revoked_at = now() where user_id = ?', [revoked.id]);
    const expired = await expiredTokenFor(t, customers[0].id);
    const cases = [
      ...customers.map((c) => ({ token: c.token, status: 200, id: c.id, code: undefined })),
      { token: revoked.token, status: 401, id: undefined, code: 'TOKEN_INVALID' },
      { token: expired, status: 401, id: undefined, code: 'TOKEN_EXPIRED' },
      { token: 'not-a-token', status: 401, id: undefined, code: 'TOKEN_INVALID' },
    ];
    t.resetQueryLog();
    const responses = await Promise.all([...cases, ...cases].map((c) => t.api('GET', '/api/me', { token: c.token })));
    expect(t.queries.filter((q) => /from auth_token/i.test(q)).length).toBeLessThan(responses.length);
    responses.forEach((r, i) => {
      const expected = cases[i % cases.length];
      expect(r.status).toBe(expected.status);
      if (expected.id) expect(r.body.id).toBe(expected.id);
      else expect(r.body.error.code).toBe(expected.code);
    });
  });
});
