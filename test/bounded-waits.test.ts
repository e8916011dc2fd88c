import pg from 'pg';
import { timed } from './support/timing.js';
import { startTestApp, type TestApp, type ApiResponse } from './support/harness.js';
import { newCustomer, type TestUser } from './support/fixtures.js';
import { addToCart, checkoutBody, shopWithProduct } from './support/shopping.js';
import { poolOf } from '../src/db/prepared-statements.js';
import { writeCapacity } from '../src/db/write-slots.js';
import { requestScope, runInScope } from '../src/db/request-scope.js';
import { toAppError } from '../src/errors.js';

/**
 * No request waits for the database longer than its deadline: one deadline however many
 * connections it takes, and a row locked from outside holds up only the requests that need it (for
 * `lock_timeout`, then 409 RESOURCE_LOCKED), while other writes, reads and readiness go on. When more
 * writers wait on the row than writes may hold connections, other writes queue for a slot (within
 * their deadline) and reads still have their quarter of the pool.
 */
let t: TestApp;
let outside: pg.Client;
const LOCK_TIMEOUT_MS = 1_200;
const DEADLINE_MS = 2_500;

beforeAll(async () => {
  t = await startTestApp({ dbPoolSize: 10, dbAcquireTimeoutMs: DEADLINE_MS, dbLockTimeoutMs: LOCK_TIMEOUT_MS });
  outside = new pg.Client({ connectionString: t.dbUrl, application_name: 'outside-session' });
  await outside.connect();
});
afterAll(async () => {
  await outside.end();
  await t.close();
});


describe('one deadline per request', () => {
  it('answers 503 within DB_ACQUIRE_TIMEOUT_MS however many connections the request asks for', async () => {
    const pool = await poolOf(t.em());
    const held = await Promise.all(Array.from({ length: t.config.dbPoolSize }, () => pool.connect()));
    try {
      // Three connections asked for one after the other in one request: the first waits out the
      // deadline, the others fail at once (before, each waited a whole timeout of its own).
      const { ms } = await timed(() =>
        runInScope(requestScope(DEADLINE_MS), async () => {
          const em = t.em();
          const failures: unknown[] = [];
          for (let i = 0; i < 3; i++) await em.execute('select 1').catch((error: unknown) => failures.push(error));
          expect(failures.map((e) => toAppError(e).appError.code)).toEqual(Array(3).fill('SERVICE_UNAVAILABLE'));
        }),
      );
      expect(ms).toBeGreaterThanOrEqual(DEADLINE_MS - 50);
      expect(ms).toBeLessThan(DEADLINE_MS + 500);

      const rest = await timed(() => t.api('GET', '/api/products'));
      expect(rest.result.status).toBe(503);
      expect(rest.result.body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String), details: { retry_after_seconds: 1 } });
      expect(rest.ms).toBeLessThan(DEADLINE_MS + 1_000);
    } finally {
      for (const client of held) client.release();
    }
    expect((await t.api('GET', '/api/products')).status).toBe(200);
  });
});

describe('a row locked by a session outside the server', () => {
  let locked: { skuId: number; productId: number };
  let other: { skuId: number };
  let customers: TestUser[];

  beforeAll(async () => {
    const a = await shopWithProduct(t, [{ price: 500, stock: 100 }]);
    const b = await shopWithProduct(t, [{ price: 700, stock: 100 }]);
    locked = { skuId: a.product.skuIds[0], productId: a.product.id };
    other = { skuId: b.product.skuIds[0] };
    customers = await Promise.all(Array.from({ length: 10 }, () => newCustomer(t, { available: 100_000, points: 0 })));
  });

  afterEach(() => outside.query('rollback'));

  it('makes only the requests that need it wait, up to lock_timeout, then answers 409 RESOURCE_LOCKED; other writes, reads and readiness go on', async () => {
    await addToCart(t, customers[0].token, locked.skuId, 1);
    await outside.query('begin');
    await outside.query('select id from sku where id = $1 for update', [locked.skuId]);

    const until = Date.now() + 3 * LOCK_TIMEOUT_MS + 500;
    const answers: { kind: string; res: ApiResponse; ms: number }[] = [];
    const loop = (kind: string, send: () => Promise<ApiResponse>) =>
      (async () => {
        while (Date.now() < until) {
          const { result, ms } = await timed(send);
          answers.push({ kind, res: result, ms });
        }
      })();
    await Promise.all([
      // Clients that keep writing the locked row, asking again the moment they are answered.
      ...customers.slice(1, 7).map((c) => loop('locked write', () => t.api('PUT', `/api/cart/items/${locked.skuId}`, { token: c.token, body: { quantity: 2 } }))),
      loop('checkout of the locked row', () => t.api('POST', '/api/checkout', { token: customers[0].token, body: checkoutBody() })),
      loop('other write', () => t.api('PUT', `/api/cart/items/${other.skuId}`, { token: customers[9].token, body: { quantity: 1 } })),
      loop('anonymous read', () => t.api('GET', `/api/products/${locked.productId}`)),
      loop('listing', () => t.api('GET', '/api/products?page_size=5')),
      loop('readiness', () => t.api('GET', '/readyz')),
    ]);

    const of = (kind: string) => answers.filter((a) => a.kind === kind);
    for (const { res, ms } of [...of('locked write'), ...of('checkout of the locked row')]) {
      expect(res.status).toBe(409);
      expect(res.body.error).toEqual({ code: 'RESOURCE_LOCKED', message: expect.any(String), details: { retry_after_seconds: 1 } });
      expect(ms).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50);
      expect(ms).toBeLessThan(LOCK_TIMEOUT_MS + 1_000);
    }
    const summary = (kind: string) => {
      const statuses = [...new Set(of(kind).map((a) => a.res.status))].join('/');
      return `${kind}: ${of(kind).length} x ${statuses}, longest ${Math.max(...of(kind).map((a) => a.ms)).toFixed(0)} ms`;
    };
    process.stdout.write(`row locked from outside (lock_timeout ${LOCK_TIMEOUT_MS} ms): ${['locked write', 'checkout of the locked row', 'other write', 'anonymous read', 'listing', 'readiness'].map(summary).join('; ')}\n`);
    expect(of('locked write').length).toBeGreaterThan(6);
    expect(of('checkout of the locked row').length).toBeGreaterThan(0);
    for (const kind of ['other write', 'anonymous read', 'listing', 'readiness']) {
      expect(of(kind).length).toBeGreaterThan(0);
      expect(of(kind).map((a) => a.res.status).filter((s) => s !== 200)).toEqual([]);
    }
    // None of them waited for the locked row.
    for (const kind of ['other write', 'anonymous read', 'listing', 'readiness']) expect(Math.max(...of(kind).map((a) => a.ms))).toBeLessThan(LOCK_TIMEOUT_MS);
    // The 409 said when to try again.
    const refused = of('locked write').find((a) => a.res.status === 409)!;
    expect(refused.res.headers.get('retry-after')).toBe('1');

    await outside.query('rollback');
    expect((await t.api('PUT', `/api/cart/items/${locked.skuId}`, { token: customers[1].token, body: { quantity: 2 } })).status).toBe(200);
    const placed = await t.api('POST', '/api/checkout', { token: customers[0].token, body: checkoutBody() });
    expect(placed.status).toBe(201);
  });

  it('gives the same code over GraphQL', async () => {
    const customer = await newCustomer(t);
    await outside.query('begin');
    await outside.query('select id from sku where id = $1 for update', [locked.skuId]);
    // A lock is no answer about the input: a top-level error, like a 503 (docs/api.md, GraphQL conventions).
    const res = await t.gql(`mutation { setCartItem(input: { skuId: ${locked.skuId}, quantity: 1 }) { cart { itemCount } userErrors { code } } }`, {}, customer.token);
    expect(res.errors?.map((e) => e.extensions.code)).toEqual(['RESOURCE_LOCKED']);
  });

  it('leaves reads a quarter of the pool when more writers wait for it than writes may hold', async () => {
    expect([1, 2, 4, 5, 10, 20].map(writeCapacity)).toEqual([1, 1, 3, 4, 8, 15]);
    await outside.query('begin');
    await outside.query('select id from sku where id = $1 for update', [locked.skuId]);
    const writers = Array.from({ length: 12 }, async () => {
      const customer = await newCustomer(t);
      return t.api('PUT', `/api/cart/items/${locked.skuId}`, { token: customer.token, body: { quantity: 1 } });
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const reads = await Promise.all(Array.from({ length: 5 }, () => timed(() => t.api('GET', '/api/products?page_size=5'))));
    for (const { result, ms } of reads) {
      expect(result.status).toBe(200);
      expect(ms).toBeLessThan(LOCK_TIMEOUT_MS);
    }
    // The writers beyond the write slots waited their turn: refused in time, never hanging.
    for (const res of await Promise.all(writers)) expect([409, 503]).toContain(res.status);
  });
});
