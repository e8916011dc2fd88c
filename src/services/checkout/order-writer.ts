import type { ShippingAddress } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import type { IdempotencyRecord } from '../../shared/idempotency.js';
import type { FlashSaleOffer, FlashSaleTake } from '../promotions/flash-sale-pricing.js';
import type { FreightTermsRow } from '../shipping/freight-fees.js';
import type { OrderView } from '../orders/order-view.js';
import type { CheckoutLine, DraftOrder } from '../../shared/checkout-draft.js';

/** The customer's cart as checkout reads it: lines at current prices, their flash-sale offers and freight terms. */
export interface CheckoutCart {
  lines: (CheckoutLine & { status: string })[];
  flashSaleOffers: FlashSaleOffer[];
  freightTerms: FreightTermsRow[];
}

/** A fully priced checkout, ready to be written. */
export interface Placement {
  customerId: number;
  shippingAddress: ShippingAddress;
  /** Fully priced drafts (flash sale, coupons), one per shop; a draft's coupon is redeemed with its order. */
  drafts: DraftOrder[];
  /** Freight fee per shop. */
  freight: Map<number, number>;
  /** The cart lines the checkout read (and now takes out of the cart); none for a group-buying checkout. */
  cartLines: { skuId: number; quantity: number }[];
  flashSale: FlashSaleTake;
  /** The checkout's Idempotency-Key, written with the orders as its answer. */
  idempotency?: IdempotencyRecord;
  /** With tracing on, the checkout's `traceparent`, stored with the events the combined statement writes (it runs outside the request's context). */
  traceParent?: string | null;
}

export interface Placed {
  views: OrderView[];
  /** Stock left per SKU after the decrement (for `stock.low`). */
  remaining: Map<number, number>;
  /**
   * How many events the write stored in the outbox itself (the combined writer's statement stores
   * `order.placed` and `stock.low`, being the only statement of its work); 0: the checkout emits them.
   */
  eventsStored: number;
}

/**
 * How a checkout reads the cart and writes its orders. The checkout use case reads the same whichever
 * writer runs: the writer is part of the service wiring, chosen at start-up by `CHECKOUT_WRITER`:
 * - `combined` (the default, measured faster: docs/performance.md): reads outside a transaction,
 *   one write statement that commits on its own, and concurrent checkouts sharing their reads and
 *   their write statement (`combined-order-writer.ts`);
 * - `transactional`: one transaction, one plain guarded write per step, each stock change through
 *   inventory (`transactional-order-writer.ts`). It is the reference the combined writer is held to
 *   (test/checkout-writers.test.ts runs both on the same generated checkouts).
 *
 * Either way a checkout is all or nothing: when a guard finds that something moved since the cart was
 * read (the cart, a flash-sale counter or its stock) the writer throws `StaleReadConflict` and the
 * checkout runs again; a coupon used meanwhile refuses it with `COUPON_ALREADY_USED`, short SKU stock
 * with `INSUFFICIENT_STOCK`.
 */
export interface OrderWriter {
  /** Runs a cart checkout (its reads, pricing and `placeOrders`) as one unit of work: retried on conflicts, events published after commit. */
  run<T>(ctx: ServiceContext, work: (tx: ServiceContext) => Promise<T>): Promise<T>;
  /** The customer's cart for shipping to `region`. */
  readCart(tx: ServiceContext, customerId: number, region: string): Promise<CheckoutCart>;
  /**
   * Takes the cart lines, redeems the coupons, takes the flash-sale units and the stock, inserts the
   * orders and records the key; inside `tx`'s transaction when it has one.
   */
  placeOrders(tx: ServiceContext, placement: Placement): Promise<Placed>;
}

declare module '../../shared/context.js' {
  interface ServiceWiring {
    /** Checkout's order writer (CHECKOUT_WRITER). */
    orderWriter: OrderWriter;
  }
}
