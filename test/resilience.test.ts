import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer } from './support/fixtures.js';
import { connectRaw } from './support/subscriptions.js';
import { TcpProxy } from './support/tcp-proxy.js';
import { SERVER_URL } from './support/databases.js';

let t: TestApp;
let proxy: TcpProxy;

beforeAll(async () => {
  const server = new URL(SERVER_URL);
  proxy = new TcpProxy(server.hostname, Number(server.port || 5432));
  await proxy.start();
  // The app reaches its database through the proxy, so the test can take the database away.
  t = await startTestApp({ dbAcquireTimeoutMs: 5_000 }, {
    connectVia: (dbUrl) => {
      const url = new URL(dbUrl);
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
      return url.toString();
    },
  });
});
afterAll(async () => {
  await t.close();
  await proxy.stop();
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

describe('database faults', () => {
  it('keeps serving after its connections are terminated mid-traffic', async () => {
    const user = await newCustomer(t);
    const traffic = Array.from({ length: 120 }, (_, i) =>
      new Promise((r) => setTimeout(r, i * 5)).then(() => t.api('GET', '/api/me', { token: user.token })),
    );
    await new Promise((r) => setTimeout(r, 150));
    // The test's own connection is direct, not through the proxy.
    await t.sql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = ? and pid <> pg_backend_pid()`, [t.dbName]);
    const results = await Promise.all(traffic);
    for (const res of results) {
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
    }
    await waitFor(async () => (await t.api('GET', '/api/me', { token: user.token })).status === 200);
    expect((await t.api('GET', '/readyz')).status).toBe(200);
  });

  it('answers 503 in the error shape while the database is down, and recovers by itself', async () => {
    const user = await newCustomer(t);
    await proxy.stop();
    const ready = await t.api('GET', '/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.error.code).toBe('SERVICE_UNAVAILABLE');
    const me = await t.api('GET', '/api/me', { token: user.token });
    expect(me.status).toBe(503);
    expect(me.body.error.code).toBe('SERVICE_UNAVAILABLE');
    const gql = await t.gql('{ me { id } }', {}, user.token);
    expect(gql.errors?.[0].extensions.code).toBe('SERVICE_UNAVAILABLE');
    expect((await t.api('GET', '/healthz')).status).toBe(200);

    await proxy.start();
    await waitFor(async () => (await t.api('GET', '/readyz')).status === 200);
    expect((await t.api('GET', '/api/me', { token: user.token })).status).toBe(200);
  });

  it('refuses websockets with 1013 SERVICE_UNAVAILABLE while the database is down; its events connection comes back by itself', async () => {
    const admin = await newAdmin(t);
    const connections = t.events.connections;
    await proxy.stop();
    expect(await connectRaw(t, { token: admin.token })).toEqual({ acknowledged: false, code: 1013, reason: 'SERVICE_UNAVAILABLE' });
    await proxy.start();
    await waitFor(async () => t.events.connections > connections && t.events.isListening);
    expect(await connectRaw(t, { token: admin.token })).toEqual({ acknowledged: true });
  });
});
