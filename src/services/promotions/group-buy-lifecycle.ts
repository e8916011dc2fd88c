import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { sql, type ExpressionBuilder } from 'kysely';
import { EventTypes } from '../events/event-types.js';
import { conflict, refused } from '../../errors.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { GroupMembership, GroupState } from '../../entities/group-buy.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import { emit, inTransaction } from '../../shared/transaction.js';
import { freeze, lockBalances, release } from '../accounts/ledger.service.js';
import { transitionOrders, type OrderTransition, type OrderTransitionPreparer } from '../orders/order-lifecycle.js';

/**
 * The life of a buying group: seats paid (money frozen), success (frozen money settled), expiry
 * (frozen money released, the seat orders cancelled) and cancellation by the opener. Every change
 * of state happens under the group's row lock, or as one guarded UPDATE of that row.
 */

/** A group as its state-change event names it (`shop` is its activity's). */
type ClosedGroup = Pick<Database['BuyingGroup'], 'id' | 'activity' | 'paidSeats' | 'capacity'> & Pick<Database['GroupBuyActivity'], 'shop'>;

/** What a statement on `group_buy_group` joined with its activity returns for the event. */
const CLOSED_GROUP = ['BuyingGroup.id', 'BuyingGroup.activity', 'a.shop', 'BuyingGroup.paidSeats', 'BuyingGroup.capacity'] as const;

function emitStateChanged(tx: ServiceContext, group: ClosedGroup, state: GroupState, orderIds: number[] = []): void {
  emit(tx, {
    type: EventTypes.GROUP_STATE_CHANGED,
    shopIds: [group.shop],
    customerId: null,
    payload: { groupId: group.id, activityId: group.activity, state, paidSeats: group.paidSeats, capacity: group.capacity, orderIds },
  });
}

/** Announces a group that checkout just opened. */
export function emitGroupOpened(tx: ServiceContext, group: ClosedGroup): void {
  emitStateChanged(tx, group, GroupState.Open);
}

/** What a group looks like to someone who wants a seat in it. */
export type SeatProbe = Pick<Database['BuyingGroup'], 'id' | 'state' | 'capacity' | 'paidSeats'> & {
  /** Open, but its lifetime has ended (the sweep has not reached it yet). */
  lapsed: boolean;
};

/** `expires_at <= now()` by the database's clock, as a selection named `lapsed`. */
export const lapsed = (eb: ExpressionBuilder<Database, 'BuyingGroup'>) =>
  eb('BuyingGroup.expiresAt', '<=', sql<Date>`now()`).$castTo<boolean>().as('lapsed');

/** Refuses a seat in a group that is closed: expired or cancelled (not joinable), or full. */
export function refuseClosedGroup(group: SeatProbe): void {
  const state = group.state === GroupState.Open && group.lapsed ? GroupState.Expired : group.state;
  if (state === GroupState.Expired || state === GroupState.Cancelled) {
    throw refused('GROUP_NOT_JOINABLE', `This group is ${state} and cannot be joined`, { group_id: group.id, state });
  }
  if (state === GroupState.Successful || group.paidSeats >= group.capacity) {
    throw refused('GROUP_FULL', 'Every seat of this group is taken', { group_id: group.id, capacity: group.capacity });
  }
}

/**
 * Subscriber of `order.awaiting_group` (payment of a group order's seat, in the payment's
 * transaction): locks the group, refuses a closed or full group (the payment rolls back: nothing is
 * frozen and the order stays pending), freezes the amount, writes the membership and takes the seat.
 * The seat that fills the group settles every member.
 */
export async function takePaidSeats(tx: ServiceContext, seats: readonly OrderTransition[]): Promise<void> {
  for (const seat of seats) await takePaidSeat(tx, { orderId: seat.orderId, customerId: seat.customerId, total: seat.total, groupId: seat.groupId! });
}

async function takePaidSeat(tx: ServiceContext, paid: { orderId: number; customerId: number; total: number; groupId: number }): Promise<void> {
  const db = typedSql(tx.em);
  // `for no key update`: what the UPDATE below takes; a plain `for update` would also wait for
  // checkouts whose new orders hold key-share locks on the group through the foreign key.
  const group = await db
    .selectFrom('BuyingGroup')
    .innerJoin('GroupBuyActivity as a', 'a.id', 'BuyingGroup.activity')
    .select((eb) => [...CLOSED_GROUP, 'BuyingGroup.state', lapsed(eb)])
    .where('BuyingGroup.id', '=', paid.groupId)
    .forNoKeyUpdate('BuyingGroup')
    .executeTakeFirstOrThrow();
  refuseClosedGroup(group);
  if (group.paidSeats + 1 === group.capacity) {
    // This seat fills the group and settles every member: lock all their balances, the payer's
    // included, in one order before any is touched, so two groups filling at once with shared members
    // queue instead of deadlocking (the group row lock makes "fills" certain).
    const members = await db.selectFrom('GroupMembership').select('customer').where('group', '=', paid.groupId).execute();
    await lockBalances(tx.em, [paid.customerId, ...members.map((m) => m.customer)]);
  }
  const reference = { type: 'order', id: paid.orderId };
  await freeze(tx.em, { userId: paid.customerId, amount: paid.total, reason: 'group_seat', reference });
  tx.em.create(GroupMembership, { group: paid.groupId, order: paid.orderId, customer: paid.customerId, amount: paid.total });
  try {
    await tx.em.flush();
  } catch (error) {
    // The unique keys (one seat per order, one per customer in a group) decide, not a read.
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict('GROUP_ALREADY_JOINED', 'You already hold a paid seat in this group', { group_id: paid.groupId });
    }
    throw error;
  }
  const fills = (eb: ExpressionBuilder<Database, 'BuyingGroup'>) => eb(eb('paidSeats', '+', 1), '=', eb.ref('capacity'));
  const seat = await db
    .updateTable('BuyingGroup')
    .set((eb) => ({
      paidSeats: eb('paidSeats', '+', 1),
      state: eb.case().when(fills(eb)).then(GroupState.Successful).else(eb.ref('state')).end(),
      closedAt: eb.case().when(fills(eb)).then(sql<Date>`now()`).else(eb.ref('closedAt')).end(),
    }))
    .where('id', '=', paid.groupId)
    .where('state', '=', GroupState.Open)
    .where((eb) => eb('paidSeats', '<', eb.ref('capacity')))
    .returning(['paidSeats', 'state'])
    .executeTakeFirst();
  // The lock and the check above make this unreachable; the guard keeps the capacity exact regardless.
  if (!seat) throw refused('GROUP_FULL', 'Every seat of this group is taken', { group_id: paid.groupId, capacity: group.capacity });
  if (seat.state === GroupState.Successful) await settleGroup(tx, { ...group, paidSeats: seat.paidSeats });
}

/** The group's seats (paid memberships): order, customer and seat amount. */
const seatsOf = (tx: ServiceContext, groupId: number) =>
  typedSql(tx.em).selectFrom('GroupMembership').select(['order', 'customer', 'amount']).where('group', '=', groupId).orderBy('order').execute();

/**
 * Capacity reached: every member's order becomes `paid` (and sold); the move's settlement subscriber
 * pays each seat's shop from the member's frozen money (their balances are locked above).
 */
async function settleGroup(tx: ServiceContext, group: ClosedGroup): Promise<void> {
  const seats = await seatsOf(tx, group.id);
  const settled = await transitionOrders(tx, ['settleSeat'], seats.map((s) => s.order));
  const members = seats.filter((s) => settled.some((m) => m.orderId === s.order));
  emitStateChanged(tx, group, GroupState.Successful, members.map((m) => m.order).sort((a, b) => a - b));
}

/** open -> `state` as one guarded UPDATE of the group (it waits for a payment holding the lock, then sees the outcome). */
function closeGroup(tx: ServiceContext, groupId: number, state: GroupState.Expired | GroupState.Cancelled) {
  const now = sql<Date>`now()`;
  return typedSql(tx.em)
    .updateTable('BuyingGroup')
    .from('GroupBuyActivity as a')
    .set({ state, closedAt: now })
    .whereRef('a.id', '=', 'BuyingGroup.activity')
    .where('BuyingGroup.id', '=', groupId)
    .where('BuyingGroup.state', '=', GroupState.Open)
    .where((eb) =>
      state === GroupState.Expired
        ? eb('BuyingGroup.expiresAt', '<=', now)
        : eb.and([eb('BuyingGroup.paidSeats', '=', 0), eb('BuyingGroup.expiresAt', '>', now)]),
    )
    .returning(CLOSED_GROUP)
    .executeTakeFirst();
}

/**
 * open -> expired when the lifetime has ended. Each paid seat's order is cancelled
 * (`group_expired`), its frozen amount released and its stock given back. Returns false when the
 * group was not due.
 */
export async function expireGroup(tx: ServiceContext, groupId: number): Promise<boolean> {
  const group = await closeGroup(tx, groupId, GroupState.Expired);
  if (!group) return false;
  const seats = await seatsOf(tx, groupId);
  const expired = await transitionOrders(tx, ['expireSeat'], seats.map((s) => s.order), { reason: 'group_expired' });
  const released = seats.filter((s) => expired.some((m) => m.orderId === s.order)).sort((a, b) => a.customer - b.customer);
  for (const s of released) {
    await release(tx.em, { userId: s.customer, amount: s.amount, reason: 'group_expired', reference: { type: 'order', id: s.order } });
  }
  // Their stock comes back through inventory, a subscriber of the seats' cancellation.
  emitStateChanged(tx, group, GroupState.Expired, expired.map((m) => m.orderId));
  return true;
}

/**
 * Subscriber of `order.cancelled`: for a cancelled pending order of a group, the expiry runs first (a
 * lifetime already ended gives `expired`); then, when the order was the opener's and no seat is paid,
 * the group becomes `cancelled`. Paid seats are never touched.
 */
export async function closeGroupsOfCancelledOrders(tx: ServiceContext, cancelled: readonly OrderTransition[]): Promise<void> {
  for (const order of cancelled) {
    if (order.from !== OrderStatus.PendingPayment || order.groupId === null) continue;
    const seat = await typedSql(tx.em)
      .selectFrom('BuyingGroup')
      .select('opener')
      .where('id', '=', order.groupId)
      .executeTakeFirstOrThrow();
    if (await expireGroup(tx, order.groupId)) continue;
    if (seat.opener !== order.customerId) continue;
    const group = await closeGroup(tx, order.groupId, GroupState.Cancelled);
    if (group) emitStateChanged(tx, group, GroupState.Cancelled, [order.orderId]);
  }
}

/** Expires the groups found due, in a transaction of their own. */
async function expireFound(ctx: ServiceContext, due: { id: number }[]): Promise<number> {
  if (due.length === 0) return 0;
  return inTransaction(ctx, async (tx) => {
    let expired = 0;
    for (const { id } of due) if (await expireGroup(tx, id)) expired++;
    return expired;
  });
}

/** Open groups past their lifetime (served by the partial index on `expires_at` of open groups). */
const dueGroups = (ctx: ServiceContext) =>
  typedSql(ctx.em)
    .selectFrom('BuyingGroup')
    .select('BuyingGroup.id')
    .where('BuyingGroup.state', '=', GroupState.Open)
    .where('BuyingGroup.expiresAt', '<=', sql<Date>`now()`);

/**
 * Run before an operation on one group, outside its transaction, so that a refusal which follows
 * (joining or paying a lapsed group) cannot roll the expiry back.
 */
export const expireGroupIfDue = async (ctx: ServiceContext, groupId: number) =>
  expireFound(ctx, await dueGroups(ctx).where('BuyingGroup.id', '=', groupId).execute());

/** Preparer of a payment: the lapsed group of an order is expired before it is paid; nothing for other orders. */
export const expireGroupsOfOrders: OrderTransitionPreparer = async (ctx, orderIds) =>
  void (await expireFound(ctx, await dueGroups(ctx).innerJoin('Order as o', 'o.group', 'BuyingGroup.id').where('o.id', 'in', [...orderIds]).execute()));

/** The same for every lapsed group of an activity (before showing its open groups). */
export const expireGroupsOfActivity = async (ctx: ServiceContext, activityId: number) =>
  expireFound(ctx, await dueGroups(ctx).where('BuyingGroup.activity', '=', activityId).orderBy('BuyingGroup.id').execute());

/**
 * The periodic expiry sweep: expires open groups past their lifetime, a batch at a time. `skip
 * locked` lets several server processes sweep together without waiting on each other's groups (or
 * on a payment holding a group's lock: that group is taken on the next run).
 */
export async function expireLapsedGroups(ctx: ServiceContext, batchSize = 200): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const due = await dueGroups(tx).orderBy('BuyingGroup.expiresAt').limit(batchSize).forNoKeyUpdate().skipLocked().execute();
    let expired = 0;
    for (const { id } of due) if (await expireGroup(tx, id)) expired++;
    return expired;
  });
}
