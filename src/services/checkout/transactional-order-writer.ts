import type { EntityManager } from '@mikro-orm/postgresql';
import { refused } from '../../errors.js';
import { typedSql } from '../../db/typed-sql.js';
import { Order } from '../../entities/order.entity.js';
import { OrderItem } from '../../entities/order-item.entity.js';
import { inTransaction, StaleReadConflict } from '../../shared/transaction.js';
import { recordStoredAnswer } from '../../shared/idempotency.js';
import { orderRows, orderViewsFromRows } from '../orders/order-view.js';
import { readCarts } from './cart-reads.js';
import type { OrderWriter, Placement } from './order-writer.js';
import { orderTotals } from '../../shared/checkout-draft.js';

/**
 * The plain order writer (`CHECKOUT_WRITER=transactional`): the whole checkout in one transaction,
 * one guarded write per step, readable top to bottom. The same guards as the combined statement,
 * each a conditional write whose affected rows decide; rows are locked in the order every writer of
 * them uses (cart lines, purchase counters, activity items by id, SKUs by id), so two checkouts
 * cannot deadlock. It holds the hot stock rows until COMMIT, one round trip longer than the combined
 * writer: slower under a flash sale (docs/performance.md), which is why it is not the default.
 */
export const transactionalOrderWriter: OrderWriter = {
  run(ctx, _options, work) {
    return inTransaction(ctx, work);
  },

  async readCart(tx, customerId, region) {
    return (await readCarts([{ em: tx.em, customerId, region }]))[0];
  },

  async placeOrders(tx, placement) {
    const { em } = tx;
    await takeCartLines(em, placement);
    const orderIds = await insertOrders(em, placement);
    await countFlashSaleUnits(em, placement);
    await takeActivityStock(em, placement);
    const remaining = await takeSkuStock(em, placement);
    const rows = await orderRows(em, orderIds);
    await recordStoredAnswer(tx, placement.idempotency, { orders: rows });
    return { views: orderViewsFromRows(rows), remaining };
  },
};

/** The cart lines the checkout priced, exactly as read; anything else means the cart changed meanwhile. */
async function takeCartLines(em: EntityManager, { customerId, cartLines }: Placement): Promise<void> {
  if (cartLines.length === 0) return;
  const taken = await typedSql(em)
    .deleteFrom('CartItem')
    .where('customer', '=', customerId)
    .where((eb) => eb.or(cartLines.map((line) => eb.and([eb('sku', '=', line.skuId), eb('quantity', '=', line.quantity)]))))
    .returning('id')
    .execute();
  if (taken.length !== cartLines.length) {
    throw new StaleReadConflict('CART_CHANGED', 'Your cart changed while checking out; try again', { customer_id: customerId });
  }
}

/** One order per draft, with its items; returns the new orders' ids. */
async function insertOrders(em: EntityManager, { customerId, shippingAddress, drafts, freight }: Placement): Promise<number[]> {
  const orders = drafts.map((draft) => {
    const order = em.create(Order, {
      customer: customerId,
      shop: draft.shopId,
      ...orderTotals(draft, freight.get(draft.shopId)!),
      coupon: draft.couponId ?? null,
      shippingAddress,
      group: draft.group?.id ?? null,
      groupPrice: draft.group?.price ?? null,
    });
    for (const item of draft.items) {
      em.create(OrderItem, {
        order,
        product: item.productId,
        sku: item.skuId,
        productName: item.productName,
        skuName: item.skuName,
        unitPrice: item.unitPrice,
        quantity: item.quantity,
        amount: item.unitPrice * item.quantity,
        pricing: item.pricing,
        flashSaleItem: item.flashSaleItemId ?? null,
      });
    }
    return order;
  });
  await em.flush();
  return orders.map((order) => order.id);
}

/** The customer's flash-sale counters, each kept within the limit the units were priced under. */
async function countFlashSaleUnits(em: EntityManager, { customerId, flashSale }: Placement): Promise<void> {
  for (const [itemId, take] of [...flashSale].sort(([a], [b]) => a - b)) {
    const limitChanged = () =>
      new StaleReadConflict('FLASH_SALE_LIMIT_CHANGED', 'Your flash-sale purchases changed while checking out; try again', { customer_id: customerId });
    if (take.quantity > take.limit) throw limitChanged();
    const counted = await typedSql(em)
      .insertInto('FlashSalePurchase')
      .values({ flashSaleItem: itemId, customer: customerId, quantity: take.quantity })
      .onConflict((oc) =>
        oc
          .columns(['flashSaleItem', 'customer'])
          .doUpdateSet((eb) => ({ quantity: eb('FlashSalePurchase.quantity', '+', eb.ref('excluded.quantity')) }))
          .where((eb) => eb(eb('FlashSalePurchase.quantity', '+', eb.ref('excluded.quantity')), '<=', take.limit)),
      )
      .returning('quantity')
      .executeTakeFirst();
    if (!counted) throw limitChanged();
  }
}

/** The activity stock of each flash-sale item, ascending ids; short means another checkout took it since pricing. */
async function takeActivityStock(em: EntityManager, { flashSale }: Placement): Promise<void> {
  for (const [itemId, take] of [...flashSale].sort(([a], [b]) => a - b)) {
    const taken = await typedSql(em)
      .updateTable('FlashSaleItem')
      .set((eb) => ({ remainingStock: eb('remainingStock', '-', take.quantity) }))
      .where('id', '=', itemId)
      .where('remainingStock', '>=', take.quantity)
      .returning('id')
      .executeTakeFirst();
    if (!taken) {
      throw new StaleReadConflict('FLASH_SALE_STOCK_CHANGED', 'The flash-sale stock changed while checking out; try again', { flash_sale_item_id: itemId });
    }
  }
}

/** The SKU stock of every line, summed per SKU, ascending ids; short stock refuses the checkout. Returns what is left. */
async function takeSkuStock(em: EntityManager, { drafts }: Placement): Promise<Map<number, number>> {
  const demand = new Map<number, number>();
  for (const item of drafts.flatMap((d) => d.items)) demand.set(item.skuId, (demand.get(item.skuId) ?? 0) + item.quantity);
  const remaining = new Map<number, number>();
  for (const [skuId, quantity] of [...demand].sort(([a], [b]) => a - b)) {
    const taken = await typedSql(em)
      .updateTable('Sku')
      .set((eb) => ({ stock: eb('stock', '-', quantity) }))
      .where('id', '=', skuId)
      .where('stock', '>=', quantity)
      .returning('stock')
      .executeTakeFirst();
    if (!taken) {
      const sku = await typedSql(em).selectFrom('Sku').select('stock').where('id', '=', skuId).executeTakeFirstOrThrow();
      throw refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${skuId}`, { sku_id: skuId, requested: quantity, available: sku.stock });
    }
    remaining.set(skuId, taken.stock);
  }
  return remaining;
}
