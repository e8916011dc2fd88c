import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newGroupBuy, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { addToCart, checkoutOk, groupCheckoutOk, lapseGroup, payOk, placeOrder, shopWithProduct } from './support/shopping.js';
import { minutesFromNow, newFlashSale } from './support/flash-sales.js';
import { auditStockAndClose, expectStockAudited } from './support/inventory-audit.js';
import { expireLapsedGroups } from '../src/services/promotions/group-buy-lifecycle.js';
import { systemContext } from '../src/server/jobs.js';

/**
 * Inventory is the one owner of stock: each change of a SKU's stock or an activity item's stock left
 * comes with a movement naming its order, refund or adjustment and how much, so every counter is
 * what its movements add up to.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => auditStockAndClose(t));

type Movement = { counter: string; delta: number; kind: string; order_id: number | null; refund_id: number | null };

/** The movements of some SKUs and activity items, oldest first. */
const movementsOf = (skuIds: number[], itemIds: number[] = []) =>
  t.sql<Movement>(
    `select case when sku_id is not null then 'sku ' || sku_id else 'item ' || flash_sale_item_id end as counter, delta, kind, order_id, refund_id
       from stock_movement where sku_id = any(?::int[]) or flash_sale_item_id = any(?::int[]) order by id`,
    [`{${skuIds.join(',')}}`, `{${itemIds.join(',')}}`],
  );

describe('orders', () => {
  it('a checkout takes SKU and activity units as sales of its order; cancelling gives both back as a cancellation', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 5, perCustomerLimit: 2 }] });
    const customer = await newCustomer(t);
    const order = await placeOrder(t, customer.token, sku, 3);
    const item = sale.itemIds[0];
    expect(await movementsOf([sku], [item])).toEqual([
      { counter: `sku ${sku}`, delta: 20, kind: 'adjustment', order_id: null, refund_id: null },
      { counter: `item ${item}`, delta: 5, kind: 'adjustment', order_id: null, refund_id: null },
      { counter: `item ${item}`, delta: -2, kind: 'sale', order_id: order.id, refund_id: null },
      { counter: `sku ${sku}`, delta: -3, kind: 'sale', order_id: order.id, refund_id: null },
    ]);
    expect((await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token })).status).toBe(200);
    expect((await movementsOf([sku], [item])).slice(4)).toEqual([
      { counter: `item ${item}`, delta: 2, kind: 'cancellation', order_id: order.id, refund_id: null },
      { counter: `sku ${sku}`, delta: 3, kind: 'cancellation', order_id: order.id, refund_id: null },
    ]);
    expect(await expectStockAudited(t)).toBeGreaterThan(0);
  });

  it('one order of several SKUs in several shops: one sale per order and SKU', async () => {
    const a = await shopWithProduct(t, [{ price: 1000, stock: 9 }, { price: 2000, stock: 9 }]);
    const b = await shopWithProduct(t, [{ price: 3000, stock: 9 }]);
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, a.product.skuIds[0], 1);
    await addToCart(t, customer.token, a.product.skuIds[1], 2);
    await addToCart(t, customer.token, b.product.skuIds[0], 3);
    const orders: { id: number; shop: { id: number } }[] = await checkoutOk(t, customer.token);
    const orderOf = (shopId: number) => orders.find((o) => o.shop.id === shopId)!.id;
    const sales = (await movementsOf([...a.product.skuIds, ...b.product.skuIds]))
      .filter((m) => m.kind === 'sale')
      .sort((x, y) => x.order_id! - y.order_id! || x.counter.localeCompare(y.counter));
    expect(sales).toEqual([
      { counter: `sku ${a.product.skuIds[0]}`, delta: -1, kind: 'sale', order_id: orderOf(a.shop.id), refund_id: null },
      { counter: `sku ${a.product.skuIds[1]}`, delta: -2, kind: 'sale', order_id: orderOf(a.shop.id), refund_id: null },
      { counter: `sku ${b.product.skuIds[0]}`, delta: -3, kind: 'sale', order_id: orderOf(b.shop.id), refund_id: null },
    ].sort((x, y) => x.order_id - y.order_id || x.counter.localeCompare(y.counter)));
    await expectStockAudited(t);
  });

  it('an expired group gives back its paid seats’ units as group expiry', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const sku = product.skuIds[0];
    const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: sku, groupPrice: 600, capacity: 3 });
    const opener = await newCustomer(t, { available: 5_000, points: 0 });
    const seat = await groupCheckoutOk(t, opener.token, { activity_id: activity.id });
    await payOk(t, opener.token, seat.id);
    await lapseGroup(t, seat.group_id);
    expect(await expireLapsedGroups(systemContext(t.deps, 'test'))).toBeGreaterThanOrEqual(1);
    expect((await movementsOf([sku])).slice(1)).toEqual([
      { counter: `sku ${sku}`, delta: -1, kind: 'sale', order_id: seat.id, refund_id: null },
      { counter: `sku ${sku}`, delta: 1, kind: 'group_expiry', order_id: seat.id, refund_id: null },
    ]);
  });

  it('a refund completed before shipment gives its units back as a refund, activity units included', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const sku = product.skuIds[0];
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 500, reservedStock: 5, perCustomerLimit: 1 }] });
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t, { available: 10_000, points: 0 });
    const order = await placeOrder(t, customer.token, sku, 3);
    await payOk(t, customer.token, order.id);
    const items: { id: number; pricing: string; quantity: number }[] = order.items;
    const refund = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token,
      body: { kind: 'refund', reason: 'Changed my mind', items: items.map((i) => ({ order_item_id: i.id, quantity: i.quantity })) },
    });
    expect(refund.status).toBe(201);
    expect((await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: operator.token, body: {} })).status).toBe(200);
    const back = (await movementsOf([sku], sale.itemIds)).filter((m) => m.kind === 'refund');
    expect(back).toEqual([
      { counter: `item ${sale.itemIds[0]}`, delta: 1, kind: 'refund', order_id: order.id, refund_id: refund.body.id },
      { counter: `sku ${sku}`, delta: 3, kind: 'refund', order_id: order.id, refund_id: refund.body.id },
    ]);
  });
});

describe('the shop’s own changes', () => {
  let operator: TestUser;
  let categoryId: number;
  beforeAll(async () => {
    const shop = await newShop(t);
    operator = await newOperator(t, shop.id);
    categoryId = (await newCategory(t)).id;
  });
  const upsert = (body: Record<string, unknown>) => t.api('PUT', '/api/merchant/products', { token: operator.token, body: { name: 'Mug', category_id: categoryId, ...body } });

  it('a new SKU’s first stock, a stock-take and a delta are adjustments of what they changed; a refused delta records nothing', async () => {
    const created = await upsert({ skus: [{ name: 'Blue', price: 1000, stock: 7 }, { name: 'Empty', price: 1000, stock: 0 }] });
    expect(created.status).toBe(201);
    expect(created.body.skus.map((s: { stock: number }) => s.stock)).toEqual([7, 0]);
    const [blue, empty] = created.body.skus.map((s: { id: number }) => s.id);
    const edit = (skus: Record<string, unknown>[]) => upsert({ id: created.body.id, skus });
    expect((await edit([{ id: blue, name: 'Blue', price: 1000, stock: 4 }, { id: empty, name: 'Empty', price: 1000, stock_delta: 6 }])).status).toBe(200);
    expect((await edit([{ id: blue, name: 'Blue', price: 1000, stock_delta: -5 }, { id: empty, name: 'Empty', price: 1000 }])).body.error.code).toBe('INSUFFICIENT_STOCK');
    expect((await edit([{ id: blue, name: 'Blue', price: 1000, stock: 4 }, { id: empty, name: 'Empty', price: 1000 }])).status).toBe(200);
    expect(await movementsOf([blue, empty])).toEqual([
      { counter: `sku ${blue}`, delta: 7, kind: 'adjustment', order_id: null, refund_id: null },
      { counter: `sku ${blue}`, delta: -3, kind: 'adjustment', order_id: null, refund_id: null },
      { counter: `sku ${empty}`, delta: 6, kind: 'adjustment', order_id: null, refund_id: null },
    ]);
    expect(await t.sql('select stock from sku where id in (?, ?) order by id', [blue, empty])).toEqual([{ stock: 4 }, { stock: 6 }]);
  });

  it('a flash sale’s reserve, set and edited, moves its activity stock as adjustments', async () => {
    const created = await upsert({ skus: [{ name: 'Red', price: 1000, stock: 50 }] });
    const sku = created.body.skus[0].id;
    const body = (reserved: number) => ({
      name: 'Hour of mugs',
      starts_at: minutesFromNow(-5).toISOString(),
      ends_at: minutesFromNow(60).toISOString(),
      items: [{ sku_id: sku, activity_price: 500, reserved_stock: reserved, per_customer_limit: 5 }],
    });
    const session = await t.api('POST', '/api/merchant/flash-sales', { token: operator.token, body: body(10) });
    expect(session.status).toBe(201);
    const item = session.body.items[0].id;
    expect((await t.api('PUT', `/api/merchant/flash-sales/${session.body.id}`, { token: operator.token, body: body(4) })).status).toBe(200);
    expect(await movementsOf([], [item])).toEqual([
      { counter: `item ${item}`, delta: 10, kind: 'adjustment', order_id: null, refund_id: null },
      { counter: `item ${item}`, delta: -6, kind: 'adjustment', order_id: null, refund_id: null },
    ]);
    expect((await t.sql('select reserved_stock, remaining_stock from flash_sale_item where id = ?', [item]))[0]).toEqual({ reserved_stock: 4, remaining_stock: 4 });
  });
});
