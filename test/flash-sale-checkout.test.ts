import { addToCart, checkoutBody, checkoutOk, deliverOk, payOk, placeOrder, shipOk, shopWithProduct, stockOf } from './support/shopping.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCouponTemplate, newCustomer, newOperator } from './support/fixtures.js';
import { activityStockOf, expectFlashSaleBooksBalance, minutesFromNow, newFlashSale } from './support/flash-sales.js';
import { cancelUnpaidOrders } from '../src/services/orders/order.service.js';
import { activeFlashSaleSkuIds } from '../src/services/promotions/flash-sale-pricing.js';
import { systemContext } from '../src/server/jobs.js';
import { createLogger } from '../src/logger.js';
import { auditStockAndClose, expectStockAudited } from './support/inventory-audit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

const itemsOf = (order: any) => order.items.map((i: any) => ({ pricing: i.pricing, unit_price: i.unit_price, quantity: i.quantity, amount: i.amount }));

async function flashUnitsOf(customerId: number, itemId: number): Promise<number> {
  const [row] = await t.sql(
    `select coalesce(sum(oi.quantity), 0)::int as n from order_item oi join shop_order o on o.id = oi.order_id
      where o.customer_id = ? and oi.flash_sale_item_id = ? and o.status <> 'cancelled'`,
    [customerId, itemId],
  );
  return row.n;
}

describe('flash-sale pricing at checkout', () => {
  it('splits a line into activity-priced units up to the per-customer limit and a standard remainder', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 50 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 600, reservedStock: 10, perCustomerLimit: 3 }] });
    const customer = await newCustomer(t);

    const order = await placeOrder(t, customer.token, sku, 5);
    expect(itemsOf(order)).toEqual([
      { pricing: 'flash_sale', unit_price: 600, quantity: 3, amount: 1800 },
      { pricing: 'standard', unit_price: 1000, quantity: 2, amount: 2000 },
    ]);
    expect(order.items[0].flash_sale_item_id).toBe(sale.itemIds[0]);
    expect(order.items[1].flash_sale_item_id).toBeUndefined();
    expect(order).toMatchObject({ items_total: 3800, discount: 0, total: 3800 });
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(7);
    expect(await stockOf(t, sku)).toBe(45);

    // The snapshot stays when the session changes later.
    await t.sql('update flash_sale_item set activity_price = 100 where id = ?', [sale.itemIds[0]]);
    const again = await t.api('GET', `/api/orders/${order.id}`, { token: customer.token });
    expect(again.body.items[0].unit_price).toBe(600);
    const gql = await t.gql(`query($id: Int!) { order(id: $id) { items { pricing unitPrice quantity flashSaleItemId } } }`, { id: order.id }, customer.token);
    expect(gql.data.order.items).toEqual([
      { pricing: 'FLASH_SALE', unitPrice: 600, quantity: 3, flashSaleItemId: sale.itemIds[0] },
      { pricing: 'STANDARD', unitPrice: 1000, quantity: 2, flashSaleItemId: null },
    ]);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });

  it('gives activity pricing for no more than the activity stock left', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 800, stock: 50 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 2, perCustomerLimit: 10 }] });
    const first = await newCustomer(t);
    const second = await newCustomer(t);

    expect(itemsOf(await placeOrder(t, first.token, sku, 5))).toEqual([
      { pricing: 'flash_sale', unit_price: 500, quantity: 2, amount: 1000 },
      { pricing: 'standard', unit_price: 800, quantity: 3, amount: 2400 },
    ]);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(0);
    // Sold out: the whole line is standard, and no activity stock or counter moves.
    expect(itemsOf(await placeOrder(t, second.token, sku, 1))).toEqual([{ pricing: 'standard', unit_price: 800, quantity: 1, amount: 800 }]);
    expect(await t.sql('select * from flash_sale_purchase where customer_id = ?', [second.id])).toEqual([]);
    expect(await stockOf(t, sku)).toBe(44);
  });

  it('prices nothing outside the window or when disabled, and such sessions are absent from discovery', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 900, stock: 50 }, { price: 900, stock: 50 }, { price: 900, stock: 50 }]);
    const [upcomingSku, endedSku, disabledSku] = product.skuIds;
    const upcoming = await newFlashSale(t, { shopId: shop.id, startsAt: minutesFromNow(30), endsAt: minutesFromNow(90), items: [{ skuId: upcomingSku, activityPrice: 100, reservedStock: 5 }] });
    const ended = await newFlashSale(t, { shopId: shop.id, startsAt: minutesFromNow(-90), endsAt: minutesFromNow(-30), items: [{ skuId: endedSku, activityPrice: 100, reservedStock: 5 }] });
    const disabled = await newFlashSale(t, { shopId: shop.id, enabled: false, items: [{ skuId: disabledSku, activityPrice: 100, reservedStock: 5 }] });
    const customer = await newCustomer(t);
    for (const sku of product.skuIds) await addToCart(t, customer.token, sku, 2);

    const [order] = await checkoutOk(t, customer.token);
    expect(order.items.map((i: any) => [i.pricing, i.unit_price])).toEqual([['standard', 900], ['standard', 900], ['standard', 900]]);
    for (const sale of [upcoming, ended, disabled]) expect(await activityStockOf(t, sale.itemIds[0])).toBe(5);

    const discovered = await t.api('GET', `/api/flash-sales?shop_id=${shop.id}&page_size=100`);
    expect(discovered.body.items).toEqual([]);
    expect(await activeFlashSaleSkuIds(t.em(), product.skuIds)).toEqual(new Set());
  });

  it('gives no activity pricing when the SKU price has dropped to or below the activity price', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 700, reservedStock: 5 }] });
    await t.sql('update sku set price = 650 where id = ?', [sku]);
    const customer = await newCustomer(t);
    expect(itemsOf(await placeOrder(t, customer.token, sku, 1))).toEqual([{ pricing: 'standard', unit_price: 650, quantity: 1, amount: 650 }]);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(5);
  });

  it('prices each shop order of a multi-shop cart on its own', async () => {
    const a = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const b = await shopWithProduct(t, [{ price: 2000, stock: 10 }]);
    const sale = await newFlashSale(t, { shopId: a.shop.id, items: [{ skuId: a.product.skuIds[0], activityPrice: 300, reservedStock: 5, perCustomerLimit: 1 }] });
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, a.product.skuIds[0], 1);
    await addToCart(t, customer.token, b.product.skuIds[0], 1);
    const orders = await checkoutOk(t, customer.token);
    const byShop = Object.fromEntries(orders.map((o: any) => [o.shop.id, o]));
    expect(itemsOf(byShop[a.shop.id])).toEqual([{ pricing: 'flash_sale', unit_price: 300, quantity: 1, amount: 300 }]);
    expect(itemsOf(byShop[b.shop.id])).toEqual([{ pricing: 'standard', unit_price: 2000, quantity: 1, amount: 2000 }]);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(4);
  });

  it('refuses the whole checkout when the SKU stock is short, taking no activity stock', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 2 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 10, perCustomerLimit: 5 }] });
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, sku, 3);
    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { sku_id: sku, requested: 3, available: 2 } });
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(10);
    expect(await stockOf(t, sku)).toBe(2);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([]);
  });
});

describe('per-customer limit', () => {
  it('counts pending and paid orders toward the limit, and not cancelled ones', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 50 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 400, reservedStock: 20, perCustomerLimit: 3 }] });
    const customer = await newCustomer(t, { available: 100_000, points: 0 });

    const paid = await placeOrder(t, customer.token, sku, 2);
    await payOk(t, customer.token, paid.id);
    const pending = await placeOrder(t, customer.token, sku, 2);
    expect(itemsOf(pending)).toEqual([
      { pricing: 'flash_sale', unit_price: 400, quantity: 1, amount: 400 },
      { pricing: 'standard', unit_price: 1000, quantity: 1, amount: 1000 },
    ]);
    // At the limit (2 paid + 1 pending): standard price only.
    expect(itemsOf(await placeOrder(t, customer.token, sku, 1))).toEqual([{ pricing: 'standard', unit_price: 1000, quantity: 1, amount: 1000 }]);

    expect((await t.api('POST', `/api/orders/${pending.id}/cancel`, { token: customer.token })).status).toBe(200);
    expect(itemsOf(await placeOrder(t, customer.token, sku, 2))).toEqual([
      { pricing: 'flash_sale', unit_price: 400, quantity: 1, amount: 400 },
      { pricing: 'standard', unit_price: 1000, quantity: 1, amount: 1000 },
    ]);
    expect(await flashUnitsOf(customer.id, sale.itemIds[0])).toBe(3);
    // Another customer has their own allowance.
    const other = await newCustomer(t);
    expect(itemsOf(await placeOrder(t, other.token, sku, 3))[0]).toMatchObject({ pricing: 'flash_sale', quantity: 3 });
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });

  it('holds when the same customer checks out 10 times concurrently', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 500 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 100, reservedStock: 100, perCustomerLimit: 2 }] });
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, sku, 3);

    const results = await Promise.all(Array.from({ length: 10 }, () => t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() })));
    for (const r of results) {
      // A checkout that starts after another emptied the cart finds nothing to buy.
      if (r.status !== 201) expect(r.body.error.code).toBe('CART_EMPTY');
    }
    const orders = results.filter((r) => r.status === 201).flatMap((r) => r.body.orders);
    expect(orders.length).toBeGreaterThanOrEqual(1);
    const items = orders.flatMap((o: any) => o.items);
    const flashUnits = items.filter((i: any) => i.pricing === 'flash_sale').reduce((n: number, i: any) => n + i.quantity, 0);
    const allUnits = items.reduce((n: number, i: any) => n + i.quantity, 0);
    expect(flashUnits).toBe(2);
    expect(await flashUnitsOf(customer.id, sale.itemIds[0])).toBe(2);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(98);
    expect(await stockOf(t, sku)).toBe(500 - allUnits);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([{ quantity: 2 }]);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });
});

describe('activity stock under load', () => {
  it('gives exactly 20 activity-priced units when 200 customers race for activity stock 20', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 5000, stock: 1000 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 990, reservedStock: 20, perCustomerLimit: 1 }] });
    const customers = await Promise.all(Array.from({ length: 200 }, () => newCustomer(t)));
    for (const c of customers) await addToCart(t, c.token, sku, 1);

    const results = await Promise.all(customers.map((c) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody() })));
    expect(results.filter((r) => r.status !== 201).map((r) => r.body)).toEqual([]);
    const items = results.flatMap((r) => r.body.orders[0].items);
    const flash = items.filter((i: any) => i.pricing === 'flash_sale');
    expect(flash).toHaveLength(20);
    for (const i of flash) expect(i).toMatchObject({ unit_price: 990, quantity: 1, flash_sale_item_id: sale.itemIds[0] });
    for (const i of items.filter((i: any) => i.pricing !== 'flash_sale')) expect(i).toMatchObject({ pricing: 'standard', unit_price: 5000, quantity: 1 });
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(0);
    const [sold] = await t.sql('select coalesce(sum(quantity), 0)::int as n from order_item where sku_id = ?', [sku]);
    expect(sold.n).toBe(200);
    expect(await stockOf(t, sku)).toBe(1000 - sold.n);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });

  it('sells no more activity units than reserved when the SKU stock runs out first', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 3000, stock: 15 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 1000, reservedStock: 10, perCustomerLimit: 1 }] });
    const customers = await Promise.all(Array.from({ length: 40 }, () => newCustomer(t)));
    for (const c of customers) await addToCart(t, c.token, sku, 1);

    const results = await Promise.all(customers.map((c) => t.api('POST', '/api/checkout', { token: c.token, body: checkoutBody() })));
    const won = results.filter((r) => r.status === 201);
    expect(won).toHaveLength(15);
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body.error.code).toBe('INSUFFICIENT_STOCK');
    const flashUnits = won.flatMap((r) => r.body.orders[0].items).filter((i: any) => i.pricing === 'flash_sale').length;
    expect(flashUnits).toBe(10);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(0);
    expect(await stockOf(t, sku)).toBe(0);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });
});

describe('cancellation', () => {
  it('restores activity stock, SKU stock and the customer allowance in one go', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 5, perCustomerLimit: 2 }] });
    const customer = await newCustomer(t);
    const order = await placeOrder(t, customer.token, sku, 4);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(3);
    expect(await stockOf(t, sku)).toBe(16);

    const cancelled = await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token });
    expect(cancelled.body.status).toBe('cancelled');
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(5);
    expect(await stockOf(t, sku)).toBe(20);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([{ quantity: 0 }]);
    // Cancelling again changes nothing.
    await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token });
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(5);
    expect(itemsOf(await placeOrder(t, customer.token, sku, 2))[0]).toMatchObject({ pricing: 'flash_sale', quantity: 2 });
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });

  it('restores activity stock when the payment-window sweep cancels an unpaid order', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 5 }] });
    const customer = await newCustomer(t);
    const order = await placeOrder(t, customer.token, sku, 3);
    await t.sql(`update shop_order set created_at = now() - interval '2 hours' where id = ?`, [order.id]);
    expect(await cancelUnpaidOrders(systemContext(t.deps, 'test'))).toBeGreaterThanOrEqual(1);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(5);
    expect(await stockOf(t, sku)).toBe(20);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });

  it('keeps activity stock and allowance taken by a paid order', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 5, perCustomerLimit: 2 }] });
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, sku, 2);
    await payOk(t, customer.token, order.id);
    const refusedCancel = await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token });
    expect(refusedCancel.body.error.code).toBe('ORDER_STATE_CONFLICT');
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(3);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([{ quantity: 2 }]);
  });
});

describe('refunds', () => {
  it('a refund completed before shipment gives its activity-priced units back to the sale and the allowance; a return does not', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 5, perCustomerLimit: 3 }] });
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const order = await placeOrder(t, customer.token, sku, 4); // 3 at the activity price, 1 standard
    await payOk(t, customer.token, order.id);
    const flashItem = order.items.find((i: any) => i.pricing === 'flash_sale');
    const standardItem = order.items.find((i: any) => i.pricing === 'standard');
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(2);

    const refund = async (items: { order_item_id: number; quantity: number }[]) => {
      const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Changed my mind', items } });
      expect(asked.status).toBe(201);
      expect((await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: operator.token, body: {} })).status).toBe(200);
    };
    await refund([{ order_item_id: flashItem.id, quantity: 2 }, { order_item_id: standardItem.id, quantity: 1 }]);
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(4);
    expect(await stockOf(t, sku)).toBe(19);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([{ quantity: 1 }]);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
    // The allowance given back can be used again, at the activity price.
    expect(itemsOf(await placeOrder(t, customer.token, sku, 2))[0]).toMatchObject({ pricing: 'flash_sale', quantity: 2 });
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);

    // The last unit ships, then comes back as a return: the goods return, the sale's stock does not.
    await shipOk(t, operator.token, order.id);
    await deliverOk(t, customer.token, order.id);
    const returned = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token, body: { kind: 'return', reason: 'Broken', items: [{ order_item_id: flashItem.id, quantity: 1 }] },
    });
    expect(returned.status).toBe(201);
    const act = (action: string) => t.api('POST', `/api/merchant/refunds/${returned.body.id}/${action}`, { token: operator.token, body: {} });
    expect((await act('approve')).status).toBe(200);
    const sentBack = await t.api('POST', `/api/refunds/${returned.body.id}/ship-back`, { token: customer.token, body: { company_code: 'zto', tracking_number: 'ZTO-9' } });
    expect(sentBack.status).toBe(200);
    expect((await act('receive')).body.status).toBe('completed');
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(2);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([{ quantity: 3 }]);
    await expectFlashSaleBooksBalance(t);
    await expectStockAudited(t);
  });
});

describe('coupons', () => {
  it('refuses a coupon on a shop order that got flash-sale pricing, changing nothing; a standard order of the same shop may use it', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }, { price: 1000, stock: 20 }]);
    const [flashSku, plainSku] = product.skuIds;
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: flashSku, activityPrice: 600, reservedStock: 5 }] });
    const template = await newCouponTemplate(t, shop.id, { amountOff: 100 });
    const customer = await newCustomer(t);
    const claim = await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: customer.token });
    expect(claim.status).toBe(201);
    const coupons = { [shop.id]: claim.body.id };

    await addToCart(t, customer.token, flashSku, 1);
    await addToCart(t, customer.token, plainSku, 1);
    const res = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody({ coupons }) });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'COUPON_NOT_ALLOWED', details: { pricing: 'flash_sale' } });
    expect(await activityStockOf(t, sale.itemIds[0])).toBe(5);
    expect(await stockOf(t, flashSku)).toBe(20);
    expect(await t.sql('select count(*)::int as n from shop_order where customer_id = ?', [customer.id])).toEqual([{ n: 0 }]);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([]);

    await t.api('DELETE', `/api/cart/items/${flashSku}`, { token: customer.token });
    const standard = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody({ coupons }) });
    expect(standard.status).toBe(201);
    expect(standard.body.orders[0]).toMatchObject({ items_total: 1000, discount: 100, total: 900 });
  });
});

describe('activeFlashSaleSkuIds', () => {
  it('names the SKUs in an enabled session active now, in one query', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 5 }, { price: 1000, stock: 5 }, { price: 1000, stock: 5 }]);
    const [active, upcoming, none] = product.skuIds;
    await newFlashSale(t, { shopId: shop.id, items: [{ skuId: active, activityPrice: 1, reservedStock: 0 }] });
    await newFlashSale(t, { shopId: shop.id, startsAt: minutesFromNow(5), endsAt: minutesFromNow(10), items: [{ skuId: upcoming, activityPrice: 1, reservedStock: 1 }] });
    const em = t.em();
    expect(await activeFlashSaleSkuIds(em, [active, upcoming, none])).toEqual(new Set([active]));
    expect(await activeFlashSaleSkuIds(em, [])).toEqual(new Set());
  });
});
