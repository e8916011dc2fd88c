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
import { takeActivityStock, takeSkuStock } from '../inventory/inventory.service.js';
import { redeemCoupons } from '../promotions/coupon-redemption.js';
import { refuseInactiveShops } from '../catalog/shop-status.js';

/**
 * The plain order writer (`CHECKOUT_WRITER=transactional`), and the reference the combined one is
 * held to: the whole checkout in one transaction, one guarded write per step, readable top to bottom,
 * stock taken through inventory. The same guards as the combined statement, each a conditional write
 * whose affected rows decide; the shops' rows are share-locked first (a suspension waits for the
 * checkout or refuses it); rows are locked in the order every writer of them uses (cart lines,
 * coupons, purchase counters, activity items by id, SKUs by id), so two checkouts cannot deadlock. It
 * holds the hot stock rows until COMMIT, one round trip longer than the combined writer: slower under
 * a flash sale (docs/performance.md), which is why it is not the default.
 */
export const transactionalOrderWriter: OrderWriter = {
  run(ctx, work) {
    return inTransaction(ctx, work);
  },

  async readCart(tx, customerId, region) {
    return (await readCarts([{ em: tx.em, customerId, region }]))[0];
  },

  async placeOrders(tx, placement) {
    const { em } = tx;
    // First: a suspension of one of these shops waits for this transaction, or this one sees it.
    await refuseInactiveShops(tx, placement.drafts.map((d) => d.shopId));
    await takeCartLines(em, placement);
    const coupons = placement.drafts.flatMap((d) => (d.couponId === undefined ? [] : [{ shopId: d.shopId, couponId: d.couponId }]));
    await redeemCoupons(em, placement.customerId, coupons);
    const orderIds = await insertOrders(em, placement);
    await countFlashSaleUnits(em, placement);
    const remaining = await takeStock(em, placement, orderIds);
    const rows = await orderRows(em, orderIds);
    await recordStoredAnswer(tx, placement.idempotency, { orders: rows });
    return { views: orderViewsFromRows(rows), remaining, eventsStored: 0 };
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

/**
 * The orders' activity units, then their SKU units (summed per counter, ascending ids: inventory's
 * lock order), with their `sale` movements. An activity item short of units means another checkout
 * took them since pricing (rerun); a short SKU refuses the checkout. Returns the stock left per SKU.
 */
async function takeStock(em: EntityManager, { drafts }: Placement, orderIds: number[]): Promise<Map<number, number>> {
  const lines = drafts.flatMap((draft, n) => draft.items.map((item) => ({ orderId: orderIds[n], item })));
  const activity = lines.flatMap(({ orderId, item }) =>
    item.flashSaleItemId === undefined ? [] : [{ flashSaleItemId: item.flashSaleItemId, orderId, units: item.quantity }],
  );
  const short = await takeActivityStock(em, activity);
  if (short) {
    throw new StaleReadConflict('FLASH_SALE_STOCK_CHANGED', 'The flash-sale stock changed while checking out; try again', { flash_sale_item_id: short.flashSaleItemId });
  }
  const taken = await takeSkuStock(em, lines.map(({ orderId, item }) => ({ skuId: item.skuId, orderId, units: item.quantity })));
  if ('short' in taken) {
    const { skuId, requested, available } = taken.short;
    throw refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${skuId}`, { sku_id: skuId, requested, available });
  }
  return taken.remaining;
}
