import { Webhook } from 'standardwebhooks';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { mutate } from './support/graphql.js';
import { commitEvents, marker, orderPlaced, waitFor } from './support/subscriptions.js';
import { startReceiver } from './support/webhook-receiver.js';
import { expectDocumentedWebhook } from './support/contract.js';
import { buildOpenApiDocument } from '../src/rest/openapi/document.js';
import { EVENT_PAYLOADS } from '../src/shared/domain-event.js';
import { loadConfig } from '../src/config.js';
import type { DomainEvent } from '../src/shared/domain-event.js';

/** Webhooks against real local receivers (issue 29). Retries here wait a tenth of a second. */
const base = loadConfig({ NODE_ENV: 'test' }).webhooks;
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await startTestApp({
    outbox: { pollMs: 100, retentionSeconds: 86_400 },
    webhooks: { ...base, allowPrivate: true, allowHttp: true, timeoutMs: 500, retryDelaysSeconds: [0.1, 0.1, 0.1], disableAfterSeconds: 3600, maxConcurrencyPerEndpoint: 2 },
  });
  admin = await newAdmin(t);
});
afterAll(async () => {
  await t?.close();
});

async function register(token: string, url: string, types: string[] = ['stock.low'], path = '/api/admin/webhooks') {
  const res = await t.api('POST', path, { token, body: { url, event_types: types } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; secret: string };
}

const attempts = (endpointId: number) =>
  t.sql<{ status_code: number | null; error: string | null }>('select status_code, error from webhook_attempt where endpoint_id = ? order by id', [endpointId]);

describe('webhooks', () => {
  it('signs each delivery by Standard Webhooks: the standardwebhooks package verifies it; the body is the REST feed entry', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await register(admin.token, receiver.url);
      expect(endpoint.secret).toMatch(/^whsec_/);
      await commitEvents(t, [marker(500_001)]);
      await waitFor(() => receiver.received.length >= 1, 10_000, 'a delivery');
      const [request] = receiver.received;
      const verified = new Webhook(endpoint.secret).verify(request.body, request.headers as Record<string, string>) as { id: string; type: string; payload: unknown };
      expect(verified).toMatchObject({ type: 'stock.low', payload: { sku_id: 500_001, product_id: 0, stock: 0, threshold: 1 } });
      expect(request.headers['webhook-id']).toBe(`evt_${verified.id}`);
      const feed = await t.api('GET', `/api/events?after=${BigInt(verified.id) - 1n}&limit=1`, { token: admin.token });
      expect(feed.body.events[0]).toEqual(verified);
      // Another secret does not verify it.
      expect(() => new Webhook('whsec_' + Buffer.alloc(24, 1).toString('base64')).verify(request.body, request.headers as Record<string, string>)).toThrow();
      expect((await t.api('GET', '/api/admin/webhooks?page_size=100', { token: admin.token })).body.items.find((e: { id: number }) => e.id === endpoint.id).secret).toBeUndefined();
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      await receiver.close();
    }
  });

  it("sends what the OpenAPI document's webhooks section describes: one entry per event type and the ping, each body and signature header as stated", async () => {
    const section = (buildOpenApiDocument() as { webhooks: Record<string, { post: { requestBody: { content: Record<string, { schema: { $ref: string } }> } } }> }).webhooks;
    expect(Object.keys(section).sort()).toEqual([...Object.keys(EVENT_PAYLOADS), 'webhook.ping'].sort());
    const receiver = await startReceiver();
    try {
      const endpoint = await register(admin.token, receiver.url, ['stock.low', 'order.placed']);
      await commitEvents(t, [marker(500_002), orderPlaced(1, 2, 3)]);
      expect((await t.api('POST', `/api/admin/webhooks/${endpoint.id}/ping`, { token: admin.token })).status).toBe(200);
      await waitFor(() => receiver.received.length >= 3, 10_000, 'two deliveries and a ping');
      expect(receiver.received.map((r) => JSON.parse(r.body).type).sort()).toEqual(['order.placed', 'stock.low', 'webhook.ping']);
      for (const request of receiver.received) expectDocumentedWebhook(request);
      // A body the section does not describe is caught: the check is not a pass-through.
      const [delivered] = receiver.received;
      expect(() => expectDocumentedWebhook({ ...delivered, body: JSON.stringify({ ...JSON.parse(delivered.body), payload: { surprise: 1 } }) })).toThrow(/does not fit/);
      expect(() => expectDocumentedWebhook({ ...delivered, headers: { ...delivered.headers, 'webhook-signature': 'v2,abc' } })).toThrow(/webhook-signature/);
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      await receiver.close();
    }
  });

  it('retries a failing receiver with backoff until it accepts: one accepted delivery, every attempt logged', async () => {
    const receiver = await startReceiver((_r, n) => (n <= 2 ? 500 : 200));
    try {
      const endpoint = await register(admin.token, receiver.url);
      await commitEvents(t, [marker(500_002)]);
      // The attempt is logged before its delivery is settled (two statements): wait for both.
      await waitFor(async () => (await attempts(endpoint.id)).some((a) => a.status_code === 200), 10_000, 'accepted');
      await waitFor(async () => (await t.sql<{ state: string }>('select state from webhook_delivery where endpoint_id = ?', [endpoint.id]))[0]?.state !== 'delivering', 10_000, 'settled');
      expect((await attempts(endpoint.id)).map((a) => a.status_code)).toEqual([500, 500, 200]);
      expect(new Set(receiver.ids()).size).toBe(1);
      const [delivery] = await t.sql('select state, attempts from webhook_delivery where endpoint_id = ?', [endpoint.id]);
      expect(delivery).toEqual({ state: 'delivered', attempts: 3 });
      const log = await t.api('GET', `/api/admin/webhooks/${endpoint.id}/attempts`, { token: admin.token });
      expect(log.body.items.map((a: { status_code: number }) => a.status_code)).toEqual([200, 500, 500]);
      expect(log.body.total).toBe(3);
      expect(log.body.items[0]).toMatchObject({ response_head: 'answered 200', latency_ms: expect.any(Number), attempted_at: expect.any(String) });
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      await receiver.close();
    }
  });

  it('gives up on a receiver that hangs after the timeout, and it never delays another endpoint', async () => {
    const hanging = await startReceiver(() => 'hang');
    const quick = await startReceiver();
    try {
      const slow = await register(admin.token, hanging.url);
      const fast = await register(admin.token, quick.url);
      await commitEvents(t, [marker(500_003), marker(500_004), marker(500_005)]);
      await waitFor(() => quick.received.length >= 3, 10_000, 'the quick endpoint served');
      // The hanging endpoint holds at most its cap of 2 attempts at a time.
      expect(hanging.received.length).toBeLessThanOrEqual(2);
      await waitFor(async () => (await attempts(slow.id)).length >= 4, 15_000, 'timed-out attempts logged');
      expect((await attempts(slow.id))[0]).toEqual({ status_code: null, error: 'timed out after 500 ms' });
      await waitFor(async () => (await t.sql(`select count(*)::int as n from webhook_delivery where endpoint_id = ? and state = 'failed'`, [slow.id]))[0].n === 3, 20_000, 'retries exhausted');
      expect((await attempts(slow.id)).length).toBe(12);
      for (const e of [slow, fast]) await t.api('DELETE', `/api/admin/webhooks/${e.id}`, { token: admin.token });
    } finally {
      await hanging.close();
      await quick.close();
    }
  });

  it('delivers a burst to two endpoints once each, never more than the cap in flight per endpoint, over kept-alive connections', async () => {
    // Each answer takes 20 ms, so claims find the endpoint's slots taken and must wait for them.
    const slowly = () => new Promise<number>((resolve) => setTimeout(() => resolve(200), 20));
    const receivers = [await startReceiver(slowly), await startReceiver(slowly)];
    try {
      const endpoints = [];
      for (const r of receivers) endpoints.push(await register(admin.token, r.url));
      const count = 40;
      for (let i = 0; i < count; i += 10) await commitEvents(t, Array.from({ length: 10 }, (_, k) => marker(510_000 + i + k)));
      for (const r of receivers) await waitFor(() => r.received.length >= count, 20_000, `${count} deliveries`);
      for (const e of endpoints) {
        await waitFor(async () => (await t.sql(`select 1 from webhook_delivery where endpoint_id = ? and state <> 'delivered'`, [e.id])).length === 0, 10_000, 'all settled');
      }
      await new Promise((r) => setTimeout(r, 300));
      for (const [i, r] of receivers.entries()) {
        expect(r.received).toHaveLength(count);
        expect(new Set(r.ids()).size).toBe(count);
        // The cap of this app is 2, across its claims and settlements.
        expect(r.counts.maxInFlight).toBeLessThanOrEqual(2);
        // Connections are reused: at most a few per endpoint, not one per delivery.
        expect(r.counts.connections).toBeLessThanOrEqual(4);
        const logged = await t.sql<{ n: number }>(`select count(*)::int as n from webhook_attempt where endpoint_id = ? and status_code = 200`, [endpoints[i].id]);
        expect(logged[0].n).toBe(count);
      }
      for (const e of endpoints) await t.api('DELETE', `/api/admin/webhooks/${e.id}`, { token: admin.token });
    } finally {
      for (const r of receivers) await r.close();
    }
  });

  it("settles the other endpoints' attempts when an endpoint is deleted while its deliveries are in flight", async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const held = () => gate.then(() => 200);
    const doomed = await startReceiver(held);
    const kept = await startReceiver(held);
    try {
      const gone = await register(admin.token, doomed.url);
      const stays = await register(admin.token, kept.url);
      await commitEvents(t, [marker(520_001), marker(520_002)]);
      // Both endpoints hold their cap (2) in flight, all waiting for the gate.
      await waitFor(() => doomed.received.length === 2 && kept.received.length === 2, 10_000, 'four attempts in flight');
      expect((await t.api('DELETE', `/api/admin/webhooks/${gone.id}`, { token: admin.token })).status).toBe(204);
      release();
      // Well within the lease (timeout 500 ms + 5 s): settled, not left to lapse and be sent again.
      await waitFor(async () => (await t.sql(`select 1 from webhook_delivery where endpoint_id = ? and state = 'delivered'`, [stays.id])).length === 2, 3000, 'settled');
      expect((await attempts(stays.id)).map((a) => a.status_code)).toEqual([200, 200]);
      await new Promise((r) => setTimeout(r, 6000));
      expect(kept.received).toHaveLength(2);
      expect(await t.sql('select 1 from webhook_attempt where endpoint_id = ?', [gone.id])).toEqual([]);
      await t.api('DELETE', `/api/admin/webhooks/${stays.id}`, { token: admin.token });
    } finally {
      release();
      await doomed.close();
      await kept.close();
    }
  }, 30_000);

  it('ends retries on 410 Gone and disables the endpoint, with an event saying so', async () => {
    const receiver = await startReceiver(() => 410);
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    try {
      const shop = await newShop(t);
      const operator = await newOperator(t, shop.id);
      const endpoint = await register(operator.token, receiver.url, ['order.placed'], '/api/merchant/webhooks');
      await commitEvents(t, [orderPlaced(shop.id, admin.id, 1), orderPlaced(shop.id, admin.id, 2)]);
      await waitFor(() => seen.some((e) => e.type === 'webhook.endpoint_disabled' && e.payload.endpointId === endpoint.id), 10_000, 'disabled event');
      const disabled = seen.find((e) => e.type === 'webhook.endpoint_disabled')!;
      expect(disabled).toMatchObject({ shopIds: [shop.id], payload: { endpointId: endpoint.id, url: receiver.url, reason: 'gone' } });
      const [row] = await t.sql('select active, disabled_reason from webhook_endpoint where id = ?', [endpoint.id]);
      expect(row).toEqual({ active: false, disabled_reason: 'gone' });
      await new Promise((r) => setTimeout(r, 500));
      // No retry: one attempt per delivery (both may have been in flight at once), none left waiting.
      expect(new Set(receiver.ids()).size).toBe(receiver.received.length);
      expect(await t.sql(`select state from webhook_delivery where endpoint_id = ? and state in ('pending', 'delivering')`, [endpoint.id])).toEqual([]);
      // Another shop's operator cannot see or touch it.
      const other = await newOperator(t, (await newShop(t)).id);
      expect((await t.api('PATCH', `/api/merchant/webhooks/${endpoint.id}`, { token: other.token, body: { active: true } })).status).toBe(404);
    } finally {
      stop();
      await receiver.close();
    }
  });

  it('disables an endpoint that failed continuously for WEBHOOK_DISABLE_AFTER_SECONDS', async () => {
    const receiver = await startReceiver(() => 503);
    const seen: DomainEvent[] = [];
    const stop = t.events.subscribe((e) => seen.push(e));
    try {
      const endpoint = await register(admin.token, receiver.url);
      // It has been failing for a day already.
      await t.sql(`update webhook_endpoint set failing_since = now() - interval '2 days' where id = ?`, [endpoint.id]);
      await commitEvents(t, [marker(500_006)]);
      await waitFor(() => seen.some((e) => e.type === 'webhook.endpoint_disabled' && e.payload.endpointId === endpoint.id), 10_000, 'disabled');
      expect(seen.find((e) => e.type === 'webhook.endpoint_disabled')!.payload).toMatchObject({ reason: 'failing' });
      // Turned on again by its owner: it forgets the failures.
      const on = await t.api('PATCH', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token, body: { active: true } });
      expect(on.body).toMatchObject({ active: true, disabled_reason: null });
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      stop();
      await receiver.close();
    }
  });

  it('rotates the secret with an overlap: both signatures sent, either secret verifies', async () => {
    const receiver = await startReceiver();
    try {
      const endpoint = await register(admin.token, receiver.url);
      const rotated = await t.api('POST', `/api/admin/webhooks/${endpoint.id}/rotate-secret`, { token: admin.token });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(endpoint.secret);
      await commitEvents(t, [marker(500_007)]);
      await waitFor(() => receiver.received.length >= 1, 10_000, 'a delivery');
      const [request] = receiver.received;
      expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [endpoint.secret, rotated.body.secret]) {
        expect(() => new Webhook(secret).verify(request.body, request.headers as Record<string, string>)).not.toThrow();
      }
      // A test ping and a manual redelivery.
      const ping = await t.api('POST', `/api/admin/webhooks/${endpoint.id}/ping`, { token: admin.token });
      expect(ping.body).toMatchObject({ status_code: 200, delivery_id: null });
      expect(JSON.parse(receiver.received[1].body)).toMatchObject({ type: 'webhook.ping' });
      const eventId = String(receiver.received[0].headers['webhook-id']).replace('evt_', '');
      expect((await t.api('POST', `/api/admin/webhooks/${endpoint.id}/redeliver`, { token: admin.token, body: { event_id: eventId } })).body).toEqual({ ok: true });
      await waitFor(() => receiver.received.length >= 3, 10_000, 'redelivered');
      expect(receiver.received[2].headers['webhook-id']).toBe(`evt_${eventId}`);
      expect((await t.api('POST', `/api/admin/webhooks/${endpoint.id}/redeliver`, { token: admin.token, body: { event_id: '999999999' } })).status).toBe(404);
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      await receiver.close();
    }
  });
});

describe('webhooks in order, pings, and who may call which door', () => {
  it('delivers strictly in order at WEBHOOK_MAX_CONCURRENCY=1: later events wait behind one waiting for its retry', async () => {
    // This file's server runs at a cap of 2; its dispatcher reads the settings at each claim.
    const saved = { ...t.config.webhooks };
    Object.assign(t.config.webhooks, { maxConcurrencyPerEndpoint: 1, retryDelaysSeconds: [0.5, 0.1, 0.1] });
    let failed = false;
    // The first event's first attempt fails: its retry comes half a second later.
    const receiver = await startReceiver((request) => {
      if (failed || JSON.parse(request.body).payload.sku_id !== 530_001) return 200;
      failed = true;
      return 500;
    });
    try {
      const endpoint = await register(admin.token, receiver.url);
      await commitEvents(t, [marker(530_001), marker(530_002), marker(530_003)]);
      await waitFor(async () => (await attempts(endpoint.id)).length >= 1, 10_000, 'the failed attempt logged');
      // An event committed while the first waits for its retry waits too.
      await commitEvents(t, [marker(530_004)]);
      await waitFor(() => receiver.received.length >= 5, 10_000, 'every event delivered');
      await waitFor(async () => (await t.sql(`select 1 from webhook_delivery where endpoint_id = ? and state <> 'delivered'`, [endpoint.id])).length === 0, 10_000, 'all settled');
      expect(receiver.received.map((r) => JSON.parse(r.body).payload.sku_id)).toEqual([530_001, 530_001, 530_002, 530_003, 530_004]);
      expect(receiver.counts.maxInFlight).toBe(1);
      expect((await attempts(endpoint.id)).map((a) => a.status_code)).toEqual([500, 200, 200, 200, 200]);
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      Object.assign(t.config.webhooks, saved);
      await receiver.close();
    }
  });

  it("records and answers a ping to a receiver slower than the request's database deadline (the wait is not the database's), over both doors", async () => {
    // The database deadline of a request (DB_ACQUIRE_TIMEOUT_MS) below the ping's own (WEBHOOK_TIMEOUT_MS).
    const saved = { deadline: t.config.dbAcquireTimeoutMs, timeout: t.config.webhooks.timeoutMs };
    t.config.dbAcquireTimeoutMs = 1000;
    t.config.webhooks.timeoutMs = 1500;
    const receiver = await startReceiver(() => 'hang');
    try {
      const endpoint = await register(admin.token, receiver.url);
      const rest = await t.api('POST', `/api/admin/webhooks/${endpoint.id}/ping`, { token: admin.token });
      expect([rest.status, rest.body]).toEqual([200, expect.objectContaining({ status_code: null, error: 'timed out after 1500 ms', delivery_id: null })]);
      const gql = await mutate(t, 'pingWebhookEndpoint', { endpointId: endpoint.id }, `attempt { ${ATTEMPT} }`, admin.token);
      expect([gql.errors, gql.userErrors, gql.payload.attempt]).toEqual([undefined, [], expect.objectContaining({ statusCode: null, error: 'timed out after 1500 ms' })]);
      expect(await attempts(endpoint.id)).toEqual([{ status_code: null, error: 'timed out after 1500 ms' }, { status_code: null, error: 'timed out after 1500 ms' }]);
      expect(receiver.received).toHaveLength(2);
      await t.api('DELETE', `/api/admin/webhooks/${endpoint.id}`, { token: admin.token });
    } finally {
      t.config.dbAcquireTimeoutMs = saved.deadline;
      t.config.webhooks.timeoutMs = saved.timeout;
      await receiver.close();
    }
  });

  it('serves /api/admin/webhooks to platform admins only and /api/merchant/webhooks to shop operators only (403 otherwise); another shop\'s endpoint is 404', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const other = await newOperator(t, (await newShop(t)).id);
    const mine = await register(operator.token, 'http://127.0.0.1:9/mine', ['order.placed'], '/api/merchant/webhooks');
    const platform = await register(admin.token, 'http://127.0.0.1:9/platform');
    const before = await t.sql('select * from webhook_endpoint order by id');
    const calls = (prefix: string, id: number) => [
      ['GET', `${prefix}`, undefined], ['POST', `${prefix}`, { url: 'http://127.0.0.1:9/x', event_types: ['order.placed'] }], ['PATCH', `${prefix}/${id}`, { active: false }],
      ['DELETE', `${prefix}/${id}`, undefined], ['POST', `${prefix}/${id}/rotate-secret`, undefined], ['GET', `${prefix}/${id}/attempts`, undefined],
      ['POST', `${prefix}/${id}/redeliver`, { event_id: '1' }], ['POST', `${prefix}/${id}/ping`, undefined],
    ] as const;
    // A shop operator on the admin door, with their own endpoint's id or the platform's: 403, whatever the id.
    for (const id of [mine.id, platform.id]) {
      for (const [method, path, body] of calls('/api/admin/webhooks', id)) {
        const res = await t.api(method, path, { token: operator.token, body });
        expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 403, 'FORBIDDEN']);
      }
    }
    // A platform admin on the merchant door: 403.
    for (const [method, path, body] of calls('/api/merchant/webhooks', mine.id)) {
      const res = await t.api(method, path, { token: admin.token, body });
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 403, 'FORBIDDEN']);
    }
    // Another shop's operator on the merchant door: the endpoint is not theirs, as if it did not exist.
    for (const [method, path, body] of calls('/api/merchant/webhooks', mine.id).filter(([, path]) => path !== '/api/merchant/webhooks')) {
      const res = await t.api(method, path, { token: other.token, body });
      expect([method, path, res.status, res.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    expect(await t.sql('select * from webhook_endpoint order by id')).toEqual(before);
    expect(await t.sql('select 1 from webhook_attempt where endpoint_id in (?, ?)', [mine.id, platform.id])).toEqual([]);
    // Each on their own door.
    expect((await t.api('GET', '/api/merchant/webhooks', { token: operator.token })).body.items.map((e: { id: number }) => e.id)).toEqual([mine.id]);
    expect((await t.api('GET', '/api/admin/webhooks', { token: admin.token })).body.items.map((e: { id: number }) => e.id)).toContain(platform.id);
    await t.api('DELETE', `/api/merchant/webhooks/${mine.id}`, { token: operator.token });
    await t.api('DELETE', `/api/admin/webhooks/${platform.id}`, { token: admin.token });
  });
});

const ENDPOINT = 'id shopId url eventTypes active disabledReason createdAt';
/** What createWebhookEndpoint and rotateWebhookSecret answer: the endpoint and its secret, never null there. */
const WITH_SECRET = `${ENDPOINT} secret`;
const ATTEMPT = 'id deliveryId eventId attemptedAt statusCode latencyMs error responseHead';

describe('webhook endpoint ids in paths', () => {
  it('refuses anything but an id as VALIDATION_FAILED (never a 500), and changes nothing', async () => {
    const operator = await newOperator(t, (await newShop(t)).id);
    const state = () => t.sql('select (select count(*)::int from webhook_endpoint) as endpoints, (select count(*)::int from webhook_attempt) as attempts');
    const before = await state();
    for (const bad of ['abc', '%3A', '0', '2147483648', '1e3']) {
      for (const [method, path] of [['GET', `/api/admin/webhooks/${bad}/attempts`], ['PATCH', `/api/admin/webhooks/${bad}`], ['DELETE', `/api/merchant/webhooks/${bad}`], ['POST', `/api/admin/webhooks/${bad}/ping`]] as const) {
        const token = path.startsWith('/api/merchant') ? operator.token : admin.token;
        const res = await t.api(method, path, { token, ...(method === 'PATCH' ? { body: { active: false } } : {}) });
        expect([path, method, res.status, res.body.error?.code]).toEqual([path, method, 400, 'VALIDATION_FAILED']);
      }
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a change with nothing to change (`{}`) as VALIDATION_FAILED in both scopes over both doors, and changes nothing', async () => {
    const operator = await newOperator(t, (await newShop(t)).id);
    for (const [token, path] of [[admin.token, '/api/admin/webhooks'], [operator.token, '/api/merchant/webhooks']] as const) {
      const endpoint = await register(token, 'http://127.0.0.1:9/nothing-to-change', ['stock.low'], path);
      const before = await t.sql('select * from webhook_endpoint where id = ?', [endpoint.id]);
      const rest = await t.api('PATCH', `${path}/${endpoint.id}`, { token, body: {} });
      expect([path, rest.status, rest.body.error?.code, rest.body.error?.details?.problems]).toEqual([path, 400, 'VALIDATION_FAILED', [{ field: null, message: 'send at least one field to change' }]]);
      const gql = await mutate(t, 'updateWebhookEndpoint', { endpointId: endpoint.id }, 'endpoint { id }', token);
      expect([path, gql.errors, gql.payload.endpoint, gql.userErrors.map((e) => [e.code, e.field])]).toEqual([path, undefined, null, [['VALIDATION_FAILED', null]]]);
      expect(await t.sql('select * from webhook_endpoint where id = ?', [endpoint.id])).toEqual(before);
      await t.api('DELETE', `${path}/${endpoint.id}`, { token });
    }
  });
});

describe('webhooks over GraphQL (the same use cases as /api/admin/webhooks and /api/merchant/webhooks)', () => {
  it('creates an endpoint whose secret the answer shows once; lists, changes and deletes it', async () => {
    const created = await mutate(t, 'createWebhookEndpoint', { url: 'http://127.0.0.1:9/hook', eventTypes: ['STOCK_LOW', 'ORDER_PAID'] }, `endpoint { ${WITH_SECRET} }`, admin.token);
    expect(created.userErrors).toEqual([]);
    const endpoint = created.payload.endpoint;
    expect(endpoint).toMatchObject({ shopId: null, url: 'http://127.0.0.1:9/hook', eventTypes: ['STOCK_LOW', 'ORDER_PAID'], active: true, disabledReason: null });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const [row] = await t.sql<{ secret: string; event_types: string[] }>('select secret, event_types from webhook_endpoint where id = ?', [endpoint.id]);
    expect(row).toEqual({ secret: endpoint.secret, event_types: ['stock.low', 'order.paid'] });
    // Never again: not in the list, over either door.
    const listed = await t.gql(`{ webhookEndpoints(pageSize: 100) { page pageSize total items { ${ENDPOINT} } } }`, undefined, admin.token);
    expect(listed.errors).toBeUndefined();
    const { secret, ...withoutSecret } = endpoint;
    expect(secret).toEqual(expect.any(String));
    expect(listed.data.webhookEndpoints.items.find((e: { id: number }) => e.id === endpoint.id)).toEqual(withoutSecret);
    expect(listed.data.webhookEndpoints).toMatchObject({ page: 1, pageSize: 100, total: listed.data.webhookEndpoints.items.length });
    expect((await t.gql(`{ webhookEndpoints { secret } }`, undefined, admin.token)).errors?.[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect((await t.api('GET', '/api/admin/webhooks?page_size=100', { token: admin.token })).body.items.find((e: { id: number }) => e.id === endpoint.id)).toMatchObject({ id: endpoint.id, event_types: ['stock.low', 'order.paid'] });

    const off = await mutate(t, 'updateWebhookEndpoint', { endpointId: endpoint.id, active: false }, `endpoint { ${ENDPOINT} }`, admin.token);
    expect(off.payload.endpoint).toMatchObject({ active: false, disabledReason: 'OPERATOR', eventTypes: ['STOCK_LOW', 'ORDER_PAID'] });
    const rotated = await mutate(t, 'rotateWebhookSecret', { endpointId: endpoint.id }, `endpoint { ${WITH_SECRET} }`, admin.token);
    expect(rotated.payload.endpoint.secret).toMatch(/^whsec_/);
    expect(rotated.payload.endpoint.secret).not.toBe(endpoint.secret);
    expect((await t.sql('select secret, previous_secret from webhook_endpoint where id = ?', [endpoint.id]))[0]).toEqual({ secret: rotated.payload.endpoint.secret, previous_secret: endpoint.secret });

    const deleted = await mutate(t, 'deleteWebhookEndpoint', { endpointId: endpoint.id }, 'deletedEndpointId', admin.token);
    expect(deleted).toMatchObject({ payload: { deletedEndpointId: endpoint.id }, userErrors: [] });
    expect(await t.sql('select 1 from webhook_endpoint where id = ?', [endpoint.id])).toEqual([]);
    const again = await mutate(t, 'deleteWebhookEndpoint', { endpointId: endpoint.id }, 'deletedEndpointId', admin.token);
    expect(again.payload.deletedEndpointId).toBeNull();
    expect(again.userErrors.map((e) => e.code)).toEqual(['NOT_FOUND']);
  });

  it("keeps a shop's endpoint to its shop: another shop's operator neither sees nor touches it; a customer is refused", async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const created = await mutate(t, 'createWebhookEndpoint', { url: 'http://127.0.0.1:9/shop-hook', eventTypes: ['ORDER_PLACED'] }, `endpoint { ${WITH_SECRET} }`, operator.token);
    const endpoint = created.payload.endpoint;
    expect(endpoint).toMatchObject({ shopId: shop.id, eventTypes: ['ORDER_PLACED'] });
    expect((await t.gql('{ webhookEndpoints { items { id } } }', undefined, operator.token)).data.webhookEndpoints.items).toEqual([{ id: endpoint.id }]);

    const other = await newOperator(t, (await newShop(t)).id);
    expect((await t.gql('{ webhookEndpoints { items { id } } }', undefined, other.token)).data.webhookEndpoints.items).toEqual([]);
    // Nor does a platform admin's list hold it: theirs are the platform's endpoints.
    expect((await t.gql('{ webhookEndpoints(pageSize: 100) { items { id } } }', undefined, admin.token)).data.webhookEndpoints.items.map((e: { id: number }) => e.id)).not.toContain(endpoint.id);
    const log = await t.gql('query($id: Int!) { webhookAttempts(endpointId: $id) { items { id } } }', { id: endpoint.id }, other.token);
    expect(log.data).toEqual({ webhookAttempts: null });
    expect(log.errors?.map((e: { extensions: { code: string }; path: string[] }) => [e.extensions.code, e.path])).toEqual([['NOT_FOUND', ['webhookAttempts']]]);
    for (const [field, input, selection] of [
      ['updateWebhookEndpoint', { endpointId: endpoint.id, url: 'http://127.0.0.1:9/stolen' }, 'endpoint { id }'],
      ['rotateWebhookSecret', { endpointId: endpoint.id }, 'endpoint { id secret }'],
      ['pingWebhookEndpoint', { endpointId: endpoint.id }, 'attempt { id }'],
      ['redeliverWebhookEvent', { endpointId: endpoint.id, eventId: '1' }, 'redeliveredEventId'],
      ['deleteWebhookEndpoint', { endpointId: endpoint.id }, 'deletedEndpointId'],
    ] as const) {
      const res = await mutate(t, field, input, selection, other.token);
      expect([field, res.userErrors.map((e) => e.code), Object.values(res.payload).filter((v) => !Array.isArray(v))]).toEqual([field, ['NOT_FOUND'], [null]]);
    }
    expect((await t.sql('select url, secret from webhook_endpoint where id = ?', [endpoint.id]))[0]).toEqual({ url: 'http://127.0.0.1:9/shop-hook', secret: endpoint.secret });
    expect(await t.sql('select 1 from webhook_attempt where endpoint_id = ?', [endpoint.id])).toEqual([]);

    const customer = await newCustomer(t);
    const refused = await t.gql('{ webhookEndpoints { items { id } } }', undefined, customer.token);
    expect(refused.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
    const create = await mutate(t, 'createWebhookEndpoint', { url: 'http://127.0.0.1:9/x', eventTypes: ['ORDER_PLACED'] }, 'endpoint { id }', customer.token);
    expect(create.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['FORBIDDEN']);
    await mutate(t, 'deleteWebhookEndpoint', { endpointId: endpoint.id }, 'deletedEndpointId', operator.token);
  });

  it('answers the delivery log newest first, a ping as a logged attempt, and redelivers an event', async () => {
    const receiver = await startReceiver();
    try {
      const created = await mutate(t, 'createWebhookEndpoint', { url: receiver.url, eventTypes: ['STOCK_LOW'] }, `endpoint { ${ENDPOINT} }`, admin.token);
      const endpoint = created.payload.endpoint;
      await commitEvents(t, [marker(600_001)]);
      await waitFor(() => receiver.received.length >= 1, 10_000, 'a delivery');
      const eventId = String(receiver.received[0].headers['webhook-id']).replace('evt_', '');
      // The attempt is logged once the answer is read; the receiver saw the request before that.
      await waitFor(async () => (await attempts(endpoint.id)).length >= 1, 10_000, 'the attempt logged');

      const ping = await mutate(t, 'pingWebhookEndpoint', { endpointId: endpoint.id }, `attempt { ${ATTEMPT} }`, admin.token);
      expect(ping.userErrors).toEqual([]);
      expect(ping.payload.attempt).toMatchObject({ deliveryId: null, eventId: null, statusCode: 200, error: null, responseHead: 'answered 200' });
      expect(JSON.parse(receiver.received[1].body)).toMatchObject({ type: 'webhook.ping' });

      const log = await t.gql(`query($id: Int!) { webhookAttempts(endpointId: $id) { total items { ${ATTEMPT} } } }`, { id: endpoint.id }, admin.token);
      expect(log.errors).toBeUndefined();
      expect(log.data.webhookAttempts.total).toBe(2);
      expect(log.data.webhookAttempts.items).toEqual([
        ping.payload.attempt,
        { id: expect.any(String), deliveryId: expect.any(String), eventId, attemptedAt: expect.any(String), statusCode: 200, latencyMs: expect.any(Number), error: null, responseHead: 'answered 200' },
      ]);
      // The same log as REST's, paged as REST's.
      const rest = await t.api('GET', `/api/admin/webhooks/${endpoint.id}/attempts`, { token: admin.token });
      expect(rest.body.items.map((a: { id: string }) => a.id)).toEqual(log.data.webhookAttempts.items.map((a: { id: string }) => a.id));
      const second = await t.gql(`query($id: Int!) { webhookAttempts(endpointId: $id, page: 2, pageSize: 1) { page pageSize total hasNextPage items { id } } }`, { id: endpoint.id }, admin.token);
      expect(second.data.webhookAttempts).toEqual({ page: 2, pageSize: 1, total: 2, hasNextPage: false, items: [{ id: log.data.webhookAttempts.items[1].id }] });
      expect((await t.api('GET', `/api/admin/webhooks/${endpoint.id}/attempts?page=2&page_size=1`, { token: admin.token })).body.items).toEqual([rest.body.items[1]]);
      const tooMany = await t.gql(`query($id: Int!) { webhookAttempts(endpointId: $id, pageSize: 101) { items { id } } }`, { id: endpoint.id }, admin.token);
      expect(tooMany.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['VALIDATION_FAILED']);

      const redelivered = await mutate(t, 'redeliverWebhookEvent', { endpointId: endpoint.id, eventId }, 'redeliveredEventId', admin.token);
      expect(redelivered).toMatchObject({ payload: { redeliveredEventId: eventId }, userErrors: [] });
      await waitFor(() => receiver.received.length >= 3, 10_000, 'redelivered');
      expect(receiver.received[2].headers['webhook-id']).toBe(`evt_${eventId}`);
      const unknown = await mutate(t, 'redeliverWebhookEvent', { endpointId: endpoint.id, eventId: '999999999' }, 'redeliveredEventId', admin.token);
      expect(unknown.userErrors.map((e) => e.code)).toEqual(['NOT_FOUND']);
      await mutate(t, 'deleteWebhookEndpoint', { endpointId: endpoint.id }, 'deletedEndpointId', admin.token);
    } finally {
      await receiver.close();
    }
  });

  it('pages the stored events after an id (the twin of GET /api/events)', async () => {
    const [{ last }] = await t.sql<{ last: string }>('select coalesce(max(position), 0)::text as last from event');
    await commitEvents(t, [marker(600_101), marker(600_102), marker(600_103)]);
    const FEED = 'query($after: ID, $types: [EventType!], $limit: Int) { events(after: $after, types: $types, limit: $limit) { next events { id type occurredAt shopIds customerId payload { __typename ... on StockLowEventPayload { skuId productId stock threshold } } } } }';
    type FeedEvent = { id: string; payload: { skuId?: number } };
    const mine = (events: FeedEvent[]): FeedEvent[] => events.filter((e) => (e.payload.skuId ?? 0) > 600_100 && (e.payload.skuId ?? 0) < 600_200);
    let all: any = null;
    await waitFor(async () => {
      const res = await t.gql(FEED, { after: last, types: ['STOCK_LOW'], limit: 500 }, admin.token);
      if (!res.data) throw new Error(JSON.stringify(res));
      all = res.data.events;
      return mine(all.events).length === 3;
    }, 10_000, 'the events numbered');
    const [first, second, third] = mine(all.events);
    expect(first).toMatchObject({ type: 'STOCK_LOW', shopIds: [], customerId: null, payload: { __typename: 'StockLowEventPayload', skuId: 600_101, productId: 0, stock: 0, threshold: 1 } });
    expect(all.events.every((e: { type: string }) => e.type === 'STOCK_LOW')).toBe(true);
    const ids = all.events.map((e: { id: string }) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(all.next).toBe(all.events[all.events.length - 1].id);

    // After the first: the next two, one page at a time, each `next` the one to ask after.
    const page1 = (await t.gql(FEED, { after: first.id, types: ['STOCK_LOW'], limit: 1 }, admin.token)).data.events;
    expect(page1.events).toHaveLength(1);
    expect(BigInt(page1.events[0].id)).toBeGreaterThan(BigInt(first.id));
    expect(page1.next).toBe(page1.events[0].id);
    const rest = (await t.gql(FEED, { after: first.id, types: ['STOCK_LOW'], limit: 500 }, admin.token)).data.events;
    expect(mine(rest.events).map((e) => e.payload.skuId)).toEqual([second.payload.skuId, third.payload.skuId]);
    // The same entries as REST's feed, spelled GraphQL's way.
    const restFeed = await t.api('GET', `/api/events?after=${first.id}&types=stock.low&limit=500`, { token: admin.token });
    expect(restFeed.body.events.map((e: { id: string }) => e.id)).toEqual(rest.events.map((e: { id: string }) => e.id));
    // Nothing after the last: `next` stays where it was asked.
    const after = (await t.gql(FEED, { after: rest.next, types: ['STOCK_LOW'] }, admin.token)).data.events;
    expect(mine(after.events)).toEqual([]);
    // A kind left out is not answered; a shop operator sees only their shop's (these concern none).
    expect(mine((await t.gql(FEED, { after: last, types: ['ORDER_PAID'] }, admin.token)).data.events.events)).toEqual([]);
    const operator = await newOperator(t, (await newShop(t)).id);
    expect(mine((await t.gql(FEED, { after: last, limit: 500 }, operator.token)).data.events.events)).toEqual([]);
    const bad = await t.gql(FEED, { after: 'x' }, admin.token);
    expect(bad.errors?.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['VALIDATION_FAILED']);
  });
});

describe('webhook delivery safety', () => {
  it('follows no redirect', async () => {
    const receiver = await startReceiver(() => 302);
    try {
      const [{ id }] = await t.sql<{ id: number }>(
        `insert into webhook_endpoint (url, event_types, secret, created_at) values (?, '{stock.low}', 'whsec_AAAA', now()) returning id`,
        [receiver.url],
      );
      await commitEvents(t, [marker(500_011)]);
      await waitFor(async () => (await attempts(id)).length > 0, 10_000, 'an attempt');
      expect((await attempts(id))[0]).toEqual({ status_code: 302, error: 'redirect not followed' });
      await t.sql('update webhook_endpoint set active = false where id = ?', [id]);
    } finally {
      await receiver.close();
    }
  });
});
