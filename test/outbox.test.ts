import pg from 'pg';
import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator } from './support/fixtures.js';
import { addToCart, checkoutOk, shopWithProduct } from './support/shopping.js';
import { commitEvents, marker, orderPlaced, PAYLOAD_FIELDS, subscribe, waitFor } from './support/subscriptions.js';
import { startServerProcess } from './support/server-process.js';
import { RELAY_LOCK } from '../src/services/events/outbox.repository.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { pruneExpiredEvents } from '../src/services/events/event-feed.service.js';

/**
 * The transactional outbox (issue 29): events are rows written by the change's own transaction or
 * statement, numbered after commit by one relay at a time, and handed to every process in order.
 */
let a: TestApp;
let b: TestApp;

beforeAll(async () => {
  a = await startTestApp({ outbox: { pollMs: 100, retentionSeconds: 7 * 86_400 } });
  b = await startSecondApp(a, { outbox: { pollMs: 100, retentionSeconds: 7 * 86_400 } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
});

const tagged = async (t: TestApp, tag: number) =>
  t.sql<{ position: string | null }>(`select position::text as position from event where type = 'stock.low' and (payload->>'skuId')::int = ?`, [tag]);

/** Collects what a process's bus hands its subscribers. */
function collect(t: TestApp): { events: DomainEvent[]; stop: () => void } {
  const events: DomainEvent[] = [];
  const stop = t.events.subscribe((e) => events.push(e));
  return { events, stop };
}

describe('outbox', () => {
  it('stores a committed change’s events in its transaction and publishes nothing of a rolled-back one', async () => {
    await commitEvents(a, [marker(900_001)], { rollback: true }).catch(() => {});
    await commitEvents(a, [marker(900_002)]);
    await waitFor(async () => (await tagged(a, 900_002))[0]?.position != null, 5000, 'position given');
    expect(await tagged(a, 900_001)).toEqual([]);
  });

  it('stores checkout’s order.placed and stock.low from its one write statement', async () => {
    const { shop, product } = await shopWithProduct(a, [{ price: 1000, stock: 6 }]);
    const customer = await newCustomer(a, { available: 100_000, points: 0 });
    await addToCart(a, customer.token, product.skuIds[0], 2);
    const [order] = await checkoutOk(a, customer.token);
    const rows = await a.sql<{ type: string; shop_ids: number[]; customer_id: number | null; payload: unknown }>(
      `select type, shop_ids, customer_id, payload from event where shop_ids @> array[?::int] order by id`,
      [shop.id],
    );
    expect(rows).toEqual([
      { type: 'order.placed', shop_ids: [shop.id], customer_id: customer.id, payload: { orderId: order.id, total: order.total, status: 'pending_payment' } },
      { type: 'stock.low', shop_ids: [shop.id], customer_id: null, payload: { skuId: product.skuIds[0], productId: product.id, stock: 4, threshold: 5 } },
    ]);
  });

  it('hands every process each event once, in position order, positions gap-free, under concurrent commits from two processes', async () => {
    const seenA = collect(a);
    const seenB = collect(b);
    const base = 910_000;
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => commitEvents(i % 2 ? a : b, [marker(base + i), marker(base + 100 + i)])),
    );
    const mine = (seen: DomainEvent[]) => seen.filter((e) => e.type === 'stock.low' && e.payload.skuId >= base && e.payload.skuId < base + 200);
    await waitFor(() => mine(seenA.events).length === 80 && mine(seenB.events).length === 80, 10_000, 'all 80 events in both processes');
    seenA.stop();
    seenB.stop();
    for (const seen of [seenA.events, seenB.events]) {
      const positions = seen.map((e) => BigInt(e.id));
      // Every position once and in order, with nothing skipped between the first and the last.
      for (let i = 1; i < positions.length; i++) expect(positions[i]).toBe(positions[i - 1] + 1n);
    }
    // Both processes were handed the same events, from the first position both collectors saw on: an event
    // committed before this test may reach one process's collector and not the other's, already handed
    // over there when its collector attached (CI once saw process A start at 4 and B at 2).
    const from = [seenA, seenB].map((seen) => BigInt(seen.events[0].id)).reduce((x, y) => (x > y ? x : y));
    const since = (seen: DomainEvent[]) => seen.filter((e) => BigInt(e.id) >= from).map((e) => e.id);
    expect(since(seenA.events)).toEqual(since(seenB.events));
    // The events of one transaction keep their emission order (others may fall between them).
    const at = new Map(mine(seenA.events).map((e, n) => [(e.payload as { skuId: number }).skuId - base, n]));
    for (let i = 0; i < 40; i++) expect(at.get(i)!).toBeLessThan(at.get(i + 100)!);
  });

  it('a process with no subscriber moves its mark without handing anything over; one that subscribes later is handed only what came after, once', async () => {
    // Nothing in `a` listens: the events committed by `b` move a's mark, and are never handed over.
    await commitEvents(b, [marker(960_001), marker(960_002)]);
    await waitFor(async () => (await tagged(b, 960_002))[0]?.position != null, 5000, 'positions given');
    const [{ position: before }] = await tagged(b, 960_002);
    await waitFor(() => BigInt(a.events.lastDelivered ?? '0') >= BigInt(before!), 5000, 'a’s mark moved past the events');
    const seen = collect(a);
    try {
      await commitEvents(b, [marker(960_003)]);
      await waitFor(() => seen.events.some((e) => e.type === 'stock.low' && e.payload.skuId === 960_003), 5000, 'the later event handed over');
      const tags = seen.events.filter((e) => e.type === 'stock.low').map((e) => e.payload.skuId);
      expect(tags.filter((t) => t >= 960_001 && t <= 960_003)).toEqual([960_003]);
    } finally {
      seen.stop();
    }
  });

  it('numbers events a writer outside the server stored as soon as it NOTIFYs the channel, without waiting for the poll', async () => {
    // Alone on its database, with its poll a minute away: only the NOTIFY can start its relay.
    const solo = await startTestApp({ outbox: { pollMs: 60_000, retentionSeconds: 7 * 86_400 } });
    const notifier = new pg.Client({ connectionString: solo.dbUrl });
    await notifier.connect();
    try {
      await waitFor(() => solo.events.isListening, 5000, 'listening');
      await solo.sql(`insert into event (type, shop_ids, customer_id, payload, occurred_at) values ('stock.low', '{}', null, '{"skuId": 960101, "productId": 0, "stock": 0, "threshold": 1}', now())`);
      await notifier.query(`select pg_notify('mallfront_events', 'stored by an importer')`);
      await waitFor(async () => (await tagged(solo, 960_101))[0]?.position != null, 5000, 'the stored event numbered');
    } finally {
      await notifier.end();
      await solo.close();
    }
  });

  it('loses nothing when the process that committed is killed before its relay ran: another process publishes it', async () => {
    const server = await startServerProcess({ DATABASE_URL: a.dbUrl, NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'p'.repeat(48), OUTBOX_POLL_MS: '100' });
    const { product } = await shopWithProduct(a, [{ price: 1000, stock: 100 }]);
    const customer = await newCustomer(a, { available: 100_000, points: 0 });
    await addToCart(a, customer.token, product.skuIds[0], 1);
    const seen = collect(b);
    // Hold the relay lock: no relay of any process can number events meanwhile.
    const holder = new pg.Client({ connectionString: a.dbUrl });
    await holder.connect();
    try {
      await holder.query('select pg_advisory_lock($1::bigint)', [RELAY_LOCK]);
      const res = await fetch(`${server.baseUrl}/api/checkout`, {
        method: 'POST',
        headers: { authorization: `Bearer ${customer.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ shipping_address: { recipient: 'T', phone: '+86 138 0000 0000', region: 'CN-SH', address: '1 Road' } }),
      });
      expect(res.status).toBe(201);
      const orderId = ((await res.json()) as { orders: { id: number }[] }).orders[0].id;
      const [stored] = await a.sql<{ position: string | null }>(`select position::text as position from event where type = 'order.placed' and (payload->>'orderId')::int = ?`, [orderId]);
      expect(stored).toEqual({ position: null });
      server.child.kill('SIGKILL');
      await new Promise((resolve) => server.child.once('exit', resolve));
      await holder.query('select pg_advisory_unlock($1::bigint)', [RELAY_LOCK]);
      await waitFor(() => seen.events.some((e) => e.type === 'order.placed' && e.payload.orderId === orderId), 10_000, 'the killed process’s event published by another');
      const [after] = await a.sql<{ position: string | null }>(`select position::text as position from event where type = 'order.placed' and (payload->>'orderId')::int = ?`, [orderId]);
      expect(after.position).not.toBeNull();
    } finally {
      seen.stop();
      await holder.end();
      if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
    }
  });
});

describe('resumable feeds', () => {
  it('a subscription with `after` replays the stored events, then goes live, with no gap and no duplicate at the seam', async () => {
    const admin = await newAdmin(a);
    await commitEvents(a, [marker(920_001)]);
    await waitFor(async () => (await tagged(a, 920_001))[0]?.position != null);
    const [{ position: start }] = await tagged(a, 920_001);
    await commitEvents(a, [marker(920_002), marker(920_003)]);
    const sub = await subscribe(b, `subscription($after: ID) { events(types: [STOCK_LOW], after: $after) { id ${PAYLOAD_FIELDS} } }`, {
      token: admin.token,
      variables: { after: start },
    });
    // Committed while the replay may be running: live or replayed, but once.
    await commitEvents(b, [marker(920_004)]);
    const got: number[] = [];
    while (!got.includes(920_004)) {
      const event = await sub.next('events', 10_000);
      if (event.payload.skuId >= 920_000 && event.payload.skuId < 921_000) got.push(event.payload.skuId);
    }
    expect(got).toEqual([920_002, 920_003, 920_004]);
    await sub.close();
  });

  it('GET /api/events pages the same feed by id, filtered by type and audience; bad input is refused', async () => {
    const { shop } = await shopWithProduct(a);
    const operator = await newOperator(a, shop.id);
    const customer = await newCustomer(a);
    const admin = await newAdmin(a);
    const first = await a.api('GET', '/api/events?types=stock.low&limit=1', { token: admin.token });
    expect(first.status).toBe(200);
    await commitEvents(a, [orderPlaced(shop.id, customer.id, 424_242), marker(930_001)]);
    await waitFor(async () => (await tagged(a, 930_001))[0]?.position != null);
    const [{ position }] = await tagged(a, 930_001);
    const after = String(BigInt(position!) - 2n);
    const ops = await a.api('GET', `/api/events?after=${after}`, { token: operator.token });
    expect(ops.status).toBe(200);
    expect(ops.body.events).toEqual([
      { id: String(BigInt(position!) - 1n), type: 'order.placed', occurred_at: expect.any(String), shop_ids: [shop.id], customer_id: customer.id, payload: { order_id: 424_242, total: 1000, status: 'pending_payment' } },
    ]);
    const mine = await a.api('GET', `/api/events?after=${after}&types=order.placed,stock.low`, { token: customer.token });
    expect(mine.body.events.map((e: { type: string }) => e.type)).toEqual(['order.placed']);
    expect(mine.body.next).toBe(String(BigInt(position!) - 1n));
    const all = await a.api('GET', `/api/events?after=${after}&limit=5`, { token: admin.token });
    expect(all.body.events.map((e: { id: string }) => e.id)).toEqual([String(BigInt(position!) - 1n), position]);
    for (const bad of ['after=-1', 'after=abc', 'limit=0', 'limit=501', 'types=order.nope']) {
      const res = await a.api('GET', `/api/events?${bad}`, { token: admin.token });
      expect([bad, res.status, res.body.error?.code]).toEqual([bad, 400, 'VALIDATION_FAILED']);
    }
    expect((await a.api('GET', '/api/events')).status).toBe(401);
  });

  it('prunes events past the retention and refuses an `after` older than what is kept with EVENTS_EXPIRED', async () => {
    const admin = await newAdmin(a);
    await commitEvents(a, [marker(940_001)]);
    await waitFor(async () => (await tagged(a, 940_001))[0]?.position != null);
    const [{ position }] = await tagged(a, 940_001);
    await a.sql(`update event set published_at = now() - interval '8 days' where position <= ?::bigint`, [position]);
    const ctx = await a.context();
    expect(await pruneExpiredEvents(ctx)).toBeGreaterThan(0);
    expect(await tagged(a, 940_001)).toEqual([]);
    const old = await a.api('GET', `/api/events?after=${BigInt(position!) - 1n}`, { token: admin.token });
    expect(old.status).toBe(410);
    expect(old.body.error).toMatchObject({ code: 'EVENTS_EXPIRED', details: { oldest_after: position } });
    expect((await a.api('GET', `/api/events?after=${position}`, { token: admin.token })).status).toBe(200);
    const sub = await subscribe(a, `subscription { events(after: "1") { id } }`, { token: admin.token });
    const result = await sub.nextResult();
    expect(result.errors?.[0]?.extensions?.code).toBe('EVENTS_EXPIRED');
    await sub.close();
  });
});
