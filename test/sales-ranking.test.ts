import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newOperator, newProduct, newShop } from './support/fixtures.js';
import { payOk, placeOrder } from './support/shopping.js';
import { sharedRanking, type Ranking } from '../src/services/catalog/sales-ranking-cache.js';

/**
 * `sort=sales` reads its page by a remembered ranking (src/services/catalog/sales-ranking-cache.ts). These tests
 * show it is never stale: every change to what is sold or listed shows on the very next listing.
 */
let t: TestApp;
let category: { id: number; path: string; depth: number };
let shop: { id: number };
let operator: { token: string };
let customer: { id: number; token: string };
const products: { id: number; sku: number }[] = [];

beforeAll(async () => {
  t = await startTestApp();
  shop = await newShop(t);
  operator = await newOperator(t, shop.id);
  category = await newCategory(t);
  customer = await newCustomer(t, { available: 1_000_000, points: 0 });
  for (let i = 0; i < 5; i++) {
    const p = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 100, stock: 100 }] });
    products.push({ id: p.id, sku: p.skuIds[0] });
  }
});
afterAll(() => t.close());

const bySales = async (query = '') => {
  const res = await t.api('GET', `/api/products?category=${category.id}&sort=sales${query}`);
  expect(res.status).toBe(200);
  return res.body as { items: { id: number; sold_count: number }[]; total: number };
};
const ids = (page: { items: { id: number }[] }) => page.items.map((p) => p.id);
const sell = async (product: { sku: number }, quantity: number) => {
  const order = await placeOrder(t, customer.token, product.sku, quantity);
  await payOk(t, customer.token, order.id);
  return order;
};
const statementsOf = async (run: () => Promise<unknown>) => {
  t.resetQueryLog();
  await run();
  return t.queries.filter((q) => !/^\s*(begin|commit)/i.test(q)).length;
};

describe('sort=sales ranking', () => {
  it('follows every payment at once, and reads a current ranking in one statement', async () => {
    const [a, b, c, d, e] = products;
    expect(ids(await bySales())).toEqual([e.id, d.id, c.id, b.id, a.id]); // nothing sold: ties, higher id first
    await sell(a, 3);
    expect(ids(await bySales())).toEqual([a.id, e.id, d.id, c.id, b.id]);
    await sell(c, 4);
    const page = await bySales();
    expect(page.items.map((p) => [p.id, p.sold_count])).toEqual([[c.id, 4], [a.id, 3], [e.id, 0], [d.id, 0], [b.id, 0]]);
    expect(page.total).toBe(5);

    // Unchanged since: the remembered ranking is current, one statement reads the page and both versions.
    expect(await statementsOf(() => bySales())).toBe(1);
    // A payment moves the sales version: page (stale), ranking, page again.
    await sell(b, 5);
    expect(await statementsOf(async () => expect(ids(await bySales())).toEqual([b.id, c.id, a.id, e.id, d.id]))).toBe(3);
  });

  it('ranks a filter once for concurrent listings that find no current ranking, each answering the same page', async () => {
    const fresh = await newCategory(t);
    const made: { id: number; skuIds: number[] }[] = [];
    for (let i = 0; i < 3; i++) made.push(await newProduct(t, { shopId: shop.id, categoryId: fresh.id, skus: [{ price: 100, stock: 100 }] }));
    const listed = made.map((p) => p.id);
    await sell({ sku: made[1].skuIds[0] }, 2);
    t.resetQueryLog();
    const pages = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await t.api('GET', `/api/products?category=${fresh.id}&sort=sales`);
        expect(res.status).toBe(200);
        return (res.body as { items: { id: number; sold_count: number }[] }).items.map((p) => [p.id, p.sold_count]);
      }),
    );
    for (const page of pages) expect(page).toEqual([[listed[1], 2], [listed[2], 0], [listed[0], 0]]);
    // The ranking statement aggregates every candidate into arrays; the page statements do not.
    expect(t.queries.filter((q) => /array_agg/i.test(q))).toHaveLength(1);
  });

  it('a listing whose joined ranking computation fails (its deadline, a killed session) computes its own', async () => {
    const em = t.orm.em.fork();
    const ranked: Ranking = { catalogVersion: '1', salesVersion: '1', ids: [7], sold: [0] };
    let fail: (error: Error) => void = () => undefined;
    const first = sharedRanking(em, 'joined and failed', () => new Promise<Ranking>((_resolve, reject) => (fail = reject)));
    const second = sharedRanking(em, 'joined and failed', () => Promise.resolve(ranked));
    fail(new Error('terminating connection due to administrator command'));
    await expect(first).rejects.toThrow('administrator command');
    await expect(second).resolves.toBe(ranked);
    // Nothing of the failed computation stays behind to be joined.
    await expect(sharedRanking(em, 'joined and failed', () => Promise.resolve(ranked))).resolves.toBe(ranked);
  });

  it('pages and order=asc are slices of the same ranking, each product with its own sold_count', async () => {
    const pairs = (page: { items: { id: number; sold_count: number }[] }) => page.items.map((p) => [p.id, p.sold_count]);
    const all = pairs(await bySales());
    const pages = [...pairs(await bySales('&page_size=2&page=1')), ...pairs(await bySales('&page_size=2&page=2')), ...pairs(await bySales('&page_size=2&page=3'))];
    expect(pages).toEqual(all);
    const asc = [...pairs(await bySales('&order=asc&page_size=2&page=1')), ...pairs(await bySales('&order=asc&page_size=2&page=2')), ...pairs(await bySales('&order=asc&page_size=2&page=3'))];
    expect(asc).toEqual([...all].reverse());
    // The remembered counts are the products' own: the same as a batched count of their sold lines.
    const counted = await t.sql<{ product_id: number; n: number }>(
      'select product_id, sum(quantity)::int as n from order_item where sold and product_id = any(?::int[]) group by product_id',
      [`{${products.map((p) => p.id).join(',')}}`],
    );
    const expected = new Map(counted.map((r) => [r.product_id, r.n]));
    for (const [id, sold] of all) expect(sold).toBe(expected.get(id) ?? 0);
    expect((await bySales('&page_size=2&page=9')).items).toEqual([]);
  });

  it('drops a line that leaves sold_count (refunded in full before shipping) at once', async () => {
    const [, , , d] = products;
    const order = await sell(d, 9);
    expect(ids(await bySales())[0]).toBe(d.id);
    const refund = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token,
      body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: order.items[0].id, quantity: 9 }] },
    });
    expect(refund.status).toBe(201);
    expect((await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: operator.token, body: {} })).status).toBe(200);
    const page = await bySales();
    expect(page.items.find((p) => p.id === d.id)!.sold_count).toBe(0);
    expect(ids(page)[0]).not.toBe(d.id);
  });

  it('follows catalog changes at once (a product unpublished or added)', async () => {
    const top = ids(await bySales())[0];
    await t.sql(`update product set status = 'draft' where id = ?`, [top]);
    const without = await bySales();
    expect(ids(without)).not.toContain(top);
    expect(without.total).toBe(4);
    const added = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 100, stock: 100 }] });
    expect(ids(await bySales())).toContain(added.id);
    await t.sql(`update product set status = 'published' where id = ?`, [top]);
  });

  it('moves the sales version only when a payment commits', async () => {
    const version = async () => (await t.sql<{ v: string }>('select sum(n)::text as v from sales_version'))[0].v;
    const before = await version();
    const order = await placeOrder(t, customer.token, products[0].sku, 1);
    expect(await version()).toBe(before); // placing an order sells nothing yet
    await payOk(t, customer.token, order.id);
    expect(BigInt(await version())).toBeGreaterThan(BigInt(before));
  });
});
