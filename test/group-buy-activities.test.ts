import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newGroupBuy, newOperator, newProduct, newShop } from './support/fixtures.js';
import { groupCheckoutOk, groupRow, lapseGroup, payOk, shopWithProduct } from './support/shopping.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

/** A shop with an operator and one product of two SKUs (standard prices 1000 and 1200). */
async function merchant() {
  const { shop, category, product } = await shopWithProduct(t, [{ price: 1000, stock: 20 }, { price: 1200, stock: 20 }]);
  const operator = await newOperator(t, shop.id);
  return { shop, category, product, operator };
}

const terms = (skuId: number, overrides: Record<string, unknown> = {}) => ({
  sku_id: skuId, group_price: 700, capacity: 3, lifetime_minutes: 1440, starts_at: inMinutes(-10), ends_at: inMinutes(60 * 24 * 7), ...overrides,
});
const count = async (where = 'true', params: unknown[] = []) =>
  (await t.sql(`select count(*)::int as n from group_buy_activity where ${where}`, params))[0].n as number;

describe('merchant group-buying activities', () => {
  it('creates an activity on a SKU of the own shop and lists it with group counts', async () => {
    const { shop, product, operator } = await merchant();
    const created = await t.api('POST', '/api/merchant/group-buys', { token: operator.token, body: terms(product.skuIds[1]) });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number), shop: { id: shop.id, slug: shop.slug }, product_id: product.id, sku_id: product.skuIds[1],
      standard_price: 1200, group_price: 700, capacity: 3, lifetime_minutes: 1440, active: true,
      group_counts: { open: 0, successful: 0, expired: 0, cancelled: 0 },
    });
    expect(created.body.starts_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

    const customer = await newCustomer(t);
    await groupCheckoutOk(t, customer.token, { activity_id: created.body.id });
    const list = await t.api('GET', '/api/merchant/group-buys', { token: operator.token });
    expect(list.body).toMatchObject({ page: 1, page_size: 20, total: 1 });
    expect(list.body.items[0]).toMatchObject({ id: created.body.id, group_counts: { open: 1, successful: 0, expired: 0, cancelled: 0 } });
  });

  it("refuses another shop's SKU and another shop's activity as not found", async () => {
    const mine = await merchant();
    const theirs = await merchant();
    const foreignSku = await t.api('POST', '/api/merchant/group-buys', { token: mine.operator.token, body: terms(theirs.product.skuIds[0]) });
    expect([foreignSku.status, foreignSku.body.error.code]).toEqual([404, 'NOT_FOUND']);

    const theirActivity = await newGroupBuy(t, { shopId: theirs.shop.id, productId: theirs.product.id, skuId: theirs.product.skuIds[0] });
    const put = await t.api('PUT', `/api/merchant/group-buys/${theirActivity.id}`, { token: mine.operator.token, body: terms(mine.product.skuIds[0]) });
    expect(put.status).toBe(404);
    expect((await t.api('DELETE', `/api/merchant/group-buys/${theirActivity.id}`, { token: mine.operator.token })).status).toBe(404);
    expect((await t.api('GET', '/api/merchant/group-buys', { token: mine.operator.token })).body.total).toBe(0);
    expect(await count('id = ? and sku_id = ?', [theirActivity.id, theirs.product.skuIds[0]])).toBe(1);
  });

  it('validates the terms and changes nothing on bad input', async () => {
    const { shop, product, operator } = await merchant();
    const cases: [Record<string, unknown>, string | null][] = [
      [{ capacity: 1 }, 'capacity'],
      [{ capacity: 101 }, 'capacity'],
      [{ group_price: 0 }, 'group_price'],
      [{ group_price: 9.5 }, 'group_price'],
      [{ lifetime_minutes: 0 }, 'lifetime_minutes'],
      [{ ends_at: inMinutes(-20) }, 'ends_at'],
      [{ starts_at: 'tomorrow' }, 'starts_at'],
      [{ starts_at: null }, 'starts_at'],
      [{ sku_id: undefined }, 'sku_id'],
      [{ colour: 'red' }, null],
    ];
    for (const [override, field] of cases) {
      const res = await t.api('POST', '/api/merchant/group-buys', { token: operator.token, body: terms(product.skuIds[0], override) });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
      if (field) expect(res.body.error.details.problems[0].field).toBe(field);
    }
    expect(await count('shop_id = ?', [shop.id])).toBe(0);
  });

  it('answers 401 without a token and 403 to a customer', async () => {
    const { product, shop } = await merchant();
    const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0] });
    const customer = await newCustomer(t);
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/merchant/group-buys'],
      ['POST', '/api/merchant/group-buys', terms(product.skuIds[0])],
      ['PUT', `/api/merchant/group-buys/${activity.id}`, terms(product.skuIds[0])],
      ['DELETE', `/api/merchant/group-buys/${activity.id}`],
    ];
    for (const [method, path, body] of calls) {
      expect((await t.api(method, path, { body })).status).toBe(401);
      const res = await t.api(method, path, { body, token: customer.token });
      expect([res.status, res.body.error.code]).toEqual([403, 'FORBIDDEN']);
    }
    expect(await count('shop_id = ?', [shop.id])).toBe(1);
  });

  it('replaces the terms: open groups keep their own, the SKU is fixed once a group exists', async () => {
    const { shop, product, operator } = await merchant();
    const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], groupPrice: 600, capacity: 3 });
    // Without groups, anything may change, the SKU included.
    const moved = await t.api('PUT', `/api/merchant/group-buys/${activity.id}`, { token: operator.token, body: terms(product.skuIds[1], { capacity: 4 }) });
    expect(moved.body).toMatchObject({ sku_id: product.skuIds[1], capacity: 4, standard_price: 1200 });

    const customer = await newCustomer(t);
    const opened = await groupCheckoutOk(t, customer.token, { activity_id: activity.id });
    const repriced = await t.api('PUT', `/api/merchant/group-buys/${activity.id}`, { token: operator.token, body: terms(product.skuIds[1], { group_price: 500, capacity: 2 }) });
    expect(repriced.body).toMatchObject({ group_price: 500, capacity: 2 });
    expect(await groupRow(t, opened.group_id)).toMatchObject({ group_price: 700, capacity: 4 });
    // A joiner of the old group pays the group's price; a new group gets the new terms.
    const joiner = await newCustomer(t);
    expect((await groupCheckoutOk(t, joiner.token, { activity_id: activity.id, group_id: opened.group_id })).total).toBe(700);
    expect((await groupCheckoutOk(t, joiner.token, { activity_id: activity.id })).total).toBe(500);

    const resku = await t.api('PUT', `/api/merchant/group-buys/${activity.id}`, { token: operator.token, body: terms(product.skuIds[0]) });
    expect([resku.status, resku.body.error.code]).toEqual([409, 'GROUP_BUY_HAS_GROUPS']);
    const bad = await t.api('PUT', `/api/merchant/group-buys/${activity.id}`, { token: operator.token, body: terms(product.skuIds[1], { capacity: 0 }) });
    expect(bad.status).toBe(400);
    expect((await t.sql('select sku_id, group_price, capacity from group_buy_activity where id = ?', [activity.id]))[0])
      .toEqual({ sku_id: product.skuIds[1], group_price: 500, capacity: 2 });
  });

  it('deletes an activity without groups and keeps one with groups', async () => {
    const { shop, product, operator } = await merchant();
    const empty = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0] });
    const used = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[1] });
    await groupCheckoutOk(t, (await newCustomer(t)).token, { activity_id: used.id });

    const gone = await t.api('DELETE', `/api/merchant/group-buys/${empty.id}`, { token: operator.token });
    expect(gone.status).toBe(204);
    expect((await t.api('DELETE', `/api/merchant/group-buys/${empty.id}`, { token: operator.token })).status).toBe(404);
    const kept = await t.api('DELETE', `/api/merchant/group-buys/${used.id}`, { token: operator.token });
    expect([kept.status, kept.body.error.code]).toEqual([409, 'GROUP_BUY_HAS_GROUPS']);
    expect(await count('id = ?', [used.id])).toBe(1);
  });
});

describe('public group-buying reads', () => {
  it('lists only activities running now on published products, ending soonest first, with filters and pages', async () => {
    const shop = await newShop(t);
    const { category } = await shopWithProduct(t);
    const p1 = await newProduct(t, { shopId: shop.id, categoryId: category.id });
    const p2 = await newProduct(t, { shopId: shop.id, categoryId: category.id });
    const hidden = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'unpublished' });
    const later = await newGroupBuy(t, { shopId: shop.id, productId: p1.id, skuId: p1.skuIds[0], endsInMinutes: 600 });
    const sooner = await newGroupBuy(t, { shopId: shop.id, productId: p2.id, skuId: p2.skuIds[0], endsInMinutes: 300 });
    await newGroupBuy(t, { shopId: shop.id, productId: p1.id, skuId: p1.skuIds[0], startsInMinutes: 10, endsInMinutes: 20 });
    await newGroupBuy(t, { shopId: shop.id, productId: p1.id, skuId: p1.skuIds[0], startsInMinutes: -20, endsInMinutes: -10 });
    await newGroupBuy(t, { shopId: shop.id, productId: hidden.id, skuId: hidden.skuIds[0] });

    const all = await t.api('GET', `/api/group-buys?shop_id=${shop.id}`);
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.items.map((a: any) => a.id)).toEqual([sooner.id, later.id]);
    expect(all.body.items[0]).toMatchObject({ active: true, product_id: p2.id, group_price: 600, capacity: 3 });
    expect(all.body.items[0]).not.toHaveProperty('group_counts');
    const byProduct = await t.api('GET', `/api/group-buys?shop_id=${shop.id}&product_id=${p1.id}`);
    expect(byProduct.body.items.map((a: any) => a.id)).toEqual([later.id]);
    const page2 = await t.api('GET', `/api/group-buys?shop_id=${shop.id}&page=2&page_size=1`);
    expect(page2.body).toMatchObject({ page: 2, page_size: 1, total: 2, items: [{ id: later.id }] });
    expect((await t.api('GET', `/api/group-buys?shop_id=${shop.id}&page=3&page_size=1`)).body).toMatchObject({ total: 2, items: [] });
    expect((await t.api('GET', '/api/group-buys?page_size=101')).status).toBe(400);
    expect((await t.api('GET', '/api/group-buys?shop_id=abc')).status).toBe(400);
  });

  it('shows one activity with its joinable groups only, expiring lapsed ones first', async () => {
    const { shop, product } = await shopWithProduct(t);
    const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: product.skuIds[0], capacity: 2 });
    const [a, b, c, d] = await Promise.all(Array.from({ length: 4 }, () => newCustomer(t, { available: 5_000, points: 0 })));
    const open = await groupCheckoutOk(t, a.token, { activity_id: activity.id });
    await payOk(t, a.token, open.id);
    const lapsed = await groupCheckoutOk(t, b.token, { activity_id: activity.id });
    await lapseGroup(t, lapsed.group_id);
    const full = await groupCheckoutOk(t, c.token, { activity_id: activity.id });
    const filler = await groupCheckoutOk(t, d.token, { activity_id: activity.id, group_id: full.group_id });
    await payOk(t, c.token, full.id);
    await payOk(t, d.token, filler.id);

    const detail = await t.api('GET', `/api/group-buys/${activity.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: activity.id, shop: { id: shop.id }, sku_id: product.skuIds[0], active: true });
    expect(detail.body.groups).toEqual([
      { id: open.group_id, state: 'open', capacity: 2, seats_taken: 1, seats_left: 1, group_price: 600, opened_at: expect.any(String), expires_at: expect.any(String) },
    ]);
    expect(new Date(detail.body.groups[0].expires_at).toISOString()).toBe(detail.body.groups[0].expires_at);
    expect((await groupRow(t, lapsed.group_id)).state).toBe('expired');

    expect((await t.api('GET', '/api/group-buys/999999')).status).toBe(404);
    expect((await t.api('GET', '/api/group-buys/abc')).status).toBe(400);
    await t.sql(`update product set status = 'unpublished' where id = ?`, [product.id]);
    expect((await t.api('GET', `/api/group-buys/${activity.id}`)).status).toBe(404);
  });
});

describe('group buying over GraphQL', () => {
  it('manages and reads activities through the same services, with the same errors', async () => {
    const { shop, product, operator } = await merchant();
    const input = { skuId: product.skuIds[0], groupPrice: 650, capacity: 2, lifetimeMinutes: 30, startsAt: inMinutes(-5), endsAt: inMinutes(600) };
    const created = await mutate(
      t, 'createGroupBuy', input, 'activity { id skuId groupPrice capacity lifetimeMinutes active startsAt shop { id } groupCounts { open } }', operator.token,
    );
    expect(created.errors).toBeUndefined();
    const id = created.payload.activity.id;
    expect(created.payload.activity).toMatchObject({ skuId: product.skuIds[0], groupPrice: 650, capacity: 2, lifetimeMinutes: 30, active: true, shop: { id: shop.id }, groupCounts: { open: 0 } });

    const rest = await t.api('GET', `/api/group-buys/${id}`);
    const read = await t.gql(`query($id: Int!) { groupBuy(id: $id) { id groupPrice startsAt groups { id seatsTaken } } }`, { id });
    expect(read.data.groupBuy).toEqual({ id, groupPrice: 650, startsAt: rest.body.starts_at, groups: [] });
    const list = await t.gql(`query($shopId: Int) { groupBuys(shopId: $shopId) { total items { id } } }`, { shopId: shop.id });
    expect(list.data.groupBuys).toEqual({ total: 1, items: [{ id }] });
    const mine = await t.gql(`{ merchantGroupBuys { total items { id } } }`, {}, operator.token);
    expect(mine.data.merchantGroupBuys).toEqual({ total: 1, items: [{ id }] });

    const updated = await mutate(t, 'updateGroupBuy', { activityId: id, ...input, capacity: 5 }, 'activity { capacity }', operator.token);
    expect(updated.payload).toEqual({ activity: { capacity: 5 }, userErrors: [] });
    const invalid = await mutate(t, 'updateGroupBuy', { activityId: id, ...input, capacity: 1 }, 'activity { capacity }', operator.token);
    expect(invalid.userErrors.map((e) => [e.code, e.field])).toEqual([['VALIDATION_FAILED', ['input', 'capacity']]]);
    const other = await merchant();
    const foreign = await mutate(t, 'deleteGroupBuy', { activityId: id }, 'deletedActivityId', other.operator.token);
    expect(foreign.userErrors.map((e) => e.code)).toEqual(['NOT_FOUND']);
    const customer = await newCustomer(t);
    const forbidden = await t.gql(`{ merchantGroupBuys { total } }`, {}, customer.token);
    expect(forbidden.errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await mutate(t, 'deleteGroupBuy', { activityId: id }, 'deletedActivityId', operator.token)).payload).toEqual({ deletedActivityId: id, userErrors: [] });
    expect((await t.gql(`query($id: Int!) { groupBuy(id: $id) { id } }`, { id })).errors?.[0].extensions.code).toBe('NOT_FOUND');
  });
});
