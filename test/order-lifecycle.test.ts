import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newGroupBuy, newProduct, newShop } from './support/fixtures.js';
import { ADDRESS } from './support/shopping.js';
import { AppError } from '../src/errors.js';
import { OrderStatus } from '../src/entities/order.entity.js';
import { GroupState } from '../src/entities/group-buy.entity.js';
import type { ServiceContext } from '../src/shared/context.js';
import { inTransaction } from '../src/shared/transaction.js';
import {
  INITIAL_ORDER_STATE, nextStates, ORDER_TRANSITIONS, transitionOrders, transitionRefused,
  type OrderTransitionHooks, type TransitionName, type TransitionOptions,
} from '../src/services/orders/order-lifecycle.js';

/**
 * The order's state machine, table by table: every legal move, every state each move refuses, every
 * guard, and what a move does in its transaction (sold flags, events, subscribers).
 */
let t: TestApp;
let fixture: { shopId: number; productId: number; skuId: number; activityId: number; customerId: number };

beforeAll(async () => {
  t = await startTestApp();
  const shop = await newShop(t);
  const category = await newCategory(t);
  const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 1000, stock: 100 }] });
  const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], capacity: 2 });
  const customer = await newCustomer(t);
  fixture = { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], activityId: activity.id, customerId: customer.id };
});
afterAll(() => t.close());

const ALL_STATES = Object.values(OrderStatus);

/** What an order needs for a move's guard to hold (besides its state). */
interface Shape {
  group?: GroupState;
  shipped?: number;
  refunded?: number;
  openRefund?: boolean;
  /** Delivered this many days ago (the after-sale window is AFTER_SALE_WINDOW_DAYS, 7 by default). */
  deliveredDaysAgo?: number;
}

/** The shape under which each move's guard holds. */
const GUARDED: Record<TransitionName, Shape> = {
  pay: {},
  paySeat: { group: GroupState.Open },
  settleSeat: { group: GroupState.Successful },
  cancel: {},
  expireSeat: { group: GroupState.Expired },
  ship: { shipped: 2 },
  closeRefunded: { refunded: 2 },
  deliver: {},
  complete: { deliveredDaysAgo: 8 },
};

const REASONS: Partial<Record<TransitionName, TransitionOptions>> = {
  cancel: { reason: 'customer' },
  expireSeat: { reason: 'group_expired' },
  closeRefunded: { reason: 'refunded' },
};

/** An order in `status` of two units, written directly (the test sets up states no use case would leave it in). */
async function orderIn(status: OrderStatus, shape: Shape = {}): Promise<number> {
  let groupId: number | null = null;
  if (shape.group) {
    const seats = shape.group === GroupState.Successful ? 2 : 0;
    const [g] = await t.sql<{ id: number }>(
      `insert into group_buy_group (activity_id, opener_id, state, capacity, group_price, paid_seats, expires_at, created_at)
       values (?, ?, ?, 2, 500, ?, now() + interval '1 hour', now()) returning id`,
      [fixture.activityId, fixture.customerId, shape.group, seats],
    );
    groupId = g.id;
  }
  const [o] = await t.sql<{ id: number }>(
    `insert into shop_order (customer_id, shop_id, status, items_total, total, created_at, group_id, group_price, shipping_address, delivered_at)
     values (?, ?, ?, 2000, 2000, now(), ?, ?, ?::jsonb, now() - make_interval(days => ?)) returning id`,
    [fixture.customerId, fixture.shopId, status, groupId, groupId === null ? null : 500, JSON.stringify(ADDRESS), shape.deliveredDaysAgo ?? 0],
  );
  await t.sql(
    `insert into order_item (order_id, product_id, sku_id, product_name, sku_name, unit_price, quantity, amount, pricing, shipped_quantity, refund_quantity)
     values (?, ?, ?, 'P', 'S', 1000, 2, 2000, 'standard', ?, ?)`,
    [o.id, fixture.productId, fixture.skuId, shape.shipped ?? 0, shape.refunded ?? 0],
  );
  if (shape.openRefund) {
    await t.sql(`insert into refund (order_id, shop_id, customer_id, kind, status, reason, amount, created_at) values (?, ?, ?, 'refund', 'requested', 'r', 0, now())`, [
      o.id, fixture.shopId, fixture.customerId,
    ]);
  }
  return o.id;
}

const statusOf = async (orderId: number) => (await t.sql<{ status: OrderStatus }>('select status from shop_order where id = ?', [orderId]))[0].status;

/** Runs `work` in a transaction whose context has `hooks` as its order-transition hooks (none by default). */
async function inMove<T>(work: (tx: ServiceContext) => Promise<T>, hooks: OrderTransitionHooks = {}): Promise<T> {
  const ctx = await t.context();
  return inTransaction({ ...ctx, wiring: { ...ctx.wiring, orderTransitions: hooks } }, work);
}

const move = (name: TransitionName, orderId: number, hooks?: OrderTransitionHooks) =>
  inMove((tx) => transitionOrders(tx, [name], [orderId], REASONS[name]), hooks);

describe('the transition table', () => {
  it('declares exactly these moves, starting from pending_payment', () => {
    expect(INITIAL_ORDER_STATE).toBe(OrderStatus.PendingPayment);
    const edges = Object.entries(ORDER_TRANSITIONS).map(([name, rule]) => `${name}: ${rule.from} -> ${rule.to}`);
    expect(edges).toEqual([
      'pay: pending_payment -> paid',
      'paySeat: pending_payment -> awaiting_group',
      'settleSeat: awaiting_group -> paid',
      'cancel: pending_payment -> cancelled',
      'expireSeat: awaiting_group -> cancelled',
      'ship: paid -> shipped',
      'closeRefunded: paid -> cancelled',
      'deliver: shipped -> delivered',
      'complete: delivered -> completed',
    ]);
    expect(Object.fromEntries(ALL_STATES.map((s) => [s, nextStates(s)]))).toEqual({
      pending_payment: ['paid', 'awaiting_group', 'cancelled'],
      awaiting_group: ['paid', 'cancelled'],
      paid: ['shipped', 'cancelled'],
      shipped: ['delivered'],
      delivered: ['completed'],
      completed: [],
      cancelled: [],
    });
  });

  // Every move tried from every state, its guard holding: it moves from its own state only.
  const cases = (Object.keys(ORDER_TRANSITIONS) as TransitionName[]).flatMap((name) => ALL_STATES.map((from) => [name, from] as const));
  it.each(cases)('%s from %s', async (name, from) => {
    const orderId = await orderIn(from, GUARDED[name]);
    const moved = await move(name, orderId);
    const rule = ORDER_TRANSITIONS[name];
    if (from === rule.from) {
      expect(moved).toMatchObject([{ orderId, transition: name, from, to: rule.to, event: `order.${rule.to}` }]);
      expect(await statusOf(orderId)).toBe(rule.to);
    } else {
      expect(moved).toEqual([]);
      expect(await statusOf(orderId)).toBe(from);
    }
  });
});

describe('guards', () => {
  it.each<[TransitionName, Shape, string]>([
    ['pay', { group: GroupState.Open }, 'a group order pays a seat, not the order'],
    ['paySeat', {}, 'an order of no group has no seat'],
    ['settleSeat', { group: GroupState.Open }, 'the group has not filled'],
    ['settleSeat', { group: GroupState.Expired }, 'the group expired'],
    ['expireSeat', { group: GroupState.Open }, 'the group is still open'],
    ['ship', { shipped: 1 }, 'a unit is neither shipped nor refunded'],
    ['ship', { shipped: 1, refunded: 1, openRefund: true }, 'a money-only refund is still open'],
    ['ship', { refunded: 2 }, 'nothing shipped (it closes as refunded instead)'],
    ['closeRefunded', { shipped: 1, refunded: 1 }, 'something shipped'],
    ['closeRefunded', { refunded: 1 }, 'a unit is left to ship'],
    ['complete', { deliveredDaysAgo: 6 }, 'the after-sale window is not over'],
    ['complete', { deliveredDaysAgo: 8, openRefund: true }, 'a refund is still open'],
  ])('%s is refused when %j (%s)', async (name, shape) => {
    const orderId = await orderIn(ORDER_TRANSITIONS[name].from, shape);
    expect(await move(name, orderId)).toEqual([]);
    expect(await statusOf(orderId)).toBe(ORDER_TRANSITIONS[name].from);
  });

  it('of two moves from one state, takes the first whose guard holds', async () => {
    const plain = await orderIn(OrderStatus.PendingPayment);
    const seat = await orderIn(OrderStatus.PendingPayment, { group: GroupState.Open });
    const moved = await inMove((tx) => transitionOrders(tx, ['pay', 'paySeat'], [plain, seat]));
    expect(moved.map((m) => [m.orderId, m.transition, m.to])).toEqual([
      [plain, 'pay', 'paid'],
      [seat, 'paySeat', 'awaiting_group'],
    ]);
    const shipped = await orderIn(OrderStatus.Paid, { shipped: 1, refunded: 1 });
    const refunded = await orderIn(OrderStatus.Paid, { refunded: 2 });
    const closed = await inMove((tx) => transitionOrders(tx, ['ship', 'closeRefunded'], [shipped, refunded], { reason: 'refunded' }));
    expect(closed.map((m) => [m.orderId, m.to, m.reason])).toEqual([
      [shipped, 'shipped', null],
      [refunded, 'cancelled', 'refunded'],
    ]);
    const rows = await t.sql('select id, cancel_reason, shipped_at is not null as shipped, cancelled_at is not null as cancelled from shop_order where id in (?, ?) order by id', [shipped, refunded]);
    expect(rows).toEqual([
      { id: shipped, cancel_reason: null, shipped: true, cancelled: false },
      { id: refunded, cancel_reason: 'refunded', shipped: false, cancelled: true },
    ]);
  });

  it('moves only the given customer’s order when asked to', async () => {
    const orderId = await orderIn(OrderStatus.PendingPayment);
    const other = await newCustomer(t);
    expect(await inMove((tx) => transitionOrders(tx, ['cancel'], [orderId], { customerId: other.id, reason: 'customer' }))).toEqual([]);
    expect(await inMove((tx) => transitionOrders(tx, ['cancel'], [orderId], { customerId: fixture.customerId, reason: 'customer' }))).toHaveLength(1);
  });

  it('will not cancel without a reason the move allows', async () => {
    const orderId = await orderIn(OrderStatus.PendingPayment);
    await expect(inMove((tx) => transitionOrders(tx, ['cancel'], [orderId], { reason: 'refunded' }))).rejects.toThrow(/needs a reason/);
    await expect(inMove((tx) => transitionOrders(tx, ['cancel', 'pay'], [orderId]))).rejects.toThrow(/needs a reason/);
    await expect(inMove((tx) => transitionOrders(tx, ['pay', 'deliver'], [orderId]))).rejects.toThrow(/leave different states/);
    expect(await statusOf(orderId)).toBe(OrderStatus.PendingPayment);
  });
});

describe('one refusal for a move the state does not allow', () => {
  it.each(Object.keys(ORDER_TRANSITIONS) as TransitionName[])('%s: 409 ORDER_STATE_CONFLICT naming the state and the one needed', (name) => {
    const error = transitionRefused(name, OrderStatus.Cancelled);
    expect(error).toBeInstanceOf(AppError);
    expect({ code: error.code, status: error.status, details: error.details }).toEqual({
      code: 'ORDER_STATE_CONFLICT',
      status: 409,
      details: { status: 'cancelled', transition: name, expected: [ORDER_TRANSITIONS[name].from] },
    });
  });
});

describe('what a move does in its transaction', () => {
  it('marks the lines sold on reaching paid, and unsold when the order closes refunded', async () => {
    const sold = async (orderId: number) => (await t.sql<{ sold: boolean }>('select sold from order_item where order_id = ?', [orderId]))[0].sold;
    const paid = await orderIn(OrderStatus.PendingPayment);
    await move('pay', paid);
    expect(await sold(paid)).toBe(true);
    const seat = await orderIn(OrderStatus.AwaitingGroup, { group: GroupState.Successful });
    await move('settleSeat', seat);
    expect(await sold(seat)).toBe(true);
    const refunded = await orderIn(OrderStatus.Paid, { refunded: 2 });
    await t.sql('update order_item set sold = true where order_id = ?', [refunded]);
    await move('closeRefunded', refunded);
    expect(await sold(refunded)).toBe(false);
  });

  it('queues the domain event of the move, with the payload subscribers of that event type read', async () => {
    const orderId = await orderIn(OrderStatus.PendingPayment, { group: GroupState.Open });
    const events = await inMove(async (tx) => {
      await transitionOrders(tx, ['paySeat'], [orderId]);
      await transitionOrders(tx, ['cancel'], [await orderIn(OrderStatus.PendingPayment)], { reason: 'payment_timeout' });
      return tx.pendingEvents!.events;
    });
    expect(events.map((e) => [e.type, e.customerId, e.shopIds, e.payload])).toEqual([
      ['order.paid', fixture.customerId, [fixture.shopId], { orderId, total: 2000, status: 'awaiting_group', groupId: expect.any(Number) }],
      ['order.cancelled', fixture.customerId, [fixture.shopId], { orderId: expect.any(Number), reason: 'payment_timeout', status: 'cancelled' }],
    ]);
  });

  it('calls the subscribers of its event inside the transaction, where they can write rows', async () => {
    const orderId = await orderIn(OrderStatus.PendingPayment);
    const seen: string[] = [];
    const hooks: OrderTransitionHooks = {
      on: {
        'order.paid': [
          async (tx, moved) => {
            seen.push(...moved.map((m) => `${m.event} ${m.orderId} ${m.from}->${m.to}`));
            // Written in the mover's transaction: the order is already paid there.
            const [row] = await tx.em.execute<{ status: string }[]>('select status from shop_order where id = ?', [orderId]);
            seen.push(row.status);
            await tx.em.execute(`update shop_order set shipping_address = '{"recipient":"subscriber"}' where id = ?`, [orderId]);
          },
        ],
        'order.cancelled': [async () => void seen.push('never')],
      },
    };
    await move('pay', orderId, hooks);
    expect(seen).toEqual([`order.paid ${orderId} pending_payment->paid`, 'paid']);
    expect((await t.sql('select shipping_address from shop_order where id = ?', [orderId]))[0].shipping_address).toEqual({ recipient: 'subscriber' });
  });

  it('rolls the move back with a subscriber that refuses', async () => {
    const orderId = await orderIn(OrderStatus.PendingPayment);
    const refusing: OrderTransitionHooks = { on: { 'order.paid': [() => Promise.reject(new AppError('GROUP_FULL', 422, 'refused by a subscriber', { group_id: 1, capacity: 2 }))] } };
    await expect(move('pay', orderId, refusing)).rejects.toMatchObject({ code: 'GROUP_FULL' });
    expect(await statusOf(orderId)).toBe(OrderStatus.PendingPayment);
  });
});
