import { refused } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { orderTotals, type CheckoutLine, type DraftOrder } from '../../shared/checkout-draft.js';
import { typedSql } from '../../db/typed-sql.js';
import { BASE_CURRENCY } from '../../currency.js';
import type { ServiceContext } from '../../shared/context.js';
import { requireCustomer } from '../../shared/guards.js';
import { inTransaction } from '../../shared/transaction.js';
import { announcePlaced } from '../orders/order-lifecycle.js';
import { parseInput, z } from '../../shared/validate.js';
import { emitStockLow } from '../inventory/stock-events.js';
import { orderViewsFromRows, type OrderView } from '../orders/order-view.js';
import { OrderRow } from '../orders/order.repository.js';
import { withIdempotency, type IdempotencyRecord } from '../../shared/idempotency.js';
import { CouponsInput, priceCoupons } from '../promotions/coupon-redemption.js';
import { draftGroupBuyOrder, GroupBuyIntent, prepareGroupBuyCheckout } from '../promotions/group-buy-checkout.js';
import { applyFlashSalePricing, type FlashSaleTake } from '../promotions/flash-sale-pricing.js';
import { freightFees, freightTermsOfDrafts, regionCode, ShippingAddressInput, type FreightTermsRow } from '../shipping/freight-fees.js';
import type { CheckoutCart } from './order-writer.js';
import type { CheckoutPreviewOrderView, CheckoutPreviewView } from './checkout-preview-view.js';
import { checkoutsPlaced, ordersPlaced } from '../../metrics.js';
import { tracing } from '../../tracing.js';

/** A checkout's answer as its Idempotency-Key keeps it (written by the order writer with the orders). */
const StoredAnswer = z.object({ orders: z.array(OrderRow) });

export const CheckoutInput = z
  .object({
    /** Where the orders ship; its region prices the freight. */
    shippingAddress: ShippingAddressInput,
    /** `{<shop_id>: <coupon_id>}` (or a list of `{shopId, couponId}`); group buying refuses any. */
    coupons: CouponsInput.optional(),
    groupBuy: GroupBuyIntent.optional(),
  })
  .strict();

export const PreviewInput = z
  .object({
    /** Where the orders would ship: freight depends on the region only. */
    region: regionCode,
    coupons: CouponsInput.optional(),
  })
  .strict();

/** What pricing a cart can refuse, at preview and at checkout. */
const cartPricing = refusals(
  'CART_EMPTY', 'PRODUCT_UNAVAILABLE', 'SHOP_NOT_ACTIVE',
  'COUPON_ALREADY_USED', 'COUPON_BELOW_THRESHOLD', 'COUPON_NOT_ALLOWED', 'COUPON_NOT_FOR_THIS_SHOP', 'COUPON_NOT_FOUND', 'COUPON_NOT_IN_WINDOW', 'COUPON_SHOP_NOT_IN_CART',
);

/** What pricing a cart or a group-buying intent (checkout only) can refuse. */
const pricing = refusals(
  cartPricing, 'NOT_FOUND',
  'GROUP_ALREADY_JOINED', 'GROUP_BUY_FLASH_SALE_CONFLICT', 'GROUP_BUY_NOT_ACTIVE', 'GROUP_BUY_NO_COUPONS', 'GROUP_BUY_SINGLE_ITEM', 'GROUP_FULL', 'GROUP_NOT_JOINABLE',
);

/** Pricing's refusals, short stock, a reused key, and the writer's lost races (the cart or a flash sale moved, several times in a row). */
export const checkoutRefusals = refusals(pricing, 'INSUFFICIENT_STOCK', 'IDEMPOTENCY_KEY_REUSED', 'CART_CHANGED', 'FLASH_SALE_LIMIT_CHANGED', 'FLASH_SALE_STOCK_CHANGED');

/**
 * Turns the customer's cart into one order per shop: price snapshots and totals, every figure from
 * the server (flash-sale pricing, coupons, group buying, freight), then the order writer (the
 * service wiring's, see `order-writer.ts`) takes the cart lines, the coupons, the flash-sale units
 * and the stock under guards and inserts the orders, holding its shops' rows in share mode so that a
 * shop suspended meanwhile refuses it (SHOP_NOT_ACTIVE) and a suspension that comes later waits for
 * it (catalog/shop-status.ts). Any short line refuses the whole checkout: no
 * order, no stock change, the cart stays. A group-buying checkout buys the intent's single unit in
 * one transaction, which holds its group (opened, or joined under a share lock) until the order is
 * written; the cart plays no part in it.
 */
export async function checkout(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<OrderView[]> {
  const customer = requireCustomer(ctx);
  const request = parseInput(CheckoutInput, input ?? {});
  await prepareGroupBuyCheckout(ctx, request.groupBuy);
  const writer = ctx.wiring.orderWriter;
  let replayed = false;
  const replay = (stored: unknown) => {
    replayed = true;
    return orderViewsFromRows(StoredAnswer.parse(stored).orders);
  };
  const { groupBuy } = request;
  const views = await withIdempotency(ctx, { scope: 'checkout', key: idempotencyKey, request, replay }, (idempotency) =>
    groupBuy
      ? inTransaction(ctx, async (tx) => {
          const drafts = [await draftGroupBuyOrder(tx, customer.userId, { groupBuy, coupons: request.coupons })];
          const freightTerms = await freightTermsOfDrafts(tx.em, drafts, request.shippingAddress.region);
          return place(tx, { customerId: customer.userId, request, drafts, freightTerms, cartLines: [], flashSale: new Map(), idempotency });
        })
      : writer.run(ctx, async (tx) => {
          const { lines, drafts, flashSale, freightTerms } = await draftCartCheckout(tx, customer.userId, request.shippingAddress.region);
          // Coupons last among the pricing steps: they look at the final items and their pricing.
          await priceCoupons(tx, customer.userId, drafts, request.coupons ?? []);
          return place(tx, { customerId: customer.userId, request, drafts, freightTerms, cartLines: lines, flashSale, idempotency });
        }),
  );
  // A replayed answer placed nothing now.
  if (!replayed) {
    checkoutsPlaced.inc();
    ordersPlaced.inc(views.length);
  }
  return views;
}

/** A priced checkout on its way to the writer. */
interface Priced {
  customerId: number;
  request: CheckoutRequest;
  drafts: DraftOrder[];
  freightTerms: FreightTermsRow[];
  cartLines: CheckoutLine[];
  flashSale: FlashSaleTake;
  idempotency?: IdempotencyRecord;
}

/** Prices the freight, has the writer place the orders, and announces them (and any SKU now low on stock). */
async function place(tx: ServiceContext, priced: Priced): Promise<OrderView[]> {
  const { customerId, drafts } = priced;
  // Freight after every pricing step: its free-shipping threshold looks at the amount after discount.
  const freight = freightFees(drafts, priced.freightTerms);
  const { views, remaining, eventsStored } = await tx.wiring.orderWriter.placeOrders(tx, {
    customerId,
    shippingAddress: priced.request.shippingAddress,
    drafts,
    freight,
    cartLines: priced.cartLines,
    flashSale: priced.flashSale,
    idempotency: priced.idempotency,
    traceParent: tracing?.traceparent(),
  });
  // The combined writer's one statement stored these events itself (it has no transaction to join).
  if (eventsStored > 0) return views;
  for (const view of views) announcePlaced(tx, { orderId: view.id, shopId: view.shop.id, customerId, total: view.total, status: view.status });
  const sold = new Map<number, { productId: number; shopId: number; quantity: number }>();
  for (const draft of drafts) {
    for (const item of draft.items) {
      const line = sold.get(item.skuId) ?? { productId: item.productId, shopId: draft.shopId, quantity: 0 };
      line.quantity += item.quantity;
      sold.set(item.skuId, line);
    }
  }
  emitStockLow(tx, [...sold].map(([skuId, line]) => ({ skuId, ...line, stock: remaining.get(skuId)! })));
  return views;
}

/** A cart's pricing refusals only: stock is taken, and so checked, by the checkout itself. */
export const previewCheckoutRefusals = cartPricing;

/**
 * What checking the cart out now would place, priced exactly as `checkout` prices it (flash-sale
 * units, the chosen coupons, freight to the address's region), so a storefront shows the server's
 * freight, discounts and totals before the customer commits. Writes nothing and reserves nothing: the
 * checkout itself prices again, and may differ if stock, a flash sale or the cart moved meanwhile.
 * Refuses what the checkout would refuse (an empty cart, a coupon that does not apply). For the cart
 * only: a group-buying checkout's price is the activity's group price.
 */
export async function previewCheckout(ctx: ServiceContext, input: unknown): Promise<CheckoutPreviewView> {
  const customer = requireCustomer(ctx);
  const request = parseInput(PreviewInput, input ?? {});
  const { drafts, freightTerms } = await draftCartCheckout(ctx, customer.userId, request.region);
  await priceCoupons(ctx, customer.userId, drafts, request.coupons ?? []);
  const freight = freightFees(drafts, freightTerms);
  const shops = await typedSql(ctx.em).selectFrom('Shop').select(['id', 'slug', 'name']).where('id', 'in', drafts.map((d) => d.shopId)).execute();
  const orders = drafts.map((draft): CheckoutPreviewOrderView => ({
    shop: shops.find((shop) => shop.id === draft.shopId)!,
    items: draft.items,
    couponId: draft.couponId,
    ...orderTotals(draft, freight.get(draft.shopId)!),
  }));
  return { currency: BASE_CURRENCY.code, orders, total: orders.reduce((sum, order) => sum + order.total, 0) };
}

type CheckoutRequest = z.infer<typeof CheckoutInput>;

/** A cart checkout's drafts before coupons (flash-sale pricing applied), with what the writer and freight need. */
async function draftCartCheckout(tx: ServiceContext, customerId: number, region: string) {
  const cart = availableCart(await tx.wiring.orderWriter.readCart(tx, customerId, region));
  const drafts = draftOrders(cart.lines);
  return { lines: cart.lines, drafts, flashSale: applyFlashSalePricing(drafts, cart.flashSaleOffers), freightTerms: cart.freightTerms };
}

/**
 * The cart, refused when empty or when a line is no longer on sale. Nothing is locked: the writer
 * takes exactly these lines (same SKU, same quantity) out of the cart or fails, so a second checkout
 * of the same cart (a double click) is rerun, finds the cart empty and is refused with CART_EMPTY
 * instead of ordering again.
 */
function availableCart(cart: CheckoutCart): CheckoutCart {
  const unavailable = cart.lines.find((l) => l.status !== 'published');
  if (cart.lines.length === 0) throw refused('CART_EMPTY', 'Your cart is empty');
  // A held product is published but its shop is suspended or closed: say so, not "no longer on sale".
  if (unavailable?.status === ProductStatus.Held) {
    throw refused('SHOP_NOT_ACTIVE', `SKU ${unavailable.skuId} is from shop ${unavailable.shopId}, which is not selling now`, { shop_id: unavailable.shopId, sku_id: unavailable.skuId });
  }
  if (unavailable) {
    throw refused('PRODUCT_UNAVAILABLE', `SKU ${unavailable.skuId} is no longer on sale`, { sku_id: unavailable.skuId });
  }
  return cart;
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
