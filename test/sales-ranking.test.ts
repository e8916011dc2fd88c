import fc from 'fast-check';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newOperator, newProduct, newShop } from './support/fixtures.js';
import { payOk, placeOrder } from './support/shopping.js';
import { applySalesChanges, pruneSalesChangeLog, rankCandidates, RankingStore, sharedRanking, type Ranking } from '../src/services/catalog/sales-ranking-cache.js';
import { currentSalesTally, loadSalesTally } from '../src/services/catalog/sales-tally.js';
import { keywordOf } from '../src/services/catalog/search/keyword.js';

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
/** A ranking computed: its candidates read (ordered by the sales tally) or ranked in SQL. */
const RANKED = /array_agg\("r"\."id"/;
/** The ranking statement that orders in SQL, summing every candidate's sold lines. */
const RANKED_IN_SQL = /array_agg\("r"\."id"\s+order by/;
/** A sold line inserted in bulk (one statement, as a loader would; copied from any sold line): the log records no product. */
const insertSoldLineInBulk = (product: { id: number; sku: number }, quantity: number) =>
  t.sql(
    `insert into order_item (order_id, product_id, sku_id, product_name, sku_name, unit_price, quantity, amount, pricing, shipped_quantity, sold)
     select order_id, ?, ?, product_name, sku_name, unit_price, ?, unit_price * ?, pricing, 0, true from order_item where sold order by id limit 1`,
    [product.id, product.sku, quantity, quantity],
  );
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
    // A payment moves the sales version: the page statement returns the change with the page, the
    // remembered ranking takes it, and the page is read again since b moved into it. No ranking again.
    await sell(b, 5);
    t.resetQueryLog();
    expect(ids(await bySales())).toEqual([b.id, c.id, a.id, e.id, d.id]);
    expect(t.queries.filter((q) => !/^\s*(begin|commit)/i.test(q))).toHaveLength(2);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(0);
    // A sale that moves nothing on the page: its one statement serves it.
    await sell(e, 1);
    expect(await statementsOf(async () => expect(ids(await bySales('&page_size=2'))).toEqual([b.id, c.id]))).toBe(1);
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
    // One statement reads the candidates; the page statements do not.
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(1);
  });

  it('a listing whose joined ranking computation fails (its deadline, a killed session) computes its own', async () => {
    const em = t.orm.em.fork();
    const ranked: Ranking = { catalogVersion: '1', salesVector: '{1}', ids: Int32Array.of(7), sold: Int32Array.of(0) };
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

/** The filter's products by sold_count (and, for a keyword, relevance first), computed afresh from order lines. */
async function freshRanking(categoryId: number, keyword?: string): Promise<{ id: number; sold: number }[]> {
  const relevance = keyword === undefined ? '0::float8' : `ts_rank_cd(p.search_document, to_tsquery('simple', ?))::float8`;
  const rows = await t.sql<{ id: number; sold: number }>(
    `select p.id, coalesce((select sum(oi.quantity) from order_item oi where oi.sold and oi.product_id = p.id), 0)::int as sold, ${relevance} as rank
       from product p
      where p.category_id = ? and p.status = 'published' ${keyword === undefined ? '' : `and p.search_document @@ to_tsquery('simple', ?)`}
      order by rank desc, sold desc, p.id desc`,
    keyword === undefined ? [categoryId] : [keywordOf(keyword).tsquery, categoryId, keywordOf(keyword).tsquery],
  );
  return rows.map((r) => ({ id: r.id, sold: r.sold }));
}

/** The page `page` of `size` of a ranking in a direction, as a listing serves it. */
const sliceOf = (all: { id: number; sold: number }[], direction: 'asc' | 'desc', page: number, size: number) =>
  (direction === 'desc' ? all : [...all].reverse()).slice((page - 1) * size, page * size).map((r) => [r.id, r.sold]);

describe('remembered rankings brought up to date from the sales-change log', () => {
  let cat: { id: number };
  let word: string;
  const made: { id: number; sku: number }[] = [];
  const paid: { id: number; itemId: number; quantity: number }[] = [];

  beforeAll(async () => {
    cat = await newCategory(t);
    word = `rk${Date.now().toString(36)}`;
    // Relevance differs (the word once or twice in the name, or not at all), so the keyword ranking's
    // first key matters, and ties on it fall to sold_count.
    const names = [`${word} one`, `${word} ${word} two`, `${word} three`, 'plain four', `${word} ${word} five`, `${word} six`, 'plain seven', `${word} eight`];
    for (const name of names) {
      const p = await newProduct(t, { shopId: shop.id, categoryId: cat.id, name, skus: [{ price: 100, stock: 1_000_000 }] });
      made.push({ id: p.id, sku: p.skuIds[0] });
    }
  });

  const listing = async (kind: 'sales' | 'search', direction: 'asc' | 'desc', page: number, size: number) => {
    const query = kind === 'sales' ? `sort=sales&order=${direction}` : `q=${word}${direction === 'asc' ? '&order=asc' : ''}`;
    const res = await t.api('GET', `/api/products?category=${cat.id}&${query}&page=${page}&page_size=${size}`);
    expect(res.status).toBe(200);
    return res.body as { items: { id: number; sold_count: number }[]; total: number };
  };
  const expectExact = async (kind: 'sales' | 'search', direction: 'asc' | 'desc', page: number, size: number) => {
    const served = await listing(kind, direction, page, size);
    const fresh = await freshRanking(cat.id, kind === 'search' ? word : undefined);
    expect({ kind, direction, page, size, items: served.items.map((p) => [p.id, p.sold_count]), total: served.total }).toEqual({
      kind, direction, page, size, items: sliceOf(fresh, direction, page, size), total: fresh.length,
    });
  };
  const pay = async (product: number, quantity: number) => {
    const order = await placeOrder(t, customer.token, made[product].sku, quantity);
    await payOk(t, customer.token, order.id);
    paid.push({ id: order.id, itemId: order.items[0].id, quantity });
  };
  const refundLast = async () => {
    const order = paid.pop();
    if (!order) return;
    const refund = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token,
      body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: order.itemId, quantity: order.quantity }] },
    });
    expect(refund.status).toBe(201);
    expect((await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: operator.token, body: {} })).status).toBe(200);
  };
  const cancelOne = async (product: number) => {
    const order = await placeOrder(t, customer.token, made[product].sku, 1);
    expect((await t.api('POST', `/api/orders/${order.id}/cancel`, { token: customer.token })).status).toBe(200);
  };
  const bulkInsert = (product: number) => insertSoldLineInBulk(made[product], 2);

  it('every served page equals a fresh computation, through payments, refunds, cancellations and bulk inserts (property)', async () => {
    const product = fc.integer({ min: 0, max: made.length - 1 });
    const op = fc.oneof(
      { weight: 5, arbitrary: fc.record({ kind: fc.constant('pay' as const), product, quantity: fc.integer({ min: 1, max: 4 }) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('refund' as const) }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), product }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('bulk' as const), product }) },
      {
        weight: 4,
        arbitrary: fc.record({
          kind: fc.constant('list' as const),
          listing: fc.constantFrom('sales' as const, 'search' as const),
          direction: fc.constantFrom('asc' as const, 'desc' as const),
          page: fc.integer({ min: 1, max: 3 }),
          size: fc.integer({ min: 1, max: 4 }),
        }),
      },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const o of ops) {
          if (o.kind === 'pay') await pay(o.product, o.quantity);
          else if (o.kind === 'refund') await refundLast();
          else if (o.kind === 'cancel') await cancelOne(o.product);
          else if (o.kind === 'bulk') await bulkInsert(o.product);
          else await expectExact(o.listing, o.direction, o.page, o.size);
        }
        // And the first pages of both orders after the run.
        await expectExact('sales', 'desc', 1, 3);
        await expectExact('search', 'desc', 1, 3);
      }),
      { numRuns: 12, endOnFailure: true },
    );
  });

  it('brings a ranking up to date after a payment without ranking again', async () => {
    await expectExact('sales', 'desc', 1, 8);
    await expectExact('search', 'desc', 1, 8);
    await pay(2, 7);
    t.resetQueryLog();
    await listing('sales', 'desc', 1, 8);
    await listing('search', 'desc', 1, 8);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(0);
    await expectExact('sales', 'desc', 1, 8);
    await expectExact('search', 'desc', 1, 8);
  });

  it('follows a change of the quantity or the product of a sold line (logged as a removal and an addition)', async () => {
    await expectExact('sales', 'desc', 1, 8);
    const [line] = await t.sql<{ id: number }>('select id from order_item where sold and product_id = ? order by id limit 1', [made[2].id]);
    await t.sql('update order_item set quantity = quantity + 5, amount = unit_price * (quantity + 5) where id = ?', [line.id]);
    t.resetQueryLog();
    await expectExact('sales', 'desc', 1, 8);
    await t.sql('update order_item set product_id = ? where id = ?', [made[6].id, line.id]);
    await expectExact('sales', 'desc', 1, 8);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(0);
  });

  it('ranks again when the log was pruned past the ranking, or a bulk statement changed sold lines', async () => {
    await expectExact('sales', 'desc', 1, 8);
    await pay(5, 3);
    expect(await pruneSalesChangeLog({ em: t.em() }, 0)).toBeGreaterThan(0);
    expect((await t.sql<{ n: number }>('select count(*)::int as n from sales_change'))[0].n).toBe(0);
    t.resetQueryLog();
    await expectExact('sales', 'desc', 1, 8);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(1);

    await bulkInsert(0);
    t.resetQueryLog();
    await expectExact('sales', 'desc', 1, 8);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(1);
    // Pruning keeps what is younger than the retention.
    await pay(1, 1);
    expect(await pruneSalesChangeLog({ em: t.em() })).toBe(0);
    t.resetQueryLog();
    await expectExact('sales', 'desc', 1, 8);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(0);
  });

  it('stays exact under parallel payments and parallel listings', async () => {
    const orders = [];
    for (let i = 0; i < 24; i++) orders.push(await placeOrder(t, customer.token, made[i % made.length].sku, 1 + (i % 3)));
    await expectExact('sales', 'desc', 1, 8);
    const listings = async () => {
      for (let i = 0; i < 6; i++) {
        await listing('sales', i % 2 === 0 ? 'desc' : 'asc', 1 + (i % 2), 4);
        await listing('search', 'desc', 1, 3);
      }
    };
    await Promise.all([...orders.map((o) => payOk(t, customer.token, o.id)), listings(), listings(), listings(), listings()]);
    t.resetQueryLog();
    await expectExact('sales', 'desc', 1, 8);
    await expectExact('sales', 'asc', 1, 8);
    await expectExact('search', 'desc', 1, 8);
    expect(t.queries.filter((q) => RANKED.test(q))).toHaveLength(0);
  });

  it('refuses bad input as before', async () => {
    for (const query of ['sort=sold', 'sort=sales&order=up', 'sort=sales&page=0', 'sort=sales&page_size=0', 'sort=sales&page_size=101', 'sort=sales&price_min=-1']) {
      const res = await t.api('GET', `/api/products?category=${cat.id}&${query}`);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
    }
  });
});

describe('the sales tally', () => {
  let cat: { id: number };
  const made: { id: number; sku: number }[] = [];

  beforeAll(async () => {
    cat = await newCategory(t);
    for (let i = 0; i < 6; i++) {
      const p = await newProduct(t, { shopId: shop.id, categoryId: cat.id, skus: [{ price: 100, stock: 1_000_000 }] });
      made.push({ id: p.id, sku: p.skuIds[0] });
    }
  });

  const bySalesIn = async (categoryId: number) => {
    const res = await t.api('GET', `/api/products?category=${categoryId}&sort=sales&page_size=50`);
    expect(res.status).toBe(200);
    return (res.body as { items: { id: number; sold_count: number }[] }).items.map((p) => ({ id: p.id, sold: p.sold_count }));
  };
  /** Every product's sold lines summed, against the tally brought up to date. */
  const expectTallyExact = async () => {
    const tally = await currentSalesTally(t.em());
    expect(tally).toBeDefined();
    const rows = await t.sql<{ id: number; sold: number }>(
      'select p.id, coalesce((select sum(oi.quantity) from order_item oi where oi.sold and oi.product_id = p.id), 0)::int as sold from product p order by p.id',
    );
    expect(rows.map((r) => ({ id: r.id, sold: tally!.soldOf(r.id) }))).toEqual(rows);
  };

  it('is read before the process serves: a filter not ranked yet reads its candidates and no sold line', async () => {
    await sell(made[2], 3);
    await sell(made[4], 1);
    // A new process on the same database: it read the tally while starting, before any request.
    const started = await startTestApp({}, { database: t.dbName });
    try {
      expect(started.queries.filter((q) => /int4send/.test(q))).toHaveLength(1);
      started.resetQueryLog();
      const res = await started.api('GET', `/api/products?category=${cat.id}&sort=sales&page_size=50`);
      expect((res.body as { items: { id: number; sold_count: number }[] }).items.map((p) => ({ id: p.id, sold: p.sold_count }))).toEqual(await freshRanking(cat.id));
      expect(started.queries.filter((q) => RANKED.test(q))).toHaveLength(1);
      expect(started.queries.filter((q) => RANKED_IN_SQL.test(q))).toHaveLength(0);
      expect(started.queries.filter((q) => /"order_item"/.test(q))).toEqual([]);
    } finally {
      await started.close();
    }
  });

  it('is neither read nor caught up inside a transaction (its own lines and older snapshot are not the log\'s)', async () => {
    await t.em().transactional(async (em) => {
      expect(await currentSalesTally(em)).toBeUndefined();
    });
    expect(await currentSalesTally(t.em())).toBeDefined();
  });

  it('is read again when a counter went back (a database restored or failed over behind it)', async () => {
    await sell(made[1], 1);
    expect(await currentSalesTally(t.em())).toBeDefined();
    const [{ shard }] = await t.sql<{ shard: number }>('select shard from sales_version order by n desc limit 1');
    await t.sql('update sales_version set n = n - 1 where shard = ?', [shard]);
    try {
      expect(await currentSalesTally(t.em())).toBeUndefined();
    } finally {
      await t.sql('update sales_version set n = n + 1 where shard = ?', [shard]);
    }
    await loadSalesTally(t.em());
    await expectTallyExact();
  });

  it('stays equal to every product\'s sold lines through parallel payments, refunds and cancellations', async () => {
    const orders = [];
    for (let i = 0; i < 30; i++) orders.push(await placeOrder(t, customer.token, made[i % made.length].sku, 1 + (i % 4)));
    const fresh = await newCategory(t);
    const other = await newProduct(t, { shopId: shop.id, categoryId: fresh.id, skus: [{ price: 100, stock: 1_000 }] });
    // New filters ranked while the payments commit: each ranking is brought up to date by its pages.
    // Every page served while payments commit is in its own order (sold_count, then id, descending).
    const inOrder = (page: { id: number; sold: number }[]) => expect(page).toEqual([...page].sort((a, b) => b.sold - a.sold || b.id - a.id));
    const rankings = async () => {
      for (let i = 0; i < 5; i++) {
        const [inCat, inFresh] = await Promise.all([bySalesIn(cat.id), bySalesIn(fresh.id), currentSalesTally(t.em())]);
        inOrder(inCat);
        inOrder(inFresh);
      }
    };
    await Promise.all([...orders.map((o) => payOk(t, customer.token, o.id)), rankings(), rankings(), sell({ sku: other.skuIds[0] }, 2)]);
    const refunded = orders[0];
    const refund = await t.api('POST', `/api/orders/${refunded.id}/refunds`, {
      token: customer.token,
      body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: refunded.items[0].id, quantity: refunded.items[0].quantity }] },
    });
    expect(refund.status).toBe(201);
    expect((await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: operator.token, body: {} })).status).toBe(200);
    const cancelled = await placeOrder(t, customer.token, made[1].sku, 2);
    expect((await t.api('POST', `/api/orders/${cancelled.id}/cancel`, { token: customer.token })).status).toBe(200);
    await expectTallyExact();
    expect(await bySalesIn(cat.id)).toEqual(await freshRanking(cat.id));
    expect(await bySalesIn(fresh.id)).toEqual(await freshRanking(fresh.id));
  });

  it('after a bulk statement or a pruned log it is read again, and rankings are ordered in SQL meanwhile', async () => {
    for (const change of ['bulk', 'prune'] as const) {
      await sell(made[0], 2);
      if (change === 'bulk') {
        await insertSoldLineInBulk(made[5], 5);
      } else {
        expect(await pruneSalesChangeLog({ em: t.em() }, 0)).toBeGreaterThan(0);
      }
      expect(await currentSalesTally(t.em())).toBeUndefined();
      expect(await bySalesIn(cat.id)).toEqual(await freshRanking(cat.id));
      await loadSalesTally(t.em());
      await expectTallyExact();
    }
    const fresh = await newCategory(t);
    await newProduct(t, { shopId: shop.id, categoryId: fresh.id, skus: [{ price: 100, stock: 10 }] });
    await sell(made[2], 1);
    expect(await pruneSalesChangeLog({ em: t.em() }, 0)).toBeGreaterThan(0);
    t.resetQueryLog();
    // The log was pruned past the tally: this ranking is ordered in SQL, and the tally read again.
    expect(await bySalesIn(fresh.id)).toEqual(await freshRanking(fresh.id));
    expect(t.queries.filter((q) => RANKED_IN_SQL.test(q))).toHaveLength(1);
    await loadSalesTally(t.em());
    await expectTallyExact();
  });

  it('sessions of the app killed between its statements lose nothing: rankings stay exact and the tally catches up on new sessions', async () => {
    await sell(made[3], 4);
    // Every pool session of the app killed between statements, then the tally caught up and read.
    await t.sql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'`);
    const fresh = await newCategory(t);
    await newProduct(t, { shopId: shop.id, categoryId: fresh.id, skus: [{ price: 100, stock: 10 }] });
    expect(await bySalesIn(cat.id)).toEqual(await freshRanking(cat.id));
    expect(await bySalesIn(fresh.id)).toEqual(await freshRanking(fresh.id));
    await expectTallyExact();
  });
});

describe('applying sales changes to a ranking', () => {
  /** A ranking sorted by its key, from products with relevance, sold and id. */
  const rankingOf = (products: { id: number; sold: number; rank: number }[], relevance: boolean): Ranking => {
    const sorted = [...products].sort((a, b) => (relevance ? b.rank - a.rank : 0) || b.sold - a.sold || b.id - a.id);
    return {
      catalogVersion: '1',
      salesVector: '{0}',
      ids: Int32Array.from(sorted.map((p) => p.id)),
      sold: Int32Array.from(sorted.map((p) => p.sold)),
      rank: relevance ? Float64Array.from(sorted.map((p) => p.rank)) : undefined,
    };
  };

  it('equals the ranking sorted afresh, for few and many moved products, in sales and relevance order (property)', () => {
    const products = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 400 }), sold: fc.integer({ min: 0, max: 30 }), rank: fc.constantFrom(0.1, 0.2, 0.35) }), {
      selector: (p) => p.id,
      maxLength: 120,
    });
    const changes = fc.array(fc.record({ id: fc.integer({ min: 1, max: 420 }), delta: fc.integer({ min: -5, max: 8 }) }), { maxLength: 60 });
    fc.assert(
      fc.property(products, changes, fc.boolean(), (before, moved, relevance) => {
        // A product never sells below zero: clamp the changes to what it had.
        const soldOf = new Map(before.map((p) => [p.id, p.sold]));
        const applied = moved.map((c) => {
          const had = soldOf.get(c.id);
          const delta = had === undefined ? c.delta : Math.max(c.delta, -had);
          if (had !== undefined) soldOf.set(c.id, had + delta);
          return { id: c.id, delta };
        });
        const ranking = rankingOf(before, relevance);
        applySalesChanges(ranking, { ids: applied.map((c) => c.id), deltas: applied.map((c) => c.delta) });
        const expected = rankingOf(before.map((p) => ({ ...p, sold: soldOf.get(p.id)! })), relevance);
        expect(Array.from(ranking.ids)).toEqual(Array.from(expected.ids));
        expect(Array.from(ranking.sold)).toEqual(Array.from(expected.sold));
        if (relevance) expect(Array.from(ranking.rank!)).toEqual(Array.from(expected.rank!));
      }),
      { numRuns: 400 },
    );
  });

  it('a ranking from candidates and the sales tally is the candidates sorted afresh (property)', () => {
    const products = fc.uniqueArray(fc.record({ id: fc.integer({ min: 1, max: 400 }), sold: fc.integer({ min: 0, max: 30 }), rank: fc.constantFrom(0.1, 0.2, 0.35) }), {
      selector: (p) => p.id,
      maxLength: 120,
    });
    fc.assert(
      fc.property(products, fc.boolean(), (candidates, relevance) => {
        const soldOf = new Map(candidates.map((p) => [p.id, p.sold]));
        const ranked = rankCandidates(
          { catalogVersion: '3', salesVector: '{4}' },
          { ids: candidates.map((p) => p.id), rank: relevance ? candidates.map((p) => p.rank) : undefined },
          (id) => soldOf.get(id)!,
        );
        expect(ranked).toEqual({ ...rankingOf(candidates, relevance), catalogVersion: '3', salesVector: '{4}' });
      }),
      { numRuns: 300 },
    );
  });

  it('a store keeps at most its bound of candidates, dropping the least recently used, and never an older ranking over a newer one', () => {
    const store = new RankingStore();
    const ranking = (n: number, salesVector = '{1,0}', catalogVersion = '1'): Ranking => ({ catalogVersion, salesVector, ids: new Int32Array(n), sold: new Int32Array(n) });
    store.remember('a', ranking(4), 10);
    store.remember('b', ranking(4), 10);
    expect(store.get('a')).toBeDefined(); // a is now the most recently used
    store.remember('c', ranking(4), 10);
    expect(store.get('b')).toBeUndefined();
    expect(store.get('a')).toBeDefined();
    expect(store.candidates).toBe(8);
    store.remember('huge', ranking(11), 10);
    expect(store.get('huge')).toBeUndefined();
    const newer = ranking(4, '{2,1}');
    store.remember('a', newer, 10);
    store.remember('a', ranking(4, '{1,1}'), 10);
    expect(store.get('a')).toBe(newer);
    store.remember('a', ranking(4, '{0,0}', '2'), 10);
    expect(store.get('a')!.catalogVersion).toBe('2');
    expect(store.candidates).toBe(8);
  });
});
