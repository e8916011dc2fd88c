import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from 'kysely';
import { typedSql } from '../db/typed-sql.js';
import { ProductStatus } from '../entities/product.entity.js';
import type { User } from '../entities/user.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { createTemplate } from '../services/promotions/coupon.service.js';
import { createFlashSale, enableFlashSale } from '../services/promotions/flash-sale.service.js';
import { createGroupBuy } from '../services/promotions/group-buy.service.js';
import { assignFreightTemplate, createFreightTemplate } from '../services/shipping/freight-template.service.js';
import { setCartItem } from '../services/checkout/cart.service.js';
import { checkout } from '../services/checkout/checkout.service.js';
import { completeDeliveredOrders, confirmDelivery } from '../services/orders/order.service.js';
import { payOrder, receiveNotification, startPayment } from '../services/payments/payment.service.js';
import { settlePaymentRefunds } from '../services/payments/payment-refunds.js';
import { SandboxProvider } from '../services/payments/sandbox-provider.js';
import { approveRefund, requestRefund } from '../services/after-sale/refund.service.js';
import { createShipment } from '../services/orders/shipment.service.js';
import { replyToReview, reviewOrderItem } from '../services/after-sale/review.service.js';
import { redeemPointsProduct } from '../services/points/points-mall.service.js';
import { seedContexts, type SeedActor } from './seed-context.js';
import {
  ALICE_ADDRESS, BOB_ADDRESS, COUPON_TEMPLATES, DELIVERED_PURCHASES, FLASH_SALES, FREIGHT_TEMPLATE, GATEWAY_PURCHASE, GROUP_BUY, REDEMPTION,
} from './showcase-data.js';

export interface ShowcaseCast {
  /** Shop operators by shop slug. */
  operators: Map<string, SeedActor>;
  alice: User;
  bob: User;
}

interface SkuPick {
  productId: number;
  skuId: number;
  price: number;
}

/**
 * Hands out each shop's published products in id order, one SKU each (the first), never the same
 * product twice: a flash-sale SKU must not be the group-buy SKU, and alice's purchases stay at the
 * standard price.
 */
async function productPicker(em: EntityManager) {
  const rows = await typedSql(em)
    .selectFrom('Sku as s')
    .innerJoin('Product as p', 'p.id', 's.product')
    .innerJoin('Shop as sh', 'sh.id', 'p.shop')
    .select(['sh.slug', 'p.id as productId', 's.id as skuId', 's.price'])
    .where('p.status', '=', ProductStatus.Published)
    .orderBy('p.id')
    .orderBy('s.id')
    .execute();
  const taken = new Set<number>();
  return (shop: string): SkuPick => {
    const row = rows.find((r) => r.slug === shop && !taken.has(r.productId));
    if (!row) throw new Error(`demo seed: shop ${shop} has no published product left to show`);
    taken.add(row.productId);
    return { productId: row.productId, skuId: row.skuId, price: row.price };
  };
}

const percentOf = (price: number, percent: number) => Math.round((price * percent) / 100);

/**
 * Promotions, orders and after-sale records made through the real use cases, as the demo accounts
 * would make them over the API, inside the seed's transaction (see seed-context.ts).
 */
export async function seedShowcase(em: EntityManager, nodeEnv: string, cast: ShowcaseCast): Promise<void> {
  const as = seedContexts(em, nodeEnv);
  const operator = (shop: string) => as(cast.operators.get(shop)!);
  const alice = as(cast.alice);
  const bob = as(cast.bob);
  const pick = await productPicker(em);
  const now = Date.now();
  const at = (offset: number) => new Date(now + offset);

  for (const template of COUPON_TEMPLATES) await createTemplate(operator(template.shop), template.terms);

  const freight = await createFreightTemplate(operator(FREIGHT_TEMPLATE.shop), FREIGHT_TEMPLATE.terms);
  const freightProducts = Array.from({ length: FREIGHT_TEMPLATE.productsAssigned }, () => pick(FREIGHT_TEMPLATE.shop));
  for (const { productId } of freightProducts) {
    await assignFreightTemplate(operator(FREIGHT_TEMPLATE.shop), { productId, freightTemplateId: freight.id });
  }

  for (const sale of FLASH_SALES) {
    const items = Array.from({ length: sale.skus }, () => pick(sale.shop)).map((sku) => ({
      skuId: sku.skuId,
      activityPrice: percentOf(sku.price, sale.percentOfPrice),
      reservedStock: sale.reservedStock,
      perCustomerLimit: sale.perCustomerLimit,
    }));
    const session = await createFlashSale(operator(sale.shop), { name: sale.name, startsAt: at(sale.startsIn), endsAt: at(sale.startsIn + sale.lasts), items });
    await enableFlashSale(operator(sale.shop), { flashSaleId: session.id });
  }

  // The group: alice opens it, bob joins; both pay their seat, so it waits for one more member.
  const groupSku = pick(GROUP_BUY.shop);
  const activity = await createGroupBuy(operator(GROUP_BUY.shop), {
    skuId: groupSku.skuId,
    groupPrice: percentOf(groupSku.price, GROUP_BUY.percentOfPrice),
    capacity: GROUP_BUY.capacity,
    lifetimeMinutes: GROUP_BUY.lifetimeMinutes,
    startsAt: at(GROUP_BUY.startsIn),
    endsAt: at(GROUP_BUY.startsIn + GROUP_BUY.lasts),
  });
  const [opened] = await checkout(alice, { shippingAddress: ALICE_ADDRESS, groupBuy: { activityId: activity.id } });
  await payOrder(alice, { orderId: opened.id });
  const [joined] = await checkout(bob, { shippingAddress: BOB_ADDRESS, groupBuy: { activityId: activity.id, groupId: opened.groupId } });
  await payOrder(bob, { orderId: joined.id });

  // Alice's delivered orders: one checkout over two shops (one product with the freight template).
  const purchases = DELIVERED_PURCHASES.map((p) => ({ ...p, sku: p.shop === FREIGHT_TEMPLATE.shop ? freightProducts[0] : pick(p.shop) }));
  for (const p of purchases) await setCartItem(alice, { skuId: p.sku.skuId, quantity: 1 });
  const orders = await checkout(alice, { shippingAddress: ALICE_ADDRESS });
  for (const p of purchases) {
    const order = orders.find((o) => o.shop.slug === p.shop)!;
    await payOrder(alice, { orderId: order.id });
    await createShipment(operator(p.shop), { orderId: order.id, companyCode: p.carrier, trackingNumber: p.trackingNumber });
    await confirmDelivery(alice, { orderId: order.id });
    const review = await reviewOrderItem(alice, { orderId: order.id, orderItemId: order.items[0].id, ...p.review });
    if (p.reply) await replyToReview(operator(p.shop), { reviewId: review.id, text: p.reply });
  }

  await seedGatewayPurchase(bob, operator, pick);

  const [tote] = await typedSql(em).selectFrom('PointsProduct').select('id').where('name', '=', REDEMPTION.item).execute();
  await redeemPointsProduct(bob, tote.id, { quantity: REDEMPTION.quantity, shippingAddress: BOB_ADDRESS });
}

/**
 * Bob's purchase through the sandbox gateway, as it happens on a running server: the payment is
 * started (pending), the gateway's signed notification is received and verified by the payment
 * module (the seed delivers it itself: no server listens yet), a line is refunded and the refund sent
 * back through the gateway. Skipped where the sandbox is not offered (PAYMENT_METHODS without it).
 */
async function seedGatewayPurchase(bob: ServiceContext, operator: (shop: string) => ServiceContext, pick: (shop: string) => SkuPick): Promise<void> {
  const sandbox = bob.wiring.paymentProviders.sandbox;
  if (!(sandbox instanceof SandboxProvider)) return;
  const lines = GATEWAY_PURCHASE.lines.map((line) => ({ ...line, sku: pick(line.shop) }));
  for (const line of lines) await setCartItem(bob, { skuId: line.sku.skuId, quantity: line.quantity });
  const orders = await checkout(bob, { shippingAddress: BOB_ADDRESS });
  const payment = await startPayment(bob, { orderIds: orders.map((o) => o.id), method: 'sandbox' });
  // The sandbox would notify the server after its delay; the seed hands the same signed notification in now.
  sandbox.stop();
  const signed = sandbox.notificationFor(payment.providerReference!)!;
  await receiveNotification(bob, { method: 'sandbox' }, { headers: { 'sandbox-signature': signed.signature }, rawBody: signed.body });
  const order = orders.find((o) => o.shop.slug === GATEWAY_PURCHASE.refund.shop)!;
  const refund = await requestRefund(bob, {
    orderId: order.id, kind: 'refund', reason: GATEWAY_PURCHASE.refund.reason, items: [{ orderItemId: order.items[0].id, quantity: GATEWAY_PURCHASE.refund.quantity }],
  });
  await approveRefund(operator(GATEWAY_PURCHASE.refund.shop), { refundId: refund.id });
  await settlePaymentRefunds(bob);

  // Bob's other order was shipped and delivered ten days ago (its dates moved back: history the seed
  // writes directly), so its after-sale window is over: the completion sweep completes it and its
  // shop's earnings become available, and the platform's payout screens have a shop to pay.
  const kept = orders.find((o) => o.shop.slug !== GATEWAY_PURCHASE.refund.shop)!;
  const shop = kept.shop.slug;
  await createShipment(operator(shop), { orderId: kept.id, companyCode: 'sf', trackingNumber: GATEWAY_PURCHASE.delivered.trackingNumber });
  await confirmDelivery(bob, { orderId: kept.id });
  const earlier = (column: 'created_at' | 'paid_at' | 'shipped_at' | 'delivered_at') => sql<Date>`${sql.ref(column)} - make_interval(days => ${GATEWAY_PURCHASE.delivered.daysAgo})`;
  await typedSql(bob.em)
    .updateTable('Order')
    .set({ createdAt: earlier('created_at'), paidAt: earlier('paid_at'), shippedAt: earlier('shipped_at'), deliveredAt: earlier('delivered_at') })
    .where('id', '=', kept.id)
    .execute();
  await completeDeliveredOrders(bob);
}
