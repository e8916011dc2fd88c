import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { payOk, placeOrder, shopWithProduct } from './support/shopping.js';

/**
 * Shops for the platform (issue 41, item 4): every shop with its state, sales, own balances and the
 * commission on it, read from the rows that own them.
 */
let t: TestApp;
let admin: TestUser;
beforeAll(async () => {
  t = await startTestApp();
  admin = await newAdmin(t);
});
afterAll(() => t.close());

const list = (query: string, token = admin.token) => t.api('GET', `/api/admin/shops?${query}`, { token });

it('lists a shop with its state, sales, refunds, balances and the commission on it, as the ledger holds them', async () => {
  const { shop, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }]);
  expect((await t.api('POST', `/api/admin/shops/${shop.id}/commission-rates`, { token: admin.token, body: { rate_bp: 1000 } })).status).toBe(201);
  const operator = await newOperator(t, shop.id);
  const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
  const paid = await placeOrder(t, customer.token, product.skuIds[0], 3);
  await payOk(t, customer.token, paid.id);
  await placeOrder(t, customer.token, product.skuIds[0], 1); // never paid: no sale
  const asked = await t.api('POST', `/api/orders/${paid.id}/refunds`, {
    token: customer.token, body: { kind: 'refund', reason: 'One too many', items: [{ order_item_id: paid.items[0].id, quantity: 1 }] },
  });
  expect((await t.api('POST', `/api/merchant/refunds/${asked.body.id}/approve`, { token: operator.token, body: {} })).body.status).toBe('completed');

  const res = await list(`q=${encodeURIComponent(shop.slug)}`);
  expect(res.status).toBe(200);
  const own = (await t.api('GET', '/api/merchant/balances', { token: operator.token })).body;
  const [{ amount: commission }] = await t.sql(`select amount::int as amount from balance where shop_id = ? and kind = 'platform_commission'`, [shop.id]);
  expect(res.body.items).toEqual([
    {
      id: shop.id, slug: shop.slug, name: expect.any(String), status: 'active', currency: 'CNY',
      paid_orders: 1, sales: paid.total, refunded: 1000,
      balance: { pending: own.pending, available: own.available, in_transit: own.in_transit, debt: own.debt },
      commission,
    },
  ]);
  // 10% of 3000 taken at payment, a third of it given back with the refund.
  expect(commission).toBe(200);
  expect(own.pending).toBe(paid.total - 1000 - 200);
});

it('filters by state and by part of the name or slug, newest first and paged', async () => {
  const made = [(await shopWithProduct(t)).shop, (await shopWithProduct(t)).shop, (await shopWithProduct(t)).shop];
  expect((await t.api('POST', `/api/admin/shops/${made[1].id}/suspend`, { token: admin.token, body: { reason: 'Counterfeits' } })).status).toBe(200);
  const suspended = await list('status=suspended&page_size=100');
  expect(suspended.body.items.map((s: { id: number }) => s.id)).toContain(made[1].id);
  expect(suspended.body.items.find((s: { id: number }) => s.id === made[1].id)).toMatchObject({ status: 'suspended', status_reason: 'Counterfeits', status_changed_at: expect.any(String) });
  expect(suspended.body.items.every((s: { status: string }) => s.status === 'suspended')).toBe(true);
  const first = await list('page_size=2');
  expect(first.body.items.map((s: { id: number }) => s.id)).toEqual([made[2].id, made[1].id]);
  expect(first.body.total).toBeGreaterThanOrEqual(3);
  expect((await list(`q=${encodeURIComponent(made[0].slug.toUpperCase())}`)).body.items.map((s: { id: number }) => s.id)).toEqual([made[0].id]);
  expect((await list('q=%25_%25')).body.items).toEqual([]);
});

it('sorts by name both ways, or oldest first, the same over both doors', async () => {
  const tag = `sorted${Date.now().toString(36)}`;
  // Made out of name order, so each order below differs from the others.
  const made = [await newShop(t, { name: `${tag} Birch` }), await newShop(t, { name: `${tag} Aspen` }), await newShop(t, { name: `${tag} Cedar` })];
  const names = async (sort: string) => (await list(`q=${tag}${sort ? `&sort=${sort}` : ''}`)).body.items.map((s: { name: string }) => s.name.slice(tag.length + 1));
  expect(await names('')).toEqual(['Cedar', 'Aspen', 'Birch']);
  expect(await names('newest')).toEqual(['Cedar', 'Aspen', 'Birch']);
  expect(await names('oldest')).toEqual(['Birch', 'Aspen', 'Cedar']);
  expect(await names('name_asc')).toEqual(['Aspen', 'Birch', 'Cedar']);
  expect(await names('name_desc')).toEqual(['Cedar', 'Birch', 'Aspen']);
  // Paged in that order.
  expect((await list(`q=${tag}&sort=name_asc&page_size=1&page=2`)).body).toMatchObject({ total: 3, items: [{ id: made[0].id }] });
  const res = await t.gql(`query($q: String) { adminShops(q: $q, sort: NAME_DESC) { items { id } } }`, { q: tag }, admin.token);
  expect(res.data.adminShops.items).toEqual([made[2], made[0], made[1]].map((s) => ({ id: s.id })));
  const bad = await t.gql(`{ adminShops(sort: PRICE_ASC) { total } }`, undefined, admin.token);
  expect(bad.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
});

it('answers bad input and wrong callers clearly, never a 500', async () => {
  for (const query of ['status=open', 'page_size=0', `q=${'x'.repeat(201)}`, 'sort=price_asc']) {
    const res = await list(query);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  }
  expect((await list('', (await newCustomer(t)).token)).status).toBe(403);
  expect((await t.api('GET', '/api/admin/shops')).status).toBe(401);
});

it('answers the same over GraphQL', async () => {
  const { shop } = await shopWithProduct(t);
  const res = await t.gql(`query($q: String) { adminShops(q: $q) { total items { id status sales commission balance { pending available inTransit debt } } } }`, { q: shop.slug }, admin.token);
  expect(res.data.adminShops).toEqual({ total: 1, items: [{ id: shop.id, status: 'ACTIVE', sales: 0, commission: 0, balance: { pending: 0, available: 0, inTransit: 0, debt: 0 } }] });
  const denied = await t.gql(`{ adminShops { total } }`, undefined, (await newCustomer(t)).token);
  expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
});
