import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, type TestUser } from './support/fixtures.js';
import { commitEvents, marker, waitFor } from './support/subscriptions.js';
import { startReceiver } from './support/webhook-receiver.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { loadConfig } from '../src/config.js';

/**
 * Webhook delivery shared by real server processes (issue 29): each event delivered once per
 * endpoint and in order, and a process killed mid-delivery loses nothing. The test app itself
 * only serves (WEBHOOK_DISPATCH off): the server processes deliver.
 */
const base = loadConfig({ NODE_ENV: 'test' }).webhooks;
let t: TestApp;
let admin: TestUser;
const servers: ServerProcess[] = [];

const serverEnv = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: t.dbUrl,
  NODE_ENV: 'production',
  DEVICE_TOKEN_SECRET: 'p'.repeat(48),
  WEBHOOK_ALLOW_PRIVATE: 'true',
  OUTBOX_POLL_MS: '100',
  ...extra,
});

beforeAll(async () => {
  t = await startTestApp({ outbox: { pollMs: 100, retentionSeconds: 86_400 }, webhooks: { ...base, dispatch: false, allowPrivate: true, allowHttp: true } });
  admin = await newAdmin(t);
});
afterAll(async () => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) await s.stop();
  await t?.close();
});

async function register(url: string) {
  const res = await t.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url, event_types: ['stock.low'] } });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { id: number; secret: string };
}

// Two server processes start, then 120 deliveries go one at a time per endpoint: more than the suite's default minute on a loaded machine.
it('two server processes share the deliveries: each event once per endpoint, in order per endpoint, none lost', async () => {
  const env = serverEnv({ WEBHOOK_MAX_CONCURRENCY: '1' });
  servers.push(await startServerProcess(env), await startServerProcess(env));
  const receivers = [await startReceiver(), await startReceiver()];
  try {
    for (const r of receivers) await register(r.url);
    const count = 60;
    for (let i = 0; i < count; i += 10) await commitEvents(t, Array.from({ length: 10 }, (_, k) => marker(600_000 + i + k)));
    const started = Date.now();
    for (const r of receivers) await waitFor(() => r.received.length >= count, 120_000, `${count} deliveries`).catch((e) => { throw new Error(`${e} got ${receivers.map((x) => x.received.length)} after ${Date.now() - started} ms`); });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const positions = await t.sql<{ position: string }>(`select e.position::text as position from event e where e.type = 'stock.low' order by e.position`);
    for (const r of receivers) {
      expect(r.received).toHaveLength(count);
      expect(r.ids()).toEqual(positions.map((p) => `evt_${p.position}`));
    }
  } finally {
    for (const r of receivers) await r.close();
    while (servers.length > 0) await servers.pop()!.stop();
  }
}, 180_000);

it('a process killed mid-delivery loses nothing: another process sends it once the lease lapses', async () => {
  let hang = true;
  const receiver = await startReceiver(() => (hang ? 'hang' : 200));
  try {
    const endpoint = await register(receiver.url);
    // Lease = timeout + 5 s: the first process hangs on the receiver until it is killed.
    const first = await startServerProcess(serverEnv({ WEBHOOK_TIMEOUT_MS: '60000' }));
    servers.push(first);
    await commitEvents(t, [marker(700_001)]);
    await waitFor(() => receiver.received.length === 1, 15_000, 'the first attempt');
    const [inFlight] = await t.sql<{ state: string }>('select state from webhook_delivery where endpoint_id = ?', [endpoint.id]);
    expect(inFlight.state).toBe('delivering');
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    hang = false;
    // Its lease (60 s + 5 s) is shortened as if time had passed, instead of waiting a minute.
    await t.sql(`update webhook_delivery set lease_until = now() where endpoint_id = ?`, [endpoint.id]);
    servers.push(await startServerProcess(serverEnv()));
    await waitFor(async () => (await t.sql<{ state: string }>('select state from webhook_delivery where endpoint_id = ?', [endpoint.id]))[0].state === 'delivered', 15_000, 'delivered by the other process');
    // Sent twice (at least once), with the same webhook-id so the receiver drops the repeat.
    expect(receiver.received).toHaveLength(2);
    expect(new Set(receiver.ids()).size).toBe(1);
  } finally {
    await receiver.close();
  }
});
