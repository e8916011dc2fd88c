import pg from 'pg';
import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, newPointsProduct, newShop, type TestUser } from './support/fixtures.js';
import type { DomainEvent } from '../src/shared/domain-event.js';
import { balanceOf, expectLedgerReplays } from './support/shopping.js';
import { waitFor } from './support/subscriptions.js';

let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await newAdmin(t);
});
afterAll(() => t.close());

const address = { recipient: 'Li Lei', phone: '+86 138 0000 0000', region: 'CN-GD', address: '1 Binhai Road, Nanshan, Shenzhen' };

const stockOf = async (id: number) => (await t.sql('select stock from points_product where id = ?', [id]))[0].stock as number;
const pointsOf = (userId: number) => balanceOf(t, userId, 'points');
const ledgerCount = async (userId: number) =>
  (await t.sql('select count(*)::int as n from ledger_entry l join balance b on b.id = l.balance_id where b.user_id = ?', [userId]))[0].n as number;
const redemptionCount = async (where = 'true', params: unknown[] = []) =>
  (await t.sql(`select count(*)::int as n from redemption where ${where}`, params))[0].n as number;

const redeem = (user: TestUser, productId: number, body: unknown = { quantity: 1, shipping_address: address }) =>
  t.api('POST', `/api/points/products/${productId}/redeem`, { token: user.token, body });

describe('points products (admin)', () => {
  it('creates a points product and lists it for admins, unpublished ones included', async () => {
    const res = await t.api('POST', '/api/admin/points/products', {
      token: admin.token,
      body: { name: 'Travel mug', description: 'Keeps tea hot', image_url: 'https://img.test/mug.png', points_price: 800, stock: 12 },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Travel mug', points_price: 800, stock: 12, published: false, image_url: 'https://img.test/mug.png' });
    const list = await t.api('GET', '/api/admin/points/products?page_size=100', { token: admin.token });
    expect(list.status).toBe(200);
    expect(list.body.items.map((p: any) => p.id)).toContain(res.body.id);
    expect(list.body).toMatchObject({ page: 1, page_size: 100 });
  });

  it('rejects bad product input with 400 and creates nothing', async () => {
    const before = await t.sql('select count(*)::int as n from points_product');
    const res = await t.api('POST', '/api/admin/points/products', { token: admin.token, body: { name: '', points_price: 0, stock: -1, image_url: 'not a url' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.problems.map((p: any) => p.field).sort()).toEqual(['image_url', 'name', 'points_price', 'stock']);
    expect(await t.sql('select count(*)::int as n from points_product')).toEqual(before);
  });

  it('changes only the fields sent, and moves stock by a guarded delta', async () => {
    const product = await newPointsProduct(t, { pointsPrice: 300, stock: 4, published: false, name: 'Old name' });
    const renamed = await t.api('PUT', `/api/admin/points/products/${product.id}`, { token: admin.token, body: { name: 'New name', published: true } });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ id: product.id, name: 'New name', published: true, points_price: 300, stock: 4 });

    const restocked = await t.api('PUT', `/api/admin/points/products/${product.id}`, { token: admin.token, body: { stock_delta: 6 } });
    expect(restocked.body).toMatchObject({ stock: 10, name: 'New name' });

    const tooFar = await t.api('PUT', `/api/admin/points/products/${product.id}`, { token: admin.token, body: { stock_delta: -11, name: 'Ignored' } });
    expect(tooFar.status).toBe(422);
    expect(tooFar.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { points_product_id: product.id, requested: 11, available: 10 } });
    expect((await t.sql('select name, stock from points_product where id = ?', [product.id]))[0]).toEqual({ name: 'New name', stock: 10 });
  });

  it('clears an optional field sent as null and refuses an empty or unknown change', async () => {
    const created = await t.api('POST', '/api/admin/points/products', { token: admin.token, body: { name: 'Pen', description: 'Blue ink', points_price: 50, stock: 1 } });
    const cleared = await t.api('PUT', `/api/admin/points/products/${created.body.id}`, { token: admin.token, body: { description: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.name).toBe('Pen');

    for (const body of [{}, { stock: 5 }]) {
      const res = await t.api('PUT', `/api/admin/points/products/${created.body.id}`, { token: admin.token, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
  });

  it('answers 404 for an unknown product and 400 for a malformed id', async () => {
    const missing = await t.api('PUT', '/api/admin/points/products/999999', { token: admin.token, body: { name: 'x' } });
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    const malformed = await t.api('PUT', '/api/admin/points/products/abc', { token: admin.token, body: { name: 'x' } });
    expect(malformed.status).toBe(400);
  });

  it('refuses anonymous callers with 401 and other roles with 403 on admin routes', async () => {
    const customer = await newCustomer(t);
    const operator = await newOperator(t, (await newShop(t)).id);
    const calls: [string, string][] = [
      ['GET', '/api/admin/points/products'],
      ['POST', '/api/admin/points/products'],
      ['PUT', '/api/admin/points/products/1'],
      ['GET', '/api/admin/redemptions'],
      ['POST', '/api/admin/redemptions/1/fulfil'],
    ];
    for (const [method, path] of calls) {
      const body = method === 'GET' ? undefined : {};
      expect((await t.api(method, path, { body })).status).toBe(401);
      for (const user of [customer, operator]) {
        const res = await t.api(method, path, { token: user.token, body });
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('FORBIDDEN');
      }
    }
  });
});

describe('points mall (public listing)', () => {
  it('lists only published products, newest first, with their remaining stock, to anyone', async () => {
    const hidden = await newPointsProduct(t, { published: false });
    const soldOut = await newPointsProduct(t, { stock: 0 });
    const shown = await newPointsProduct(t, { stock: 7, pointsPrice: 250 });
    const res = await t.api('GET', '/api/points/products?page_size=100');
    expect(res.status).toBe(200);
    const ids = res.body.items.map((p: any) => p.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids.indexOf(shown.id)).toBeLessThan(ids.indexOf(soldOut.id));
    expect(res.body.items.find((p: any) => p.id === shown.id)).toMatchObject({ stock: 7, points_price: 250, published: true });
    expect(res.body.items.find((p: any) => p.id === soldOut.id).stock).toBe(0);
    const [{ n }] = await t.sql('select count(*)::int as n from points_product where published');
    expect(res.body.total).toBe(n);
  });

  it('paginates with a hard cap of 100 and keeps the total past the last page', async () => {
    expect((await t.api('GET', '/api/points/products?page_size=101')).status).toBe(400);
    expect((await t.api('GET', '/api/points/products?page=0')).status).toBe(400);
    const [{ n }] = await t.sql('select count(*)::int as n from points_product where published');
    const past = await t.api('GET', '/api/points/products?page=999&page_size=5');
    expect(past.body).toEqual({ items: [], page: 999, page_size: 5, total: n });
  });
});

describe('redeeming a points product', () => {
  it('creates the redemption order with a snapshot, takes the stock and debits the points with the order as reference', async () => {
    const customer = await newCustomer(t, { available: 0, points: 1_000 });
    const product = await newPointsProduct(t, { pointsPrice: 150, stock: 5 });
    const events: DomainEvent[] = [];
    const unsubscribe = t.events.subscribe((e) => e.customerId === customer.id && events.push(e));

    // A refused attempt first: it publishes nothing.
    expect((await redeem(customer, product.id, { quantity: 6, shipping_address: address })).status).toBe(422);
    const res = await redeem(customer, product.id, { quantity: 2, shipping_address: address });
    expect(res.status).toBe(201);
    await waitFor(() => events.length > 0, 5000, 'redemption.created event');
    unsubscribe();
    const [{ display_name: customerName }] = await t.sql<{ display_name: string }>('select display_name from app_user where id = ?', [customer.id]);
    expect(res.body).toMatchObject({
      customer_id: customer.id,
      customer_name: customerName,
      points_product_id: product.id,
      status: 'pending_fulfillment',
      product_name: product.name,
      points_price: 150,
      quantity: 2,
      points_total: 300,
      shipping_address: address,
    });
    expect(res.body.fulfilled_at).toBeUndefined();
    expect(await stockOf(product.id)).toBe(3);
    expect(await pointsOf(customer.id)).toBe(700);
    const entries = await t.sql(
      `select l.delta::int as delta, l.balance_after::int as balance_after, l.reason, l.reference_type, l.reference_id
         from ledger_entry l join balance b on b.id = l.balance_id where b.user_id = ? and l.reason = 'redemption'`,
      [customer.id],
    );
    expect(entries).toEqual([{ delta: -300, balance_after: 700, reason: 'redemption', reference_type: 'redemption', reference_id: res.body.id }]);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'redemption.created',
        customerId: customer.id,
        shopIds: [],
        payload: { redemptionId: res.body.id, pointsProductId: product.id, quantity: 2, points: 300 },
      }),
    ]);
  });

  it('keeps the snapshot when the product is edited afterwards', async () => {
    const customer = await newCustomer(t, { available: 0, points: 500 });
    const product = await newPointsProduct(t, { pointsPrice: 100, name: 'Tote bag' });
    const res = await redeem(customer, product.id);
    await t.api('PUT', `/api/admin/points/products/${product.id}`, { token: admin.token, body: { name: 'Tote bag v2', points_price: 999 } });
    const mine = await t.api('GET', '/api/me/redemptions', { token: customer.token });
    expect(mine.body.items[0]).toMatchObject({ id: res.body.id, product_name: 'Tote bag', points_price: 100, points_total: 100 });
  });

  it('with too few points: 422 INSUFFICIENT_POINTS, and no order, no stock change, no ledger entry', async () => {
    const customer = await newCustomer(t, { available: 0, points: 99 });
    const product = await newPointsProduct(t, { pointsPrice: 100, stock: 3 });
    const entriesBefore = await ledgerCount(customer.id);
    const res = await redeem(customer, product.id);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('INSUFFICIENT_POINTS');
    expect(await redemptionCount('user_id = ?', [customer.id])).toBe(0);
    expect(await stockOf(product.id)).toBe(3);
    expect(await pointsOf(customer.id)).toBe(99);
    expect(await ledgerCount(customer.id)).toBe(entriesBefore);
  });

  it('with too little stock: 422 INSUFFICIENT_STOCK and nothing changes', async () => {
    const customer = await newCustomer(t, { available: 0, points: 10_000 });
    const product = await newPointsProduct(t, { pointsPrice: 10, stock: 2 });
    const entriesBefore = await ledgerCount(customer.id);
    const res = await redeem(customer, product.id, { quantity: 3, shipping_address: address });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_STOCK', details: { points_product_id: product.id, requested: 3, available: 2 } });
    expect(await redemptionCount('user_id = ?', [customer.id])).toBe(0);
    expect(await stockOf(product.id)).toBe(2);
    expect(await ledgerCount(customer.id)).toBe(entriesBefore);
  });

  it('answers 404 for an unpublished or unknown product and changes nothing', async () => {
    const customer = await newCustomer(t, { available: 0, points: 10_000 });
    const hidden = await newPointsProduct(t, { published: false, stock: 4 });
    for (const id of [hidden.id, 999_999]) {
      const res = await redeem(customer, id);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect(await stockOf(hidden.id)).toBe(4);
    expect(await redemptionCount('user_id = ?', [customer.id])).toBe(0);
    expect(await pointsOf(customer.id)).toBe(10_000);
  });

  it('rejects bad input with 400 and changes nothing', async () => {
    const customer = await newCustomer(t, { available: 0, points: 10_000 });
    const product = await newPointsProduct(t, { stock: 4 });
    const bodies = [
      { quantity: 0, shipping_address: address },
      { quantity: 1.5, shipping_address: address },
      { quantity: 101, shipping_address: address },
      { quantity: 1 },
      { quantity: 1, shipping_address: { ...address, phone: 'call me' } },
      { quantity: 1, shipping_address: { ...address, recipient: '  ' } },
      { quantity: 1, shipping_address: { ...address, region: 'Guangdong' } },
      { quantity: 1, shipping_address: { ...address, postal_code: '518000' } },
    ];
    for (const body of bodies) {
      const res = await redeem(customer, product.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect(await stockOf(product.id)).toBe(4);
    expect(await redemptionCount('user_id = ?', [customer.id])).toBe(0);
    expect(await pointsOf(customer.id)).toBe(10_000);
  });

  it('is for customers: anonymous 401, admin and operator 403', async () => {
    const product = await newPointsProduct(t);
    const anonymous = await t.api('POST', `/api/points/products/${product.id}/redeem`, { body: { quantity: 1, shipping_address: address } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('UNAUTHENTICATED');
    const operator = await newOperator(t, (await newShop(t)).id);
    for (const user of [admin, operator]) {
      expect((await redeem(user, product.id)).status).toBe(403);
      expect((await t.api('GET', '/api/me/redemptions', { token: user.token })).status).toBe(403);
    }
    expect((await t.api('GET', '/api/me/redemptions')).status).toBe(401);
    expect(await stockOf(product.id)).toBe(10);
  });

  it('50 customers racing for a stock of 5: exactly 5 orders, stock 0, exactly 5 point debits', async () => {
    const product = await newPointsProduct(t, { pointsPrice: 40, stock: 5 });
    const customers = await Promise.all(Array.from({ length: 50 }, () => newCustomer(t, { available: 0, points: 100 })));
    const results = await Promise.all(customers.map((c) => redeem(c, product.id)));

    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 422)).toHaveLength(45);
    for (const r of results.filter((r) => r.status === 422)) expect(r.body.error.code).toBe('INSUFFICIENT_STOCK');

    expect(await stockOf(product.id)).toBe(0);
    expect(await redemptionCount('points_product_id = ?', [product.id])).toBe(5);
    const debits = await t.sql(
      `select b.user_id, l.delta::int as delta, l.reference_id from ledger_entry l join balance b on b.id = l.balance_id
        where l.reason = 'redemption' and l.reference_id in (select id from redemption where points_product_id = ?)`,
      [product.id],
    );
    expect(debits).toHaveLength(5);
    expect(debits.every((d: any) => d.delta === -40)).toBe(true);
    const winners = new Set(results.flatMap((r, i) => (r.status === 201 ? [customers[i].id] : [])));
    expect(new Set(debits.map((d: any) => d.user_id))).toEqual(winners);
    for (const [i, c] of customers.entries()) expect(await pointsOf(c.id)).toBe(winners.has(customers[i].id) ? 60 : 100);
    await expectLedgerReplays(t);
  });

  it('refuses with 409 POINTS_PRICE_CHANGED when the price changes while redeeming, and changes nothing', async () => {
    const customer = await newCustomer(t, { available: 0, points: 1_000 });
    const product = await newPointsProduct(t, { pointsPrice: 100, stock: 3 });
    const holder = new pg.Client({ connectionString: t.dbUrl });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from points_product where id = $1 for update', [product.id]);
      const pending = redeem(customer, product.id);
      // Wait until the redemption blocks on the product row, then change the price under it.
      for (let i = 0; i < 200; i++) {
        const [{ n }] = await t.sql(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        if (n > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      await holder.query('update points_product set points_price = 120 where id = $1', [product.id]);
      await holder.query('commit');
      const res = await pending;
      expect(res.status).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'POINTS_PRICE_CHANGED', details: { price: 120 } });
    } finally {
      await holder.end();
    }
    expect(await stockOf(product.id)).toBe(3);
    expect(await redemptionCount('user_id = ?', [customer.id])).toBe(0);
    expect(await pointsOf(customer.id)).toBe(1_000);
  });
});

describe('redemption lists and fulfilment', () => {
  it('a customer never sees another customer’s redemptions', async () => {
    const alice = await newCustomer(t, { available: 0, points: 1_000 });
    const bob = await newCustomer(t, { available: 0, points: 1_000 });
    const product = await newPointsProduct(t, { pointsPrice: 10 });
    const first = await redeem(alice, product.id);
    const second = await redeem(alice, product.id);

    const aliceList = await t.api('GET', '/api/me/redemptions', { token: alice.token });
    expect(aliceList.body.items.map((r: any) => r.id)).toEqual([second.body.id, first.body.id]);
    expect(aliceList.body.total).toBe(2);
    const bobList = await t.api('GET', '/api/me/redemptions', { token: bob.token });
    expect(bobList.body).toEqual({ items: [], page: 1, page_size: 20, total: 0 });

    const gql = await t.gql(`{ myRedemptions { total items { id customerId customerName } } }`, {}, bob.token);
    expect(gql.data.myRedemptions).toEqual({ total: 0, items: [] });
  });

  it('lists every redemption for admins, filtered by status', async () => {
    const customer = await newCustomer(t, { available: 0, points: 1_000 });
    const product = await newPointsProduct(t, { pointsPrice: 10 });
    const a = await redeem(customer, product.id);
    const b = await redeem(customer, product.id);
    await t.api('POST', `/api/admin/redemptions/${a.body.id}/fulfil`, { token: admin.token });

    const pending = await t.api('GET', '/api/admin/redemptions?status=pending_fulfillment&page_size=100', { token: admin.token });
    const pendingIds = pending.body.items.map((r: any) => r.id);
    expect(pendingIds).toContain(b.body.id);
    expect(pendingIds).not.toContain(a.body.id);
    const fulfilled = await t.api('GET', '/api/admin/redemptions?status=fulfilled&page_size=100', { token: admin.token });
    expect(fulfilled.body.items.map((r: any) => r.id)).toContain(a.body.id);
    // Each names its customer, for the fulfilment desk.
    const [{ display_name: customerName }] = await t.sql<{ display_name: string }>('select display_name from app_user where id = ?', [customer.id]);
    expect(pending.body.items.find((r: any) => r.id === b.body.id).customer_name).toBe(customerName);
    expect(fulfilled.body.total).toBe(await redemptionCount(`status = 'fulfilled'`));
    expect((await t.api('GET', '/api/admin/redemptions?status=lost', { token: admin.token })).status).toBe(400);
  });

  it('fulfils only from pending_fulfillment: a second fulfilment is 409 REDEMPTION_NOT_PENDING', async () => {
    const customer = await newCustomer(t, { available: 0, points: 1_000 });
    const product = await newPointsProduct(t, { pointsPrice: 10 });
    const r = await redeem(customer, product.id);
    const done = await t.api('POST', `/api/admin/redemptions/${r.body.id}/fulfil`, { token: admin.token });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ id: r.body.id, status: 'fulfilled', fulfilled_at: expect.any(String), customer_name: r.body.customer_name });

    const again = await t.api('POST', `/api/admin/redemptions/${r.body.id}/fulfil`, { token: admin.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'REDEMPTION_NOT_PENDING', details: { status: 'fulfilled' } });
    const [row] = await t.sql('select fulfilled_at from redemption where id = ?', [r.body.id]);
    expect(new Date(row.fulfilled_at).toISOString()).toBe(done.body.fulfilled_at);

    const missing = await t.api('POST', '/api/admin/redemptions/999999/fulfil', { token: admin.token });
    expect(missing.status).toBe(404);
  });

  it('fulfilling the same redemption 10 times concurrently fulfils it once', async () => {
    const customer = await newCustomer(t, { available: 0, points: 1_000 });
    const product = await newPointsProduct(t, { pointsPrice: 10 });
    const r = await redeem(customer, product.id);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.api('POST', `/api/admin/redemptions/${r.body.id}/fulfil`, { token: admin.token })),
    );
    expect(results.filter((x) => x.status === 200)).toHaveLength(1);
    expect(results.filter((x) => x.status === 409 && x.body.error.code === 'REDEMPTION_NOT_PENDING')).toHaveLength(9);
  });
});

describe('points mall over GraphQL', () => {
  it('creates, lists, redeems and fulfils through the same services, with the same error codes', async () => {
    const created = await mutate(
      t, 'createPointsProduct', { name: 'Umbrella', pointsPrice: 30, stock: 2, published: true }, 'pointsProduct { id name pointsPrice stock published }', admin.token,
    );
    expect(created.errors).toBeUndefined();
    const id = created.payload.pointsProduct.id;

    const listed = await t.gql(`{ pointsProducts(pageSize: 100) { total items { id stock } } }`);
    expect(listed.data.pointsProducts.items).toContainEqual({ id, stock: 2 });

    const customer = await newCustomer(t, { available: 0, points: 100 });
    const redemption = 'redemption { id status quantity pointsTotal shippingAddress { recipient region } }';
    const shippingAddress = { recipient: 'Han Meimei', phone: '13800000000', region: 'CN_ZJ', address: '2 Xihu Road, Hangzhou' };
    const redeemed = await mutate(t, 'redeemPointsProduct', { pointsProductId: id, quantity: 2, shippingAddress }, redemption, customer.token);
    expect(redeemed.errors).toBeUndefined();
    expect(redeemed.payload.redemption).toMatchObject({ status: 'PENDING_FULFILLMENT', quantity: 2, pointsTotal: 60, shippingAddress: { recipient: 'Han Meimei', region: 'CN_ZJ' } });

    // A business refusal is a typed user error with the REST details; a role that may not redeem is top-level.
    const soldOut = await mutate(t, 'redeemPointsProduct', { pointsProductId: id, shippingAddress }, redemption, customer.token);
    expect(soldOut.userErrors).toEqual([
      { code: 'INSUFFICIENT_STOCK', message: expect.any(String), field: null, details: expect.objectContaining({ pointsProductId: id, requested: 1, available: 0 }) },
    ]);
    const forbidden = await mutate(t, 'redeemPointsProduct', { pointsProductId: id, shippingAddress }, redemption, admin.token);
    expect(forbidden.payload).toBeNull();
    expect(forbidden.errors?.[0].extensions.code).toBe('FORBIDDEN');

    const rid = redeemed.payload.redemption.id;
    const fulfil = () => mutate(t, 'fulfilRedemption', { redemptionId: rid }, 'redemption { status fulfilledAt }', admin.token);
    expect((await fulfil()).payload.redemption.status).toBe('FULFILLED');
    expect((await fulfil()).userErrors.map((e) => [e.code, e.details?.status])).toEqual([['REDEMPTION_NOT_PENDING', 'FULFILLED']]);

    const updated = await mutate(t, 'updatePointsProduct', { pointsProductId: id, stockDelta: 3, published: false }, 'pointsProduct { stock published }', admin.token);
    expect(updated.payload.pointsProduct).toEqual({ stock: 3, published: false });
    const adminList = await t.gql(`{ adminRedemptions(status: FULFILLED, pageSize: 100) { items { id } } }`, {}, admin.token);
    expect(adminList.data.adminRedemptions.items).toContainEqual({ id: rid });
    expect((await t.gql(`{ adminPointsProducts { total } }`, {}, customer.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
