import { conflict } from '../../errors.js';
import { refusals } from '../../error-codes.js';
import { typedSql } from '../../db/typed-sql.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { requirePlatformPermission } from '../../shared/guards.js';
import { Permission } from '../../shared/permissions.js';
import { inTransaction } from '../../shared/transaction.js';
import { id, NOT_BLANK, parseInput, z } from '../../shared/validate.js';
import { changeListenerOf } from '../../db/change-listener.js';
import { HOME_CONTENT_CHANNEL } from '../catalog/home-content.service.js';
import { OPEN_REFUND_STATES } from '../orders/order-lifecycle.js';
import { moveShop, type ShopMove } from './shop-lifecycle.js';
import type { ShopStateView } from './shop-state-view.js';

/**
 * Shop states (issue 41, item 2): a platform admin suspends a shop with a reason, reinstates it, or
 * closes it. The state moves only through shop-lifecycle.ts; this module checks the input, the
 * access and what closing requires.
 */

export const ShopRef = z.strictObject({ shopId: id });
export const SuspendShopInput = ShopRef.extend({ reason: z.string().trim().regex(NOT_BLANK, 'must not be blank').max(500) });

/** Orders not yet completed or cancelled: the shop still owes them something (shipping, after-sale). */
const OPEN_ORDER_STATES = [OrderStatus.PendingPayment, OrderStatus.AwaitingGroup, OrderStatus.Paid, OrderStatus.Shipped, OrderStatus.Delivered];

/** The shop's own money: what it earned, may be paid, is on its way to its bank, or owes. The commission is the platform's. */
const SHOP_MONEY = [BalanceKind.ShopPending, BalanceKind.ShopAvailable, BalanceKind.ShopInTransit, BalanceKind.ShopDebt];

/**
 * Runs the move, then tells this process's home content at once (the other processes hear the
 * shop's status trigger at commit, migration ShopStates): a kept home page may link to the shop's
 * products or page.
 */
async function move(ctx: ServiceContext, shopId: number, name: ShopMove, reason?: string, check?: (tx: ServiceContext) => Promise<void>): Promise<ShopStateView> {
  return inTransaction(ctx, async (tx) => {
    const moved = await moveShop(tx, shopId, name, reason);
    // After the move: its row lock keeps new orders of the shop out while the checks read.
    await check?.(tx);
    const state: ShopStateView = { shopId: moved.id, status: moved.status, reason: moved.statusReason ?? undefined, changedAt: moved.statusChangedAt ?? undefined };
    return state;
  }).finally(() => changeListenerOf(ctx.em, HOME_CONTENT_CHANNEL)?.changed());
}

export const suspendShopRefusals = refusals('NOT_FOUND', 'SHOP_WRONG_STATE');

/** Suspends an active shop: its products leave the storefront, its coupons, flash sales and groups stop, its payouts are held. */
export async function suspendShop(ctx: ServiceContext, input: unknown): Promise<ShopStateView> {
  requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  const { shopId, reason } = parseInput(SuspendShopInput, input);
  return move(ctx, shopId, 'suspend', reason);
}

export const reinstateShopRefusals = refusals('NOT_FOUND', 'SHOP_WRONG_STATE');

/** Reinstates a suspended shop: the products it held are published again. */
export async function reinstateShop(ctx: ServiceContext, input: unknown): Promise<ShopStateView> {
  requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  const { shopId } = parseInput(ShopRef, input);
  return move(ctx, shopId, 'reinstate');
}

export const closeShopRefusals = refusals('NOT_FOUND', 'SHOP_WRONG_STATE', 'SHOP_HAS_OPEN_ORDERS', 'SHOP_HAS_OPEN_REFUNDS', 'SHOP_BALANCE_NOT_ZERO');

/**
 * Closes an active or suspended shop for good. Refused (nothing changes) while it has an order not
 * completed or cancelled, a refund or return still open, or money on any of its balances.
 */
export async function closeShop(ctx: ServiceContext, input: unknown): Promise<ShopStateView> {
  requirePlatformPermission(ctx, Permission.PlatformShopsManage);
  const { shopId } = parseInput(ShopRef, input);
  return move(ctx, shopId, 'close', undefined, (tx) => refuseUnlessClosable(tx, shopId));
}

async function refuseUnlessClosable(tx: ServiceContext, shopId: number): Promise<void> {
  const db = typedSql(tx.em);
  const { orders, firstOrder, refunds, firstRefund } = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('Order').select((o) => o.cast<number>(o.fn.countAll(), 'integer').as('n')).where('shop', '=', shopId).where('status', 'in', OPEN_ORDER_STATES).$asScalar().$notNull().as('orders'),
      eb.selectFrom('Order').select((o) => o.fn.min('id').as('id')).where('shop', '=', shopId).where('status', 'in', OPEN_ORDER_STATES).$asScalar().as('firstOrder'),
      eb
        .selectFrom('Refund as r')
        .innerJoin('Order as o', 'o.id', 'r.order')
        .select((r) => r.cast<number>(r.fn.countAll(), 'integer').as('n'))
        .where('o.shop', '=', shopId)
        .where('r.status', 'in', [...OPEN_REFUND_STATES])
        .$asScalar()
        .$notNull()
        .as('refunds'),
      eb
        .selectFrom('Refund as r')
        .innerJoin('Order as o', 'o.id', 'r.order')
        .select((r) => r.fn.min('r.id').as('id'))
        .where('o.shop', '=', shopId)
        .where('r.status', 'in', [...OPEN_REFUND_STATES])
        .$asScalar()
        .as('firstRefund'),
    ])
    .executeTakeFirstOrThrow();
  if (orders > 0) {
    throw conflict('SHOP_HAS_OPEN_ORDERS', `This shop has ${orders} order(s) not yet completed or cancelled`, { shop_id: shopId, open_orders: orders, order_id: firstOrder ?? undefined });
  }
  if (refunds > 0) {
    throw conflict('SHOP_HAS_OPEN_REFUNDS', `This shop has ${refunds} refund(s) or return(s) still open`, { shop_id: shopId, open_refunds: refunds, refund_id: firstRefund ?? undefined });
  }
  const money = await db
    .selectFrom('Balance')
    .select(['kind', 'amount'])
    .where('shop', '=', shopId)
    .where('kind', 'in', SHOP_MONEY)
    .where('amount', '<>', 0)
    .orderBy('kind')
    .executeTakeFirst();
  if (money) {
    throw conflict('SHOP_BALANCE_NOT_ZERO', `This shop's ${money.kind} balance is ${money.amount}, not zero`, { shop_id: shopId, kind: money.kind, amount: Number(money.amount) });
  }
}
