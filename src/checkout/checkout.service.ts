import { refused } from '../errors.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../fast-paths/prepared-statements.js';
import { intArray, textArray } from '../db/sql.js';
import { perConnection } from '../fast-paths/per-connection.js';
import { StatementCombiner } from '../fast-paths/statement-combiner.js';
import { ItemPricing } from '../entities/order-item.entity.js';
import type { CheckoutLine, DraftOrder } from './checkout-draft.js';
import type { ServiceContext } from '../shared/context.js';
import { requireCustomer } from '../shared/guards.js';
import { EventTypes } from '../events/event-types.js';
import { emit, inAutocommit, inTransaction } from '../shared/transaction.js';
import { id, parseInput, z } from '../shared/validate.js';
import { emitStockLow } from '../catalog/stock-events.js';
import { orderViewsFromRows, type OrderRow, type OrderView } from '../orders/order-view.js';
import { placeOrders } from './place-orders.js';
import { withIdempotency } from '../shared/idempotency.js';
import { applyCoupons, CouponsInput } from '../promotions/coupon-redemption.js';
import { draftGroupBuyOrder, GroupBuyIntent, prepareGroupBuyCheckout } from '../promotions/group-buy-checkout.js';
import { applyFlashSalePricing, flashSaleOffersSql, type FlashSaleOffer, type FlashSaleTake } from '../promotions/flash-sale-pricing.js';
import { freightFees, freightTermsOf, freightTermsSql, ShippingAddressInput, type FreightTermsRow } from '../shipping/freight-fees.js';

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
 * Turns the customer's cart into one order per shop: price snapshots, totals, then one write
 * statement (`placeOrders`) that takes the cart lines, the flash-sale units and the stock with
 * guarded decrements and inserts the orders. Any short line refuses the whole checkout: no order, no
 * stock change, the cart stays.
 *
 * A plain or flash-sale checkout runs its reads without a transaction and its write statement commits
 * on its own (`inAutocommit`), so the hot stock rows are never held across a round trip. Coupons and
 * group buying write before that statement (redeeming the coupon, opening the group), so those
 * checkouts run in one transaction instead.
 */
export async function checkout(ctx: ServiceContext, input: unknown, idempotencyKey?: string): Promise<OrderView[]> {
  const customer = requireCustomer(ctx);
  const request = parseInput(CheckoutInput, input ?? {});
  await prepareGroupBuyCheckout(ctx, request.groupBuy);
  const coupons = request.coupons ?? [];
  const unitOfWork = request.groupBuy || coupons.length > 0 ? inTransaction : inAutocommit;
  const replay = (stored: unknown) => orderViewsFromRows((stored as { orders: OrderRow[] }).orders);
  return withIdempotency(ctx, { scope: 'checkout', key: idempotencyKey, request, replay }, (idempotency) =>
    unitOfWork(ctx, async (tx) => {
      const { lines, drafts, flashSale, freightTerms } = await draftCheckout(tx, customer.userId, request);
      // Coupons last among the pricing steps: they look at the final items and their pricing.
      await applyCoupons(tx, customer.userId, drafts, coupons);
      // Freight after every pricing step: its free-shipping threshold looks at the amount after discount.
      const freight = freightFees(drafts, freightTerms);

      const { views, remaining } = await placeOrders(tx.em, {
        customerId: customer.userId,
        shippingAddress: request.shippingAddress,
        drafts,
        freight,
        cartLines: lines,
        flashSale,
        idempotency,
      });
      await tx.faults?.afterWrite?.(tx, 'checkout');

      for (const view of views) {
        emit(tx, {
          type: EventTypes.ORDER_PLACED,
          shopIds: [view.shop.id],
          customerId: customer.userId,
          payload: { orderId: view.id, total: view.total, status: view.status },
        });
      }
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
    }),
  );
}

type CheckoutRequest = z.infer<typeof CheckoutInput>;

/**
 * A checkout's drafts before coupons, with what the write statement and freight need. A
 * group-buying checkout buys the intent's single unit alone: the cart is neither read nor emptied.
 * Otherwise the cart, with flash-sale pricing applied.
 */
async function draftCheckout(tx: ServiceContext, customerId: number, request: CheckoutRequest) {
  const region = request.shippingAddress.region;
  if (request.groupBuy) {
    const drafts = [await draftGroupBuyOrder(tx, customerId, { ...request, groupBuy: request.groupBuy })];
    return { lines: [] as CheckoutLine[], drafts, flashSale: new Map() as FlashSaleTake, freightTerms: await freightTermsOf(tx.em, drafts, region) };
  }
  const cart = await readCart(tx, customerId, region);
  const drafts = draftOrders(cart.lines);
  return { lines: cart.lines, drafts, flashSale: applyFlashSalePricing(drafts, cart.flashSaleOffers), freightTerms: cart.freightTerms };
}

/**
 * The cart's lines with current prices, the flash-sale offers for them and their freight terms for
 * the region, in one statement; refuses an empty cart or a line no longer on sale. Nothing is locked:
 * the write statement takes exactly these lines (same SKU, same quantity) out of the cart or fails,
 * so a second checkout of the same cart (a double click) is rerun, finds the cart empty and is
 * refused with CART_EMPTY instead of ordering again.
 */
async function readCart(tx: ServiceContext, customerId: number, region: string): Promise<CheckoutCart> {
  const request = { em: tx.em, customerId, region };
  const [cart] = tx.em.isInTransaction() ? await readCarts([request]) : [await cartReads(tx.em).submit(request)];
  const unavailable = cart.lines.find((l) => l.status !== 'published');
  if (cart.lines.length === 0) throw refused('CART_EMPTY', 'Your cart is empty');
  if (unavailable) {
    throw refused('PRODUCT_UNAVAILABLE', `SKU ${unavailable.skuId} is no longer on sale`, { sku_id: unavailable.skuId });
  }
  return cart;
}

export interface CheckoutCart {
  lines: (CheckoutLine & { status: string })[];
  flashSaleOffers: FlashSaleOffer[];
  freightTerms: FreightTermsRow[];
}

/** Concurrent checkouts read their carts in one statement (`StatementCombiner`). */
const cartReads = perConnection(
  () => new StatementCombiner(readCarts, { maxInFlight: 1, maxBatch: 32 }),
);

export interface CartRequest {
  em: EntityManager;
  customerId: number;
  region: string;
}

/**
 * The carts of several customers, each for its shipping region, in one statement (exported for
 * tests). One row per request, by position: a customer may be asked for twice, for two regions.
 */
export async function readCarts(requests: CartRequest[]): Promise<CheckoutCart[]> {
  const rows = await queryRows<{ n: string; lines: any[]; flash_sale_offers: FlashSaleOffer[]; freight_terms: FreightTermsRow[] }>(
    requests[0].em,
    `with wanted as (select * from unnest(?::int[], ?::text[]) with ordinality as w(customer_id, region, n)),
          lines as (
            select c.customer_id, c.sku_id, s.name as sku_name, s.price, c.quantity, p.id as product_id, p.name as product_name,
                   p.shop_id, p.status
              from cart_item c join sku s on s.id = c.sku_id join product p on p.id = s.product_id
             where c.customer_id = any(?::int[])
          )
     select w.n,
            (select coalesce(json_agg(l order by l.shop_id, l.sku_id), '[]') from lines l where l.customer_id = w.customer_id) as lines,
            (select coalesce(json_agg(o), '[]')
               from (${flashSaleOffersSql('(select * from lines l where l.customer_id = w.customer_id)')}) o) as flash_sale_offers,
            (select coalesce(json_agg(f), '[]')
               from (${freightTermsSql('p.id in (select l.product_id from lines l where l.customer_id = w.customer_id)', 'w.region')}) f) as freight_terms
       from wanted w`,
    [intArray(requests.map((r) => r.customerId)), textArray(requests.map((r) => r.region)), intArray(requests.map((r) => r.customerId))],
  );
  const byPosition = new Map(rows.map((r) => [Number(r.n), r]));
  return requests.map((_, i) => {
    const row = byPosition.get(i + 1)!;
    return {
      lines: row.lines.map((r) => ({
        skuId: r.sku_id,
        skuName: r.sku_name,
        productId: r.product_id,
        productName: r.product_name,
        shopId: r.shop_id,
        unitPrice: r.price,
        quantity: r.quantity,
        status: r.status,
      })),
      flashSaleOffers: row.flash_sale_offers,
      freightTerms: row.freight_terms,
    };
  });
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
