import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, type TestUser } from './support/fixtures.js';
import { deliveredOrder, expectBooksBalance, shopWithProduct } from './support/shopping.js';
import { completeDeliveredOrders } from '../src/services/orders/order.service.js';
import { systemContext } from '../src/server/jobs.js';
import { withIndexPlanner } from './support/plans.js';

/**
 * Issue 44: the platform's payout batches are a page like every other list (`page`, `pageSize`,
 * newest first) over both doors; GraphQL's old `payoutBatches` list stays, deprecated, as the first
 * 100 of the same list (docs/decisions.md, 2026-12-04).
 */
let t: TestApp;
let admin: TestUser;
/** The batches this file made, newest first. */
const made: { id: number; threshold: number; created_at: string; payout_count: number; total: number }[] = [];

beforeAll(async () => {
  t = await startTestApp({ afterSaleWindowDays: 7 });
  admin = await newAdmin(t);
  // One shop's released earnings, paid out three times: each batch's payout is refused by the bank,
  // so the money is available again for the next batch.
  const { shop, product } = await shopWithProduct(t, [{ price: 2_000, stock: 5 }]);
  const operator = await newOperator(t, shop.id);
  const customer = await newCustomer(t, { available: 10_000, points: 0 });
  const order = await deliveredOrder(t, customer.token, operator.token, product.skuIds[0]);
  await t.sql(`update shop_order set delivered_at = now() - interval '8 days' where id = ?`, [order.id]);
  await completeDeliveredOrders(systemContext(t.deps, 'test'));
  for (let i = 0; i < 3; i++) {
    const batch = await t.api('POST', '/api/admin/payout-batches', { token: admin.token, body: { threshold: 1 } });
    expect(batch.status).toBe(201);
    const payouts = batch.body.payouts as { id: number; amount: number }[];
    made.unshift({ id: batch.body.id, threshold: 1, created_at: batch.body.created_at, payout_count: payouts.length, total: payouts.reduce((sum, p) => sum + p.amount, 0) });
    for (const p of payouts) expect((await t.api('POST', `/api/admin/payouts/${p.id}/settle`, { token: admin.token, body: { status: 'failed' } })).status).toBe(200);
  }
});
afterAll(async () => {
  await expectBooksBalance(t);
  await t.close();
});

const list = (query = '', token = admin.token) => t.api('GET', `/api/admin/payout-batches${query}`, { token });
const batchCount = async () => (await t.sql<{ n: number }>('select count(*)::int as n from payout_batch'))[0].n;
const camel = (b: (typeof made)[number]) => ({ id: b.id, threshold: b.threshold, createdAt: b.created_at, payoutCount: b.payout_count, total: b.total });

it('answers a page newest first, of the size asked, with the whole total; the next page goes on where it stopped', async () => {
  const total = await batchCount();
  const first = await list('?page_size=2');
  expect(first.status).toBe(200);
  expect(first.body).toEqual({ items: made.slice(0, 2), page: 1, page_size: 2, total });
  const second = await list('?page=2&page_size=2');
  expect(second.body).toMatchObject({ page: 2, page_size: 2, total });
  expect(second.body.items[0]).toEqual(made[2]);
  // Every list's default: page 1 of 20.
  const plain = await list();
  expect(plain.body).toMatchObject({ page: 1, page_size: 20, total });
  expect(plain.body.items.slice(0, 3)).toEqual(made);
  const ids = (plain.body.items as { id: number }[]).map((b) => b.id);
  expect(ids).toEqual([...ids].sort((a, b) => b - a));
  // Past the end: no item, the same total.
  expect((await list('?page=1000&page_size=100')).body).toEqual({ items: [], page: 1000, page_size: 100, total });
});

it('answers the same page over GraphQL, and the deprecated list as the first 100 of it', async () => {
  const total = await batchCount();
  const res = await t.gql(
    `{ adminPayoutBatches(page: 1, pageSize: 2) { page pageSize total hasNextPage items { id threshold createdAt payoutCount total } } payoutBatches { id threshold createdAt payoutCount total } }`,
    {},
    admin.token,
  );
  expect(res.errors).toBeUndefined();
  expect(res.data.adminPayoutBatches).toEqual({ page: 1, pageSize: 2, total, hasNextPage: total > 2, items: made.slice(0, 2).map(camel) });
  const hundred = (await list('?page_size=100')).body.items.map(camel);
  expect(res.data.payoutBatches).toEqual(hundred);
  // Its last page says no other follows.
  const last = await t.gql(`query($page: Int!) { adminPayoutBatches(page: $page, pageSize: 2) { hasNextPage items { id } } }`, { page: Math.ceil(total / 2) }, admin.token);
  expect(last.data.adminPayoutBatches.hasNextPage).toBe(false);
  expect(last.data.adminPayoutBatches.items.length).toBeGreaterThan(0);
});

it('refuses bad paging over both doors in the common error shape, and callers without the money permission', async () => {
  for (const query of ['page=0', 'page=x', 'page=-1', 'page_size=0', 'page_size=101', 'page_size=1.5', 'page_size=']) {
    const res = await list(`?${query}`);
    expect({ query, status: res.status, code: res.body.error?.code }).toEqual({ query, status: 400, code: 'VALIDATION_FAILED' });
    expect(res.body.error.details.problems).toEqual([{ field: expect.stringMatching(/^page/), message: expect.any(String) }]);
  }
  for (const args of ['page: 0', 'pageSize: 0', 'pageSize: 101']) {
    const res = await t.gql(`{ adminPayoutBatches(${args}) { total } }`, {}, admin.token);
    expect({ args, data: res.data, codes: res.errors?.map((e: { extensions: { code: string } }) => e.extensions.code) }).toEqual({ args, data: null, codes: ['VALIDATION_FAILED'] });
  }
  const customer = await newCustomer(t);
  expect((await list('', customer.token)).status).toBe(403);
  expect((await list('', '')).status).toBe(401);
  for (const query of ['{ adminPayoutBatches { total } }', '{ payoutBatches { id } }']) {
    const refused = await t.gql(query, {}, customer.token);
    expect({ query, codes: refused.errors?.map((e: { extensions: { code: string } }) => e.extensions.code) }).toEqual({ query, codes: ['FORBIDDEN'] });
  }
});

describe('plans', () => {
  /**
   * The page's two statements (payouts.ts `listPayoutBatches`, as `idPage` writes the first): the ids
   * are read backward along the key, in its order, never sorted (the window count reads the same
   * index); the page's batches are found by key and their payouts by payout_batch_id_index.
   */
  it('reads the page along payout_batch_pkey, unsorted, and the page rows by key', async () => {
    await withIndexPlanner(t.dbUrl, async (plan) => {
      const ids = await plan(`select "id" as "id", (count(*) over ())::int as "total" from "payout_batch" order by "id" desc limit $1 offset $2`, [20, 0]);
      expect(ids.map((n) => n['Node Type'])).not.toContain('Sort');
      expect(ids.map((n) => n['Node Type'])).not.toContain('Seq Scan');
      expect(ids.filter((n) => n['Index Name']).map((n) => [n['Node Type'], n['Index Name']])).toEqual([[expect.stringMatching(/^Index (Only )?Scan$/), 'payout_batch_pkey']]);
      const rows = await plan(
        `select "b"."id", "b"."threshold", "b"."created_at", count("p"."id"), coalesce(sum("p"."amount"), 0) from "payout_batch" as "b"
           left join "payout" as "p" on "p"."batch_id" = "b"."id" where "b"."id" in ($1, $2) group by "b"."id" order by "b"."id" desc`,
        made.slice(0, 2).map((b) => b.id),
      );
      expect(rows.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
      expect(rows.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])).sort()).toEqual(['payout_batch_id_index', 'payout_batch_pkey']);
    });
  });
});
