import { timed } from './support/timing.js';
import { startTestApp, type TestApp, type ApiResponse } from './support/harness.js';
import { newCustomer, type TestUser } from './support/fixtures.js';
import { shopWithProduct } from './support/shopping.js';
import { poolSettles } from './support/faulty-shoppers.js';
import { startThrowawayCluster, type ThrowawayCluster } from './support/throwaway-cluster.js';
import { poolOf } from '../src/db/prepared-statements.js';

/**
 * A database that hangs instead of failing: the whole cluster (server and backends) is stopped with
 * SIGSTOP, so connections stay open and nothing answers, as in a frozen VM or a silent network
 * partition. Every request still answers within its deadline (503), readiness says so within its
 * probe time, liveness stays green, and everything comes back by itself after SIGCONT.
 */
const DATABASE = 'mallfront_freeze';
const DEADLINE_MS = 1_500;
let cluster: ThrowawayCluster;
let t: TestApp;
let customer: TestUser;
let sku: { skuId: number; productId: number };

beforeAll(async () => {
  cluster = await startThrowawayCluster(DATABASE);
  t = await startTestApp({ dbPoolSize: 4, dbAcquireTimeoutMs: DEADLINE_MS }, { database: DATABASE, connectVia: () => cluster.url });
  customer = await newCustomer(t, { available: 100_000, points: 0 });
  const { product } = await shopWithProduct(t, [{ price: 300, stock: 50 }]);
  sku = { skuId: product.skuIds[0], productId: product.id };
}, 60_000);
afterAll(async () => {
  cluster?.thaw();
  await t?.close();
  cluster?.remove();
});


it('answers every request within its deadline while the database is frozen, and recovers after', async () => {
  // Every pooled connection has been used, so they are open (and will be stuck) when the freeze comes.
  await Promise.all(Array.from({ length: 8 }, () => t.api('GET', '/api/me', { token: customer.token })));
  await t.api('PUT', `/api/cart/items/${sku.skuId}`, { token: customer.token, body: { quantity: 1 } });

  cluster.freeze();
  try {
    const frozen = await Promise.all([
      timed(() => t.api('GET', '/api/me', { token: customer.token })),
      timed(() => t.api('GET', '/api/products')),
      timed(() => t.api('GET', `/api/products/${sku.productId}`)),
      timed(() => t.api('PUT', `/api/cart/items/${sku.skuId}`, { token: customer.token, body: { quantity: 2 } })),
      timed(() => t.api('POST', '/api/checkout', { token: customer.token, body: {}, headers: { 'idempotency-key': 'frozen' } })),
      timed(async (): Promise<ApiResponse> => {
        const res = await t.gql('{ me { id } cart { itemCount } }', {}, customer.token);
        return { status: res.status, body: { error: { code: res.errors?.[0].extensions.code } }, headers: new Headers() };
      }),
    ]);
    process.stdout.write(`frozen database (deadline ${DEADLINE_MS} ms): requests answered ${frozen.map(({ result: res, ms }) => `${res.body.error.code === 'SERVICE_UNAVAILABLE' ? 503 : res.status} in ${ms.toFixed(0)} ms`).join(', ')}\n`);
    for (const { result: res, ms } of frozen) {
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(ms).toBeLessThan(DEADLINE_MS + 1_000);
    }
    // Later requests find the stuck connections cut and ask for new ones, which do not come either.
    const again = await timed(() => t.api('GET', '/api/me', { token: customer.token }));
    expect(again.result.status).toBe(503);
    expect(again.ms).toBeLessThan(DEADLINE_MS + 1_000);

    const ready = await timed(() => t.api('GET', '/readyz'));
    expect(ready.result.status).toBe(503);
    expect(ready.ms).toBeLessThan(3_000);
    const live = await timed(() => t.api('GET', '/healthz'));
    expect(live.result.status).toBe(200);
    expect(live.ms).toBeLessThan(3_000);
  } finally {
    cluster.thaw();
  }

  const until = Date.now() + 20_000;
  while ((await t.api('GET', '/readyz')).status !== 200 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
  while ((await t.api('GET', '/api/me', { token: customer.token })).status !== 200 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 200));
  expect((await t.api('GET', '/api/me', { token: customer.token })).status).toBe(200);
  expect((await t.api('PUT', `/api/cart/items/${sku.skuId}`, { token: customer.token, body: { quantity: 3 } })).status).toBe(200);
  expect(await poolSettles(t, await poolOf(t.em()))).toEqual({ checkedOut: 0, waiting: 0, total: expect.any(Number) });
}, 60_000);
