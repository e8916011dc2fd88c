import { addToCart, ADDRESS, checkoutOk, shopWithProduct, stockOf } from './support/shopping.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { activityStockOf, newFlashSale } from './support/flash-sales.js';
import type { OrderWriter, Placement } from '../src/services/checkout/order-writer.js';
import { combinedOrderWriter } from '../src/services/checkout/combined-order-writer.js';
import { transactionalOrderWriter } from '../src/services/checkout/transactional-order-writer.js';
import { ItemPricing } from '../src/entities/order-item.entity.js';
import { AppError } from '../src/errors.js';
import { StaleReadConflict } from '../src/shared/transaction.js';

/**
 * The order writers, called directly with what a checkout would have read, to show that each guard
 * fails the whole write (nothing written) when the data moved since the read: the combined writer's
 * one statement and the transactional writer's steps alike.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

async function setUp(options: { stock?: number; flash?: { reservedStock: number; perCustomerLimit: number } } = {}) {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: options.stock ?? 10 }]);
  const skuId = product.skuIds[0];
  const sale = options.flash
    ? await newFlashSale(t, { shopId: shop.id, items: [{ skuId, activityPrice: 600, ...options.flash }] })
    : undefined;
  const customer = await newCustomer(t);
  await addToCart(t, customer.token, skuId, 2);
  const placement = (quantity: number, flashUnits = 0): Placement => ({
    customerId: customer.id,
    shippingAddress: ADDRESS,
    drafts: [
      {
        shopId: shop.id,
        discount: 0,
        items: [
          ...(flashUnits > 0
            ? [{ skuId, skuName: 'S', productId: product.id, productName: 'P', unitPrice: 600, quantity: flashUnits, pricing: ItemPricing.FlashSale, flashSaleItemId: sale!.itemIds[0] }]
            : []),
          { skuId, skuName: 'S', productId: product.id, productName: 'P', unitPrice: 1000, quantity: quantity - flashUnits, pricing: ItemPricing.Standard },
        ].filter((i) => i.quantity > 0),
      },
    ],
    freight: new Map([[shop.id, 0]]),
    cartLines: [{ skuId, quantity }],
    flashSale: flashUnits > 0 ? new Map([[sale!.itemIds[0], { quantity: flashUnits, limit: options.flash!.perCustomerLimit }]]) : new Map(),
  });
  return { shop, skuId, customer, sale, placement };
}

async function nothingWritten(customerId: number, skuId: number, stock: number) {
  expect(await t.sql('select id from shop_order where customer_id = ?', [customerId])).toEqual([]);
  expect(await t.sql('select quantity from cart_item where customer_id = ?', [customerId])).toEqual([{ quantity: 2 }]);
  expect(await stockOf(t, skuId)).toBe(stock);
}

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(() => undefined, (e) => e);
  expect(error).toBeInstanceOf(AppError);
  return error;
}

const WRITERS: [string, OrderWriter][] = [['combined', combinedOrderWriter], ['transactional', transactionalOrderWriter]];

/** Places as a checkout would: in the writer's unit of work (its conflicts rerun and fail the same way again). */
async function place(writer: OrderWriter, placement: Placement) {
  return writer.run(await t.context(), (tx) => writer.placeOrders(tx, placement));
}

describe.each(WRITERS)('%s order writer', (_name, writer) => {
  it('writes orders, items, cart and stock together when every guard holds', async () => {
    const { skuId, customer, placement } = await setUp({ stock: 10 });
    const placed = await place(writer, placement(2));
    expect(placed.views).toHaveLength(1);
    expect(placed.views[0]).toMatchObject({ customerId: customer.id, itemsTotal: 2000, total: 2000, status: 'pending_payment' });
    expect(placed.views[0].items.map((i) => i.quantity)).toEqual([2]);
    expect(placed.remaining.get(skuId)).toBe(8);
    expect(await stockOf(t, skuId)).toBe(8);
    expect(await t.sql('select id from cart_item where customer_id = ?', [customer.id])).toEqual([]);
  });

  it('fails whole, asking for a rerun, when the cart line changed since it was read', async () => {
    const { skuId, customer, placement } = await setUp({ stock: 10 });
    const error = await failureOf(place(writer, placement(3)));
    expect(error).toBeInstanceOf(StaleReadConflict);
    expect(error.code).toBe('CART_CHANGED');
    await nothingWritten(customer.id, skuId, 10);
  });

  it('refuses INSUFFICIENT_STOCK with the short SKU, writing nothing', async () => {
    const { skuId, customer, placement } = await setUp({ stock: 1 });
    const error = await failureOf(place(writer, placement(2)));
    expect(error).not.toBeInstanceOf(StaleReadConflict);
    expect(error).toMatchObject({ code: 'INSUFFICIENT_STOCK', status: 422, details: { sku_id: skuId, requested: 2, available: 1 } });
    await nothingWritten(customer.id, skuId, 1);
  });

  it('fails whole when the activity stock was taken since pricing', async () => {
    const { skuId, customer, sale, placement } = await setUp({ stock: 10, flash: { reservedStock: 2, perCustomerLimit: 5 } });
    await t.sql('update flash_sale_item set remaining_stock = 1 where id = ?', [sale!.itemIds[0]]);
    const error = await failureOf(place(writer, placement(2, 2)));
    expect(error).toBeInstanceOf(StaleReadConflict);
    expect(error.code).toBe('FLASH_SALE_STOCK_CHANGED');
    await nothingWritten(customer.id, skuId, 10);
    expect(await activityStockOf(t, sale!.itemIds[0])).toBe(1);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([]);
  });

  it("fails whole when the customer's flash-sale counter moved past the limit since pricing", async () => {
    const { skuId, customer, sale, placement } = await setUp({ stock: 10, flash: { reservedStock: 5, perCustomerLimit: 2 } });
    await t.sql('insert into flash_sale_purchase (flash_sale_item_id, customer_id, quantity) values (?, ?, 1)', [sale!.itemIds[0], customer.id]);
    const error = await failureOf(place(writer, placement(2, 2)));
    expect(error).toBeInstanceOf(StaleReadConflict);
    expect(error.code).toBe('FLASH_SALE_LIMIT_CHANGED');
    await nothingWritten(customer.id, skuId, 10);
    expect(await activityStockOf(t, sale!.itemIds[0])).toBe(5);
    expect(await t.sql('select quantity from flash_sale_purchase where customer_id = ?', [customer.id])).toEqual([{ quantity: 1 }]);
  });
});

describe('combined order writer', () => {
  it('runs a plain checkout in three statements and no BEGIN/COMMIT: token, cart, the one write', async () => {
    const { skuId, customer } = await setUp({ stock: 10 });
    t.resetQueryLog();
    await checkoutOk(t, customer.token);
    const statements = t.queries.map((q) => q.replace(/\s+/g, ' ').trim().toLowerCase());
    expect(statements.filter((q) => /^(begin|commit|start transaction)/.test(q))).toEqual([]);
    // The token, the cart (with flash-sale offers and freight terms), the write. Events go out on the bus connection.
    expect(statements).toHaveLength(3);
    expect(statements[2]).toContain('insert into shop_order');
    expect(await stockOf(t, skuId)).toBe(8);
  });
});
