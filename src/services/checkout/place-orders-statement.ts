import type { EntityManager } from '@mikro-orm/postgresql';
import { causeChain, refused, type AppError } from '../../errors.js';
import type { ErrorCode } from '../../error-codes.js';
import { intArray } from '../../db/sql.js';
import { orderViewsFromRows } from '../orders/order-view.js';
import { placeOrders, placeTracedOrders } from './place-orders.repository.js';
import { tracing } from '../../tracing.js';
import { StaleReadConflict } from '../../shared/transaction.js';
import type { Placed, Placement } from './order-writer.js';
import { orderTotals } from '../../shared/checkout-draft.js';
import { z } from '../../shared/validate.js';
import { ShopStatus } from '../../entities/shop.entity.js';
import { shopNotActive } from '../catalog/shop-status.js';

/**
 * Writes a checkout in one statement: takes the lines out of the cart, redeems the coupons, counts
 * flash-sale units on the customer's counters, takes the activity stock and the SKU stock (guarded
 * decrements) with their `sale` movements (the one writer of stock outside inventory, doing what
 * inventory does: held equal to the transactional writer by the differential test), inserts the
 * orders and their items, and returns the rows of the new orders' views. Orders start in their first
 * state (the column's default); the statement moves none.
 *
 * One statement because it is atomic by itself: outside a transaction it commits on its own, so the
 * hot rows (activity item, SKU) stay locked only while PostgreSQL runs it and commits, never across
 * a round trip to this process. Every guard compares what it wrote with what the checkout read; when
 * one falls short, the statement calls `mf_refuse` and fails as a whole (nothing written):
 * - cart lines gone or changed (a double submit, an edit meanwhile): rerun (`CART_CHANGED`);
 * - a coupon used meanwhile (by another checkout): `COUPON_ALREADY_USED`;
 * - a per-customer counter or the activity stock moved since pricing: rerun, so the line is priced
 *   again from fresh figures;
 * - SKU stock short: `INSUFFICIENT_STOCK`, the whole checkout refused;
 * - a shop of the orders suspended or closed since the cart was read: `SHOP_NOT_ACTIVE`.
 *
 * The refusal is data: `mf_refuse` raises SQLSTATE MF001 with the code and what fell short as JSON in
 * its detail, read into `PlacementRefused`.
 *
 * Order of work: cart lines, coupons, orders, items and movements first, then the per-customer counters and, last, the
 * hot rows: activity items (ascending id), SKUs (ascending id), the same lock order as every other
 * writer of these rows. Each step names the previous one in its WHERE clause, which makes PostgreSQL
 * run them in that order. So a checkout holds a hot row only for the two updates, the
 * end-of-statement checks and its commit; its inserts' WAL is mostly on disk already, flushed by
 * earlier commits. The rows to lock are looked up by `= any(array)`: the generic plan cannot know
 * how many rows the JSON inputs hold, and `in (select ... from json_to_recordset(...))` let it pick
 * a sequential scan of every SKU (2 ms per checkout).
 *
 * The statement takes the checkouts of several distinct customers at once (the combined writer
 * shares it among concurrent checkouts), each with its own guards' refusals named in the error, and
 * writes each checkout's Idempotency-Key with its orders' rows as the answer to replay, and the
 * events of all of them into the outbox. Returns one `Placed` per placement, in order.
 */
export async function writeOrders(em: EntityManager, placements: Placement[], stockLowThreshold: number): Promise<Placed[]> {
  try {
    // With tracing on, the traced twin also stores each checkout's trace context with its events.
    const rows = tracing
      ? await placeTracedOrders.run(em, [...placementValues(placements), JSON.stringify(placements.map(({ customerId, traceParent }) => ({ customer_id: customerId, trace_parent: traceParent ?? null }))), stockLowThreshold, stockLowThreshold, stockLowThreshold])
      : await placeOrders.run(em, [...placementValues(placements), stockLowThreshold, stockLowThreshold, stockLowThreshold]);
    const eventsStored = rows[0]?.events ?? 0;
    const remaining = new Map<number, number>(Object.entries(rows[0]?.remaining ?? {}).map(([id, stock]) => [Number(id), stock]));
    const views = orderViewsFromRows(rows);
    return placements.map(({ customerId }) => ({ views: views.filter((v) => v.customerId === customerId), remaining, eventsStored }));
  } catch (error) {
    const refusal = refusalOf(error);
    throw refusal ? new PlacementRefused(refusal) : error;
  }
}

/** The write statement's values for these placements, in its parameters' order (see place-orders.repository.ts). */
export function placementValues(placements: Placement[]): unknown[] {
  const orders = placements.flatMap(({ customerId, drafts, freight, shippingAddress }) =>
    drafts.map((draft) => {
      const totals = orderTotals(draft, freight.get(draft.shopId)!);
      return {
        customer_id: customerId,
        shop_id: draft.shopId,
        items_total: totals.itemsTotal,
        discount: totals.discount,
        coupon_id: draft.couponId ?? null,
        freight_fee: totals.freightFee,
        total: totals.total,
        shipping_address: shippingAddress,
        group_id: draft.group?.id ?? null,
        group_price: draft.group?.price ?? null,
      };
    }),
  ).map((order, n) => ({ ...order, n }));
  const items = placements.flatMap(({ customerId, drafts }) =>
    drafts.flatMap((draft) =>
      draft.items.map((item) => ({
        customer_id: customerId,
        shop_id: draft.shopId,
        product_id: item.productId,
        sku_id: item.skuId,
        product_name: item.productName,
        sku_name: item.skuName,
        unit_price: item.unitPrice,
        quantity: item.quantity,
        pricing: item.pricing,
        flash_sale_item_id: item.flashSaleItemId ?? null,
      })),
    ),
  ).map((item, n) => ({ ...item, n }));
  const cart = placements.flatMap(({ customerId, cartLines }) => cartLines.map((l) => ({ customer_id: customerId, sku_id: l.skuId, quantity: l.quantity })));
  const coupons = placements.flatMap(({ customerId, drafts }) =>
    drafts.flatMap((draft) => (draft.couponId === undefined ? [] : [{ customer_id: customerId, shop_id: draft.shopId, coupon_id: draft.couponId }])),
  );
  const flash = placements.flatMap(({ customerId, flashSale }) =>
    [...flashSale].map(([id, take]) => ({ id, customer_id: customerId, quantity: take.quantity, per_customer_limit: take.limit })),
  );
  const keys = placements.flatMap(({ idempotency }) =>
    idempotency ? [{ user_id: idempotency.userId, scope: idempotency.scope, key: idempotency.key, request_hash: idempotency.requestHash }] : [],
  );
  const demand = new Map<number, number>();
  for (const item of items) demand.set(item.sku_id, (demand.get(item.sku_id) ?? 0) + item.quantity);

  return [
    JSON.stringify(cart),
    JSON.stringify(coupons),
    JSON.stringify(flash),
    JSON.stringify([...demand].map(([sku_id, quantity]) => ({ sku_id, quantity }))),
    JSON.stringify(orders),
    JSON.stringify(items),
    JSON.stringify(keys),
    intArray([...new Set(orders.map((o) => o.shop_id))]),
    intArray([...new Set(cart.map((l) => l.customer_id))]),
    intArray(coupons.map((c) => c.coupon_id)),
    intArray([...new Set(flash.map((f) => f.id))]),
    intArray([...demand.keys()]),
  ];
}

/** What the statement found short (its `mf_refuse` detail: the code and what fell short, see the verdict of place-orders.repository.ts). */
const Refusal = z.discriminatedUnion('code', [
  z.object({ code: z.literal('SHOP_NOT_ACTIVE'), shop_id: z.number().int(), status: z.enum(ShopStatus) }),
  z.object({ code: z.enum(['CART_CHANGED', 'FLASH_SALE_LIMIT_CHANGED']), customer_id: z.number().int() }),
  z.object({ code: z.literal('COUPON_ALREADY_USED'), customer_id: z.number().int(), shop_id: z.number().int(), coupon_id: z.number().int() }),
  z.object({ code: z.literal('FLASH_SALE_STOCK_CHANGED'), flash_sale_item_id: z.number().int(), remaining: z.number().int() }),
  z.object({ code: z.literal('INSUFFICIENT_STOCK'), sku_id: z.number().int(), requested: z.number().int(), available: z.number().int() }),
]);
type Refusal = z.infer<typeof Refusal>;

/** The write statement refused its placements: `refusal` says what fell short (see `refusalErrors`). */
export class PlacementRefused extends Error {
  constructor(readonly refusal: Refusal) {
    super(`checkout statement refused: ${refusal.code}`);
    this.name = 'PlacementRefused';
  }
}

/**
 * What `mf_refuse` raised: SQLSTATE MF001 with the refusal as JSON in its detail. Undefined for
 * any other failure.
 */
function refusalOf(error: unknown): Refusal | undefined {
  for (const link of causeChain(error)) {
    if (link.code !== 'MF001' || typeof link.detail !== 'string') continue;
    return Refusal.parse(JSON.parse(link.detail));
  }
  return undefined;
}

/** The refusals that rerun the checkout, with what its customer is told if the last attempt fails too. */
const RERUNS = {
  CART_CHANGED: 'Your cart changed while checking out; try again',
  FLASH_SALE_LIMIT_CHANGED: 'Your flash-sale purchases changed while checking out; try again',
  FLASH_SALE_STOCK_CHANGED: 'The flash-sale stock changed while checking out; try again',
} as const satisfies Partial<Record<ErrorCode, string>>;

/**
 * A refused write statement: which of its placements fail for the same reason, and with what error
 * (an entry per placement; undefined for those to write again together). The refusal names what fell
 * short: one customer's cart, coupon or flash-sale counter (that customer's placement fails), or an
 * activity item's or SKU's stock and how much it had left (the placements that fit in it, in arrival
 * order, are written again; the others get what their own statement would have answered).
 */
export function refusalErrors(refusal: Refusal, placements: readonly Placement[]): (AppError | undefined)[] {
  switch (refusal.code) {
    case 'SHOP_NOT_ACTIVE': {
      const error = shopNotActive({ id: refusal.shop_id, status: refusal.status });
      return placements.map((p) => (p.drafts.some((d) => d.shopId === refusal.shop_id) ? error : undefined));
    }
    case 'CART_CHANGED':
    case 'FLASH_SALE_LIMIT_CHANGED': {
      const error = new StaleReadConflict(refusal.code, RERUNS[refusal.code], { customer_id: refusal.customer_id });
      return placements.map((p) => (p.customerId === refusal.customer_id ? error : undefined));
    }
    case 'COUPON_ALREADY_USED': {
      const error = refused('COUPON_ALREADY_USED', `Coupon ${refusal.coupon_id} was already used`, { shop_id: refusal.shop_id, coupon_id: refusal.coupon_id });
      return placements.map((p) => (p.customerId === refusal.customer_id ? error : undefined));
    }
    case 'FLASH_SALE_STOCK_CHANGED': {
      const error = new StaleReadConflict(refusal.code, RERUNS[refusal.code], { flash_sale_item_id: refusal.flash_sale_item_id });
      let left = refusal.remaining;
      return placements.map((p) => {
        const take = p.flashSale.get(refusal.flash_sale_item_id)?.quantity ?? 0;
        if (take > left) return error;
        left -= take;
        return undefined;
      });
    }
    case 'INSUFFICIENT_STOCK': {
      const skuId = refusal.sku_id;
      let left = refusal.available;
      return placements.map((p) => {
        const requested = p.drafts.flatMap((d) => d.items).filter((i) => i.skuId === skuId).reduce((n, i) => n + i.quantity, 0);
        if (requested > left) return refused('INSUFFICIENT_STOCK', `Not enough stock for SKU ${skuId}`, { sku_id: skuId, requested, available: left });
        left -= requested;
        return undefined;
      });
    }
  }
}

/** For the statement combiner: the errors of a refused batch, or undefined when it failed otherwise. */
export function settleRefusal(error: unknown, placements: Placement[]): (AppError | undefined)[] | undefined {
  return error instanceof PlacementRefused ? refusalErrors(error.refusal, placements) : undefined;
}
