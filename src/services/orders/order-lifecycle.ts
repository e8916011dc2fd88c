import { sql, type Expression, type ExpressionBuilder, type SqlBool, type UpdateObject } from 'kysely';
import { conflict } from '../../errors.js';
import { typedSql, type Database } from '../../db/typed-sql.js';
import { GroupState } from '../../entities/group-buy.entity.js';
import { OrderStatus } from '../../entities/order.entity.js';
import { RefundKind, RefundStatus } from '../../entities/refund.entity.js';
import type { AppConfig } from '../../config.js';
import type { ServiceContext } from '../../shared/context.js';
import { emit } from '../../shared/transaction.js';
import { EventTypes, type EventType } from '../events/event-types.js';

/**
 * The order's life, in one table: every state, every legal move between two of them with its guard,
 * and what a move announces. Every change of an order's status in the code is a call of
 * `transitionOrders` (a test reads the sources to hold that); checkout inserts orders in the first
 * state and moves none. As Vendure's OrderStateMachine: transitions declared in one place, guards
 * before a move, hooks after it (Vendure's `onTransitionStart` / `onTransitionEnd`; here the subscribers of each move).
 *
 *   pending_payment ──pay──────> paid ──ship──> shipped ──deliver──> delivered
 *        │    └──paySeat──> awaiting_group ──settleSeat──> paid
 *        │                        └──expireSeat──> cancelled (group_expired)
 *        └──cancel──> cancelled (customer, payment_timeout)
 *   paid ──closeRefunded──> cancelled (refunded: every unit refunded before anything shipped)
 *   delivered ──complete──> completed (after-sale window over, no refund open; the sweep moves it)
 *
 * `completed` and `cancelled` are final. A return after delivery is a refund's own life
 * (after-sale), and leaves the order delivered; once the window is over (completed or not yet swept)
 * returns are refused, so the shop's earnings released at completion are final too.
 *
 * A move is one conditional UPDATE (`status = from` and the guard, both SQL on the order's row), so
 * of two concurrent moves of one order exactly one wins; the loser sees no row and its caller decides
 * (a repeated payment answers the order; anything else is ORDER_STATE_CONFLICT). Inside the same
 * transaction the move then marks the order's lines sold or not, queues its domain event (published
 * after commit) and calls the subscribers of its transition event (`order.paid`, `order.cancelled`,
 * ...), which the service wiring lists: they run in the mover's transaction and may write rows, so a
 * subscriber's refusal rolls the move back too.
 */

/** Why an order was cancelled. */
import type { CancelReason } from '../../entities/order.entity.js';

export { CANCEL_REASONS, type CancelReason } from '../../entities/order.entity.js';

type OrderRow = ExpressionBuilder<Database, 'Order'>;

/** A state an order can reach by a move (every state but the first). */
type Reached = Exclude<OrderStatus, OrderStatus.PendingPayment>;

interface TransitionRule {
  from: OrderStatus;
  to: Reached;
  /** Beyond `status = from`: what must hold of the order's row, in SQL (checked by the UPDATE itself). */
  guard?: (eb: OrderRow, config: GuardConfig) => Expression<SqlBool>;
  /** The moment column the move sets to now(). */
  stamp?: 'paidAt' | 'shippedAt' | 'deliveredAt' | 'completedAt' | 'cancelledAt';
  /** A cancellation's reasons: the caller names one. */
  reasons?: readonly CancelReason[];
  /** The domain event published (after commit) for each order moved. */
  publishes?: EventType;
  /** How a refusal names the move: "cannot be paid". */
  verb: string;
}

/** What a guard may read of the configuration. */
type GuardConfig = Pick<AppConfig, 'afterSaleWindowDays' | 'paymentWindowMinutes'>;

/**
 * The order was placed within its payment window (PAYMENT_WINDOW_MINUTES). After it, the order can
 * no longer be paid, whatever the sweep has done yet: the sweep cancels exactly the orders this
 * excludes (`created_at` before `now() - window`), so nothing is paid in the gap before it runs, and a
 * gateway's capture arriving then is late money that goes back to the method.
 */
export const withinPaymentWindow = (eb: OrderRow, config: GuardConfig) =>
  eb('Order.createdAt', '>=', sql<Date>`now() - make_interval(mins => ${config.paymentWindowMinutes})`);

/** Refunds and returns still open: their money may yet go back to the customer. */
export const OPEN_REFUND_STATES = [RefundStatus.Requested, RefundStatus.Approved, RefundStatus.ShippedBack] as const;

/** The after-sale window of a delivered order has ended (`delivered_at` is past it). */
export const afterSaleWindowOver = (eb: OrderRow, config: GuardConfig) =>
  eb('Order.deliveredAt', '<=', sql<Date>`now() - make_interval(days => ${config.afterSaleWindowDays})`);

/** The after-sale window is over and no refund or return of the order is open. */
const completable = (eb: OrderRow, config: GuardConfig) =>
  eb.and([
    afterSaleWindowOver(eb, config),
    eb.not(
      eb.exists(
        eb.selectFrom('Refund as r').select('r.id').whereRef('r.order', '=', 'Order.id').where('r.status', 'in', [...OPEN_REFUND_STATES]),
      ),
    ),
  ]);

/** The group of a group order is in `state` (the caller holds the group's row lock). */
const groupIs = (state: GroupState) => (eb: OrderRow) =>
  eb.exists(eb.selectFrom('BuyingGroup as g').select('g.id').whereRef('g.id', '=', 'Order.group').where('g.state', '=', state));

/**
 * Shipping is over for a paid order: every unit shipped or refunded, and no money-only refund still
 * open (its units might have to ship after all).
 */
const shippingDone = (eb: OrderRow) =>
  eb.and([
    eb.not(
      eb.exists(
        eb
          .selectFrom('OrderItem as l')
          .select('l.id')
          .whereRef('l.order', '=', 'Order.id')
          .where((l) => l(l('l.shippedQuantity', '+', l.ref('l.refundQuantity')), '<', l.ref('l.quantity'))),
      ),
    ),
    eb.not(
      eb.exists(
        eb
          .selectFrom('Refund as r')
          .select('r.id')
          .whereRef('r.order', '=', 'Order.id')
          .where('r.kind', '=', RefundKind.Refund)
          .where('r.status', '=', RefundStatus.Requested),
      ),
    ),
  ]);

const someShipped = (eb: OrderRow) =>
  eb.exists(eb.selectFrom('OrderItem as l').select('l.id').whereRef('l.order', '=', 'Order.id').where('l.shippedQuantity', '>', 0));

/** Every legal move. A pair of states not listed here is refused. */
export const ORDER_TRANSITIONS = {
  /** The customer pays an ordinary order from their balance. */
  pay: { from: OrderStatus.PendingPayment, to: OrderStatus.Paid, guard: (eb, config) => eb.and([eb('Order.group', 'is', null), withinPaymentWindow(eb, config)]), stamp: 'paidAt', publishes: EventTypes.ORDER_PAID, verb: 'paid' },
  /** The customer pays a seat of a group: money frozen until the group succeeds or expires. */
  paySeat: { from: OrderStatus.PendingPayment, to: OrderStatus.AwaitingGroup, guard: (eb, config) => eb.and([eb('Order.group', 'is not', null), withinPaymentWindow(eb, config)]), stamp: 'paidAt', publishes: EventTypes.ORDER_PAID, verb: 'paid' },
  /** The group reached its capacity: each seat's frozen money is settled. */
  settleSeat: { from: OrderStatus.AwaitingGroup, to: OrderStatus.Paid, guard: groupIs(GroupState.Successful), publishes: EventTypes.ORDER_PAID, verb: 'settled' },
  /** The customer, or the payment-window sweep, cancels an unpaid order. */
  cancel: { from: OrderStatus.PendingPayment, to: OrderStatus.Cancelled, stamp: 'cancelledAt', reasons: ['customer', 'payment_timeout'], publishes: EventTypes.ORDER_CANCELLED, verb: 'cancelled' },
  /** The group's lifetime ended before it filled: each seat's money is released. */
  expireSeat: { from: OrderStatus.AwaitingGroup, to: OrderStatus.Cancelled, guard: groupIs(GroupState.Expired), stamp: 'cancelledAt', reasons: ['group_expired'], publishes: EventTypes.ORDER_CANCELLED, verb: 'cancelled' },
  /** Every unit shipped or refunded, some shipped. */
  ship: { from: OrderStatus.Paid, to: OrderStatus.Shipped, guard: (eb) => eb.and([shippingDone(eb), someShipped(eb)]), stamp: 'shippedAt', verb: 'marked shipped' },
  /**
   * Every unit refunded before anything shipped: the order closes, and never counted as sold. Its
   * clients hear `refund.completed` (docs/api.md), so the move publishes nothing of its own.
   */
  closeRefunded: { from: OrderStatus.Paid, to: OrderStatus.Cancelled, guard: (eb) => eb.and([shippingDone(eb), eb.not(someShipped(eb))]), stamp: 'cancelledAt', reasons: ['refunded'], verb: 'closed as refunded' },
  /** The customer confirms the parcel arrived. */
  deliver: { from: OrderStatus.Shipped, to: OrderStatus.Delivered, stamp: 'deliveredAt', publishes: EventTypes.ORDER_DELIVERED, verb: 'confirmed as delivered' },
  /** The after-sale window (AFTER_SALE_WINDOW_DAYS) passed with no refund open: the sale is final (the completion sweep). */
  complete: { from: OrderStatus.Delivered, to: OrderStatus.Completed, guard: completable, stamp: 'completedAt', publishes: EventTypes.ORDER_COMPLETED, verb: 'completed' },
} as const satisfies Record<string, TransitionRule>;

export type TransitionName = keyof typeof ORDER_TRANSITIONS;

/** The state every order starts in (checkout inserts it so). */
export const INITIAL_ORDER_STATE = OrderStatus.PendingPayment;

/** The states an order may move to from `from`. */
export function nextStates(from: OrderStatus): OrderStatus[] {
  return Object.values(ORDER_TRANSITIONS as Record<TransitionName, TransitionRule>)
    .filter((rule) => rule.from === from)
    .map((rule) => rule.to);
}

/** The in-process event of a move: `order.` and the state reached. */
export type OrderTransitionEvent = `order.${Reached}`;

/** One order's move, as its subscribers receive it. */
export interface OrderTransition {
  event: OrderTransitionEvent;
  transition: TransitionName;
  orderId: number;
  customerId: number;
  shopId: number;
  total: number;
  groupId: number | null;
  from: OrderStatus;
  to: Reached;
  reason: CancelReason | null;
}

/** Runs in the mover's transaction (its `tx`), right after the move; may write rows, and may refuse (the move rolls back). */
export type OrderTransitionSubscriber = (tx: ServiceContext, moved: readonly OrderTransition[]) => Promise<void>;

/** Runs before a move is tried, in a transaction of its own that commits even when the move is then refused. */
export type OrderTransitionPreparer = (ctx: ServiceContext, orderIds: readonly number[]) => Promise<void>;

/** What other modules attach to order moves (built by the service wiring). */
export interface OrderTransitionHooks {
  readonly prepare?: { readonly [N in TransitionName]?: readonly OrderTransitionPreparer[] };
  readonly on?: { readonly [E in OrderTransitionEvent]?: readonly OrderTransitionSubscriber[] };
}

declare module '../../shared/context.js' {
  interface ServiceWiring {
    /** Subscribers and preparers of order moves (src/services/wiring.ts). */
    orderTransitions: OrderTransitionHooks;
  }
}

export interface TransitionOptions {
  /** Only an order of this customer moves (another's is left as if absent). */
  customerId?: number;
  /** A cancellation's reason; one of the move's `reasons`. */
  reason?: CancelReason;
}

/**
 * Runs the preparers of `names` for these orders, each in its own transaction, before the caller's
 * transaction tries the move (a lapsed group is expired first, so the refusal that follows cannot
 * roll the expiry back).
 */
export async function prepareTransition(ctx: ServiceContext, names: readonly TransitionName[], orderIds: readonly number[]): Promise<void> {
  const preparers = new Set(names.flatMap((name) => ctx.wiring.orderTransitions.prepare?.[name] ?? []));
  for (const prepare of preparers) await prepare(ctx, orderIds);
}

/**
 * Moves the orders by one of the named transitions (they must leave the same state; each order takes
 * the first whose guard holds). Orders in another state, failing every guard or outside the
 * customer's own are left alone: they are not in the answer. One UPDATE for all of them; then, in the
 * same transaction, the lines' `sold` flag, the domain events and the transition subscribers.
 */
export async function transitionOrders(
  tx: ServiceContext,
  names: readonly TransitionName[],
  orderIds: readonly number[],
  options: TransitionOptions = {},
): Promise<OrderTransition[]> {
  if (orderIds.length === 0) return [];
  const rules = names.map((name) => ({ name, ...(ORDER_TRANSITIONS[name] as TransitionRule) }));
  const from = rules[0].from;
  if (rules.some((rule) => rule.from !== from)) throw new Error(`transitions ${names.join(', ')} leave different states`);
  for (const rule of rules) {
    if (rule.reasons && !(options.reason && rule.reasons.includes(options.reason))) {
      throw new Error(`transition ${rule.name} needs a reason among ${rule.reasons.join(', ')}, got ${options.reason}`);
    }
  }
  const db = typedSql(tx.em);
  const holds = (eb: OrderRow, rule: TransitionRule): Expression<SqlBool> => (rule.guard ? rule.guard(eb, tx.config) : eb.lit(true));
  // One rule: its value; several: each column takes the value of the first rule whose guard holds.
  const pick = <V>(eb: OrderRow, value: (rule: TransitionRule) => Expression<V>, otherwise: Expression<V>): Expression<V> => {
    if (rules.length === 1) return value(rules[0]);
    let chosen = eb.case().when(holds(eb, rules[0])).then(value(rules[0]));
    for (const rule of rules.slice(1)) chosen = chosen.when(holds(eb, rule)).then(value(rule));
    return chosen.else(otherwise).end();
  };
  const now = sql<Date | null>`now()`;
  let update = db
    .updateTable('Order')
    .set((eb) => {
      const set: UpdateObject<Database, 'Order'> = { status: pick(eb, (rule) => eb.val(rule.to), eb.ref('Order.status')) };
      for (const stamp of new Set(rules.flatMap((rule) => (rule.stamp ? [rule.stamp] : [])))) {
        set[stamp] = pick(eb, (rule) => (rule.stamp === stamp ? now : eb.ref(`Order.${stamp}`)), eb.ref(`Order.${stamp}`));
      }
      if (rules.some((rule) => rule.reasons)) {
        set.cancelReason = pick(eb, (rule) => (rule.reasons ? eb.val(options.reason ?? null) : eb.ref('Order.cancelReason')), eb.ref('Order.cancelReason'));
      }
      return set;
    })
    .where('Order.id', 'in', [...orderIds])
    .where('Order.status', '=', from)
    .where((eb) => eb.or(rules.map((rule) => holds(eb, rule))));
  if (options.customerId !== undefined) update = update.where('Order.customer', '=', options.customerId);
  const rows = await update.returning(['Order.id', 'Order.customer', 'Order.shop', 'Order.total', 'Order.group', 'Order.status']).execute();

  const moved = rows
    .sort((a, b) => a.id - b.id)
    .map((row): OrderTransition => {
      const rule = rules.find((r) => r.to === row.status)!;
      return {
        event: `order.${rule.to}`,
        transition: rule.name,
        orderId: row.id,
        customerId: row.customer,
        shopId: row.shop,
        total: row.total,
        groupId: row.group,
        from,
        to: rule.to,
        reason: rule.reasons ? (options.reason ?? null) : null,
      };
    });
  await markSold(tx, moved);
  for (const move of moved) publish(tx, move);
  for (const event of new Set(moved.map((m) => m.event))) {
    const batch = moved.filter((m) => m.event === event);
    for (const subscriber of tx.wiring.orderTransitions.on?.[event] ?? []) await subscriber(tx, batch);
  }
  return moved;
}

/** `transitionOrders` for one order: its move, or undefined when it did not move. */
export async function transitionOrder(
  tx: ServiceContext,
  names: readonly TransitionName[],
  orderId: number,
  options: TransitionOptions = {},
): Promise<OrderTransition | undefined> {
  return (await transitionOrders(tx, names, [orderId], options))[0];
}

/**
 * The one refusal of a move the order's state does not allow: 409 ORDER_STATE_CONFLICT, naming the
 * state the order is in and the one the move needs.
 */
export function transitionRefused(name: TransitionName, status: OrderStatus) {
  const rule: TransitionRule = ORDER_TRANSITIONS[name];
  return conflict('ORDER_STATE_CONFLICT', `An order that is ${status} cannot be ${rule.verb}; it must be ${rule.from}`, {
    status,
    transition: name,
    expected: [rule.from],
  });
}

/**
 * A line counts in sold_count once its order reached payment, and leaves it when the order closes
 * refunded before anything shipped (decisions: sold_count).
 */
async function markSold(tx: ServiceContext, moved: readonly OrderTransition[]): Promise<void> {
  const sold = moved.filter((m) => m.to === OrderStatus.Paid).map((m) => m.orderId);
  const unsold = moved.filter((m) => m.transition === 'closeRefunded').map((m) => m.orderId);
  const db = typedSql(tx.em);
  if (sold.length > 0) await db.updateTable('OrderItem').set({ sold: true }).where('order', 'in', sold).execute();
  if (unsold.length > 0) await db.updateTable('OrderItem').set({ sold: false }).where('order', 'in', unsold).execute();
}

/**
 * An order entered the machine in its first state (a checkout placed it): its `order.placed` event,
 * stored in the outbox with the order. Checkout's combined writer stores the same payload from its
 * one statement (place-orders.repository.ts).
 */
export function announcePlaced(tx: ServiceContext, order: { orderId: number; shopId: number; customerId: number; total: number; status: OrderStatus }): void {
  emit(tx, {
    type: EventTypes.ORDER_PLACED,
    shopIds: [order.shopId],
    customerId: order.customerId,
    payload: { orderId: order.orderId, total: order.total, status: order.status },
  });
}

/** The move's domain event, for dashboards and the customer's own feed (stored in the outbox with the move). */
function publish(tx: ServiceContext, move: OrderTransition): void {
  const rule: TransitionRule = ORDER_TRANSITIONS[move.transition];
  if (!rule.publishes) return;
  const group = move.groupId === null ? {} : { groupId: move.groupId };
  const payload =
    rule.publishes === EventTypes.ORDER_PAID
      ? { orderId: move.orderId, total: move.total, status: move.to, ...group }
      : rule.publishes === EventTypes.ORDER_CANCELLED
        ? { orderId: move.orderId, reason: move.reason, status: move.to }
        : { orderId: move.orderId, status: move.to };
  emit(tx, { type: rule.publishes, shopIds: [move.shopId], customerId: move.customerId, payload });
}
