import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type NotNull } from 'kysely';
import { refused } from '../../errors.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { DiscountKind } from '../../entities/coupon-template.entity.js';
import { CouponStatus } from '../../entities/coupon.entity.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { OrderTransition } from '../orders/order-lifecycle.js';
import type { ServiceContext } from '../../shared/context.js';
import type { DraftOrder } from '../../shared/checkout-draft.js';
import { id, idText, z } from '../../shared/validate.js';

/** One coupon the customer asks to apply to the order generated for one shop. */
export interface CouponChoice {
  shopId: number;
  couponId: number;
}

const Choice = z.object({ shopId: id, couponId: id }).strict();

/** Coupons of one checkout: at most one per generated shop order, so at most one per shop. */
const MAX_COUPONS = 100;

/**
 * The checkout's `coupons`: over REST a map `{"<shop id>": <coupon id>}`, over GraphQL (which has no
 * maps) a list of `{shopId, couponId}`; REST takes the list too. Both become one list; a shop named
 * twice is refused, so each generated shop order gets at most one coupon.
 */
export const CouponsInput = z
  .union([
    z.array(Choice).max(MAX_COUPONS),
    z
      .record(idText, id)
      .refine((map) => Object.keys(map).length <= MAX_COUPONS, `at most ${MAX_COUPONS} coupons`)
      .meta({ maxProperties: MAX_COUPONS })
      .transform((map) => Object.entries(map).map(([shopId, couponId]) => ({ shopId: Number(shopId), couponId }))),
  ])
  .superRefine((choices, issue) => {
    const seen = new Set<number>();
    for (const [i, c] of choices.entries()) {
      if (seen.has(c.shopId)) issue.addIssue({ code: 'custom', path: [i, 'shopId'], message: 'at most one coupon per shop order' });
      seen.add(c.shopId);
    }
  });

/** A coupon as redemption reads it: its terms, and whether now (the database's clock) is inside its window. */
export type CouponRow = Pick<
  Database['Coupon'],
  'id' | 'shop' | 'status' | 'discountKind' | 'amountOff' | 'percentOff' | 'maxDiscount' | 'minOrderAmount' | 'validFrom' | 'validUntil'
> & { inWindow: boolean };

/** Items total of a draft: the amount the threshold is compared with (base currency minor units). */
export const itemsTotalOf = (draft: Pick<DraftOrder, 'items'>) => draft.items.reduce((sum, i) => sum + i.unitPrice * i.quantity, 0);

/**
 * Coupons are refused on a shop order that applied flash-sale pricing or is a group-buying order.
 * Returns the pricing that forbids a coupon, or undefined when a coupon may apply.
 */
export function couponForbiddenBy(draft: Pick<DraftOrder, 'items'>): ItemPricing | undefined {
  return draft.items.find((item) => item.pricing === ItemPricing.FlashSale || item.pricing === ItemPricing.GroupBuy)?.pricing;
}

/**
 * The discount a coupon gives on `amount`: the fixed amount, or the percentage rounded down and
 * capped; never more than the amount.
 */
export function couponDiscount(terms: Pick<CouponRow, 'discountKind' | 'amountOff' | 'percentOff' | 'maxDiscount'>, amount: number): number {
  // The CHECK on the terms guarantees the kind's own field is set.
  let discount =
    terms.discountKind === DiscountKind.Fixed ? (terms.amountOff ?? 0) : Math.floor((amount * (terms.percentOff ?? 0)) / 100);
  if (terms.maxDiscount !== null) discount = Math.min(discount, terms.maxDiscount);
  return Math.max(0, Math.min(discount, amount));
}

/** Why a coupon cannot apply to a draft order, checked in this order; undefined when it can. */
export function couponRefusal(coupon: CouponRow | undefined, draft: DraftOrder, choice: CouponChoice) {
  const details = { shop_id: choice.shopId, coupon_id: choice.couponId };
  // Unknown and another customer's coupon get the same answer: its existence is not revealed.
  if (!coupon) return refused('COUPON_NOT_FOUND', `You hold no coupon ${choice.couponId}`, details);
  if (coupon.shop !== draft.shopId) return refused('COUPON_NOT_FOR_THIS_SHOP', `Coupon ${coupon.id} belongs to another shop`, details);
  if (coupon.status !== CouponStatus.Available) return refused('COUPON_ALREADY_USED', `Coupon ${coupon.id} was already used`, details);
  if (!coupon.inWindow) {
    return refused('COUPON_NOT_IN_WINDOW', `Coupon ${coupon.id} is not valid now`, {
      ...details,
      valid_from: coupon.validFrom,
      valid_until: coupon.validUntil,
    });
  }
  const pricing = couponForbiddenBy(draft);
  if (pricing) {
    return refused('COUPON_NOT_ALLOWED', `Coupons do not apply to a ${pricing === ItemPricing.GroupBuy ? 'group-buying order' : 'flash-sale priced order'}`, {
      ...details,
      pricing,
    });
  }
  const itemsTotal = itemsTotalOf(draft);
  if (itemsTotal < coupon.minOrderAmount) {
    return refused('COUPON_BELOW_THRESHOLD', `Coupon ${coupon.id} needs an order of at least ${coupon.minOrderAmount}`, {
      ...details,
      min_order_amount: coupon.minOrderAmount,
      order_amount: itemsTotal,
    });
  }
  return undefined;
}

/**
 * The coupon step of checkout, run after every step that prices the items (it looks at the final
 * items and their pricing): resolves each chosen coupon on the server (owner, shop, status, window,
 * order kind, threshold) and sets the draft's discount and coupon. Writes nothing: the order writer
 * redeems the coupons with the orders (`redeemCoupons`), each only if still available, and a preview
 * stops here.
 */
export async function priceCoupons(tx: ServiceContext, customerId: number, drafts: DraftOrder[], choices: CouponChoice[]): Promise<void> {
  if (choices.length === 0) return;
  const ids = choices.map((c) => c.couponId);
  const now = sql<Date>`now()`;
  const rows = await typedSql(tx.em)
    .selectFrom('Coupon')
    .select(['id', 'shop', 'status', 'discountKind', 'amountOff', 'percentOff', 'maxDiscount', 'minOrderAmount', 'validFrom', 'validUntil'])
    .select((eb) => eb.and([eb('validFrom', '<=', now), eb('validUntil', '>', now)]).$castTo<boolean>().as('inWindow'))
    .where('customer', '=', customerId)
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const choice of choices) {
    const draft = drafts.find((d) => d.shopId === choice.shopId);
    if (!draft) {
      throw refused('COUPON_SHOP_NOT_IN_CART', `Your cart has nothing from shop ${choice.shopId}`, { shop_id: choice.shopId, coupon_id: choice.couponId });
    }
    const coupon = byId.get(choice.couponId);
    const refusal = couponRefusal(coupon, draft, choice);
    if (refusal) throw refusal;
    if (!coupon) continue; // refused above: narrows the type
    draft.discount += couponDiscount(coupon, itemsTotalOf(draft) - draft.discount);
    draft.couponId = coupon.id;
  }
}

/**
 * Marks the chosen coupons used, each only if still available, with one guarded update: of two
 * concurrent checkouts with one coupon, one redeems it; the other is refused (COUPON_ALREADY_USED)
 * and its transaction rolls back.
 */
export async function redeemCoupons(em: EntityManager, customerId: number, choices: readonly CouponChoice[]): Promise<void> {
  if (choices.length === 0) return;
  const ids = choices.map((c) => c.couponId);
  const redeemed = await typedSql(em)
    .updateTable('Coupon')
    .set({ status: CouponStatus.Used, usedAt: sql<Date>`now()` })
    .where('customer', '=', customerId)
    .where('id', 'in', ids)
    .where('status', '=', CouponStatus.Available)
    .returning('id')
    .execute();
  const lost = choices.find((c) => !redeemed.some((r) => r.id === c.couponId));
  if (lost) throw refused('COUPON_ALREADY_USED', `Coupon ${lost.couponId} was already used`, { shop_id: lost.shopId, coupon_id: lost.couponId });
}

/** Subscriber of `order.cancelled`: a cancelled pending order gives its coupon back (in the cancellation's transaction). */
export async function restoreCouponsOfCancelledOrders(tx: ServiceContext, cancelled: readonly OrderTransition[]): Promise<void> {
  const orderIds = cancelled.filter((order) => order.from === OrderStatus.PendingPayment).map((order) => order.orderId);
  if (orderIds.length === 0) return;
  await typedSql(tx.em)
    .updateTable('Coupon')
    .set({ status: CouponStatus.Available, usedAt: null })
    .where('status', '=', CouponStatus.Used)
    .where('id', 'in', (eb) => eb.selectFrom('Order').select('coupon').where('id', 'in', orderIds).where('coupon', 'is not', null).$narrowType<{ coupon: NotNull }>())
    .execute();
}
