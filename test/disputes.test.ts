import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { settlePaymentRefunds } from '../src/services/payments/payment-refunds.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, type TestUser } from './support/fixtures.js';
import { balanceOf, expectLedgerReplays, payOk, placeOrder, shopWithProduct } from './support/shopping.js';
import { mutate } from './support/graphql.js';
import { waitFor } from './support/subscriptions.js';

/**
 * Disputes (issue 41, item 4): a customer escalates a refund the shop rejected, once, with a reason;
 * a platform admin refunds (fully or partly, from the shop's share, through the ledger and on to the
 * gateway as any refund) or upholds the rejection, with a ruling both sides read. Both doors, bad
 * input, and two admins ruling at once.
 */
let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
beforeAll(async () => {
  t = await startTestApp({ payments: { ...loadConfig({ NODE_ENV: 'test' }).payments, sandbox: { delayMs: 50, secret: 'test-sandbox-secret' } } });
  admin = await newAdmin(t);
  otherAdmin = await newAdmin(t);
});
afterAll(() => t.close());

const FUNDS = { available: 1_000_000, points: 0 };

/** A paid order of 2 x 1000 whose refund of both units the shop rejected. */
async function rejectedRefund(options: { pay?: (customer: TestUser, orderId: number) => Promise<void> } = {}) {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 50 }]);
  const operator = await newOperator(t, shop.id);
  const customer = await newCustomer(t, options.pay ? { available: 0, points: 0 } : FUNDS);
  const order = await placeOrder(t, customer.token, product.skuIds[0], 2);
  await (options.pay ?? ((c, id) => payOk(t, c.token, id)))(customer, order.id);
  const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, {
    token: customer.token,
    body: { kind: 'refund', reason: 'Never wanted two', items: [{ order_item_id: order.items[0].id, quantity: 2 }] },
  });
  expect(asked.status).toBe(201);
  const rejected = await t.api('POST', `/api/merchant/refunds/${asked.body.id}/reject`, { token: operator.token, body: { reason: 'Already packed' } });
  expect(rejected.body.status).toBe('rejected');
  return { shop, operator, customer, order, refund: rejected.body as { id: number; amount: number } };
}

const escalate = (token: string | undefined, refundId: number, reason: unknown = 'The parcel never left the shop') =>
  t.api('POST', `/api/refunds/${refundId}/dispute`, { token, body: { reason } });
async function escalateOk(customer: TestUser, refundId: number) {
  const res = await escalate(customer.token, refundId);
  if (res.status !== 201) throw new Error(`escalation failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
const refundRuling = (token: string, disputeId: number, amount: unknown, reason = 'The shop had not shipped') =>
  t.api('POST', `/api/admin/disputes/${disputeId}/refund`, { token, body: { amount, reason } });
const uphold = (token: string, disputeId: number, reason: unknown = 'The goods were made to order') =>
  t.api('POST', `/api/admin/disputes/${disputeId}/uphold`, { token, body: { reason } });

const disputeEvents = (disputeId: number) =>
  t.sql<{ type: string; payload: Record<string, unknown>; shop_ids: number[]; customer_id: number }>(
    `select type, payload, shop_ids, customer_id from event where type like 'dispute.%' and (payload->>'disputeId')::int = ? order by id`,
    [disputeId],
  );
/** The money entries referencing a refund, on any account. */
const ledgerOf = (refundId: number) =>
  t.sql(`select b.kind, l.delta::int as delta from ledger_entry l join balance b on b.id = l.balance_id where l.reference_type = 'refund' and l.reference_id = ? order by l.id`, [refundId]);

describe('escalating', () => {
  it('the customer escalates their rejected refund: an open dispute that the customer, the shop and the admins read, with dispute.opened', async () => {
    const { shop, operator, customer, order, refund } = await rejectedRefund();
    const opened = await escalate(customer.token, refund.id);
    expect(opened.status).toBe(201);
    expect(opened.body).toMatchObject({
      refund_id: refund.id, order_id: order.id, customer_id: customer.id, customer_name: 'Test User', shop: { id: shop.id }, status: 'open', reason: 'The parcel never left the shop',
      refund_kind: 'refund', requested_amount: 2000, shop_reject_reason: 'Already packed', refunded_amount: 0, currency: 'CNY', created_at: expect.any(String),
    });
    expect(opened.body.ruling).toBeUndefined();
    const id = opened.body.id;
    for (const [token, path] of [[customer.token, '/api/me/disputes'], [operator.token, '/api/merchant/disputes'], [admin.token, '/api/admin/disputes?status=open&page_size=100']] as const) {
      const list = await t.api('GET', path, { token });
      expect(list.status).toBe(200);
      expect(list.body.items.map((d: { id: number }) => d.id)).toContain(id);
    }
    expect((await t.api('GET', `/api/admin/disputes/${id}`, { token: admin.token })).body).toEqual(opened.body);
    expect(await disputeEvents(id)).toEqual([
      { type: 'dispute.opened', payload: { disputeId: id, refundId: refund.id, orderId: order.id, status: 'open' }, shop_ids: [shop.id], customer_id: customer.id },
    ]);
  });

  it('escalates only once: a second escalation is 409 DISPUTE_EXISTS and stores nothing', async () => {
    const { customer, refund } = await rejectedRefund();
    const first = await escalateOk(customer, refund.id);
    const second = await escalate(customer.token, refund.id, 'Again');
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: 'DISPUTE_EXISTS', details: { refund_id: refund.id, dispute_id: first.id } });
    expect(await t.sql('select id from dispute where refund_id = ?', [refund.id])).toEqual([{ id: first.id }]);
  });

  it('two escalations of one refund at once: exactly one dispute', async () => {
    const { customer, refund } = await rejectedRefund();
    const answers = await Promise.all([escalate(customer.token, refund.id), escalate(customer.token, refund.id)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.status === 409)!.body.error.code).toBe('DISPUTE_EXISTS');
    expect(await t.sql('select count(*)::int as n from dispute where refund_id = ?', [refund.id])).toEqual([{ n: 1 }]);
  });

  it("escalates only a rejected refund of one's own order: another's is 404, one not rejected is 409 REFUND_NOT_REJECTED", async () => {
    const { customer, order, refund } = await rejectedRefund();
    const stranger = await newCustomer(t);
    expect((await escalate(stranger.token, refund.id)).body.error).toMatchObject({ code: 'NOT_FOUND', details: { refund_id: refund.id } });
    const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token, body: { kind: 'refund', reason: 'One after all', items: [{ order_item_id: order.items[0].id, quantity: 1 }] },
    });
    const pending = await escalate(customer.token, asked.body.id);
    expect(pending.status).toBe(409);
    expect(pending.body.error).toMatchObject({ code: 'REFUND_NOT_REJECTED', details: { refund_id: asked.body.id, status: 'requested' } });
    expect(await t.sql('select count(*)::int as n from dispute where order_id = ?', [order.id])).toEqual([{ n: 0 }]);
  });

  it('answers bad input and wrong callers clearly, never a 500, storing nothing', async () => {
    const { operator, customer, refund } = await rejectedRefund();
    for (const reason of ['', '   ', 'x'.repeat(501), 42, null]) {
      const res = await escalate(customer.token, refund.id, reason);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED', details: { problems: [{ field: 'reason' }] } });
    }
    expect((await t.api('POST', '/api/refunds/abc/dispute', { token: customer.token, body: { reason: 'x' } })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await t.api('POST', `/api/refunds/${refund.id}/dispute`, { token: customer.token, body: { reason: 'x', extra: 1 } })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await escalate(undefined, refund.id)).status).toBe(401);
    expect((await escalate(operator.token, refund.id)).status).toBe(403);
    expect((await escalate(admin.token, refund.id)).status).toBe(403);
    expect((await t.api('GET', '/api/admin/disputes', { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/merchant/disputes', { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/disputes?status=closed', { token: admin.token })).body.error.code).toBe('VALIDATION_FAILED');
    expect(await t.sql('select count(*)::int as n from dispute where refund_id = ?', [refund.id])).toEqual([{ n: 0 }]);
  });
});

describe('ruling', () => {
  it("a partial refund ruling pays the customer from the shop's share through a new completed refund; the books stay at zero; both sides read the ruling", async () => {
    const { shop, operator, customer, order, refund } = await rejectedRefund();
    const dispute = await escalateOk(customer, refund.id);
    const before = await balanceOf(t, customer.id, 'available');
    const ruled = await refundRuling(admin.token, dispute.id, 1200);
    expect(ruled.status).toBe(200);
    expect(ruled.body).toMatchObject({ status: 'refunded', ruling: 'The shop had not shipped', refunded_amount: 1200, ruled_refund_id: expect.any(Number), ruled_at: expect.any(String) });
    const newRefund = ruled.body.ruled_refund_id as number;
    expect(await balanceOf(t, customer.id, 'available')).toBe(before + 1200);
    // The shop's pending share paid it (the order's earnings are not released yet); the customer got it all.
    expect(await ledgerOf(newRefund)).toEqual([
      { kind: 'shop_pending', delta: -1200 },
      { kind: 'available', delta: 1200 },
    ]);
    expect(await ledgerOf(refund.id)).toEqual([]);
    const refunds = (await t.api('GET', '/api/me/refunds', { token: customer.token })).body.items;
    expect(refunds.find((r: { id: number }) => r.id === newRefund)).toMatchObject({ order_id: order.id, kind: 'refund', status: 'completed', amount: 1200, reason: 'The shop had not shipped', items: [] });
    expect(refunds.find((r: { id: number }) => r.id === refund.id)).toMatchObject({ status: 'rejected' });
    const mine = (await t.api('GET', '/api/me/disputes', { token: customer.token })).body.items[0];
    const theirs = (await t.api('GET', '/api/merchant/disputes', { token: operator.token })).body.items[0];
    expect(mine).toEqual(ruled.body);
    expect(theirs).toEqual(ruled.body);
    expect((await disputeEvents(dispute.id)).map((e) => e.type)).toEqual(['dispute.opened', 'dispute.resolved']);
    expect((await disputeEvents(dispute.id))[1]).toMatchObject({
      payload: { disputeId: dispute.id, refundId: refund.id, orderId: order.id, status: 'refunded', amount: 1200 }, shop_ids: [shop.id], customer_id: customer.id,
    });
    expect(await t.sql(`select type, payload->>'amount' as amount from event where type = 'refund.completed' and (payload->>'refundId')::int = ?`, [newRefund])).toEqual([
      { type: 'refund.completed', amount: '1200' },
    ]);
    expect(await expectLedgerReplays(t)).toBeGreaterThan(0);
  });

  it('a ruled dispute cannot be ruled again; an amount above the request is 422 DISPUTE_AMOUNT_TOO_HIGH; nothing moves', async () => {
    const { customer, refund } = await rejectedRefund();
    const dispute = await escalateOk(customer, refund.id);
    const before = await balanceOf(t, customer.id, 'available');
    const tooHigh = await refundRuling(admin.token, dispute.id, 2001);
    expect(tooHigh.status).toBe(422);
    expect(tooHigh.body.error).toMatchObject({ code: 'DISPUTE_AMOUNT_TOO_HIGH', details: { refund_id: refund.id, requested: 2001, available: 2000 } });
    for (const body of [{ amount: 0, reason: 'x' }, { amount: 1.5, reason: 'x' }, { amount: '100', reason: 'x' }, { amount: 100, reason: ' ' }, { amount: 100 }]) {
      const res = await t.api('POST', `/api/admin/disputes/${dispute.id}/refund`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await refundRuling(admin.token, 2_000_000_000, 100)).body.error).toMatchObject({ code: 'NOT_FOUND', details: { dispute_id: 2_000_000_000 } });
    expect((await t.api('GET', '/api/admin/disputes/2000000000', { token: admin.token })).status).toBe(404);
    expect(await balanceOf(t, customer.id, 'available')).toBe(before);
    expect(await t.sql('select status from dispute where id = ?', [dispute.id])).toEqual([{ status: 'open' }]);

    expect((await refundRuling(admin.token, dispute.id, 2000)).body).toMatchObject({ status: 'refunded', refunded_amount: 2000 });
    expect(await balanceOf(t, customer.id, 'available')).toBe(before + 2000);
    for (const again of [await refundRuling(admin.token, dispute.id, 100), await uphold(admin.token, dispute.id)]) {
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'DISPUTE_WRONG_STATE', details: { dispute_id: dispute.id, status: 'refunded', expected: ['open'] } });
    }
    expect(await balanceOf(t, customer.id, 'available')).toBe(before + 2000);
    await expectLedgerReplays(t);
  });

  it('upholding keeps the rejection: no money moves, and both sides read the ruling', async () => {
    const { operator, customer, refund } = await rejectedRefund();
    const dispute = await escalateOk(customer, refund.id);
    const before = await balanceOf(t, customer.id, 'available');
    const upheld = await uphold(admin.token, dispute.id);
    expect(upheld.status).toBe(200);
    expect(upheld.body).toMatchObject({ status: 'upheld', ruling: 'The goods were made to order', refunded_amount: 0, ruled_at: expect.any(String) });
    expect(upheld.body.ruled_refund_id).toBeUndefined();
    expect(await balanceOf(t, customer.id, 'available')).toBe(before);
    expect((await t.api('GET', '/api/merchant/disputes?status=upheld', { token: operator.token })).body.items).toEqual([upheld.body]);
    expect((await t.api('GET', '/api/me/disputes', { token: customer.token })).body.items).toEqual([upheld.body]);
    expect((await disputeEvents(dispute.id))[1].payload).toEqual({ disputeId: dispute.id, refundId: refund.id, orderId: upheld.body.order_id, status: 'upheld', amount: 0 });
    expect((await uphold(admin.token, dispute.id, '')).body.error.code).toBe('VALIDATION_FAILED');
    expect((await uphold(customer.token, dispute.id)).status).toBe(403);
    expect((await uphold(operator.token, dispute.id)).status).toBe(403);
  });

  it('never refunds more than the order has left: the cap counts refunds completed since the rejection', async () => {
    const { operator, customer, order, refund } = await rejectedRefund();
    const dispute = await escalateOk(customer, refund.id);
    // The rejection freed the units: the customer asks again for one, and the shop approves it.
    const asked = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token, body: { kind: 'refund', reason: 'Just one then', items: [{ order_item_id: order.items[0].id, quantity: 1 }] },
    });
    expect((await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: operator.token, body: {} })).body.status).toBe('completed');
    const left = order.total - 1000;
    const over = await refundRuling(admin.token, dispute.id, left + 1);
    expect(over.body.error).toMatchObject({ code: 'DISPUTE_AMOUNT_TOO_HIGH', details: { available: Math.min(2000, left) } });
    expect((await refundRuling(admin.token, dispute.id, Math.min(2000, left))).status).toBe(200);
    await expectLedgerReplays(t);
  });

  it('an order a gateway paid gets the ruled refund back on that method, through its clearing account', async () => {
    const { customer, refund } = await rejectedRefund({
      pay: async (c, orderId) => {
        const started = await t.api('POST', '/api/payments', { token: c.token, body: { order_ids: [orderId], method: 'sandbox' } });
        expect(started.status).toBe(201);
        await waitFor(async () => (await t.sql('select status from payment where id = ?', [started.body.id]))[0].status === 'captured', 30_000, 'the sandbox capture');
      },
    });
    const dispute = await escalateOk(customer, refund.id);
    const ruled = await refundRuling(admin.token, dispute.id, 700);
    expect(ruled.status).toBe(200);
    const newRefund = ruled.body.ruled_refund_id;
    // The money went on to the gateway, not onto the balance.
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    expect(await t.sql('select status, amount from payment_refund where refund_id = ?', [newRefund])).toEqual([{ status: 'pending', amount: 700 }]);
    expect(await settlePaymentRefunds(await t.context())).toBeGreaterThanOrEqual(1);
    expect(await t.sql('select status from payment_refund where refund_id = ?', [newRefund])).toEqual([{ status: 'succeeded' }]);
    await expectLedgerReplays(t);
  });
});

describe('two admins ruling at once', () => {
  /**
   * Holds the order's row (the first lock a ruling takes) while `calls` start one after the other,
   * each seen waiting before the next starts, then lets them go: they overlap for certain.
   */
  async function together<T>(orderId: number, calls: (() => Promise<T>)[]): Promise<T[]> {
    const blocker = new pg.Client({ connectionString: t.dbUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select id from shop_order where id = $1 for update', [orderId]);
      const blockerPid = (await blocker.query('select pg_backend_pid() as pid')).rows[0].pid;
      const running: Promise<T>[] = [];
      for (const call of calls) {
        running.push(call());
        await waitFor(async () => {
          const [{ n }] = await t.sql(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%shop_order%' and pid <> ?`,
            [blockerPid],
          );
          return n >= running.length;
        }, 10_000, `racing call ${running.length} waiting on the order`);
      }
      await blocker.query('rollback');
      return await Promise.all(running);
    } finally {
      await blocker.end();
    }
  }

  it('exactly one ruling wins, the other answers 409 DISPUTE_WRONG_STATE, and the money moves once', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 4; round++) {
      const { customer, order, refund } = await rejectedRefund();
      const dispute = await escalateOk(customer, refund.id);
      const before = await balanceOf(t, customer.id, 'available');
      const calls = round < 2
        ? [() => refundRuling(admin.token, dispute.id, 2000), () => refundRuling(otherAdmin.token, dispute.id, 1500)]
        : [() => refundRuling(admin.token, dispute.id, 2000), () => uphold(otherAdmin.token, dispute.id)];
      const answers = await together(order.id, round % 2 === 0 ? calls : [...calls].reverse());
      expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
      const won = answers.find((r) => r.status === 200)!.body;
      const lost = answers.find((r) => r.status === 409)!.body;
      expect(lost.error).toMatchObject({ code: 'DISPUTE_WRONG_STATE', details: { status: won.status } });
      outcomes.push(`${won.status} ${won.refunded_amount}`);
      expect(await balanceOf(t, customer.id, 'available')).toBe(before + won.refunded_amount);
      expect(await t.sql(`select count(*)::int as n from refund where order_id = ? and status = 'completed'`, [order.id])).toEqual([{ n: won.status === 'refunded' ? 1 : 0 }]);
      expect((await disputeEvents(dispute.id)).map((e) => e.type)).toEqual(['dispute.opened', 'dispute.resolved']);
    }
    // Whoever queued first won: both kinds of ruling were exercised.
    expect(outcomes).toEqual(['refunded 2000', 'refunded 1500', 'refunded 2000', 'upheld 0']);
    await expectLedgerReplays(t);
  });
});

describe('over GraphQL', () => {
  const SELECTION = 'dispute { id status reason refundKind requestedAmount shopRejectReason ruling refundedAmount ruledRefundId }';

  it('escalates, refunds and upholds through the same use cases, refusals as typed user errors', async () => {
    const { operator, customer, refund } = await rejectedRefund();
    const opened = await mutate(t, 'escalateRefund', { refundId: refund.id, reason: 'Not shipped at all' }, SELECTION, customer.token);
    expect(opened.userErrors).toEqual([]);
    expect(opened.payload.dispute).toMatchObject({ status: 'OPEN', reason: 'Not shipped at all', refundKind: 'REFUND', requestedAmount: 2000, shopRejectReason: 'Already packed', ruling: null });
    const id = opened.payload.dispute.id;
    const twice = await mutate(t, 'escalateRefund', { refundId: refund.id, reason: 'Again' }, SELECTION, customer.token);
    expect(twice.userErrors).toMatchObject([{ code: 'DISPUTE_EXISTS', details: { refundId: refund.id, disputeId: id } }]);

    const tooHigh = await mutate(t, 'refundDispute', { disputeId: id, amount: 5000, reason: 'x' }, SELECTION, admin.token);
    expect(tooHigh.userErrors).toMatchObject([{ code: 'DISPUTE_AMOUNT_TOO_HIGH', details: { available: 2000 } }]);
    const ruled = await mutate(t, 'refundDispute', { disputeId: id, amount: 500, reason: 'Half of the freight' }, SELECTION, admin.token);
    expect(ruled.payload.dispute).toMatchObject({ status: 'REFUNDED', ruling: 'Half of the freight', refundedAmount: 500, ruledRefundId: expect.any(Number) });
    const late = await mutate(t, 'upholdDispute', { disputeId: id, reason: 'No' }, SELECTION, otherAdmin.token);
    expect(late.userErrors).toMatchObject([{ code: 'DISPUTE_WRONG_STATE', details: { status: 'REFUNDED', expected: ['OPEN'] } }]);

    const read = `query { myDisputes { items { id status ruling } } }`;
    expect((await t.gql(read, undefined, customer.token)).data.myDisputes.items).toEqual([{ id, status: 'REFUNDED', ruling: 'Half of the freight' }]);
    const shopRead = await t.gql(`query { merchantDisputes { items { id reason ruling } } }`, undefined, operator.token);
    expect(shopRead.data.merchantDisputes.items).toEqual([{ id, reason: 'Not shipped at all', ruling: 'Half of the freight' }]);
    const adminRead = await t.gql(`query($id: Int!) { dispute(id: $id) { id status customerName } disputes(status: REFUNDED, pageSize: 100) { items { id } } }`, { id }, admin.token);
    expect(adminRead.data.dispute).toEqual({ id, status: 'REFUNDED', customerName: 'Test User' });
    expect(adminRead.data.disputes.items).toContainEqual({ id });

    const denied = await t.gql(`{ disputes { total } }`, undefined, customer.token);
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const anonymous = await mutate(t, 'escalateRefund', { refundId: refund.id, reason: 'x' }, SELECTION);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await expectLedgerReplays(t);
  });
});

describe('finding disputes', () => {
  it("the platform finds disputes by the customer's or the shop's name, the reason or the order's number, over both doors; the other sides' lists take no words", async () => {
    const { shop, customer, order, refund } = await rejectedRefund();
    const word = `zq${Date.now().toString(36)}`;
    const res = await escalate(customer.token, refund.id, `The box was ${word} and empty`);
    expect(res.status).toBe(201);
    const disputeId = res.body.id as number;
    await t.sql('update app_user set display_name = ? where id = ?', [`Ann ${word}x`, customer.id]);
    const ids = async (query: string) => {
      const found = await t.api('GET', `/api/admin/disputes?${query}&page_size=100`, { token: admin.token });
      expect(found.status).toBe(200);
      return found.body.items.map((d: { id: number }) => d.id);
    };
    // The reason's word in another case; the customer's name; the shop's name; the order's number.
    expect(await ids(`q=${word.toUpperCase()}`)).toEqual([disputeId]);
    expect(await ids(`q=${encodeURIComponent(`Ann ${word}`)}`)).toEqual([disputeId]);
    expect(await ids(`q=${encodeURIComponent(shop.name)}&status=open`)).toEqual([disputeId]);
    expect(await ids(`q=${encodeURIComponent(`#${order.id}`)}`)).toEqual([disputeId]);
    expect(await ids(`q=${encodeURIComponent(shop.name)}&status=upheld`)).toEqual([]);
    // A % is a character searched for, not a wildcard.
    expect(await ids(`q=${word}%25`)).toEqual([]);
    const gql = await t.gql('query($q: String) { disputes(q: $q) { total items { id customerName shop { name } } } }', { q: word }, admin.token);
    expect(gql.data.disputes).toEqual({ total: 1, items: [{ id: disputeId, customerName: `Ann ${word}x`, shop: { name: shop.name } }] });
    const tooLong = await t.api('GET', `/api/admin/disputes?q=${'x'.repeat(201)}`, { token: admin.token });
    expect([tooLong.status, tooLong.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    // The customer's and the shop's lists are theirs already: they take no search.
    expect((await t.gql('query { myDisputes(q: "x") { total } }', undefined, customer.token)).errors?.[0]?.message).toMatch(/Unknown argument "q"/);
  });
});
