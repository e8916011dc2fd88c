import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { WorkGate } from '../src/shared/work-gate.js';

let t: TestApp;
beforeAll(async () => {
  // Behind a trusted proxy, so each test can sign in from addresses of its own.
  t = await startTestApp({ trustProxy: true });
});
afterAll(() => t.close());

let nextAddress = 0;
const freshIp = () => `10.9.${Math.floor(++nextAddress / 250)}.${nextAddress % 250}`;
const login = (app: TestApp, email: string, password: string, ip: string) =>
  app.api('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

describe('login throttling', () => {
  it('meets 40 wrong passwords in a row with 429 RATE_LIMITED and Retry-After, and then refuses the right one too', async () => {
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
    // Nothing was issued to the blocked account.
    expect((await t.sql('select count(*)::int as n from auth_token where user_id = ?', [user.id]))[0].n).toBe(1);
  });

  it('counts per account whichever address the attempts come from', async () => {
    const user = await newCustomer(t);
    for (let i = 0; i < 10; i++) expect((await login(t, user.email, 'wrong', freshIp())).status).toBe(401);
    expect((await login(t, user.email, PASSWORD, freshIp())).status).toBe(429);
  });

  it('gives the same code over GraphQL', async () => {
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

  it('clears the account count on a successful login', async () => {
    const user = await newCustomer(t);
    const ip = freshIp();
    for (let i = 0; i < 9; i++) expect((await login(t, user.email, 'wrong', ip)).status).toBe(401);
    expect((await login(t, user.email, PASSWORD, ip)).status).toBe(200);
    for (let i = 0; i < 9; i++) expect((await login(t, user.email, 'wrong', ip)).status).toBe(401);
    expect((await login(t, user.email, PASSWORD, ip)).status).toBe(200);
  });

  it('limits one address across accounts, unknown emails included', async () => {
    const strict = await startTestApp({ trustProxy: true, authThrottle: { ...t.config.authThrottle, loginPerIp: 5 } });
    try {
      const ip = freshIp();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await login(strict, `nobody-${i}@example.test`, 'wrong', ip)).status);
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
      expect((await login(strict, 'nobody-0@example.test', 'wrong', freshIp())).status).toBe(401);
    } finally {
      await strict.close();
    }
  });

  it('shares the counts between server processes', async () => {
    const second = await startSecondApp(t, { trustProxy: true });
    try {
      const user = await newCustomer(t);
      for (let i = 0; i < 5; i++) expect((await login(t, user.email, 'wrong', freshIp())).status).toBe(401);
      for (let i = 0; i < 5; i++) expect((await login(second, user.email, 'wrong', freshIp())).status).toBe(401);
      expect((await login(second, user.email, PASSWORD, freshIp())).status).toBe(429);
    } finally {
      await second.close();
    }
  });

  it('does not believe X-Forwarded-For unless TRUST_PROXY says so', async () => {
    const direct = await startTestApp({ authThrottle: { ...t.config.authThrottle, loginPerIp: 3 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await login(direct, `nobody-${i}@example.test`, 'wrong', freshIp())).status);
      expect(statuses).toEqual([401, 401, 401, 429]);
    } finally {
      await direct.close();
    }
  });
});

describe('registration throttling', () => {
  const register = (app: TestApp, email: string, ip: string) =>
    app.api('POST', '/api/auth/register', { body: { email, password: 'long enough pw', display_name: 'R' }, headers: { 'x-forwarded-for': ip } });

  it('limits registrations per address and per email, and a refused one creates nothing', async () => {
    const strict = await startTestApp({ trustProxy: true, authThrottle: { ...t.config.authThrottle, registerPerIp: 3, registerPerEmail: 2 } });
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
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('runs at most its concurrency at once and serves the priority lane first', async () => {
    const gate = new WorkGate(1, 10);
    const order: string[] = [];
    const job = (name: string) => async () => {
      order.push(name);
      await sleep(10);
    };
    await Promise.all([gate.run('normal', job('n1')), gate.run('normal', job('n2')), gate.run('normal', job('n3')), gate.run('priority', job('p1'))]);
    expect(order).toEqual(['n1', 'p1', 'n2', 'n3']);
  });

  it('refuses at once with 503 SERVICE_BUSY when a lane is full', async () => {
    const gate = new WorkGate(1, 1);
    const running = gate.run('normal', () => sleep(50));
    const waiting = gate.run('normal', () => sleep(1));
    await expect(gate.run('normal', () => sleep(1))).rejects.toMatchObject({ code: 'SERVICE_BUSY', status: 503 });
    await expect(gate.run('priority', () => sleep(1))).resolves.toBeUndefined();
    await Promise.all([running, waiting]);
  });
});
