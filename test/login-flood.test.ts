import { Worker } from 'node:worker_threads';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, PASSWORD } from './support/fixtures.js';
import { waitFor } from './support/subscriptions.js';

/**
 * A flood of sign-ins with made-up emails from fresh addresses (none is ever refused by a count)
 * must not starve genuine sign-ins: password checks run through a capped gate whose first lane is
 * for device tokens and whose second is for existing accounts with a clean record, which made-up
 * identities never reach; and the check of an email without an account is a wait, not a hash.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ trustProxy: ['loopback'] });
});
afterAll(() => t.close());

const FLOODERS = 200;
const TRIES = 7;

let nextAddress = 0;
const freshIp = () => `10.${40 + Math.floor(++nextAddress / 62_500)}.${Math.floor(nextAddress / 250) % 250}.${nextAddress % 250}`;
const login = (email: string, password: string, ip: string, deviceToken?: string) =>
  fetch(`${t.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify({ email, password, ...(deviceToken ? { device_token: deviceToken } : {}) }),
  }).then(async (res) => ({ status: res.status, body: (await res.json()) as { device_token?: string } }));

/**
 * The flood, from a thread of its own (as an attacker's machine would be): its clients' work must not
 * run on the event loop that serves the genuine sign-ins and measures them. Each of `clients`
 * connections signs in with a made-up email from a fresh address, again as soon as it is answered.
 */
function startFlood(clients: number) {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { url, clients } = workerData;
    const statuses = {};
    let flooding = true;
    let seq = 0;
    parentPort.on('message', () => { flooding = false; });
    const client = async (c) => {
      while (flooding) {
        const n = ++seq;
        const ip = '10.' + (100 + (n >> 16)) + '.' + ((n >> 8) & 255) + '.' + (n & 255);
        const res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({ email: 'made-up-' + n + '@flood.test', password: 'guess' }),
        }).catch(() => null);
        if (res) await res.arrayBuffer();
        const status = res ? res.status : 0;
        statuses[status] = (statuses[status] || 0) + 1;
        answered++;
      }
    };
    let answered = 0;
    const report = setInterval(() => parentPort.postMessage({ answered }), 100);
    Promise.all(Array.from({ length: clients }, (_, c) => client(c))).then(() => {
      clearInterval(report);
      parentPort.postMessage({ done: statuses });
    });
  `;
  const worker = new Worker(code, { eval: true, workerData: { url: `${t.baseUrl}/api/auth/login`, clients } });
  let answered = 0;
  let done: (statuses: Record<string, number>) => void;
  const finished = new Promise<Record<string, number>>((resolve) => (done = resolve));
  worker.on('message', (message: { answered?: number; done?: Record<string, number> }) => {
    if (message.answered) answered = message.answered;
    if (message.done) done(message.done);
  });
  return {
    answered: () => answered,
    async stop() {
      worker.postMessage('stop');
      const statuses = await finished;
      await worker.terminate();
      return statuses;
    },
  };
}

/** Times of `TRIES` sign-ins one after the other; each must succeed. */
async function timedLogins(signIn: () => Promise<{ status: number }>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TRIES; i++) {
    const started = performance.now();
    const res = await signIn();
    times.push(performance.now() - started);
    expect(res.status).toBe(200);
  }
  return times;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (values: number[]) => values.map((v) => v.toFixed(0)).join(', ');

it(`keeps a known device within 2x and a new device within 5x of their quiet sign-in times during ${FLOODERS} concurrent sign-ins with made-up emails from fresh addresses`, async () => {
  const owner = await newCustomer(t);
  const deviceToken = (await login(owner.email, PASSWORD, freshIp())).body.device_token!;
  const newcomer = await newCustomer(t);
  const knownDevice = () => login(owner.email, PASSWORD, freshIp(), deviceToken);
  const newDevice = () => login(newcomer.email, PASSWORD, freshIp());

  // Warm (code paths compiled, connections made) before the quiet times are taken.
  await timedLogins(knownDevice);
  await timedLogins(newDevice);
  const before = { known: await timedLogins(knownDevice), fresh: await timedLogins(newDevice) };

  // How late the server's event loop ran meanwhile (the neighbours' load shows here too).
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  const flood = startFlood(FLOODERS);
  await waitFor(() => flood.answered() >= FLOODERS, 60_000, 'every flooder answered once');
  const flooded = { known: await timedLogins(knownDevice), fresh: await timedLogins(newDevice) };
  const statuses = await flood.stop();
  lag.disable();

  // Quiet before and after the flood, so that the neighbours' load drifting meanwhile weighs on both sides.
  const after = { known: await timedLogins(knownDevice), fresh: await timedLogins(newDevice) };
  const quiet = { known: [...before.known, ...after.known], fresh: [...before.fresh, ...after.fresh] };
  const ratio = { known: median(flooded.known) / median(quiet.known), fresh: median(flooded.fresh) / median(quiet.fresh) };
  process.stdout.write(
    `login flood (${FLOODERS} concurrent made-up sign-ins): known device p50 ${median(quiet.known).toFixed(0)} ms quiet, ` +
      `${median(flooded.known).toFixed(0)} ms flooded (x${ratio.known.toFixed(2)}; ${ms(flooded.known)}); new device p50 ` +
      `${median(quiet.fresh).toFixed(0)} ms quiet, ${median(flooded.fresh).toFixed(0)} ms flooded (x${ratio.fresh.toFixed(2)}; ${ms(flooded.fresh)}); ` +
      `flood answers ${JSON.stringify(statuses)}; event loop delay p99 ${(lag.percentile(99) / 1e6).toFixed(0)} ms\n`,
  );
  expect(ratio.known).toBeLessThanOrEqual(2);
  expect(ratio.fresh).toBeLessThanOrEqual(5);
  // The flood was real (it kept the last lane full) and got only its honest answers.
  expect(statuses[401] ?? 0).toBeGreaterThan(FLOODERS / 4);
  expect(Object.keys(statuses).every((status) => status === '401' || status === '503')).toBe(true);
});
