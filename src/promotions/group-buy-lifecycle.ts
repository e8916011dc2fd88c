import { EventTypes } from '../events/event-types.js';
import { conflict, refused } from '../errors.js';
import { intArray } from '../db/sql.js';
import { BalanceKind } from '../entities/balance.entity.js';
import { GroupState } from '../entities/group-buy.entity.js';
import { OrderStatus } from '../entities/order.entity.js';
import type { ServiceContext } from '../shared/context.js';
import { emit, inTransaction } from '../shared/transaction.js';
import { debit, freeze, lockBalances, release } from '../accounts/ledger.service.js';
import { returnStock, type Demand } from '../catalog/stock.js';
import { orderViews, type OrderView } from '../orders/order-view.js';

/**
 * The life of a buying group: seats paid (money frozen), success (frozen money settled), expiry
 * (frozen money released, the seat orders cancelled) and cancellation by the opener. Every change
 * of state happens under the group's row lock, or as one guarded UPDATE of that row.
 */

interface ClosedGroup {
  id: number;
  activity_id: number;
  shop_id: number;
  paid_seats: number;
  capacity: number;
}

function emitStateChanged(tx: ServiceContext, group: ClosedGroup, state: GroupState, orderIds: number[] = []): void {
  emit(tx, {
    type: EventTypes.GROUP_STATE_CHANGED,
    shopIds: [group.shop_id],
    customerId: null,
    payload: { groupId: group.id, activityId: group.activity_id, state, paidSeats: group.paid_seats, capacity: group.capacity, orderIds },
  });
}

/** Announces a group that checkout just opened. */
export function emitGroupOpened(tx: ServiceContext, group: ClosedGroup): void {
  emitStateChanged(tx, group, GroupState.Open);
}

/** What a group looks like to someone who wants a seat in it. */
export interface SeatProbe {
  id: number;
  state: GroupState;
  capacity: number;
  paid_seats: number;
  /** Open, but its lifetime has ended (the sweep has not reached it yet). */
  lapsed: boolean;
}

/** Refuses a seat in a group that is closed: expired or cancelled (not joinable), or full. */
export function refuseClosedGroup(group: SeatProbe): void {
  const state = group.state === GroupState.Open && group.lapsed ? GroupState.Expired : group.state;
  if (state === GroupState.Expired || state === GroupState.Cancelled) {
    throw refused('GROUP_NOT_JOINABLE', `This group is ${state} and cannot be joined`, { group_id: group.id, state });
  }
  if (state === GroupState.Successful || group.paid_seats >= group.capacity) {
    throw refused('GROUP_FULL', 'Every seat of this group is taken', { group_id: group.id, capacity: group.capacity });
  }
}

/**
 * Pays a seat of a group order whose status payOrder has just set to `awaiting_group`: locks the
 * group, refuses a closed or full group (the caller's transaction then rolls back: nothing is
 * frozen and the order stays pending), freezes the amount, writes the membership and takes the seat.
 * The seat that fills the group settles every member.
 */
export async function payGroupSeat(
  tx: ServiceContext,
  paid: { orderId: number; customerId: number; total: number; groupId: number },
): Promise<OrderView> {
  const [group] = await tx.em.execute<(SeatProbe & { activity_id: number; shop_id: number })[]>(
    `select g.id, g.activity_id, a.shop_id, g.state, g.capacity, g.paid_seats, g.expires_at <= now() as lapsed
       from group_buy_group g join group_buy_activity a on a.id = g.activity_id
      where g.id = ? for no key update of g`,
    [paid.groupId],
  );
  refuseClosedGroup(group);
  if (group.paid_seats + 1 === group.capacity) {
    // This seat fills the group and settles every member: lock all their balances, the payer's
    // included, in one order before any is touched, so two groups filling at once with shared members
    // queue instead of deadlocking (the group row lock makes "fills" certain).
    const members = await tx.em.execute<{ customer_id: number }[]>('select customer_id from group_buy_membership where group_id = ?', [paid.groupId]);
    await lockBalances(tx.em, [paid.customerId, ...members.map((m) => m.customer_id)]);
  }
  const reference = { type: 'order', id: paid.orderId };
  await freeze(tx.em, { userId: paid.customerId, amount: paid.total, reason: 'group_seat', reference });
  const member = await tx.em.execute<{ id: number }[]>(
    `insert into group_buy_membership (group_id, order_id, customer_id, amount, created_at) values (?, ?, ?, ?, now())
     on conflict do nothing returning id`,
    [paid.groupId, paid.orderId, paid.customerId, paid.total],
  );
  if (member.length === 0) throw conflict('GROUP_ALREADY_JOINED', 'You already hold a paid seat in this group', { group_id: paid.groupId });
  const [seat] = await tx.em.execute<{ paid_seats: number; state: GroupState }[]>(
    `update group_buy_group
        set paid_seats = paid_seats + 1,
            state = case when paid_seats + 1 = capacity then 'successful' else state end,
            closed_at = case when paid_seats + 1 = capacity then now() else closed_at end
      where id = ? and state = 'open' and paid_seats < capacity
      returning paid_seats, state`,
    [paid.groupId],
  );
  // The lock and the check above make this unreachable; the guard keeps the capacity exact regardless.
  if (!seat) throw refused('GROUP_FULL', 'Every seat of this group is taken', { group_id: paid.groupId, capacity: group.capacity });

  const successful = seat.state === GroupState.Successful;
  emit(tx, {
    type: EventTypes.ORDER_PAID,
    shopIds: [group.shop_id],
    customerId: paid.customerId,
    payload: { orderId: paid.orderId, total: paid.total, status: successful ? OrderStatus.Paid : OrderStatus.AwaitingGroup, groupId: paid.groupId },
  });
  if (successful) await settleGroup(tx, { ...group, paid_seats: seat.paid_seats });
  return (await orderViews(tx.em, [paid.orderId]))[0];
}

/** Capacity reached: every member's order becomes `paid` (and sold) and their frozen amounts are debited. */
async function settleGroup(tx: ServiceContext, group: ClosedGroup): Promise<void> {
  const members = await tx.em.execute<{ id: number; customer_id: number; amount: number }[]>(
    `update shop_order o set status = 'paid'
       from group_buy_membership m
      where m.group_id = ? and o.id = m.order_id and o.status = 'awaiting_group'
      returning o.id, o.customer_id, m.amount`,
    [group.id],
  );
  // Ascending customer order, so two settlements touching the same customers lock balances alike.
  members.sort((a, b) => a.customer_id - b.customer_id);
  for (const m of members) {
    await debit(tx.em, { userId: m.customer_id, kind: BalanceKind.Frozen, amount: m.amount, reason: 'group_settlement', reference: { type: 'order', id: m.id } });
  }
  const orderIds = members.map((m) => m.id);
  await tx.em.execute('update order_item set sold = true where order_id = any(?::int[])', [intArray(orderIds)]);
  emitStateChanged(tx, group, GroupState.Successful, orderIds);
}

/**
 * open -> expired when the lifetime has ended: one guarded UPDATE (it waits for a payment holding
 * the lock, then sees the outcome). Each paid seat's order is cancelled (`group_expired`), its stock
 * returned and its frozen amount released. Returns false when the group was not due.
 */
export async function expireGroup(tx: ServiceContext, groupId: number): Promise<boolean> {
  const [group] = await tx.em.execute<ClosedGroup[]>(
    `update group_buy_group g set state = 'expired', closed_at = now()
       from group_buy_activity a
      where g.id = ? and a.id = g.activity_id and g.state = 'open' and g.expires_at <= now()
      returning g.id, g.activity_id, a.shop_id, g.paid_seats, g.capacity`,
    [groupId],
  );
  if (!group) return false;
  const seats = await tx.em.execute<{ id: number; customer_id: number; amount: number }[]>(
    `update shop_order o set status = 'cancelled', cancelled_at = now(), cancel_reason = 'group_expired'
       from group_buy_membership m
      where m.group_id = ? and o.id = m.order_id and o.status = 'awaiting_group'
      returning o.id, o.customer_id, m.amount`,
    [groupId],
  );
  seats.sort((a, b) => a.customer_id - b.customer_id);
  for (const s of seats) {
    await release(tx.em, { userId: s.customer_id, amount: s.amount, reason: 'group_expired', reference: { type: 'order', id: s.id } });
  }
  const orderIds = seats.map((s) => s.id);
  if (orderIds.length > 0) {
    const items = await tx.em.execute<{ sku_id: number; quantity: number }[]>(
      'select sku_id, sum(quantity)::int as quantity from order_item where order_id = any(?::int[]) group by sku_id',
      [intArray(orderIds)],
    );
    const demand: Demand = new Map(items.map((i) => [i.sku_id, i.quantity]));
    await returnStock(tx.em, demand);
  }
  for (const s of seats) {
    emit(tx, {
      type: EventTypes.ORDER_CANCELLED,
      shopIds: [group.shop_id],
      customerId: s.customer_id,
      payload: { orderId: s.id, reason: 'group_expired', status: OrderStatus.Cancelled },
    });
  }
  emitStateChanged(tx, group, GroupState.Expired, orderIds);
  return true;
}

/**
 * Hook of `cancelPendingOrder` (inside its transaction) for every cancelled order. For an order of
 * a group: the expiry runs first (a lifetime already ended gives `expired`); then, when the order
 * was the opener's and no seat is paid, the group becomes `cancelled`. Paid seats are never touched.
 */
export async function onPendingOrderCancelled(tx: ServiceContext, orderId: number): Promise<void> {
  const [row] = await tx.em.execute<{ group_id: number; by_opener: boolean }[]>(
    `select o.group_id, o.customer_id = g.opener_id as by_opener
       from shop_order o join group_buy_group g on g.id = o.group_id where o.id = ?`,
    [orderId],
  );
  if (!row) return;
  if (await expireGroup(tx, row.group_id)) return;
  if (!row.by_opener) return;
  const [group] = await tx.em.execute<ClosedGroup[]>(
    `update group_buy_group g set state = 'cancelled', closed_at = now()
       from group_buy_activity a
      where g.id = ? and a.id = g.activity_id and g.state = 'open' and g.paid_seats = 0 and g.expires_at > now()
      returning g.id, g.activity_id, a.shop_id, g.paid_seats, g.capacity`,
    [row.group_id],
  );
  if (group) emitStateChanged(tx, group, GroupState.Cancelled, [orderId]);
}

/** Expires the groups the probe finds due, in a transaction of their own. */
async function expireFound(ctx: ServiceContext, probe: string, params: unknown[]): Promise<number> {
  const due = await ctx.em.execute<{ id: number }[]>(probe, params);
  if (due.length === 0) return 0;
  return inTransaction(ctx, async (tx) => {
    let expired = 0;
    for (const { id } of due) if (await expireGroup(tx, id)) expired++;
    return expired;
  });
}

const DUE = `g.state = 'open' and g.expires_at <= now()`;

/**
 * Run before an operation on one group, outside its transaction, so that a refusal which follows
 * (joining or paying a lapsed group) cannot roll the expiry back.
 */
export const expireGroupIfDue = (ctx: ServiceContext, groupId: number) =>
  expireFound(ctx, `select g.id from group_buy_group g where g.id = ? and ${DUE}`, [groupId]);

/** The same for the group of an order (before its payment); nothing for other orders. */
export const expireGroupOfOrder = (ctx: ServiceContext, orderId: number) =>
  expireFound(ctx, `select g.id from shop_order o join group_buy_group g on g.id = o.group_id where o.id = ? and ${DUE}`, [orderId]);

/** The same for every lapsed group of an activity (before showing its open groups). */
export const expireGroupsOfActivity = (ctx: ServiceContext, activityId: number) =>
  expireFound(ctx, `select g.id from group_buy_group g where g.activity_id = ? and ${DUE} order by g.id`, [activityId]);

/**
 * The periodic expiry sweep: expires open groups past their lifetime, a batch at a time. `skip
 * locked` lets several server processes sweep together without waiting on each other's groups (or
 * on a payment holding a group's lock: that group is taken on the next run).
 */
export async function expireLapsedGroups(ctx: ServiceContext, batchSize = 200): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const due = await tx.em.execute<{ id: number }[]>(
      `select g.id from group_buy_group g where ${DUE} order by g.expires_at limit ? for no key update skip locked`,
      [batchSize],
    );
    let expired = 0;
    for (const { id } of due) if (await expireGroup(tx, id)) expired++;
    return expired;
  });
}
