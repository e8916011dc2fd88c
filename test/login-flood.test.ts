import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD, type TestUser } from './support/fixtures.js';
import { waitFor } from './support/subscriptions.js';

/**
 * A flood of failing logins (each costs a scrypt hash) must not slow a genuine login of another
 * account: hashing runs through a capped gate that serves callers with a clean record first.
 */
let t: TestApp;
beforeAll(async () => {
  // Counts high enough that the flood is never stopped by them: what is measured is the hashing gate.
  t = await startTestApp({
    trustProxy: true,
    authThrottle: { windowSeconds: 900, loginPerAccount: 1_000_000, loginPerIp: 1_000_000, registerPerIp: 1_000_000, registerPerEmail: 1_000_000 },
  });
});
afterAll(() => t.close());

const FLOODERS = 32;
const TRIES = 5;

const login = (email: string, password: string, ip: string) =>
  t.api('POST', '/api/auth/login', { body: { email, password }, headers: { 'x-forwarded-for': ip } });

async function timedLogins(user: TestUser, ip: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    const res = await login(user.email, PASSWORD, ip);
    times.push(performance.now() - started);
    expect(res.status).toBe(200);
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

it('keeps a genuine login under 200 ms (p50; 4x its quiet time on a loaded machine) during a 32-way flood of wrong passwords from other accounts and addresses', async () => {
  const genuine = await newCustomer(t);
  const flooders = await Promise.all(Array.from({ length: FLOODERS }, () => newCustomer(t)));
  const quiet = median(await timedLogins(genuine, '10.20.0.1'));

  let flooding = true;
  const statuses = new Map<number, number>();
  const workers = flooders.map(async (user, i) => {
    while (flooding) {
      const { status } = await login(user.email, `wrong ${i}`, `10.30.0.${i + 1}`);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  });
  // A flooder's first two attempts on an email count as a clean record (a genuine user's first try
  // and one retry) and compete as equals; the flood is measured once every flooder is past them.
  await waitFor(() => (statuses.get(401) ?? 0) >= 2 * FLOODERS, 30_000, 'flood in its steady state');
  const underFlood = await timedLogins(genuine, '10.20.0.1');
  flooding = false;
  await Promise.all(workers);

  const p50 = median(underFlood);
  process.stdout.write(
    `login flood: genuine login p50 ${quiet.toFixed(0)} ms quiet, ${p50.toFixed(0)} ms under a ${FLOODERS}-way flood ` +
      `(tries ${underFlood.map((ms) => ms.toFixed(0)).join(', ')} ms); flood answers ${JSON.stringify(Object.fromEntries(statuses))}\n`,
  );
  // 200 ms on a quiet machine (46 ms quiet, 607 ms before the gate). When other work shares the cores,
  // every hash is slower: the bound then scales with the quiet login measured under the same load.
  // Without the gate the genuine hash queues behind the flood's (over 10x the quiet time).
  expect(p50).toBeLessThan(Math.max(200, 4 * quiet));
  // The flood was real (it kept the hashing busy) and got only its honest answers.
  expect(statuses.get(401) ?? 0).toBeGreaterThan(2 * FLOODERS + TRIES);
  expect([...statuses.keys()].every((status) => status === 401 || status === 503)).toBe(true);
});
