import { newFlashSale } from './support/flash-sales.js';
import { waitFor } from './support/subscriptions.js';
import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newGroupBuy, newOperator, newProduct } from './support/fixtures.js';
import {
  ADDRESS, addToCart, GRAPHQL_ADDRESS, balanceOf, checkoutBody, expectLedgerReplays, groupCheckoutOk, groupRow, lapseGroup, payOk, shopWithProduct, stockOf,
} from './support/shopping.js';
import { expireLapsedGroups } from '../src/services/promotions/group-buy-lifecycle.js';
import { cancelUnpaidOrders } from '../src/services/orders/order.service.js';
import { systemContext } from '../src/server/jobs.js';
import { createLogger } from '../src/logger.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { auditStockAndClose, expectStockAudited } from './support/inventory-audit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

const deps = () => t.deps;

/** A shop selling one SKU (standard price 1000) with a running activity: seats at 600, 3 per group. */
async function activitySetup(options: { capacity?: number; stock?: number; lifetimeMinutes?: number } = {}) {
  const { shop, category, product } = await shopWithProduct(t, [{ price: 1000, stock: options.stock ?? 20 }]);
  const activity = await newGroupBuy(t, {
    shopId: shop.id, productId: product.id, skuId: product.skuIds[0],
    groupPrice: 600, capacity: options.capacity ?? 3, lifetimeMinutes: options.lifetimeMinutes ?? 60,
  });
  return { shop, category, product, skuId: product.skuIds[0], activity };
}

/** Two funded customers: one opens a group, the other joins it (both orders pending). */
async function openAndJoin(activityId: number) {
  const opener = await newCustomer(t, { available: 5_000, points: 0 });
  const joiner = await newCustomer(t, { available: 5_000, points: 0 });
  const opened = await groupCheckoutOk(t, opener.token, { activity_id: activityId });
  const joined = await groupCheckoutOk(t, joiner.token, { activity_id: activityId, group_id: opened.group_id });
  return { opener, joiner, opened, joined };
}

const checkout = (token: string, groupBuy: unknown, extra: object = {}) => t.api('POST', '/api/checkout', { token, body: checkoutBody({ group_buy: groupBuy, ...extra }) });
const pay = (token: string, orderId: number) => t.api('POST', `/api/orders/${orderId}/pay`, { token });
const countRows = async (table: string, where = 'true', params: unknown[] = []) =>
  (await t.sql(`select count(*)::int as n from ${table} where ${where}`, params))[0].n as number;

describe('group-buying checkout', () => {
  it('opens a group: one group-priced unit on a pending order snapshotting the group, stock taken, the cart left alone', async () => {
    const { skuId, activity, shop, category } = await activitySetup();
    const other = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 50, stock: 5 }] });
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, other.skuIds[0], 2);

    const res = await checkout(customer.token, { activity_id: activity.id });
    expect(res.status).toBe(201);
    expect(res.body.orders).toHaveLength(1);
    const order = res.body.orders[0];
    expect(order).toMatchObject({
      status: 'pending_payment', group_id: expect.any(Number), group_price: 600, items_total: 600, discount: 0, total: 600,
      items: [{ sku_id: skuId, quantity: 1, unit_price: 600, amount: 600, pricing: 'group_buy' }],
    });
    expect(await stockOf(t, skuId)).toBe(19);
    const cart = await t.api('GET', '/api/cart', { token: customer.token });
    expect(cart.body.lines.map((l: any) => [l.sku_id, l.quantity])).toEqual([[other.skuIds[0], 2]]);

    const group = await groupRow(t, order.group_id);
    expect(group).toMatchObject({ state: 'open', capacity: 3, paid_seats: 0, group_price: 600, opener_id: customer.id, closed_at: null });
    const lifetimeMs = new Date(group.expires_at).getTime() - Date.now();
    expect(lifetimeMs).toBeGreaterThan(59 * 60_000);
    expect(lifetimeMs).toBeLessThanOrEqual(60 * 60_000);

    const detail = await t.api('GET', `/api/group-buys/${activity.id}`);
    expect(detail.body.groups).toEqual([
      { id: order.group_id, state: 'open', capacity: 3, seats_taken: 0, seats_left: 3, group_price: 600, opened_at: expect.any(String), expires_at: expect.any(String) },
    ]);
  });

  it('joins an open group; the seat is claimed at payment, freezing the amount instead of debiting it', async () => {
    const { activity } = await activitySetup();
    const { opener, joiner, opened, joined } = await openAndJoin(activity.id);
    expect(joined).toMatchObject({ group_id: opened.group_id, group_price: 600, total: 600, status: 'pending_payment' });
    expect((await groupRow(t, opened.group_id)).paid_seats).toBe(0);

    const paid = await payOk(t, joiner.token, joined.id);
    expect(paid).toMatchObject({ status: 'awaiting_group', paid_at: expect.any(String) });
    expect(await balanceOf(t, joiner.id, 'available')).toBe(4_400);
    expect(await balanceOf(t, joiner.id, 'frozen')).toBe(600);
    expect((await groupRow(t, opened.group_id)).paid_seats).toBe(1);
    expect(await t.sql('select group_id, customer_id, amount from group_buy_membership where order_id = ?', [joined.id]))
      .toEqual([{ group_id: opened.group_id, customer_id: joiner.id, amount: 600 }]);
    const entries = await t.sql(
      `select b.kind, l.delta::int, l.reason from ledger_entry l join balance b on b.id = l.balance_id
        where l.reference_type = 'order' and l.reference_id = ? order by l.id`, [joined.id]);
    expect(entries).toEqual([{ kind: 'available', delta: -600, reason: 'group_seat' }, { kind: 'frozen', delta: 600, reason: 'group_seat' }]);
    // Paying again charges nothing; the order is not cancellable any more, so its seat stays.
    expect((await pay(joiner.token, joined.id)).body.status).toBe('awaiting_group');
    expect(await balanceOf(t, joiner.id, 'frozen')).toBe(600);
    const cancel = await t.api('POST', `/api/orders/${joined.id}/cancel`, { token: joiner.token });
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('ORDER_STATE_CONFLICT');
    // Not shippable and not invoiced until the group succeeds; not counted as sold either.
    const operator = await newOperator(t, paid.shop.id);
    const ship = await t.api('POST', `/api/merchant/orders/${joined.id}/shipments`, { token: operator.token, body: { company_code: 'sf', tracking_number: 'G1' } });
    expect(ship.body.error.code).toBe('ORDER_NOT_SHIPPABLE');
    expect((await t.api('GET', `/api/orders/${joined.id}/invoice`, { token: joiner.token })).body.error.code).toBe('INVOICE_NOT_AVAILABLE');
    expect(await countRows('order_item', 'order_id = ? and sold', [joined.id])).toBe(0);
  });

  it('refuses quantity 2 and any SKU but the activity one, changing nothing', async () => {
    const { shop, category, product, activity } = await activitySetup();
    const second = await newProduct(t, { shopId: shop.id, categoryId: category.id });
    const customer = await newCustomer(t);
    const groupsBefore = await countRows('group_buy_group');

    const two = await checkout(customer.token, { activity_id: activity.id, quantity: 2 });
    expect(two.status).toBe(422);
    expect(two.body.error).toMatchObject({ code: 'GROUP_BUY_SINGLE_ITEM', details: { problem: 'quantity', quantity: 2 } });
    const otherSku = await checkout(customer.token, { activity_id: activity.id, sku_id: second.skuIds[0], quantity: 1 });
    expect(otherSku.status).toBe(422);
    expect(otherSku.body.error).toMatchObject({ code: 'GROUP_BUY_SINGLE_ITEM', details: { problem: 'sku', sku_id: second.skuIds[0], activity_sku_id: product.skuIds[0] } });
    const twoSkus = await checkout(customer.token, { activity_id: activity.id, sku_id: [product.skuIds[0], second.skuIds[0]] });
    expect(twoSkus.status).toBe(400);
    expect(twoSkus.body.error.code).toBe('VALIDATION_FAILED');
    const items = await checkout(customer.token, { activity_id: activity.id, items: [{ sku_id: product.skuIds[0], quantity: 1 }] });
    expect(items.status).toBe(400);
    // The same SKU and quantity 1, sent explicitly, are accepted.
    expect((await checkout(customer.token, { activity_id: activity.id, sku_id: product.skuIds[0], quantity: 1 })).status).toBe(201);

    expect(await countRows('group_buy_group')).toBe(groupsBefore + 1);
    expect(await countRows('shop_order', 'customer_id = ?', [customer.id])).toBe(1);
    expect(await stockOf(t, product.skuIds[0])).toBe(19);
  });

  it('refuses coupons on a group-buying order', async () => {
    const { shop, activity, skuId } = await activitySetup();
    const customer = await newCustomer(t);
    const res = await checkout(customer.token, { activity_id: activity.id }, { coupons: { [shop.id]: 1 } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('GROUP_BUY_NO_COUPONS');
    expect(await countRows('shop_order', 'customer_id = ?', [customer.id])).toBe(0);
    expect(await stockOf(t, skuId)).toBe(20);
    // An empty coupon map names no coupon.
    expect((await checkout(customer.token, { activity_id: activity.id }, { coupons: {} })).status).toBe(201);
  });

  it('refuses the group intent for a SKU in a running flash sale, and gives a group order no flash pricing', async () => {
    const { shop, activity, skuId } = await activitySetup();
    const customer = await newCustomer(t);
    const sale = await newFlashSale(t, { shopId: shop.id, items: [{ skuId, activityPrice: 100, reservedStock: 10 }] });
    const res = await checkout(customer.token, { activity_id: activity.id });
    expect([res.status, res.body.error.code, res.body.error.details.sku_id]).toEqual([422, 'GROUP_BUY_FLASH_SALE_CONFLICT', skuId]);
    expect(await countRows('shop_order', 'customer_id = ?', [customer.id])).toBe(0);
    expect(await stockOf(t, skuId)).toBe(20);
    // Once the sale is off, the group order is group-priced, never flash-priced.
    await t.sql('update flash_sale_item set enabled = false where flash_sale_id = ?', [sale.id]);
    const opened = await groupCheckoutOk(t, customer.token, { activity_id: activity.id });
    expect(opened.items.map((i: any) => i.pricing)).toEqual(['group_buy']);
  });

  it('opens groups only inside the activity window, yet an open group can still be joined after it', async () => {
    const { shop, product, activity } = await activitySetup();
    const upcoming = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], startsInMinutes: 60, endsInMinutes: 120 });
    const customer = await newCustomer(t);
    const early = await checkout(customer.token, { activity_id: upcoming.id });
    expect(early.status).toBe(422);
    expect(early.body.error.code).toBe('GROUP_BUY_NOT_ACTIVE');

    const opened = await groupCheckoutOk(t, customer.token, { activity_id: activity.id });
    await t.sql(`update group_buy_activity set ends_at = now() - interval '1 minute' where id = ?`, [activity.id]);
    const late = await newCustomer(t);
    expect((await checkout(late.token, { activity_id: activity.id })).body.error.code).toBe('GROUP_BUY_NOT_ACTIVE');
    expect((await checkout(late.token, { activity_id: activity.id, group_id: opened.group_id })).status).toBe(201);
  });

  it('refuses a second order in the same group from one customer, an unknown activity or group, and an unpublished product', async () => {
    const { activity, product } = await activitySetup();
    const other = await activitySetup();
    const customer = await newCustomer(t);
    const opened = await groupCheckoutOk(t, customer.token, { activity_id: activity.id });
    const again = await checkout(customer.token, { activity_id: activity.id, group_id: opened.group_id });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('GROUP_ALREADY_JOINED');

    expect((await checkout(customer.token, { activity_id: 999_999 })).status).toBe(404);
    // A group of another activity is not found under this one.
    const foreign = await checkout(customer.token, { activity_id: other.activity.id, group_id: opened.group_id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');

    await t.sql(`update product set status = 'unpublished' where id = ?`, [product.id]);
    expect((await checkout((await newCustomer(t)).token, { activity_id: activity.id, group_id: opened.group_id })).body.error.code).toBe('PRODUCT_UNAVAILABLE');
  });

  it('validates the intent and the caller', async () => {
    const { activity, shop } = await activitySetup();
    const customer = await newCustomer(t);
    for (const bad of [{}, { activity_id: 'x' }, { activity_id: activity.id, quantity: 0 }, { activity_id: activity.id, quantity: 1.5 }, { activity_id: activity.id, group_id: -1 }, 'open']) {
      const res = await checkout(customer.token, bad);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await checkout('', { activity_id: activity.id })).status).toBe(401);
    const operator = await newOperator(t, shop.id);
    expect((await checkout(operator.token, { activity_id: activity.id })).status).toBe(403);
    expect(await countRows('shop_order', 'customer_id = ?', [customer.id])).toBe(0);
  });

  it('checks out over GraphQL through the same service, with the same refusals', async () => {
    const { activity, skuId } = await activitySetup();
    const customer = await newCustomer(t);
    const fields = 'orders { id status groupId groupPrice total items { skuId quantity unitPrice pricing } }';
    const opened = await mutate(t, 'checkout', { groupBuy: { activityId: activity.id }, shippingAddress: GRAPHQL_ADDRESS }, fields, customer.token);
    expect(opened.errors).toBeUndefined();
    expect(opened.payload.orders).toEqual([
      { id: expect.any(Number), status: 'PENDING_PAYMENT', groupId: expect.any(Number), groupPrice: 600, total: 600, items: [{ skuId, quantity: 1, unitPrice: 600, pricing: 'GROUP_BUY' }] },
    ]);
    const joiner = await newCustomer(t);
    const groupId = opened.payload.orders[0].groupId;
    const joined = await mutate(t, 'checkout', { groupBuy: { activityId: activity.id, groupId, skuId: null, quantity: null }, shippingAddress: GRAPHQL_ADDRESS }, fields, joiner.token);
    expect(joined.payload.orders[0].groupId).toBe(groupId);
    const refused = await mutate(t, 'checkout', { groupBuy: { activityId: activity.id, quantity: 2 }, shippingAddress: GRAPHQL_ADDRESS }, fields, (await newCustomer(t)).token);
    expect(refused.userErrors).toEqual([
      { code: 'GROUP_BUY_SINGLE_ITEM', message: expect.any(String), field: null, details: expect.objectContaining({ problem: 'QUANTITY', activityId: activity.id, quantity: 2 }) },
    ]);
  });
});

describe('seats, success and settlement', () => {
  it('10 customers racing to pay seats in a group of capacity 3: exactly 3 paid memberships, the group successful, the other 7 refused with nothing debited', async () => {
    const { activity, skuId } = await activitySetup({ capacity: 3 });
    const customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer(t, { available: 5_000, points: 0 })));
    const first = await groupCheckoutOk(t, customers[0].token, { activity_id: activity.id });
    const groupId = first.group_id;
    const orders = [first];
    for (const c of customers.slice(1)) orders.push(await groupCheckoutOk(t, c.token, { activity_id: activity.id, group_id: groupId }));
    expect(await stockOf(t, skuId)).toBe(10);

    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    const results = await Promise.all(customers.map((c, i) => pay(c.token, orders[i].id)));
    await waitFor(() => seen.some((e) => e.type === 'group.state_changed' && e.payload.state === 'successful' && e.payload.groupId === groupId));
    stop();

    const ok = results.map((r, i) => ({ r, i })).filter(({ r }) => r.status === 200);
    const refusedPays = results.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(3);
    expect(refusedPays).toHaveLength(7);
    for (const r of refusedPays) expect([r.status, r.body.error.code]).toEqual([422, 'GROUP_FULL']);

    expect(await groupRow(t, groupId)).toMatchObject({ state: 'successful', paid_seats: 3, closed_at: expect.anything() });
    const members = await t.sql('select order_id from group_buy_membership where group_id = ? order by order_id', [groupId]);
    const winners = ok.map(({ i }) => orders[i].id).sort((a, b) => a - b);
    expect(members.map((m) => m.order_id)).toEqual(winners);
    for (const { i } of ok) {
      expect((await t.api('GET', `/api/orders/${orders[i].id}`, { token: customers[i].token })).body.status).toBe('paid');
      expect(await balanceOf(t, customers[i].id, 'available')).toBe(4_400);
      expect(await balanceOf(t, customers[i].id, 'frozen')).toBe(0);
    }
    for (const [i, c] of customers.entries()) {
      if (ok.some((w) => w.i === i)) continue;
      expect(await balanceOf(t, c.id, 'available')).toBe(5_000);
      expect(await balanceOf(t, c.id, 'frozen')).toBe(0);
      expect(await countRows('ledger_entry', `reference_type = 'order' and reference_id = ?`, [orders[i].id])).toBe(0);
      expect((await t.sql('select status from shop_order where id = ?', [orders[i].id]))[0].status).toBe('pending_payment');
    }
    // The winners' lines now count as sold; settlement debited each frozen amount once.
    expect(await countRows('order_item', 'order_id = any(?::int[]) and sold', [`{${winners.join(',')}}`])).toBe(3);
    // One transfer each: the frozen money to the shop's pending balance.
    expect(await countRows('ledger_entry', `reason = 'group_settlement' and delta < 0 and reference_id = any(?::int[])`, [`{${winners.join(',')}}`])).toBe(3);
    expect(await countRows('ledger_entry', `reason = 'group_settlement' and delta > 0 and reference_id = any(?::int[])`, [`{${winners.join(',')}}`])).toBe(3);
    const transitions = seen.filter((e) => e.type === 'group.state_changed' && e.payload.groupId === groupId && e.payload.state !== 'open');
    expect(transitions).toEqual([expect.objectContaining({ shopIds: [first.shop.id], payload: expect.objectContaining({ state: 'successful', paidSeats: 3, orderIds: expect.arrayContaining(winners) }) })]);
    await expectLedgerReplays(t);

    // A losing order can still be cancelled, returning its stock.
    const loser = customers.findIndex((_, i) => !ok.some((w) => w.i === i));
    expect((await t.api('POST', `/api/orders/${orders[loser].id}/cancel`, { token: customers[loser].token })).body.status).toBe('cancelled');
    expect(await stockOf(t, skuId)).toBe(11);
    await expectStockAudited(t);
  });

  it('refuses a seat payment the customer cannot afford, freezing nothing and keeping the seat free', async () => {
    const { activity } = await activitySetup();
    const poor = await newCustomer(t, { available: 100, points: 0 });
    const order = await groupCheckoutOk(t, poor.token, { activity_id: activity.id });
    const res = await pay(poor.token, order.id);
    expect([res.status, res.body.error.code]).toEqual([422, 'INSUFFICIENT_FUNDS']);
    expect(await groupRow(t, order.group_id)).toMatchObject({ state: 'open', paid_seats: 0 });
    expect(await balanceOf(t, poor.id, 'available')).toBe(100);
    expect(await countRows('group_buy_membership', 'order_id = ?', [order.id])).toBe(0);
  });
});

describe('settlements sharing members', () => {
  it('two groups filled at the same moment by each other\'s members settle without a deadlock', async () => {
    const deadlocks = async () => Number((await t.sql('select deadlocks from pg_stat_database where datname = current_database()'))[0].deadlocks);
    const before = await deadlocks();
    for (let round = 0; round < 6; round++) {
      const { activity } = await activitySetup({ capacity: 2 });
      const a = await newCustomer(t, { available: 5_000, points: 0 });
      const b = await newCustomer(t, { available: 5_000, points: 0 });
      // Group 1 opened by A, group 2 by B; each joins the other's. The openers pay first.
      const g1 = await groupCheckoutOk(t, a.token, { activity_id: activity.id });
      const g2 = await groupCheckoutOk(t, b.token, { activity_id: activity.id });
      const bInG1 = await groupCheckoutOk(t, b.token, { activity_id: activity.id, group_id: g1.group_id });
      const aInG2 = await groupCheckoutOk(t, a.token, { activity_id: activity.id, group_id: g2.group_id });
      await payOk(t, a.token, g1.id);
      await payOk(t, b.token, g2.id);
      // The two seats that fill both groups at once: each settlement debits both A and B.
      const [x, y] = await Promise.all([pay(b.token, bInG1.id), pay(a.token, aInG2.id)]);
      expect([x.status, y.status]).toEqual([200, 200]);
      expect((await groupRow(t, g1.group_id)).state).toBe('successful');
      expect((await groupRow(t, g2.group_id)).state).toBe('successful');
      expect(await balanceOf(t, a.id, 'frozen')).toBe(0);
      expect(await balanceOf(t, b.id, 'available')).toBe(5_000 - 1_200);
    }
    // PostgreSQL counts every deadlock it broke (a retried use case would still have succeeded).
    expect(await deadlocks()).toBe(before);
    await expectLedgerReplays(t);
  });
});

describe('group lifecycle', () => {
  it('the expiry sweep moves an open group past its lifetime to expired and releases the frozen funds', async () => {
    const { activity, skuId } = await activitySetup();
    const { opener, joiner, opened, joined } = await openAndJoin(activity.id);
    await payOk(t, opener.token, opened.id);
    expect(await balanceOf(t, opener.id, 'frozen')).toBe(600);
    expect(await stockOf(t, skuId)).toBe(18);

    // Not yet due: the sweep leaves it alone.
    expect(await expireLapsedGroups(systemContext(deps(), 'test'))).toBe(0);
    await lapseGroup(t, opened.group_id);
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    // Two sweepers at once (two processes): the group expires once.
    const [a, b] = await Promise.all([expireLapsedGroups(systemContext(deps(), 'a')), expireLapsedGroups(systemContext(deps(), 'b'))]);
    // Events travel through LISTEN/NOTIFY: they arrive a moment after commit.
    await waitFor(() => seen.some((e) => e.type === 'order.cancelled' && e.customerId === opener.id) && seen.some((e) => e.type === 'group.state_changed' && e.payload.state === 'expired' && e.payload.groupId === opened.group_id));
    stop();
    expect(a + b).toBe(1);

    expect(await groupRow(t, opened.group_id)).toMatchObject({ state: 'expired', paid_seats: 1, closed_at: expect.anything() });
    expect(await balanceOf(t, opener.id, 'available')).toBe(5_000);
    expect(await balanceOf(t, opener.id, 'frozen')).toBe(0);
    const entries = await t.sql(
      `select b.kind, l.delta::int, l.reason from ledger_entry l join balance b on b.id = l.balance_id
        where l.reference_type = 'order' and l.reference_id = ? order by l.id`, [opened.id]);
    expect(entries.slice(2)).toEqual([{ kind: 'frozen', delta: -600, reason: 'group_expired' }, { kind: 'available', delta: 600, reason: 'group_expired' }]);
    const paidOrder = (await t.api('GET', `/api/orders/${opened.id}`, { token: opener.token })).body;
    expect(paidOrder).toMatchObject({ status: 'cancelled', cancel_reason: 'group_expired' });
    // The released seat's unit is back in stock; the joiner's pending order still holds its own.
    expect(await stockOf(t, skuId)).toBe(19);
    // Only this group's transitions after opening, and the opener's cancellations (earlier tests' events may still arrive).
    expect(seen.filter((e) => e.type === 'group.state_changed' && e.payload.groupId === opened.group_id && e.payload.state !== 'open').map((e) => e.payload)).toEqual([
      expect.objectContaining({ groupId: opened.group_id, state: 'expired', orderIds: [opened.id] }),
    ]);
    expect(seen.flatMap((e) => (e.type === 'order.cancelled' && e.customerId === opener.id ? [e.payload.orderId] : []))).toEqual([opened.id]);

    // The joiner can no longer pay (nothing debited) nor can anyone join.
    const late = await pay(joiner.token, joined.id);
    expect([late.status, late.body.error.code, late.body.error.details.state]).toEqual([422, 'GROUP_NOT_JOINABLE', 'expired']);
    expect(await balanceOf(t, joiner.id, 'available')).toBe(5_000);
    const join = await checkout((await newCustomer(t)).token, { activity_id: activity.id, group_id: opened.group_id });
    expect([join.status, join.body.error.code]).toEqual([422, 'GROUP_NOT_JOINABLE']);
    await expectLedgerReplays(t);
  });

  it('expires a lapsed group before paying a seat in it, without waiting for the sweep', async () => {
    const { activity } = await activitySetup();
    const { opener, joiner, opened, joined } = await openAndJoin(activity.id);
    await payOk(t, opener.token, opened.id);
    await lapseGroup(t, opened.group_id);
    const res = await pay(joiner.token, joined.id);
    expect([res.status, res.body.error.code]).toEqual([422, 'GROUP_NOT_JOINABLE']);
    // The expiry that ran first is kept although the payment was refused: the opener has their money back.
    expect((await groupRow(t, opened.group_id)).state).toBe('expired');
    expect(await balanceOf(t, opener.id, 'available')).toBe(5_000);
    expect(await balanceOf(t, joiner.id, 'available')).toBe(5_000);
  });

  it("cancelling the opener's unpaid order cancels a group with no paid seat", async () => {
    const { activity, skuId } = await activitySetup();
    const opener = await newCustomer(t);
    const opened = await groupCheckoutOk(t, opener.token, { activity_id: activity.id });
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    const cancel = await t.api('POST', `/api/orders/${opened.id}/cancel`, { token: opener.token });
    // The checkout's own `open` event may still arrive late: wait for the cancellation's.
    const cancelledEvent = () => seen.find((e) => e.type === 'group.state_changed' && e.payload.state === 'cancelled' && e.payload.groupId === opened.group_id);
    await waitFor(() => cancelledEvent() !== undefined);
    stop();
    expect(cancel.body.status).toBe('cancelled');
    expect(await groupRow(t, opened.group_id)).toMatchObject({ state: 'cancelled', paid_seats: 0, closed_at: expect.anything() });
    expect(await stockOf(t, skuId)).toBe(20);
    expect(cancelledEvent()?.payload).toMatchObject({ groupId: opened.group_id, state: 'cancelled' });
    const join = await checkout((await newCustomer(t)).token, { activity_id: activity.id, group_id: opened.group_id });
    expect([join.status, join.body.error.code, join.body.error.details.state]).toEqual([422, 'GROUP_NOT_JOINABLE', 'cancelled']);
    // The cancelled group is not offered any more.
    expect((await t.api('GET', `/api/group-buys/${activity.id}`)).body.groups).toEqual([]);
  });

  it("cancelling the opener's unpaid order after the lifetime ended gives expired, not cancelled", async () => {
    const { activity } = await activitySetup();
    const opener = await newCustomer(t);
    const opened = await groupCheckoutOk(t, opener.token, { activity_id: activity.id });
    await lapseGroup(t, opened.group_id);
    expect((await t.api('POST', `/api/orders/${opened.id}/cancel`, { token: opener.token })).body.status).toBe('cancelled');
    expect((await groupRow(t, opened.group_id)).state).toBe('expired');

    // The same through the payment-window sweep.
    const other = await groupCheckoutOk(t, opener.token, { activity_id: activity.id });
    await lapseGroup(t, other.group_id);
    await t.sql(`update shop_order set created_at = now() - interval '2 hours' where id = ?`, [other.id]);
    expect(await cancelUnpaidOrders(systemContext(deps(), 'test'))).toBeGreaterThanOrEqual(1);
    expect((await groupRow(t, other.group_id)).state).toBe('expired');
  });

  it('cancelling a pending order never removes a paid seat', async () => {
    const { activity } = await activitySetup();
    const opener = await newCustomer(t, { available: 5_000, points: 0 });
    const payer = await newCustomer(t, { available: 5_000, points: 0 });
    const waverer = await newCustomer(t, { available: 5_000, points: 0 });
    const opened = await groupCheckoutOk(t, opener.token, { activity_id: activity.id });
    const paidSeat = await groupCheckoutOk(t, payer.token, { activity_id: activity.id, group_id: opened.group_id });
    const pending = await groupCheckoutOk(t, waverer.token, { activity_id: activity.id, group_id: opened.group_id });
    await payOk(t, payer.token, paidSeat.id);

    // The opener cancels: the group has a paid seat, so it stays open with that seat.
    expect((await t.api('POST', `/api/orders/${opened.id}/cancel`, { token: opener.token })).body.status).toBe('cancelled');
    // Another joiner's pending order cancelled by the payment-window sweep: the same.
    await t.sql(`update shop_order set created_at = now() - interval '2 hours' where id = ?`, [pending.id]);
    await cancelUnpaidOrders(systemContext(deps(), 'test'));
    expect((await t.sql('select status from shop_order where id = ?', [pending.id]))[0].status).toBe('cancelled');

    expect(await groupRow(t, opened.group_id)).toMatchObject({ state: 'open', paid_seats: 1 });
    expect(await countRows('group_buy_membership', 'group_id = ?', [opened.group_id])).toBe(1);
    expect((await t.sql('select status from shop_order where id = ?', [paidSeat.id]))[0].status).toBe('awaiting_group');
    expect(await balanceOf(t, payer.id, 'frozen')).toBe(600);

    // The opener may come back with a new order and fill the group with the waverer.
    const back = await groupCheckoutOk(t, opener.token, { activity_id: activity.id, group_id: opened.group_id });
    const again = await groupCheckoutOk(t, waverer.token, { activity_id: activity.id, group_id: opened.group_id });
    await payOk(t, opener.token, back.id);
    expect((await payOk(t, waverer.token, again.id)).status).toBe('paid');
    expect(await groupRow(t, opened.group_id)).toMatchObject({ state: 'successful', paid_seats: 3 });
    expect(await balanceOf(t, payer.id, 'frozen')).toBe(0);
    expect(await balanceOf(t, payer.id, 'available')).toBe(4_400);
  });

  it('refuses to join expired and cancelled groups, and full ones', async () => {
    const { activity } = await activitySetup({ capacity: 2 });
    const customers = await Promise.all(Array.from({ length: 4 }, () => newCustomer(t, { available: 5_000, points: 0 })));
    const expiring = await groupCheckoutOk(t, customers[0].token, { activity_id: activity.id });
    await lapseGroup(t, expiring.group_id);
    const cancelled = await groupCheckoutOk(t, customers[1].token, { activity_id: activity.id });
    await t.api('POST', `/api/orders/${cancelled.id}/cancel`, { token: customers[1].token });
    const full = await groupCheckoutOk(t, customers[2].token, { activity_id: activity.id });
    const fill = await groupCheckoutOk(t, customers[3].token, { activity_id: activity.id, group_id: full.group_id });
    await payOk(t, customers[2].token, full.id);
    await payOk(t, customers[3].token, fill.id);

    const newcomer = await newCustomer(t);
    const expired = await checkout(newcomer.token, { activity_id: activity.id, group_id: expiring.group_id });
    expect([expired.status, expired.body.error.code, expired.body.error.details.state]).toEqual([422, 'GROUP_NOT_JOINABLE', 'expired']);
    // The lapsed group was expired by the checkout itself, before the refusal.
    expect((await groupRow(t, expiring.group_id)).state).toBe('expired');
    const gone = await checkout(newcomer.token, { activity_id: activity.id, group_id: cancelled.group_id });
    expect([gone.status, gone.body.error.code, gone.body.error.details.state]).toEqual([422, 'GROUP_NOT_JOINABLE', 'cancelled']);
    const noSeat = await checkout(newcomer.token, { activity_id: activity.id, group_id: full.group_id });
    expect([noSeat.status, noSeat.body.error.code]).toEqual([422, 'GROUP_FULL']);
    expect(await countRows('shop_order', 'customer_id = ?', [newcomer.id])).toBe(0);
  });

  it('ledger entries replay to every balance after all of the above, and stock to its movements', async () => {
    expect(await expectLedgerReplays(t)).toBeGreaterThan(0);
    expect(await expectStockAudited(t)).toBeGreaterThan(0);
  });
});
