import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { activeFlashSaleSkuIds } from './flash-sale-pricing.js';
import { typedSql } from '../../db/typed-sql.js';
import { conflict, notFound, refused } from '../../errors.js';
import { BuyingGroup } from '../../entities/group-buy.entity.js';
import { ItemPricing } from '../../entities/order-item.entity.js';
import { Order, OrderStatus } from '../../entities/order.entity.js';
import { ProductStatus } from '../../entities/product.entity.js';
import { refuseInactiveShops } from '../catalog/shop-status.js';
import type { ServiceContext } from '../../shared/context.js';
import { id, z } from '../../shared/validate.js';
import type { DraftOrder } from '../../shared/checkout-draft.js';
import { emitGroupOpened, expireGroupIfDue, lapsed, refuseClosedGroup } from './group-buy-lifecycle.js';

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

/**
 * The one draft order of a group-buying checkout, priced `group_buy` at the group's price, with the
 * group it takes a seat in (opened here when the intent names none). The cart plays no part.
 * Refused: coupons, a quantity other than 1 or another SKU, a shop not active, an unpublished product, a SKU in an
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

  const activity = await readActivity(tx.em, intent.activityId);
  if (!activity) throw notFound('Group-buying activity', { activity_id: intent.activityId });
  if (intent.skuId !== undefined && intent.skuId !== activity.sku) throw singleItem(intent, 'sku', activity.sku);
  // Held until this checkout commits: a suspension of the shop waits for it, or refuses it here.
  await refuseInactiveShops(tx, [activity.shop]);
  if (!activity.onSale) {
    throw refused('PRODUCT_UNAVAILABLE', `SKU ${activity.sku} is no longer on sale`, { sku_id: activity.sku });
  }
  await refuseSkuInActiveFlashSale(tx.em, activity.sku);

  const group = intent.groupId === undefined ? await openGroup(tx, customerId, activity) : await joinGroup(tx, customerId, activity, intent.groupId);
  return {
    shopId: activity.shop,
    discount: 0,
    group,
    items: [
      {
        skuId: activity.sku,
        skuName: activity.skuName,
        productId: activity.product,
        productName: activity.productName,
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

/**
 * The activity with what the draft copies from its SKU and product. `for key share`: a concurrent
 * delete of the activity waits for this checkout (and is then refused).
 */
function readActivity(em: EntityManager, activityId: number) {
  const now = sql<Date>`now()`;
  return typedSql(em)
    .selectFrom('GroupBuyActivity as a')
    .innerJoin('Sku as s', 's.id', 'a.sku')
    .innerJoin('Product as p', 'p.id', 'a.product')
    .select((eb) => [
      'a.id', 'a.shop', 'a.sku', 'a.product', 'a.groupPrice', 'a.capacity', 'a.lifetimeMinutes', 'a.startsAt', 'a.endsAt',
      eb.and([eb('a.startsAt', '<=', now), eb('a.endsAt', '>', now)]).$castTo<boolean>().as('active'),
      's.name as skuName',
      'p.name as productName',
      eb('p.status', '=', ProductStatus.Published).$castTo<boolean>().as('onSale'),
    ])
    .where('a.id', '=', activityId)
    .forKeyShare('a')
    .executeTakeFirst();
}

type ActivityRow = NonNullable<Awaited<ReturnType<typeof readActivity>>>;

/** A new open group with the customer as opener; capacity and price are the activity's at this moment. */
async function openGroup(tx: ServiceContext, customerId: number, activity: ActivityRow): Promise<{ id: number; price: number }> {
  if (!activity.active) {
    throw refused('GROUP_BUY_NOT_ACTIVE', 'This group-buying activity is not running now', {
      activity_id: activity.id,
      starts_at: activity.startsAt,
      ends_at: activity.endsAt,
    });
  }
  const openedAt = new Date();
  const group = tx.em.create(BuyingGroup, {
    activity: activity.id,
    opener: customerId,
    capacity: activity.capacity,
    groupPrice: activity.groupPrice,
    createdAt: openedAt,
    expiresAt: new Date(openedAt.getTime() + activity.lifetimeMinutes * 60_000),
  });
  await tx.em.flush();
  emitGroupOpened(tx, { id: group.id, activity: activity.id, shop: activity.shop, paidSeats: 0, capacity: activity.capacity });
  return { id: group.id, price: activity.groupPrice };
}

/**
 * An existing group of this activity that still has a free seat. No seat is taken here (seats are
 * claimed at payment); `for share` makes a concurrent close of the group wait for this checkout.
 * The activity's window does not matter: a group opened in time may fill after the window.
 */
async function joinGroup(tx: ServiceContext, customerId: number, activity: ActivityRow, groupId: number): Promise<{ id: number; price: number }> {
  const group = await typedSql(tx.em)
    .selectFrom('BuyingGroup')
    .select((eb) => ['id', 'state', 'capacity', 'paidSeats', 'groupPrice', lapsed(eb)])
    .where('id', '=', groupId)
    .where('activity', '=', activity.id)
    .forShare()
    .executeTakeFirst();
  if (!group) throw notFound('Group', { group_id: groupId, activity_id: activity.id });
  refuseClosedGroup(group);
  const held = await tx.em.count(Order, { group: groupId, customer: customerId, status: { $ne: OrderStatus.Cancelled } });
  if (held > 0) throw conflict('GROUP_ALREADY_JOINED', 'You already hold an order in this group', { group_id: groupId });
  return { id: group.id, price: group.groupPrice };
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
