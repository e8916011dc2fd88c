import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer, newOperator, newProduct } from './support/fixtures.js';
import { placeOrder, shopWithProduct } from './support/shopping.js';
import { minutesFromNow, newFlashSale } from './support/flash-sales.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

/** A shop with one product of `skuCount` SKUs (price 1000) and its operator. */
async function shopSetup(skuCount = 1) {
  const { shop, category, product } = await shopWithProduct(t, Array.from({ length: skuCount }, () => ({ price: 1000, stock: 100 })));
  const operator = await newOperator(t, shop.id);
  return { shop, category, product, operator };
}

const sessionBody = (skuIds: number[], window = { startsAt: minutesFromNow(-5), endsAt: minutesFromNow(60) }) => ({
  name: 'Midnight madness',
  starts_at: window.startsAt.toISOString(),
  ends_at: window.endsAt.toISOString(),
  items: skuIds.map((skuId) => ({ sku_id: skuId, activity_price: 700, reserved_stock: 10, per_customer_limit: 2 })),
});

async function createOk(token: string, body: unknown) {
  const res = await t.api('POST', '/api/merchant/flash-sales', { token, body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const countSessions = async () => (await t.sql('select count(*)::int as n from flash_sale'))[0].n;

describe('managing flash sales', () => {
  it('creates a disabled session with its items, lists it and reads it back', async () => {
    const { shop, product, operator } = await shopSetup(2);
    const created = await createOk(operator.token, sessionBody(product.skuIds));
    expect(created).toMatchObject({
      shop: { id: shop.id, slug: shop.slug },
      name: 'Midnight madness',
      enabled: false,
      state: 'active',
    });
    expect(created.items).toEqual(
      product.skuIds.map((skuId) =>
        expect.objectContaining({
          sku_id: skuId, product_id: product.id, standard_price: 1000, activity_price: 700,
          reserved_stock: 10, remaining_stock: 10, per_customer_limit: 2,
        }),
      ),
    );
    const list = await t.api('GET', '/api/merchant/flash-sales', { token: operator.token });
    expect(list.body).toMatchObject({ page: 1, page_size: 20, total: 1 });
    expect(list.body.items[0]).toEqual(created);
    expect((await t.api('GET', `/api/merchant/flash-sales/${created.id}`, { token: operator.token })).body).toEqual(created);
  });

  it('refuses bad input with 400 and creates nothing', async () => {
    const { product, operator } = await shopSetup();
    const sku = product.skuIds[0];
    const good = sessionBody([sku]);
    const item = good.items[0];
    const before = await countSessions();
    const bad: unknown[] = [
      { ...good, ends_at: good.starts_at },
      { ...good, starts_at: 'tomorrow' },
      { ...good, starts_at: '2026-11-22T10:00:00' },
      { ...good, name: '  ' },
      { ...good, items: [] },
      { ...good, items: [item, item] },
      { ...good, items: [{ ...item, reserved_stock: -1 }] },
      { ...good, items: [{ ...item, per_customer_limit: 0 }] },
      { ...good, items: [{ ...item, activity_price: 99.5 }] },
      { ...good, items: [{ ...item, activity_price: -1 }] },
      { ...good, items: [{ ...item, sku_id: 'abc' }] },
      { ...good, items: [{ ...item, price: 1 }] },
      { ...good, enabled: true },
    ];
    for (const body of bad) {
      const res = await t.api('POST', '/api/merchant/flash-sales', { token: operator.token, body });
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect(await countSessions()).toBe(before);
  });

  it('accepts only SKUs of the own shop priced below their standard price', async () => {
    const { product, operator } = await shopSetup();
    const other = await shopWithProduct(t);
    const before = await countSessions();
    const foreign = await t.api('POST', '/api/merchant/flash-sales', { token: operator.token, body: sessionBody([product.skuIds[0], other.product.skuIds[0]]) });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toMatchObject({ code: 'NOT_FOUND', details: { sku_id: other.product.skuIds[0] } });

    const body = sessionBody(product.skuIds);
    body.items[0].activity_price = 1000;
    const notLower = await t.api('POST', '/api/merchant/flash-sales', { token: operator.token, body });
    expect(notLower.status).toBe(422);
    expect(notLower.body.error).toMatchObject({ code: 'FLASH_SALE_PRICE_NOT_LOWER', details: { sku_id: product.skuIds[0], standard_price: 1000 } });
    expect(await countSessions()).toBe(before);
  });

  it('is for shop operators on their own shop: anonymous 401, customer 403, another shop 404', async () => {
    const { product, operator } = await shopSetup();
    const created = await createOk(operator.token, sessionBody(product.skuIds));
    expect((await t.api('GET', '/api/merchant/flash-sales')).status).toBe(401);
    expect((await t.api('POST', '/api/merchant/flash-sales', { body: sessionBody(product.skuIds) })).status).toBe(401);
    const customer = await newCustomer(t);
    expect((await t.api('GET', '/api/merchant/flash-sales', { token: customer.token })).status).toBe(403);
    expect((await t.api('POST', `/api/merchant/flash-sales/${created.id}/enable`, { token: customer.token })).status).toBe(403);

    const stranger = (await shopSetup()).operator;
    const path = `/api/merchant/flash-sales/${created.id}`;
    for (const [method, p, body] of [
      ['GET', path, undefined],
      ['PUT', path, sessionBody(product.skuIds)],
      ['DELETE', path, undefined],
      ['POST', `${path}/enable`, undefined],
      ['POST', `${path}/disable`, undefined],
    ] as const) {
      const res = await t.api(method, p, { token: stranger.token, body });
      expect([method, p, res.status, res.body.error.code]).toEqual([method, p, 404, 'NOT_FOUND']);
    }
    expect((await t.api('GET', '/api/merchant/flash-sales', { token: stranger.token })).body.total).toBe(0);
    const [row] = await t.sql('select enabled from flash_sale where id = ?', [created.id]);
    expect(row.enabled).toBe(false);
  });

  it('enables and disables a session', async () => {
    const { product, operator } = await shopSetup();
    const created = await createOk(operator.token, sessionBody(product.skuIds));
    const enabled = await t.api('POST', `/api/merchant/flash-sales/${created.id}/enable`, { token: operator.token });
    expect(enabled.body.enabled).toBe(true);
    expect(await t.sql('select enabled from flash_sale_item where flash_sale_id = ?', [created.id])).toEqual([{ enabled: true }]);
    const disabled = await t.api('POST', `/api/merchant/flash-sales/${created.id}/disable`, { token: operator.token });
    expect(disabled.body.enabled).toBe(false);
    expect(await t.sql('select enabled from flash_sale_item where flash_sale_id = ?', [created.id])).toEqual([{ enabled: false }]);
  });

  it('edits a session: items are matched by SKU, and the activity stock left follows the reserve', async () => {
    const { product, operator } = await shopSetup(3);
    const [a, b, c] = product.skuIds;
    const created = await createOk(operator.token, sessionBody([a, b]));
    await t.api('POST', `/api/merchant/flash-sales/${created.id}/enable`, { token: operator.token });
    const customer = await newCustomer(t);
    await placeOrder(t, customer.token, a, 2); // takes 2 activity units of A

    const body = sessionBody([a, c]);
    body.name = 'Renamed';
    body.items[0] = { sku_id: a, activity_price: 650, reserved_stock: 5, per_customer_limit: 3 };
    const res = await t.api('PUT', `/api/merchant/flash-sales/${created.id}`, { token: operator.token, body });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed', enabled: true });
    const itemA = res.body.items.find((i: any) => i.sku_id === a);
    expect(itemA).toMatchObject({ id: created.items[0].id, activity_price: 650, reserved_stock: 5, remaining_stock: 3, per_customer_limit: 3 });
    expect(res.body.items.map((i: any) => i.sku_id)).toEqual([a, c]);

    // The reserve cannot drop below what was sold; nothing of the edit stays.
    const below = sessionBody([a]);
    below.items[0].reserved_stock = 1;
    const refusedEdit = await t.api('PUT', `/api/merchant/flash-sales/${created.id}`, { token: operator.token, body: below });
    expect(refusedEdit.status).toBe(422);
    expect(refusedEdit.body.error).toMatchObject({ code: 'FLASH_SALE_RESERVE_BELOW_SOLD', details: { sku_id: a, sold: 2 } });
    expect((await t.api('GET', `/api/merchant/flash-sales/${created.id}`, { token: operator.token })).body).toEqual(res.body);

    // An item that priced orders cannot be removed, nor its session deleted.
    const withoutA = await t.api('PUT', `/api/merchant/flash-sales/${created.id}`, { token: operator.token, body: sessionBody([c]) });
    expect([withoutA.status, withoutA.body.error.code]).toEqual([409, 'FLASH_SALE_HAS_ORDERS']);
    const deleted = await t.api('DELETE', `/api/merchant/flash-sales/${created.id}`, { token: operator.token });
    expect([deleted.status, deleted.body.error.code]).toEqual([409, 'FLASH_SALE_HAS_ORDERS']);
    expect(await t.sql('select count(*)::int as n from flash_sale_item where flash_sale_id = ?', [created.id])).toEqual([{ n: 2 }]);
  });

  it('deletes a session that priced no orders, with its items', async () => {
    const { product, operator } = await shopSetup();
    const created = await createOk(operator.token, sessionBody(product.skuIds));
    const res = await t.api('DELETE', `/api/merchant/flash-sales/${created.id}`, { token: operator.token });
    expect(res.status).toBe(204);
    expect(await t.sql('select count(*)::int as n from flash_sale_item where flash_sale_id = ?', [created.id])).toEqual([{ n: 0 }]);
    expect((await t.api('GET', `/api/merchant/flash-sales/${created.id}`, { token: operator.token })).status).toBe(404);
    expect((await t.api('DELETE', `/api/merchant/flash-sales/${created.id}`, { token: operator.token })).status).toBe(404);
  });
});

describe('overlapping sessions', () => {
  const hours = (from: number, to: number) => ({ startsAt: minutesFromNow(from * 60), endsAt: minutesFromNow(to * 60) });

  it('refuses to enable a session whose SKU is in an overlapping enabled session (409)', async () => {
    const { product, operator } = await shopSetup(2);
    const [a, b] = product.skuIds;
    const first = await createOk(operator.token, sessionBody([a], hours(1, 3)));
    const overlapping = await createOk(operator.token, sessionBody([b, a], hours(2, 4)));
    const backToBack = await createOk(operator.token, sessionBody([a], hours(3, 5)));
    const enable = (id: number) => t.api('POST', `/api/merchant/flash-sales/${id}/enable`, { token: operator.token });

    expect((await enable(first.id)).status).toBe(200);
    const refusedEnable = await enable(overlapping.id);
    expect(refusedEnable.status).toBe(409);
    expect(refusedEnable.body.error).toMatchObject({ code: 'FLASH_SALE_OVERLAP', details: { sku_id: a } });
    expect(await t.sql('select enabled from flash_sale where id = ?', [overlapping.id])).toEqual([{ enabled: false }]);
    expect(await t.sql('select count(*)::int as n from flash_sale_item where flash_sale_id = ? and enabled', [overlapping.id])).toEqual([{ n: 0 }]);
    // Windows are half-open: a session starting when another ends does not overlap it.
    expect((await enable(backToBack.id)).status).toBe(200);
    // Once the first is disabled, the overlapping one may be enabled... but it overlaps the back-to-back one too.
    await t.api('POST', `/api/merchant/flash-sales/${first.id}/disable`, { token: operator.token });
    expect((await enable(overlapping.id)).status).toBe(409);
    await t.api('POST', `/api/merchant/flash-sales/${backToBack.id}/disable`, { token: operator.token });
    expect((await enable(overlapping.id)).status).toBe(200);
  });

  it('refuses an edit that moves an enabled session onto another enabled one, and keeps the session as it was', async () => {
    const { product, operator } = await shopSetup(2);
    const [a, b] = product.skuIds;
    const first = await createOk(operator.token, sessionBody([a], hours(1, 2)));
    const second = await createOk(operator.token, sessionBody([b], hours(1, 2)));
    await t.api('POST', `/api/merchant/flash-sales/${first.id}/enable`, { token: operator.token });
    const enabledSecond = (await t.api('POST', `/api/merchant/flash-sales/${second.id}/enable`, { token: operator.token })).body;

    const res = await t.api('PUT', `/api/merchant/flash-sales/${second.id}`, { token: operator.token, body: sessionBody([b, a], hours(1.5, 2.5)) });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'FLASH_SALE_OVERLAP', details: { sku_id: a } });
    expect((await t.api('GET', `/api/merchant/flash-sales/${second.id}`, { token: operator.token })).body).toEqual(enabledSecond);
    // A disabled session may overlap freely.
    await t.api('POST', `/api/merchant/flash-sales/${second.id}/disable`, { token: operator.token });
    expect((await t.api('PUT', `/api/merchant/flash-sales/${second.id}`, { token: operator.token, body: sessionBody([b, a], hours(1.5, 2.5)) })).status).toBe(200);
  });

  it('lets exactly one of several racing enables of overlapping sessions succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const { product, operator } = await shopSetup();
      const sessions = [];
      for (let i = 0; i < 6; i++) sessions.push(await createOk(operator.token, sessionBody(product.skuIds, hours(1 + i * 0.1, 2 + i * 0.1))));
      const results = await Promise.all(sessions.map((s) => t.api('POST', `/api/merchant/flash-sales/${s.id}/enable`, { token: operator.token })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      for (const r of results.filter((r) => r.status !== 200)) expect([r.status, r.body.error.code]).toEqual([409, 'FLASH_SALE_OVERLAP']);
      const [enabled] = await t.sql(
        'select count(*)::int as n from flash_sale where enabled and id = any(?::int[])',
        [`{${sessions.map((s) => s.id).join(',')}}`],
      );
      expect(enabled.n).toBe(1);
    }
  });
});

describe('discovery', () => {
  it('lists enabled sessions active now with items, activity price and remaining stock; upcoming ones only when asked, marked', async () => {
    const { shop, category, product, operator } = await shopSetup(2);
    const [a, b] = product.skuIds;
    const draft = await newProduct(t, { shopId: shop.id, categoryId: category.id, status: 'draft', skus: [{ price: 1000, stock: 5 }] });
    const active = await newFlashSale(t, {
      shopId: shop.id,
      items: [{ skuId: a, activityPrice: 500, reservedStock: 8, perCustomerLimit: 2 }, { skuId: draft.skuIds[0], activityPrice: 1, reservedStock: 1 }],
    });
    const upcoming = await newFlashSale(t, { shopId: shop.id, startsAt: minutesFromNow(60), endsAt: minutesFromNow(120), items: [{ skuId: b, activityPrice: 400, reservedStock: 3 }] });
    await newFlashSale(t, { shopId: shop.id, startsAt: minutesFromNow(-120), endsAt: minutesFromNow(-60), items: [{ skuId: b, activityPrice: 400, reservedStock: 3 }] });
    await newFlashSale(t, { shopId: shop.id, enabled: false, items: [{ skuId: b, activityPrice: 400, reservedStock: 3 }] });
    const customer = await newCustomer(t);
    await placeOrder(t, customer.token, a, 1);

    const now = await t.api('GET', `/api/flash-sales?shop_id=${shop.id}`);
    expect(now.status).toBe(200);
    expect(now.body).toMatchObject({ page: 1, page_size: 20, total: 1 });
    expect(now.body.items).toEqual([
      expect.objectContaining({
        id: active.id,
        state: 'active',
        enabled: true,
        shop: expect.objectContaining({ id: shop.id }),
        // The draft product's item is not shown.
        items: [expect.objectContaining({ sku_id: a, activity_price: 500, standard_price: 1000, reserved_stock: 8, remaining_stock: 7, per_customer_limit: 2 })],
      }),
    ]);

    const withUpcoming = await t.api('GET', `/api/flash-sales?shop_id=${shop.id}&include_upcoming=true`);
    expect(withUpcoming.body.items.map((s: any) => [s.id, s.state])).toEqual([[active.id, 'active'], [upcoming.id, 'upcoming']]);
    expect((await t.api('GET', `/api/flash-sales?shop_id=${shop.id}&include_upcoming=true&page=2&page_size=1`)).body).toMatchObject({
      total: 2,
      items: [expect.objectContaining({ id: upcoming.id })],
    });
    // Public: no token needed; the operator sees the same.
    expect((await t.api('GET', `/api/flash-sales?shop_id=${shop.id}`, { token: operator.token })).body).toEqual(now.body);
  });

  it('refuses bad query values with 400', async () => {
    for (const q of ['include_upcoming=maybe', 'page=0', 'page_size=101', 'shop_id=x']) {
      const res = await t.api('GET', `/api/flash-sales?${q}`);
      expect([q, res.status]).toEqual([q, 400]);
    }
  });
});

describe('over GraphQL', () => {
  const FIELDS = `id name enabled state startsAt endsAt shop { id } items { id skuId activityPrice standardPrice reservedStock remainingStock perCustomerLimit }`;

  it('manages and discovers sessions through the same service, with the same errors', async () => {
    const { shop, product, operator } = await shopSetup(2);
    const [a, b] = product.skuIds;
    const input = { name: 'GQL sale', startsAt: minutesFromNow(-1).toISOString(), endsAt: minutesFromNow(30).toISOString(), items: [{ skuId: a, activityPrice: 300, reservedStock: 4, perCustomerLimit: 1 }] };
    const created = await mutate(t, 'createFlashSale', input, `flashSale { ${FIELDS} }`, operator.token);
    expect(created.errors).toBeUndefined();
    const session = created.payload.flashSale;
    expect(session).toMatchObject({ name: 'GQL sale', enabled: false, state: 'ACTIVE', shop: { id: shop.id }, items: [{ skuId: a, activityPrice: 300, reservedStock: 4, remainingStock: 4 }] });

    const enabled = await mutate(t, 'enableFlashSale', { flashSaleId: session.id }, 'flashSale { enabled }', operator.token);
    expect(enabled.payload.flashSale.enabled).toBe(true);
    const discovered = await t.gql(`query($shopId: Int) { flashSales(shopId: $shopId) { total items { id state } } }`, { shopId: shop.id });
    expect(discovered.data.flashSales).toEqual({ total: 1, items: [{ id: session.id, state: 'ACTIVE' }] });

    const updated = await mutate(
      t,
      'updateFlashSale',
      { flashSaleId: session.id, ...input, items: [...input.items, { skuId: b, activityPrice: 900, reservedStock: 1, perCustomerLimit: 1 }] },
      'flashSale { items { skuId } }',
      operator.token,
    );
    expect(updated.payload.flashSale.items).toEqual([{ skuId: a }, { skuId: b }]);

    const overlapping = await mutate(t, 'createFlashSale', input, 'flashSale { id }', operator.token);
    const refused = await mutate(t, 'enableFlashSale', { flashSaleId: overlapping.payload.flashSale.id }, 'flashSale { id }', operator.token);
    expect(refused.errors).toBeUndefined();
    expect(refused.userErrors).toEqual([{ code: 'FLASH_SALE_OVERLAP', message: expect.any(String), field: null, details: expect.objectContaining({ skuId: a }) }]);
    const invalid = await mutate(t, 'createFlashSale', { ...input, endsAt: input.startsAt }, 'flashSale { id }', operator.token);
    expect(invalid.userErrors.map((e) => [e.code, e.field])).toEqual([['VALIDATION_FAILED', ['input', 'endsAt']]]);

    const list = await t.gql(`{ merchantFlashSales { total items { id } } }`, {}, operator.token);
    expect(list.data.merchantFlashSales.total).toBe(2);
    const one = await t.gql(`query($id: Int!) { merchantFlashSale(id: $id) { ${FIELDS} } }`, { id: session.id }, operator.token);
    expect(one.data.merchantFlashSale.items).toHaveLength(2);
    const disabled = await mutate(t, 'disableFlashSale', { flashSaleId: session.id }, 'flashSale { enabled }', operator.token);
    expect(disabled.payload.flashSale.enabled).toBe(false);
    const deleted = await mutate(t, 'deleteFlashSale', { flashSaleId: session.id }, 'deletedFlashSaleId', operator.token);
    expect(deleted.payload.deletedFlashSaleId).toBe(session.id);

    const customer = await newCustomer(t);
    const forbidden = await t.gql(`{ merchantFlashSales { total } }`, {}, customer.token);
    expect(forbidden.errors?.[0].extensions.code).toBe('FORBIDDEN');
  });
});
