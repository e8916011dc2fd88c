import { activeFlashSaleSkuIds } from './flash-sale-pricing.js';
import { toDate } from '../shared/values.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, notFound, refused } from '../errors.js';
import { ItemPricing } from '../entities/order-item.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { id, z } from '../shared/validate.js';
import type { DraftOrder } from '../checkout/checkout-draft.js';
import { emitGroupOpened, expireGroupIfDue, refuseClosedGroup, type SeatProbe } from './group-buy-lifecycle.js';

/**
 * The group-buying intent of `POST /api/checkout` (`group_buy`). It buys one unit of the
 * activity's SKU: `skuId` and `quantity` may be sent (for clients that always send them) but must
 * name that SKU and 1. With `groupId` it joins that open group, without it opens a new one.
 */
export const GroupBuyIntent = z
  .object({
    activityId: id,
    groupId: id.optional(),
    skuId: id.optional(),
    quantity: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();

export type GroupBuyIntent = z.output<typeof GroupBuyIntent>;

/** Before the checkout transaction: a referenced group past its lifetime is expired first (its own transaction). */
export async function prepareGroupBuyCheckout(ctx: ServiceContext, intent: GroupBuyIntent | undefined): Promise<void> {
  if (intent?.groupId !== undefined) await expireGroupIfDue(ctx, intent.groupId);
}

interface ActivityRow {
  id: number;
  shop_id: number;
  sku_id: number;
  sku_name: string;
  product_id: number;
  product_name: string;
  product_status: string;
  group_price: number;
  capacity: number;
  lifetime_minutes: number;
  active: boolean;
  starts_at: Date;
  ends_at: Date;
}

/**
 * The one draft order of a group-buying checkout, priced `group_buy` at the group's price, with the
 * group it takes a seat in (opened here when the intent names none). The cart plays no part.
 * Refused: coupons, a quantity other than 1 or another SKU, an unpublished product, a SKU in an
 * active flash sale, an activity outside its window (opening), a closed group or one where the
 * customer already holds an order (joining).
 */
export async function draftGroupBuyOrder(
  tx: ServiceContext,
  customerId: number,
  request: { groupBuy: GroupBuyIntent; coupons?: readonly unknown[] },
): Promise<DraftOrder> {
  const intent = request.groupBuy;
  if (request.coupons && request.coupons.length > 0) {
    throw refused('GROUP_BUY_NO_COUPONS', 'Coupons cannot be used on a group-buying order');
  }
  if ((intent.quantity ?? 1) !== 1) throw singleItem(intent, 'quantity');

  // `for key share`: a concurrent delete of the activity waits for this checkout (and is then refused).
  const [activity] = await tx.em.execute<ActivityRow[]>(
    `select a.id, a.shop_id, a.sku_id, a.group_price, a.capacity, a.lifetime_minutes, a.starts_at, a.ends_at,
            a.starts_at <= now() and a.ends_at > now() as active,
            s.name as sku_name, p.id as product_id, p.name as product_name, p.status as product_status
       from group_buy_activity a join sku s on s.id = a.sku_id join product p on p.id = a.product_id
      where a.id = ? for key share of a`,
    [intent.activityId],
  );
  if (!activity) throw notFound('Group-buying activity', { activity_id: intent.activityId });
  if (intent.skuId !== undefined && intent.skuId !== activity.sku_id) throw singleItem(intent, 'sku', activity.sku_id);
  if (activity.product_status !== 'published') {
    throw refused('PRODUCT_UNAVAILABLE', `SKU ${activity.sku_id} is no longer on sale`, { sku_id: activity.sku_id });
  }
  await refuseSkuInActiveFlashSale(tx.em, activity.sku_id);

  const group = intent.groupId === undefined ? await openGroup(tx, customerId, activity) : await joinGroup(tx, customerId, activity, intent.groupId);
  return {
    shopId: activity.shop_id,
    discount: 0,
    group,
    items: [
      {
        skuId: activity.sku_id,
        skuName: activity.sku_name,
        productId: activity.product_id,
        productName: activity.product_name,
        unitPrice: group.price,
        quantity: 1,
        pricing: ItemPricing.GroupBuy,
      },
    ],
  };
}

function singleItem(intent: GroupBuyIntent, problem: 'quantity' | 'sku', activitySkuId?: number) {
  return refused('GROUP_BUY_SINGLE_ITEM', "A group-buying checkout buys exactly one unit of the activity's SKU", {
    problem,
    activity_id: intent.activityId,
    ...(problem === 'quantity' ? { quantity: intent.quantity } : { sku_id: intent.skuId, activity_sku_id: activitySkuId }),
  });
}

/** A new open group with the customer as opener; capacity and price are the activity's at this moment. */
async function openGroup(tx: ServiceContext, customerId: number, activity: ActivityRow): Promise<{ id: number; price: number }> {
  if (!activity.active) {
    throw refused('GROUP_BUY_NOT_ACTIVE', 'This group-buying activity is not running now', {
      activity_id: activity.id,
      starts_at: toDate(activity.starts_at),
      ends_at: toDate(activity.ends_at),
    });
  }
  const [group] = await tx.em.execute<{ id: number }[]>(
    `insert into group_buy_group (activity_id, opener_id, state, capacity, group_price, paid_seats, expires_at, created_at)
     values (?, ?, 'open', ?, ?, 0, now() + make_interval(mins => ?), now()) returning id`,
    [activity.id, customerId, activity.capacity, activity.group_price, activity.lifetime_minutes],
  );
  emitGroupOpened(tx, { id: group.id, activity_id: activity.id, shop_id: activity.shop_id, paid_seats: 0, capacity: activity.capacity });
  return { id: group.id, price: activity.group_price };
}

/**
 * An existing group of this activity that still has a free seat. No seat is taken here (seats are
 * claimed at payment); `for share` makes a concurrent close of the group wait for this checkout.
 * The activity's window does not matter: a group opened in time may fill after the window.
 */
async function joinGroup(tx: ServiceContext, customerId: number, activity: ActivityRow, groupId: number): Promise<{ id: number; price: number }> {
  const [group] = await tx.em.execute<(SeatProbe & { group_price: number })[]>(
    `select id, state, capacity, paid_seats, group_price, expires_at <= now() as lapsed
       from group_buy_group where id = ? and activity_id = ? for share`,
    [groupId, activity.id],
  );
  if (!group) throw notFound('Group', { group_id: groupId, activity_id: activity.id });
  refuseClosedGroup(group);
  const held = await tx.em.execute(
    `select 1 from shop_order where group_id = ? and customer_id = ? and status <> 'cancelled' limit 1`,
    [groupId, customerId],
  );
  if (held.length > 0) throw conflict('GROUP_ALREADY_JOINED', 'You already hold an order in this group', { group_id: groupId });
  return { id: group.id, price: group.group_price };
}

/**
 * Exclusion between flash sales and group buying, group side: a SKU that is an item of a flash-sale
 * session which is enabled and whose window contains now cannot be bought through a group-buying
 * intent. The other direction needs nothing here: flash-sale pricing considers only `standard`
 * items, and a group order's single item is `group_buy`.
 */
export async function refuseSkuInActiveFlashSale(em: EntityManager, skuId: number): Promise<void> {
  if ((await activeFlashSaleSkuIds(em, [skuId])).has(skuId)) {
    throw refused('GROUP_BUY_FLASH_SALE_CONFLICT', 'This SKU is in a running flash sale; buy it there instead of through a group', { sku_id: skuId });
  }
}
