import { refused } from '../errors.js';
import { intArray } from '../db/sql.js';
import { Order } from '../entities/order.entity.js';
import { OrderItem, ItemPricing } from '../entities/order-item.entity.js';
import type { ServiceContext } from './context.js';
import { requireCustomer } from './guards.js';
import { EventTypes } from '../events/event-types.js';
import { emit, inTransaction } from './transaction.js';
import { id, parseInput, z } from './validate.js';
import { addDemand, takeStock, type Demand } from './stock.js';
import { emitStockLow } from './stock-events.js';
import { orderViews, type OrderView } from './order-view.js';
import { withIdempotency } from './idempotency.service.js';
import { applyCoupons, CouponsInput } from './coupon-checkout.js';
import { draftGroupBuyOrder, GroupBuyIntent, prepareGroupBuyCheckout } from './group-buy-checkout.js';
import { applyFlashSalePricing, takeFlashSaleStock } from './flash-sale-pricing.js';
import { freightFees, ShippingAddressInput } from './freight.js';

/** A cart line as checkout reads it, with the product's current standard price. */
export interface CheckoutLine {
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  shopId: number;
  unitPrice: number;
  quantity: number;
}

export interface DraftItem {
  skuId: number;
  skuName: string;
  productId: number;
  productName: string;
  unitPrice: number;
  quantity: number;
  pricing: ItemPricing;
  /** The flash-sale activity item behind a `flash_sale` item. */
  flashSaleItemId?: number;
}

/** One shop's order before it is written. Pricing steps refine it; nothing is trusted from the client. */
export interface DraftOrder {
  shopId: number;
  items: DraftItem[];
  discount: number;
  /** Set by the coupon step (coupon-checkout.ts). */
  couponId?: number;
  /** Group-buying order: the group it takes a seat in and the seat price (snapshotted on the order). */
  group?: { id: number; price: number };
}

const CheckoutInput = z
  .object({
    /** Where the orders ship; its region prices the freight. */
    shippingAddress: ShippingAddressInput,
    /** `{<shop_id>: <coupon_id>}` (or a list of `{shopId, couponId}`); group buying refuses any. */
    coupons: CouponsInput.optional(),
    groupBuy: GroupBuyIntent.optional(),
  })
  .strict();

/**
 * Turns the customer's cart into one order per shop, in one transaction: price snapshots, totals,
 * then the guarded stock decrements last (the hot rows are locked as briefly as possible). Any short
 * line refuses the whole checkout: no order, no stock change, the cart stays.
 */
export async function checkout(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<OrderView[]> {
  const customer = requireCustomer(ctx);
  const request = parseInput(CheckoutInput, input ?? {});
  await prepareGroupBuyCheckout(ctx, request.groupBuy);
  return withIdempotency(ctx, { scope: 'checkout', key: idempotencyKey, request }, () =>
    inTransaction(ctx, async (tx) => {
      // A group-buying checkout buys the intent's single unit alone: the cart is neither read nor emptied.
      const groupBuy = request.groupBuy;
      const lines = groupBuy ? [] : await readCart(tx, customer.userId);
      const drafts = groupBuy ? [await draftGroupBuyOrder(tx, customer.userId, { ...request, groupBuy })] : draftOrders(lines);
      const flashSale = await applyFlashSalePricing(tx, customer.userId, drafts);
      // Coupons last among the pricing steps: they look at the final items and their pricing.
      await applyCoupons(tx, customer.userId, drafts, request.coupons ?? []);
      // Freight after every pricing step: its free-shipping threshold looks at the amount after discount.
      const freight = await freightFees(tx.em, drafts, request.shippingAddress.region);

      const demand: Demand = new Map();
      const orders = drafts.map((draft) => {
        const itemsTotal = draft.items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
        const order = tx.em.create(Order, {
          customer: customer.userId,
          shop: draft.shopId,
          itemsTotal,
          discount: draft.discount,
          coupon: draft.couponId ?? null,
          freightFee: freight.get(draft.shopId)!,
          total: itemsTotal - draft.discount + freight.get(draft.shopId)!,
          shippingAddress: request.shippingAddress,
          group: draft.group?.id,
          groupPrice: draft.group?.price,
        });
        for (const item of draft.items) {
          tx.em.create(OrderItem, {
            order,
            product: item.productId,
            sku: item.skuId,
            productName: item.productName,
            skuName: item.skuName,
            unitPrice: item.unitPrice,
            quantity: item.quantity,
            amount: item.unitPrice * item.quantity,
            pricing: item.pricing,
            flashSaleItem: item.flashSaleItemId,
          });
          addDemand(demand, item.skuId, item.quantity);
        }
        return order;
      });
      await tx.em.flush();

      await tx.em.execute('delete from cart_item where customer_id = ? and sku_id = any(?::int[])', [
        customer.userId,
        intArray(lines.map((l) => l.skuId)),
      ]);
      // The views read only what this checkout wrote, so they are read before the hot rows are locked.
      const views = await orderViews(tx.em, orders.map((o) => o.id));
      // Last, just before commit: the guarded decrements of the hot rows (activity stock, SKU stock).
      await takeFlashSaleStock(tx.em, customer.userId, flashSale);
      const remaining = await takeStock(tx.em, demand);

      for (const view of views) {
        emit(tx, {
          type: EventTypes.ORDER_PLACED,
          shopIds: [view.shop.id],
          customerId: customer.userId,
          payload: { orderId: view.id, total: view.total, status: view.status },
        });
      }
      const soldBy = new Map(drafts.flatMap((d) => d.items.map((i) => [i.skuId, { productId: i.productId, shopId: d.shopId }] as const)));
      emitStockLow(tx, [...demand].map(([skuId, quantity]) => ({ skuId, ...soldBy.get(skuId)!, stock: remaining.get(skuId)!, quantity })));
      return views;
    }),
  );
}

/**
 * The cart's lines with current prices; refuses an empty cart or a line no longer on sale. The
 * lines are locked: a second checkout of the same cart (a double click) waits, then finds the
 * lines gone and is refused with CART_EMPTY instead of ordering again.
 */
async function readCart(tx: ServiceContext, customerId: number): Promise<CheckoutLine[]> {
  const rows = await tx.em.execute<any[]>(
    `select c.sku_id, s.name as sku_name, s.price, c.quantity, p.id as product_id, p.name as product_name,
            p.shop_id, p.status
       from cart_item c join sku s on s.id = c.sku_id join product p on p.id = s.product_id
      where c.customer_id = ? order by p.shop_id, c.sku_id
        for update of c`,
    [customerId],
  );
  if (rows.length === 0) throw refused('CART_EMPTY', 'Your cart is empty');
  const unavailable = rows.find((r) => r.status !== 'published');
  if (unavailable) {
    throw refused('PRODUCT_UNAVAILABLE', `SKU ${unavailable.sku_id} is no longer on sale`, { sku_id: unavailable.sku_id });
  }
  return rows.map((r) => ({
    skuId: r.sku_id,
    skuName: r.sku_name,
    productId: r.product_id,
    productName: r.product_name,
    shopId: r.shop_id,
    unitPrice: r.price,
    quantity: r.quantity,
  }));
}

/** One draft order per shop, every item at its standard price. */
function draftOrders(lines: CheckoutLine[]): DraftOrder[] {
  const byShop = new Map<number, DraftOrder>();
  for (const line of lines) {
    const draft = byShop.get(line.shopId) ?? { shopId: line.shopId, items: [], discount: 0 };
    draft.items.push({
      skuId: line.skuId,
      skuName: line.skuName,
      productId: line.productId,
      productName: line.productName,
      unitPrice: line.unitPrice,
      quantity: line.quantity,
      pricing: ItemPricing.Standard,
    });
    byShop.set(line.shopId, draft);
  }
  return [...byShop.values()];
}
