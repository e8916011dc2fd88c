import { Writable } from 'node:stream';
import pg from 'pg';
import { pino } from 'pino';
import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { loadConfig } from '../src/config.js';
import { timed } from './support/timing.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { addresses, knownDevice as knownDeviceFrom, login } from './support/sign-ins.js';
import { WorkGate } from '../src/shared/work-gate.js';
import { addressKey } from '../src/shared/auth-throttle.js';
import { AttemptCounts } from '../src/shared/attempt-counts.js';
import { postgresCountExchange } from '../src/shared/attempt-count-store.js';
import { issueDeviceToken } from '../src/shared/device-token.js';

/**
 * Sign-in limits that stop guessing without letting anyone lock the owner out: a device that signed
 * in before is never refused for others' failures; without one, an address is refused only for its
 * own failures, and an account under attack only slows the others down, for a bounded time. What
 * takes a clock (a lock's end, the bound on the slowing) is in auth-throttle-timing.test.ts, which
 * runs alone.
 */
let t: TestApp;
beforeAll(async () => {
  // Behind a trusted proxy on this machine, so each test can sign in from addresses of its own;
  // refusals answered at once, so that tests can hammer (the hold has a test of its own).
  t = await startTestApp({ trustProxy: ['loopback'], authThrottle: { ...loadConfig({}).authThrottle, refusalHoldMs: 0 } });
});
afterAll(() => t.close());

const freshIp = addresses(9);
const knownDevice = (app: TestApp) => knownDeviceFrom(app, freshIp());

describe('an address that keeps failing on an account', () => {
  it('is refused (429 RATE_LIMITED with Retry-After) after 10 wrong passwords, the right one included, and nothing is issued', async () => {
    const user = await newCustomer(t);
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await login(t, user.email, `wrong ${i}`, ip)).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(30).fill(429));

    const right = await login(t, user.email, PASSWORD, ip);
    expect(right.status).toBe(429);
    expect(right.body).toEqual({ error: { code: 'RATE_LIMITED', message: expect.any(String), details: { retry_after_seconds: expect.any(Number) } } });
    const retryAfter = Number(right.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(t.config.authThrottle.windowSeconds);
    expect((await t.sql('select count(*)::int as n from auth_token where user_id = ?', [user.id]))[0].n).toBe(1);
  });

  it('is refused without a database round trip', async () => {
    const user = await newCustomer(t);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) await login(t, user.email, 'wrong', ip);
    t.resetQueryLog();
    for (let i = 0; i < 20; i++) expect((await login(t, user.email, 'wrong', ip)).status).toBe(429);
    expect(t.queries).toEqual([]);
  });

  it('hears a refusal only after a hold of about a second, so that hammering gets it no faster', async () => {
    const holding = await startTestApp({ trustProxy: ['loopback'] });
    try {
      const user = await newCustomer(holding);
      const ip = freshIp();
      for (let i = 0; i < 10; i++) await login(holding, user.email, 'wrong', ip);
      const { result, ms } = await timed(() => login(holding, user.email, 'wrong', ip));
      expect(result.status).toBe(429);
      expect(ms).toBeGreaterThanOrEqual(holding.config.authThrottle.refusalHoldMs - 5);
    } finally {
      await holding.close();
    }
  });

  it('forgets its failures on that account at a successful sign-in', async () => {
    const user = await newCustomer(t);
    const ip = freshIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 9; i++) expect((await login(t, user.email, 'wrong', ip)).status).toBe(401);
      expect((await login(t, user.email, PASSWORD, ip)).status).toBe(200);
    }
  });

});

describe('an attack on one account from many addresses', () => {
  it('refuses an address that failed twice on an account under attack, and counts failures per address across accounts', async () => {
    const strict = await startTestApp({ trustProxy: ['loopback'], authThrottle: { ...t.config.authThrottle, loginPerIp: 5 } });
    try {
      const user = await newCustomer(strict);
      for (let i = 0; i < 10; i++) await login(strict, user.email, 'guess', freshIp());
      const ip = freshIp();
      expect((await login(strict, user.email, 'typo', ip)).status).toBe(401);
      expect((await login(strict, user.email, 'typo', ip)).status).toBe(401);
      expect((await login(strict, user.email, PASSWORD, ip)).status).toBe(429);

      const sprayer = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await login(strict, `nobody-${i}@example.test`, 'wrong', sprayer)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await login(strict, 'nobody-0@example.test', 'wrong', freshIp())).status).toBe(401);
    } finally {
      await strict.close();
    }
  });
});

describe('device tokens', () => {
  it('are handed out by login and registration over REST and GraphQL, a new one at each sign-in', async () => {
    const { user, deviceToken } = await knownDevice(t);
    const again = await login(t, user.email, PASSWORD, freshIp(), deviceToken);
    expect(again.body.device_token).toMatch(/^d1\./);
    expect(again.body.device_token).not.toBe(deviceToken);

    const registered = await t.api('POST', '/api/auth/register', {
      body: { email: `device-${Date.now()}@example.test`, password: 'long enough pw', display_name: 'D' },
      headers: { 'x-forwarded-for': freshIp() },
    });
    expect(registered.status).toBe(201);
    expect(registered.body.device_token).toMatch(/^d1\./);

    const query = `mutation($i: LoginInput!) { login(input: $i) { session { token deviceToken } userErrors { code } } }`;
    const gql = await t.gql(query, { i: { email: user.email, password: PASSWORD, deviceToken } });
    expect(gql.errors).toBeUndefined();
    expect(gql.data.login.userErrors).toEqual([]);
    expect(gql.data.login.session.deviceToken).toMatch(/^d1\./);
  });

  it('lock out only their own device after 10 wrong passwords', async () => {
    const { user, deviceToken } = await knownDevice(t);
    const other = (await login(t, user.email, PASSWORD, freshIp())).body.device_token as string;
    for (let i = 0; i < 10; i++) expect((await login(t, user.email, 'wrong', freshIp(), deviceToken)).status).toBe(401);
    const refused = await login(t, user.email, PASSWORD, freshIp(), deviceToken);
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    expect((await login(t, user.email, PASSWORD, freshIp(), other)).status).toBe(200);
  });

  it('count for nothing with another email, when forged or tampered with, or when signed with another secret', async () => {
    const victim = await newCustomer(t);
    const { deviceToken: attackersOwn } = await knownDevice(t);
    const forged = issueDeviceToken({ ...t.config.deviceTokens, secret: 'x'.repeat(48) }, victim.email);
    const genuine = issueDeviceToken(t.config.deviceTokens, victim.email);
    const tampered = genuine.replace(/\.(\w)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`);
    const ip = freshIp();
    for (let i = 0; i < 10; i++) await login(t, victim.email, 'guess', ip);
    for (const token of [attackersOwn, forged, tampered, 'd1.nonsense', 'x'.repeat(200)]) {
      expect((await login(t, victim.email, PASSWORD, ip, token)).status).toBe(429);
    }
    expect((await login(t, victim.email, PASSWORD, ip, genuine)).status).toBe(200);
    // Too long to be one: refused as input, like any other field.
    expect((await login(t, victim.email, PASSWORD, ip, 'x'.repeat(201))).status).toBe(400);
  });

  it('give the same refusal over GraphQL', async () => {
    const user = await newCustomer(t);
    const query = `mutation($i: LoginInput!) { login(input: $i) { session { token } userErrors { code } } }`;
    const codes: string[] = [];
    for (let i = 0; i < 11; i++) {
      // Wrong credentials are the login's answer about its input (a user error); the throttle is about the caller (top-level).
      const res = await t.gql(query, { i: { email: user.email, password: 'wrong one' } });
      codes.push(res.data?.login?.userErrors[0]?.code ?? res.errors![0].extensions.code);
    }
    expect(codes.slice(0, 10)).toEqual(Array(10).fill('INVALID_CREDENTIALS'));
    expect(codes[10]).toBe('RATE_LIMITED');
  });
});

describe('several server processes', () => {
  it('share the counts through PostgreSQL', async () => {
    const second = await startSecondApp(t, { trustProxy: ['loopback'], authThrottle: t.config.authThrottle });
    try {
      const user = await newCustomer(t);
      const ip = freshIp();
      for (let i = 0; i < 5; i++) expect((await login(t, user.email, 'wrong', ip)).status).toBe(401);
      await t.app.authThrottle.sync();
      await second.app.authThrottle.sync();
      for (let i = 0; i < 5; i++) expect((await login(second, user.email, 'wrong', ip)).status).toBe(401);
      expect((await login(second, user.email, PASSWORD, ip)).status).toBe(429);
      await second.app.authThrottle.sync();
      await t.app.authThrottle.sync();
      expect((await login(t, user.email, PASSWORD, ip)).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('send at an explicit exchange what was counted while an earlier exchange (the timer’s) was running', async () => {
    const pool = new pg.Pool({ connectionString: t.dbUrl, max: 2 });
    const log = pino({ level: 'silent' });
    const here = new AttemptCounts(60_000, postgresCountExchange(pool, 60), log);
    const there = new AttemptCounts(60_000, postgresCountExchange(pool, 60), log);
    const key = addressKey(freshIp());
    try {
      // As the timer would: an exchange in flight, its changes taken before the count below.
      const running = here.sync();
      here.add(key, 3);
      await here.sync();
      await running;
      await there.sync();
      expect(there.count(key).count).toBe(3);
    } finally {
      await pool.end();
    }
  });

  it('copy at most SIGN_IN_COUNTS_MAX_KEYS keys counted by other processes (memory bound), still counting their own', async () => {
    const pool = new pg.Pool({ connectionString: t.dbUrl, max: 2 });
    const log = pino({ level: 'silent' });
    const here = new AttemptCounts(60_000, postgresCountExchange(pool, 60), log, 2);
    const there = new AttemptCounts(60_000, postgresCountExchange(pool, 60), log);
    const keys = [1, 2, 3, 4].map(() => addressKey(freshIp()));
    try {
      for (const key of keys) there.add(key, 1);
      await there.sync();
      await here.sync();
      expect(keys.filter((key) => here.count(key).count > 0).length).toBeLessThanOrEqual(2);
      here.add(keys[3], 1);
      expect(here.count(keys[3]).count).toBeGreaterThanOrEqual(1);
    } finally {
      await pool.end();
    }
  });

  it('honour each other’s device tokens', async () => {
    const second = await startSecondApp(t, { trustProxy: ['loopback'], authThrottle: t.config.authThrottle });
    try {
      const { user, deviceToken, ip } = await knownDevice(t);
      for (let i = 0; i < 12; i++) await login(second, user.email, 'wrong', ip);
      expect((await login(second, user.email, PASSWORD, ip, deviceToken)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});

describe('the client address', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY names the peer as a proxy', async () => {
    // The proxy it trusts is elsewhere: this client's X-Forwarded-For is a lie and is ignored.
    const direct = await startTestApp({ trustProxy: ['10.255.0.1'], authThrottle: { ...t.config.authThrottle, loginPerIp: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await login(direct, `nobody-${i}@example.test`, 'wrong', freshIp())).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await direct.close();
    }
  });

  it('with a hop count, takes the address the last proxy saw, whatever the client put in front of it', async () => {
    const oneHop = await startTestApp({ trustProxy: 1, authThrottle: { ...t.config.authThrottle, loginPerIp: 3 } });
    try {
      const real = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await oneHop.api('POST', '/api/auth/login', {
          body: { email: `nobody-${i}@example.test`, password: 'wrong' },
          headers: { 'x-forwarded-for': `${freshIp()}, ${real}` },
        });
        statuses.push(res.status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await oneHop.close();
    }
  });

  it('warns once, naming TRUST_PROXY, when many sign-ins come from one address that forwards for others', async () => {
    const lines: { msg: string; setting?: string; address?: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { msg: string }));
        done();
      },
    });
    const behindProxy = await startTestApp({}, { log: pino({ level: 'warn' }, sink) });
    try {
      for (let i = 0; i < 30; i++) await login(behindProxy, `nobody-${i}@example.test`, 'wrong', freshIp());
      const warnings = lines.filter((line) => line.setting === 'TRUST_PROXY');
      expect(warnings).toHaveLength(1);
      expect(warnings[0].msg).toContain('TRUST_PROXY');
      expect(warnings[0].address).toMatch(/127\.0\.0\.1/);
    } finally {
      await behindProxy.close();
    }
  });

  it('counts IPv6 clients by their /64', () => {
    expect(addressKey('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2::9')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::ffff:10.1.2.3')).toBe('10.1.2.3');
    expect(addressKey('10.1.2.3')).toBe('10.1.2.3');
  });
});

describe('registration throttling', () => {
  const register = (app: TestApp, email: string, ip: string) =>
    app.api('POST', '/api/auth/register', { body: { email, password: 'long enough pw', display_name: 'R' }, headers: { 'x-forwarded-for': ip } });

  it('limits registrations per address and per email, and a refused one creates nothing', async () => {
    const strict = await startTestApp({ trustProxy: ['loopback'], authThrottle: { ...t.config.authThrottle, registerPerIp: 3, registerPerEmail: 2 } });
    try {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await register(strict, `reg-${i}@example.test`, ip)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      const refused = await register(strict, 'reg-3@example.test', ip);
      expect(refused.body.error.code).toBe('RATE_LIMITED');
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((await strict.sql(`select count(*)::int as n from app_user where email = 'reg-3@example.test'`))[0].n).toBe(0);

      expect((await register(strict, 'reg-0@example.test', freshIp())).status).toBe(409);
      expect((await register(strict, 'reg-0@example.test', freshIp())).status).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe('the password hashing gate', () => {
  /**
   * A clock of the test's own: `sleep` resolves only when `runUntil` moves time to it, so the order in
   * which jobs run never depends on how fast the machine is.
   */
  function manualClock() {
    let now = 0;
    const timers: { at: number; wake: () => void }[] = [];
    return {
      sleep: (ms: number) => new Promise<void>((wake) => void timers.push({ at: now + ms, wake })),
      /** Moves time from timer to timer (all those due at one instant together) until `work` settles. */
      async runUntil<T>(work: Promise<T>): Promise<T> {
        let settled = false;
        const result = work.finally(() => (settled = true));
        result.catch(() => undefined);
        for (let idle = 0; ; ) {
          // Let the gate hand over its slots and the woken jobs start before time moves again.
          await new Promise((resolve) => setImmediate(resolve));
          if (settled) return result;
          if (timers.length === 0) {
            if (++idle > 100) throw new Error('nothing left to wake, and the work has not settled');
            continue;
          }
          idle = 0;
          timers.sort((x, y) => x.at - y.at);
          now = timers[0].at;
          while (timers.length > 0 && timers[0].at <= now) timers.shift()!.wake();
        }
      },
    };
  }

  it('runs the last lane at most its concurrency at once, serves known devices and clean records first, in a slot of their own', async () => {
    const clock = manualClock();
    const gate = new WorkGate(1, 10);
    const order: string[] = [];
    let running = 0;
    let most = 0;
    const job = (name: string) => async () => {
      order.push(name);
      most = Math.max(most, ++running);
      await clock.sleep(10);
      running--;
    };
    await clock.runUntil(
      Promise.all([
        gate.run('normal', job('n1')),
        gate.run('normal', job('n2')),
        gate.run('clean', job('c1')),
        gate.run('normal', job('n3')),
        gate.run('trusted', job('t1')),
        gate.run('clean', job('c2')),
      ]),
    );
    // c1 takes the kept slot beside n1; then t1 goes before c2; the last lane waits for both.
    expect(order).toEqual(['n1', 'c1', 't1', 'c2', 'n2', 'n3']);
    expect(most).toBe(2);
  });

  it('keeps one more slot for known devices (and clean records), so they never wait for a flood’s hash', async () => {
    const clock = manualClock();
    const gate = new WorkGate(1, 10);
    const order: string[] = [];
    const job = (name: string, ms: number) => async () => {
      order.push(name);
      await clock.sleep(ms);
    };
    const flood = [gate.run('normal', job('n1', 50)), gate.run('normal', job('n2', 10))];
    await clock.runUntil(gate.run('trusted', job('t1', 1)));
    await clock.runUntil(gate.run('trusted', job('t2', 1)));
    expect(order).toEqual(['n1', 't1', 't2']);
    // Two at once: the second waits for a slot, ahead of the queued flood.
    const both = [gate.run('trusted', job('t3', 20)), gate.run('trusted', job('t4', 1))];
    await clock.runUntil(Promise.all([...flood, ...both]));
    expect(order.slice(3)).toEqual(['t3', 't4', 'n2']);
  });

  it('refuses at once with 503 SERVICE_BUSY when a lane is full, and the other lanes still queue', async () => {
    const clock = manualClock();
    const gate = new WorkGate(1, 1);
    const running = gate.run('normal', () => clock.sleep(50));
    const waiting = gate.run('normal', () => clock.sleep(1));
    await expect(gate.run('normal', () => clock.sleep(1))).rejects.toMatchObject({ code: 'SERVICE_BUSY', status: 503 });
    await expect(clock.runUntil(gate.run('trusted', () => clock.sleep(1)))).resolves.toBeUndefined();
    await clock.runUntil(Promise.all([running, waiting]));
  });
});
