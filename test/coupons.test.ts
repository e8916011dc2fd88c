import { ADDRESS, addToCart, balanceOf, GRAPHQL_ADDRESS, checkoutBody, expectLedgerReplays, payOk, shopWithProduct, stockOf } from './support/shopping.js';
import pg from 'pg';
import { mutate } from './support/graphql.js';
import { startTestApp, type TestApp } from './support/harness.js';
import { checkoutWriter } from './support/checkout-writer.js';
import { newCouponTemplate, newCustomer, newOperator, newShop, type TestUser } from './support/fixtures.js';
import { cancelUnpaidOrders } from '../src/services/orders/order.service.js';
import { couponDiscount, couponForbiddenBy, couponRefusal, type CouponRow } from '../src/services/promotions/coupon-redemption.js';
import type { DraftOrder } from '../src/shared/checkout-draft.js';
import { ItemPricing } from '../src/entities/order-item.entity.js';
import { DiscountKind } from '../src/entities/coupon-template.entity.js';
import { CouponStatus } from '../src/entities/coupon.entity.js';
import { systemContext } from '../src/server/jobs.js';
import { createLogger } from '../src/logger.js';
import { auditStockAndClose } from './support/inventory-audit.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

const DAY = 24 * 3600_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function claimOk(token: string, templateId: number) {
  const res = await t.api('POST', `/api/coupon-templates/${templateId}/claim`, { token });
  if (res.status !== 201) throw new Error(`claim failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const claimStockOf = async (templateId: number): Promise<number> =>
  (await t.sql('select claim_stock from coupon_template where id = ?', [templateId]))[0].claim_stock;
const couponRow = async (couponId: number) => (await t.sql('select * from coupon where id = ?', [couponId]))[0];
const countOf = async (table: string): Promise<number> => (await t.sql(`select count(*)::int as n from ${table}`))[0].n;

describe('coupon templates (shop operator)', () => {
  const fixed = { name: '5 off', discount_kind: 'fixed', amount_off: 500, min_order_amount: 3000, valid_days: 7, claim_stock: 50 };

  it('creates, lists, edits, disables and deletes templates of the own shop', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const created = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: fixed });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ ...fixed, shop_id: shop.id, status: 'active' });
    expect(created.body).not.toHaveProperty('percent_off');
    expect(created.body).not.toHaveProperty('valid_from');

    const percent = await t.api('POST', '/api/merchant/coupon-templates', {
      token: operator.token,
      body: { name: '10%', discount_kind: 'percent', percent_off: 10, max_discount: 2000, valid_from: iso(Date.now()), valid_until: iso(Date.now() + DAY), claim_stock: 5 },
    });
    expect(percent.status).toBe(201);
    expect(percent.body).toMatchObject({ percent_off: 10, max_discount: 2000, min_order_amount: 0, claim_stock: 5 });
    expect(percent.body).not.toHaveProperty('valid_days');

    const list = await t.api('GET', '/api/merchant/coupon-templates', { token: operator.token });
    expect(list.body).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(list.body.items.map((i: any) => i.id)).toEqual([percent.body.id, created.body.id]);

    // Switching the kind drops the other kind's fields; switching the window scheme drops the other scheme.
    const edited = await t.api('PATCH', `/api/merchant/coupon-templates/${created.body.id}`, {
      token: operator.token,
      body: { discount_kind: 'percent', percent_off: 20, valid_from: iso(Date.now()), valid_until: iso(Date.now() + 2 * DAY) },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ discount_kind: 'percent', percent_off: 20, min_order_amount: 3000, claim_stock: 50 });
    expect(edited.body).not.toHaveProperty('amount_off');
    expect(edited.body).not.toHaveProperty('valid_days');
    const back = await t.api('PATCH', `/api/merchant/coupon-templates/${created.body.id}`, {
      token: operator.token,
      body: { discount_kind: 'fixed', amount_off: 300, valid_days: 3 },
    });
    expect(back.body).toMatchObject({ discount_kind: 'fixed', amount_off: 300, valid_days: 3 });
    expect(back.body).not.toHaveProperty('valid_until');
    const capped = await t.api('PATCH', `/api/merchant/coupon-templates/${percent.body.id}`, { token: operator.token, body: { max_discount: null } });
    expect(capped.body).not.toHaveProperty('max_discount');

    const disabled = await t.api('POST', `/api/merchant/coupon-templates/${created.body.id}/disable`, { token: operator.token });
    expect(disabled.body.status).toBe('disabled');
    const onlyDisabled = await t.api('GET', '/api/merchant/coupon-templates?status=disabled', { token: operator.token });
    expect(onlyDisabled.body.items.map((i: any) => i.id)).toEqual([created.body.id]);
    const reenabled = await t.api('PATCH', `/api/merchant/coupon-templates/${created.body.id}`, { token: operator.token, body: { status: 'active' } });
    expect(reenabled.body.status).toBe('active');

    const deleted = await t.api('DELETE', `/api/merchant/coupon-templates/${created.body.id}`, { token: operator.token });
    expect(deleted.status).toBe(204);
    expect((await t.api('DELETE', `/api/merchant/coupon-templates/${created.body.id}`, { token: operator.token })).status).toBe(404);
    expect((await t.api('GET', '/api/merchant/coupon-templates', { token: operator.token })).body.total).toBe(1);
  });

  it('refuses invalid terms with 400 naming the field, and creates nothing', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const now = Date.now();
    const bad: [Record<string, unknown>, string][] = [
      [{ amount_off: -100 }, 'amount_off'],
      [{ amount_off: 0 }, 'amount_off'],
      [{ amount_off: 12.5 }, 'amount_off'],
      [{ amount_off: undefined }, 'amount_off'],
      [{ min_order_amount: -1 }, 'min_order_amount'],
      [{ claim_stock: -1 }, 'claim_stock'],
      [{ discount_kind: 'percent', amount_off: undefined, percent_off: 101 }, 'percent_off'],
      [{ discount_kind: 'percent', amount_off: undefined, percent_off: 0 }, 'percent_off'],
      [{ discount_kind: 'percent', percent_off: 10 }, 'amount_off'],
      [{ discount_kind: 'percent', amount_off: undefined, percent_off: 10, max_discount: -5 }, 'max_discount'],
      [{ max_discount: 100 }, 'max_discount'],
      [{ discount_kind: 'bogus' }, 'discount_kind'],
      [{ valid_days: undefined, valid_from: iso(now + DAY), valid_until: iso(now) }, 'valid_until'],
      [{ valid_days: undefined, valid_from: iso(now), valid_until: iso(now) }, 'valid_until'],
      [{ valid_days: undefined, valid_from: iso(now) }, 'valid_until'],
      [{ valid_days: undefined }, 'valid_from'],
      [{ valid_from: iso(now), valid_until: iso(now + DAY) }, 'valid_days'],
      [{ valid_days: 0 }, 'valid_days'],
      [{ valid_days: undefined, valid_from: 'tomorrow', valid_until: iso(now + DAY) }, 'valid_from'],
      [{ name: '' }, 'name'],
      [{ shop_id: 1 }, ''],
    ];
    for (const [change, field] of bad) {
      const res = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: { ...fixed, ...change } });
      expect([JSON.stringify(change), res.status]).toEqual([JSON.stringify(change), 400]);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      if (field) expect(res.body.error.details.problems.map((p: any) => p.field)).toContain(field);
    }
    expect((await t.sql('select count(*)::int as n from coupon_template where shop_id = ?', [shop.id]))[0].n).toBe(0);
  });

  it('refuses an edit whose merged terms are invalid and leaves the template as it was', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const template = await newCouponTemplate(t, shop.id, { validFrom: new Date(Date.now()), validUntil: new Date(Date.now() + DAY) });
    const before = (await t.sql('select * from coupon_template where id = ?', [template.id]))[0];
    for (const body of [
      { discount_kind: 'percent' },
      { valid_until: iso(Date.now() - DAY) },
      { percent_off: 10 },
      { claim_stock: -3 },
      { id: 5 },
    ]) {
      const res = await t.api('PATCH', `/api/merchant/coupon-templates/${template.id}`, { token: operator.token, body });
      expect([body, res.status]).toEqual([body, 400]);
    }
    expect((await t.sql('select * from coupon_template where id = ?', [template.id]))[0]).toEqual(before);
  });

  it("hides another shop's templates (404) and keeps customers (403) and anonymous callers (401) out", async () => {
    const shop = await newShop(t);
    const other = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t);
    const theirs = await newCouponTemplate(t, other.id);
    for (const [method, path] of [
      ['PATCH', `/api/merchant/coupon-templates/${theirs.id}`],
      ['DELETE', `/api/merchant/coupon-templates/${theirs.id}`],
      ['POST', `/api/merchant/coupon-templates/${theirs.id}/disable`],
    ]) {
      const res = await t.api(method, path, { token: operator.token, body: method === 'PATCH' ? { name: 'mine now' } : undefined });
      expect([path, res.status, res.body.error.code]).toEqual([path, 404, 'NOT_FOUND']);
    }
    expect((await t.api('GET', '/api/merchant/coupon-templates', { token: operator.token })).body.items).toEqual([]);
    expect((await t.sql('select name, status from coupon_template where id = ?', [theirs.id]))[0].status).toBe('active');

    for (const [method, path] of [
      ['GET', '/api/merchant/coupon-templates'],
      ['POST', '/api/merchant/coupon-templates'],
      ['PATCH', `/api/merchant/coupon-templates/${theirs.id}`],
      ['DELETE', `/api/merchant/coupon-templates/${theirs.id}`],
      ['POST', `/api/merchant/coupon-templates/${theirs.id}/disable`],
    ]) {
      const body = method === 'GET' ? undefined : {};
      expect([path, (await t.api(method, path, { token: customer.token, body })).status]).toEqual([path, 403]);
      expect([path, (await t.api(method, path, { body })).status]).toEqual([path, 401]);
    }
    expect((await t.sql('select count(*)::int as n from coupon_template where id = ?', [theirs.id]))[0].n).toBe(1);
  });
});

describe('claiming coupons', () => {
  it("lists a shop's claimable templates publicly: active, with stock, window not over; unknown slug 404", async () => {
    const shop = await newShop(t);
    const open = await newCouponTemplate(t, shop.id);
    const future = await newCouponTemplate(t, shop.id, { validFrom: new Date(Date.now() + DAY), validUntil: new Date(Date.now() + 2 * DAY) });
    await newCouponTemplate(t, shop.id, { status: 'disabled' });
    await newCouponTemplate(t, shop.id, { claimStock: 0 });
    await newCouponTemplate(t, shop.id, { validFrom: new Date(Date.now() - 2 * DAY), validUntil: new Date(Date.now() - DAY) });
    await newCouponTemplate(t, (await newShop(t)).id);

    const res = await t.api('GET', `/api/shops/${shop.slug}/coupon-templates`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total: 2, page: 1, page_size: 20 });
    expect(res.body.items.map((i: any) => i.id)).toEqual([future.id, open.id]);
    const paged = await t.api('GET', `/api/shops/${shop.slug}/coupon-templates?page=2&page_size=1`);
    expect(paged.body).toMatchObject({ total: 2, page: 2, page_size: 1, items: [expect.objectContaining({ id: open.id })] });
    expect((await t.api('GET', `/api/shops/${shop.slug}/coupon-templates?page=9`)).body).toMatchObject({ total: 2, items: [] });

    const missing = await t.api('GET', '/api/shops/no-such-shop/coupon-templates');
    expect(missing.status).toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
  });

  it('copies the terms and a computed window into the coupon and takes one from the claim stock', async () => {
    const shop = await newShop(t);
    const customer = await newCustomer(t);
    const byDays = await newCouponTemplate(t, shop.id, { discountKind: 'percent', percentOff: 15, maxDiscount: 900, minOrderAmount: 2000, validDays: 10, claimStock: 3 });
    const from = new Date(Date.now() + DAY);
    const until = new Date(Date.now() + 5 * DAY);
    const fixedWindow = await newCouponTemplate(t, shop.id, { amountOff: 700, validFrom: from, validUntil: until });

    const before = Date.now();
    const coupon = await claimOk(customer.token, byDays.id);
    expect(coupon).toMatchObject({
      template_id: byDays.id,
      shop: { id: shop.id, slug: shop.slug },
      discount_kind: 'percent',
      percent_off: 15,
      max_discount: 900,
      min_order_amount: 2000,
      status: 'available',
    });
    expect(coupon).not.toHaveProperty('amount_off');
    expect(coupon).not.toHaveProperty('used_at');
    const span = new Date(coupon.valid_until).getTime() - new Date(coupon.valid_from).getTime();
    expect(span).toBe(10 * DAY);
    expect(Math.abs(new Date(coupon.valid_from).getTime() - before)).toBeLessThan(60_000);
    expect(await claimStockOf(byDays.id)).toBe(2);

    const second = await claimOk(customer.token, fixedWindow.id);
    expect(second).toMatchObject({ amount_off: 700, valid_from: from.toISOString(), valid_until: until.toISOString(), status: 'available' });

    const mine = await t.api('GET', '/api/me/coupons', { token: customer.token });
    expect(mine.body).toMatchObject({ total: 2, items: [expect.objectContaining({ id: second.id }), expect.objectContaining({ id: coupon.id })] });
  });

  it('refuses a second claim of the same template with 409 and changes nothing', async () => {
    const shop = await newShop(t);
    const customer = await newCustomer(t);
    const template = await newCouponTemplate(t, shop.id, { claimStock: 5 });
    await claimOk(customer.token, template.id);
    const again = await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: customer.token });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'COUPON_ALREADY_CLAIMED', details: { template_id: template.id } });
    expect(await claimStockOf(template.id)).toBe(4);
    expect((await t.sql('select count(*)::int as n from coupon where template_id = ?', [template.id]))[0].n).toBe(1);
  });

  it('refuses claims of disabled, deleted, exhausted and ended templates, changing nothing', async () => {
    const shop = await newShop(t);
    const customer = await newCustomer(t);
    const disabled = await newCouponTemplate(t, shop.id, { status: 'disabled', claimStock: 5 });
    const empty = await newCouponTemplate(t, shop.id, { claimStock: 0 });
    const ended = await newCouponTemplate(t, shop.id, { validFrom: new Date(Date.now() - 2 * DAY), validUntil: new Date(Date.now() - DAY), claimStock: 5 });
    const deleted = await newCouponTemplate(t, shop.id);
    await t.sql('delete from coupon_template where id = ?', [deleted.id]);
    const coupons = await countOf('coupon');

    const cases: [number, number, string][] = [
      [disabled.id, 422, 'COUPON_TEMPLATE_DISABLED'],
      [empty.id, 422, 'COUPON_OUT_OF_STOCK'],
      [ended.id, 422, 'COUPON_TEMPLATE_ENDED'],
      [deleted.id, 404, 'NOT_FOUND'],
      [99999999, 404, 'NOT_FOUND'],
    ];
    for (const [id, status, code] of cases) {
      const res = await t.api('POST', `/api/coupon-templates/${id}/claim`, { token: customer.token });
      expect([code, res.status, res.body.error.code]).toEqual([code, status, code]);
    }
    expect(await countOf('coupon')).toBe(coupons);
    expect(await claimStockOf(disabled.id)).toBe(5);
    expect(await claimStockOf(ended.id)).toBe(5);
    expect(await claimStockOf(empty.id)).toBe(0);
    expect((await t.api('POST', '/api/coupon-templates/abc/claim', { token: customer.token })).status).toBe(400);
  });

  it('is for customers: an operator gets 403 and an anonymous caller 401', async () => {
    const shop = await newShop(t);
    const template = await newCouponTemplate(t, shop.id, { claimStock: 5 });
    const operator = await newOperator(t, shop.id);
    expect((await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: operator.token })).status).toBe(403);
    expect((await t.api('POST', `/api/coupon-templates/${template.id}/claim`)).status).toBe(401);
    expect((await t.api('GET', '/api/me/coupons', { token: operator.token })).status).toBe(403);
    expect((await t.api('GET', '/api/me/coupons')).status).toBe(401);
    expect(await claimStockOf(template.id)).toBe(5);
  });

  it('leaves a held coupon unchanged when the template is edited or disabled, and keeps it (link null) when deleted', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t);
    const template = await newCouponTemplate(t, shop.id, { amountOff: 500, minOrderAmount: 1000, validDays: 5 });
    const held = await claimOk(customer.token, template.id);
    const snapshot = await couponRow(held.id);

    const edit = await t.api('PATCH', `/api/merchant/coupon-templates/${template.id}`, {
      token: operator.token,
      body: { name: 'Changed', amount_off: 50, min_order_amount: 99999, valid_days: 1 },
    });
    expect(edit.status).toBe(200);
    expect((await t.api('POST', `/api/merchant/coupon-templates/${template.id}/disable`, { token: operator.token })).status).toBe(200);
    expect(await couponRow(held.id)).toEqual(snapshot);

    expect((await t.api('DELETE', `/api/merchant/coupon-templates/${template.id}`, { token: operator.token })).status).toBe(204);
    expect(await couponRow(held.id)).toEqual({ ...snapshot, template_id: null });
    const [mine] = (await t.api('GET', '/api/me/coupons', { token: customer.token })).body.items;
    expect(mine).toMatchObject({ id: held.id, name: snapshot.name, amount_off: 500, min_order_amount: 1000, status: 'available' });
    expect(mine).not.toHaveProperty('template_id');
  });

  it('gives exactly 10 coupons when 100 customers race for a claim stock of 10', async () => {
    const shop = await newShop(t);
    const template = await newCouponTemplate(t, shop.id, { claimStock: 10 });
    const customers = await Promise.all(Array.from({ length: 100 }, () => newCustomer(t)));
    const results = await Promise.all(customers.map((c) => t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: c.token })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    for (const r of results.filter((r) => r.status !== 201)) expect([r.status, r.body.error.code]).toEqual([422, 'COUPON_OUT_OF_STOCK']);
    expect(await claimStockOf(template.id)).toBe(0);
    const [coupons] = await t.sql('select count(*)::int as n, count(distinct customer_id)::int as customers from coupon where template_id = ?', [template.id]);
    expect(coupons).toEqual({ n: 10, customers: 10 });
  });

  it('gives one coupon and takes one from the stock when the same customer claims 10 times at once', async () => {
    const shop = await newShop(t);
    const template = await newCouponTemplate(t, shop.id, { claimStock: 5 });
    const customer = await newCustomer(t);
    const results = await Promise.all(Array.from({ length: 10 }, () => t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: customer.token })));
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    expect(await claimStockOf(template.id)).toBe(4);
  });

  it('lists own coupons with status available, used or expired, filterable by status', async () => {
    const shop = await newShop(t);
    const customer = await newCustomer(t);
    const other = await newCustomer(t);
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => newCouponTemplate(t, shop.id)));
    const available = await claimOk(customer.token, a.id);
    const used = await claimOk(customer.token, b.id);
    const expired = await claimOk(customer.token, c.id);
    await claimOk(other.token, a.id);
    await t.sql(`update coupon set status = 'used', used_at = now() where id = ?`, [used.id]);
    await t.sql(`update coupon set valid_from = now() - interval '2 days', valid_until = now() - interval '1 second' where id = ?`, [expired.id]);

    const all = await t.api('GET', '/api/me/coupons', { token: customer.token });
    expect(all.body.items.map((i: any) => [i.id, i.status])).toEqual([
      [expired.id, 'expired'],
      [used.id, 'used'],
      [available.id, 'available'],
    ]);
    expect(all.body.items[1].used_at).toEqual(expect.any(String));
    for (const [status, id] of [['available', available.id], ['used', used.id], ['expired', expired.id]] as const) {
      const res = await t.api('GET', `/api/me/coupons?status=${status}`, { token: customer.token });
      expect(res.body).toMatchObject({ total: 1, items: [expect.objectContaining({ id })] });
    }
    expect((await t.api('GET', '/api/me/coupons?status=lost', { token: customer.token })).status).toBe(400);
  });
});

describe('redeeming coupons at checkout', () => {
  /** A shop with one SKU, and a customer holding a coupon of a template with these terms. */
  async function setup(spec: Parameters<typeof newCouponTemplate>[2] = {}, sku = { price: 1000, stock: 10 }) {
    const { shop, product } = await shopWithProduct(t, [sku]);
    const customer = await newCustomer(t, { available: 1_000_000, points: 0 });
    const template = await newCouponTemplate(t, shop.id, spec);
    const coupon = await claimOk(customer.token, template.id);
    return { shop, sku: product.skuIds[0], customer, template, coupon };
  }

  const checkoutWith = (customer: TestUser, coupons: unknown) => t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody({ coupons }) });

  it('stores the discount and the coupon on the order, charges the discounted total and marks the coupon used', async () => {
    const { shop, sku, customer, coupon } = await setup({ amountOff: 700, minOrderAmount: 3000 });
    const plain = await shopWithProduct(t, [{ price: 400, stock: 5 }]);
    await addToCart(t, customer.token, sku, 3);
    await addToCart(t, customer.token, plain.product.skuIds[0], 1);
    const res = await checkoutWith(customer, { [shop.id]: coupon.id });
    expect(res.status).toBe(201);
    const byShop = Object.fromEntries(res.body.orders.map((o: any) => [o.shop.id, o]));
    expect(byShop[shop.id]).toMatchObject({ items_total: 3000, discount: 700, total: 2300, coupon_id: coupon.id });
    expect(byShop[plain.shop.id]).toMatchObject({ items_total: 400, discount: 0, total: 400 });
    expect(byShop[plain.shop.id]).not.toHaveProperty('coupon_id');
    expect((await t.sql('select coupon_id, discount from shop_order where id = ?', [byShop[shop.id].id]))[0]).toEqual({ coupon_id: coupon.id, discount: 700 });

    const mine = (await t.api('GET', '/api/me/coupons', { token: customer.token })).body.items[0];
    expect(mine).toMatchObject({ id: coupon.id, status: 'used', used_at: expect.any(String) });
    expect((await t.api('GET', `/api/orders/${byShop[shop.id].id}`, { token: customer.token })).body.coupon_id).toBe(coupon.id);

    const paid = await payOk(t, customer.token, byShop[shop.id].id);
    expect(paid).toMatchObject({ status: 'paid', total: 2300 });
    expect(await balanceOf(t, customer.id, 'available')).toBe(1_000_000 - 2300);
  });

  it("counts claimed and used coupons per template in the shop's own list, over both doors", async () => {
    const { shop, sku, customer, template, coupon } = await setup({ amountOff: 100, minOrderAmount: 0 });
    const idle = await newCouponTemplate(t, shop.id, { name: 'Nobody claimed me' });
    const other = await newCustomer(t);
    await claimOk(other.token, template.id);
    await addToCart(t, customer.token, sku, 1);
    expect((await checkoutWith(customer, { [shop.id]: coupon.id })).status).toBe(201);
    const operator = await newOperator(t, shop.id);

    const rest = await t.api('GET', '/api/merchant/coupon-templates', { token: operator.token });
    const counts = Object.fromEntries(rest.body.items.map((i: any) => [i.id, [i.claimed_count, i.used_count]]));
    expect(counts).toEqual({ [template.id]: [2, 1], [idle.id]: [0, 0] });
    const gql = await t.gql('{ merchantCouponTemplates { items { id claimedCount usedCount } } }', {}, operator.token);
    expect(gql.data.merchantCouponTemplates.items).toEqual([
      { id: idle.id, claimedCount: 0, usedCount: 0 },
      { id: template.id, claimedCount: 2, usedCount: 1 },
    ]);
    // The public list does not tell other shops' customers how a template is doing.
    const slug = (await t.sql('select slug from shop where id = ?', [shop.id]))[0].slug;
    const open = await t.api('GET', `/api/shops/${slug}/coupon-templates`);
    expect(open.body.items[0]).not.toHaveProperty('claimed_count');
  });

  it('rounds a percentage down, applies the cap, and never discounts more than the order', async () => {
    const pct = await setup({ discountKind: 'percent', percentOff: 15 }, { price: 999, stock: 10 });
    await addToCart(t, pct.customer.token, pct.sku, 1);
    const [order] = (await checkoutWith(pct.customer, { [pct.shop.id]: pct.coupon.id })).body.orders;
    expect(order).toMatchObject({ items_total: 999, discount: 149, total: 850 });

    const capped = await setup({ discountKind: 'percent', percentOff: 50, maxDiscount: 1200 }, { price: 1000, stock: 10 });
    await addToCart(t, capped.customer.token, capped.sku, 5);
    const [cappedOrder] = (await checkoutWith(capped.customer, { [capped.shop.id]: capped.coupon.id })).body.orders;
    expect(cappedOrder).toMatchObject({ items_total: 5000, discount: 1200, total: 3800 });

    const whole = await setup({ amountOff: 5000 }, { price: 1200, stock: 10 });
    await addToCart(t, whole.customer.token, whole.sku, 2);
    const [free] = (await checkoutWith(whole.customer, { [whole.shop.id]: whole.coupon.id })).body.orders;
    expect(free).toMatchObject({ items_total: 2400, discount: 2400, total: 0 });
    expect(await payOk(t, whole.customer.token, free.id)).toMatchObject({ status: 'paid', total: 0 });
  });

  it('accepts an order exactly at the threshold', async () => {
    const s = await setup({ amountOff: 100, minOrderAmount: 2000 });
    await addToCart(t, s.customer.token, s.sku, 2);
    const res = await checkoutWith(s.customer, { [s.shop.id]: s.coupon.id });
    expect(res.status).toBe(201);
    expect(res.body.orders[0]).toMatchObject({ discount: 100, total: 1900 });
  });

  /** Every refusal: 422 with its code, and no order, no stock change, the cart kept, the coupon still available. */
  async function expectRefusedUnchanged(customer: TestUser, sku: number, coupons: unknown, code: string, couponId?: number) {
    const orders = await countOf('shop_order');
    const stock = await stockOf(t, sku);
    const couponBefore = couponId ? await couponRow(couponId) : undefined;
    const res = await checkoutWith(customer, coupons);
    expect([res.status, res.body.error?.code]).toEqual([422, code]);
    expect(await countOf('shop_order')).toBe(orders);
    expect(await stockOf(t, sku)).toBe(stock);
    expect((await t.api('GET', '/api/cart', { token: customer.token })).body.lines.length).toBeGreaterThan(0);
    if (couponId) expect(await couponRow(couponId)).toEqual(couponBefore);
    return res.body.error;
  }

  it("refuses another customer's coupon exactly like an unknown one", async () => {
    const s = await setup();
    const stranger = await newCustomer(t);
    await addToCart(t, stranger.token, s.sku, 1);
    const theirs = await expectRefusedUnchanged(stranger, s.sku, { [s.shop.id]: s.coupon.id }, 'COUPON_NOT_FOUND', s.coupon.id);
    const unknown = await expectRefusedUnchanged(stranger, s.sku, { [s.shop.id]: 99999999 }, 'COUPON_NOT_FOUND');
    expect(theirs.message.replace(String(s.coupon.id), 'N')).toBe(unknown.message.replace('99999999', 'N'));
  });

  it("refuses a coupon of another shop, and a coupon for a shop that is not in the cart", async () => {
    const s = await setup();
    const other = await shopWithProduct(t);
    await addToCart(t, s.customer.token, other.product.skuIds[0], 1);
    const error = await expectRefusedUnchanged(s.customer, other.product.skuIds[0], { [other.shop.id]: s.coupon.id }, 'COUPON_NOT_FOR_THIS_SHOP', s.coupon.id);
    expect(error.details).toEqual({ shop_id: other.shop.id, coupon_id: s.coupon.id });
    await expectRefusedUnchanged(s.customer, other.product.skuIds[0], { [s.shop.id]: s.coupon.id }, 'COUPON_SHOP_NOT_IN_CART', s.coupon.id);
  });

  it('refuses a used coupon', async () => {
    const s = await setup();
    await addToCart(t, s.customer.token, s.sku, 1);
    expect((await checkoutWith(s.customer, { [s.shop.id]: s.coupon.id })).status).toBe(201);
    await addToCart(t, s.customer.token, s.sku, 1);
    await expectRefusedUnchanged(s.customer, s.sku, { [s.shop.id]: s.coupon.id }, 'COUPON_ALREADY_USED', s.coupon.id);
  });

  it('refuses a coupon outside its validity window, before it starts and after it ends', async () => {
    const early = await setup({ validFrom: new Date(Date.now() + DAY), validUntil: new Date(Date.now() + 2 * DAY) });
    await addToCart(t, early.customer.token, early.sku, 1);
    const error = await expectRefusedUnchanged(early.customer, early.sku, { [early.shop.id]: early.coupon.id }, 'COUPON_NOT_IN_WINDOW', early.coupon.id);
    expect(error.details).toMatchObject({ valid_from: early.coupon.valid_from, valid_until: early.coupon.valid_until });

    const late = await setup();
    await t.sql(`update coupon set valid_from = now() - interval '3 days', valid_until = now() - interval '1 second' where id = ?`, [late.coupon.id]);
    await addToCart(t, late.customer.token, late.sku, 1);
    await expectRefusedUnchanged(late.customer, late.sku, { [late.shop.id]: late.coupon.id }, 'COUPON_NOT_IN_WINDOW', late.coupon.id);
  });

  it('refuses an order below the threshold', async () => {
    const s = await setup({ minOrderAmount: 2001 });
    await addToCart(t, s.customer.token, s.sku, 2);
    const error = await expectRefusedUnchanged(s.customer, s.sku, { [s.shop.id]: s.coupon.id }, 'COUPON_BELOW_THRESHOLD', s.coupon.id);
    expect(error.details).toMatchObject({ min_order_amount: 2001, order_amount: 2000 });
  });

  it('refuses the whole multi-shop checkout when one of its coupons is ineligible', async () => {
    const good = await setup({ amountOff: 100 });
    const bad = await setup({ minOrderAmount: 100000 });
    await t.sql('update coupon set customer_id = ? where id = ?', [good.customer.id, bad.coupon.id]);
    await addToCart(t, good.customer.token, good.sku, 1);
    await addToCart(t, good.customer.token, bad.sku, 1);
    await expectRefusedUnchanged(good.customer, bad.sku, { [good.shop.id]: good.coupon.id, [bad.shop.id]: bad.coupon.id }, 'COUPON_BELOW_THRESHOLD', good.coupon.id);
    expect(await stockOf(t, good.sku)).toBe(10);
  });

  it('refuses malformed coupon maps with 400', async () => {
    const s = await setup();
    await addToCart(t, s.customer.token, s.sku, 1);
    for (const coupons of [{ abc: s.coupon.id }, { [s.shop.id]: 'x' }, { [s.shop.id]: 1.5 }, null, 'x', [{ shop_id: s.shop.id }]]) {
      const res = await checkoutWith(s.customer, coupons);
      expect([JSON.stringify(coupons), res.status]).toEqual([JSON.stringify(coupons), 400]);
    }
    const twice = await checkoutWith(s.customer, [{ shop_id: s.shop.id, coupon_id: s.coupon.id }, { shop_id: s.shop.id, coupon_id: 1 }]);
    expect(twice.status).toBe(400);
    expect(twice.body.error.message).toMatch(/one coupon per shop order/);
    expect((await couponRow(s.coupon.id)).status).toBe('available');
  });

  it('redeems a coupon once when two checkouts use it at the same time: the other is refused and takes no stock', async () => {
    const s = await setup({ amountOff: 300 }, { price: 1000, stock: 10 });
    await addToCart(t, s.customer.token, s.sku, 2);
    // Hold the coupon's row so both checkouts have read the cart and wait at the redemption together
    // (with the combined writer one waits in the database and the other behind it in the process:
    // one customer's checkouts never share or overlap a write statement).
    const expectedWaiting = checkoutWriter() === 'combined' ? 1 : 2;
    const blocker = new pg.Client({ connectionString: t.dbUrl });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select 1 from coupon where id = $1 for update', [s.coupon.id]);
      const racing = [checkoutWith(s.customer, { [s.shop.id]: s.coupon.id }), checkoutWith(s.customer, { [s.shop.id]: s.coupon.id })];
      let waiting = 0;
      for (let i = 0; i < 200 && waiting < expectedWaiting; i++) {
        await new Promise((r) => setTimeout(r, 25));
        const { rows } = await blocker.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
        waiting = rows[0].n;
      }
      await blocker.query('rollback');
      expect(waiting).toBe(expectedWaiting);
      const results = await Promise.all(racing);
      expect(results.map((r) => r.status).sort()).toEqual([201, 422]);
      // A coupon belongs to one customer, so both checkouts are that customer's: the cart lock now
      // lets the second one in only after the first emptied the cart; the coupon's guarded update
      // would refuse it otherwise.
      expect(['CART_EMPTY', 'COUPON_ALREADY_USED']).toContain(results.find((r) => r.status === 422)!.body.error.code);
    } finally {
      await blocker.end();
    }
    expect(await stockOf(t, s.sku)).toBe(8);
    const orders = await t.sql('select coupon_id, discount from shop_order where customer_id = ?', [s.customer.id]);
    expect(orders).toEqual([{ coupon_id: s.coupon.id, discount: 300 }]);
    expect((await couponRow(s.coupon.id)).status).toBe('used');
  });

  it('redeems a coupon once when the same checkout is sent 8 times at once', async () => {
    const s = await setup({ amountOff: 300 }, { price: 1000, stock: 10 });
    await addToCart(t, s.customer.token, s.sku, 1);
    const results = await Promise.all(Array.from({ length: 8 }, () => checkoutWith(s.customer, { [s.shop.id]: s.coupon.id })));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) expect(['COUPON_ALREADY_USED', 'CART_EMPTY']).toContain(r.body.error.code);
    expect(await stockOf(t, s.sku)).toBe(9);
    expect((await t.sql('select count(*)::int as n from shop_order where coupon_id = ?', [s.coupon.id]))[0].n).toBe(1);
  });

  it('gives the coupon back when the pending order is cancelled, so it can be used again', async () => {
    const s = await setup({ amountOff: 250 });
    await addToCart(t, s.customer.token, s.sku, 1);
    const [order] = (await checkoutWith(s.customer, { [s.shop.id]: s.coupon.id })).body.orders;
    const cancelled = await t.api('POST', `/api/orders/${order.id}/cancel`, { token: s.customer.token });
    expect(cancelled.body).toMatchObject({ status: 'cancelled', coupon_id: s.coupon.id, discount: 250 });
    expect(await couponRow(s.coupon.id)).toMatchObject({ status: 'available', used_at: null });
    expect(await stockOf(t, s.sku)).toBe(10);

    await addToCart(t, s.customer.token, s.sku, 1);
    const again = await checkoutWith(s.customer, { [s.shop.id]: s.coupon.id });
    expect(again.status).toBe(201);
    expect(again.body.orders[0]).toMatchObject({ coupon_id: s.coupon.id, discount: 250 });
  });

  it('gives the coupon back when the payment-window sweep cancels the order, and keeps it used once paid', async () => {
    const swept = await setup();
    await addToCart(t, swept.customer.token, swept.sku, 1);
    const [order] = (await checkoutWith(swept.customer, { [swept.shop.id]: swept.coupon.id })).body.orders;
    await t.sql(`update shop_order set created_at = now() - interval '1 day' where id = ?`, [order.id]);
    await cancelUnpaidOrders(systemContext(t.deps, 'test'));
    expect((await couponRow(swept.coupon.id)).status).toBe('available');

    const paid = await setup();
    await addToCart(t, paid.customer.token, paid.sku, 1);
    const [paidOrder] = (await checkoutWith(paid.customer, { [paid.shop.id]: paid.coupon.id })).body.orders;
    await payOk(t, paid.customer.token, paidOrder.id);
    expect((await t.api('POST', `/api/orders/${paidOrder.id}/cancel`, { token: paid.customer.token })).status).toBe(409);
    expect((await couponRow(paid.coupon.id)).status).toBe('used');
  });

  it('replays an idempotent checkout with coupons, and refuses the same key with other coupons', async () => {
    const s = await setup({ amountOff: 100 });
    await addToCart(t, s.customer.token, s.sku, 1);
    const headers = { 'idempotency-key': `cpn-${s.coupon.id}` };
    const first = await t.api('POST', '/api/checkout', { token: s.customer.token, body: checkoutBody({ coupons: { [s.shop.id]: s.coupon.id } }), headers });
    const replay = await t.api('POST', '/api/checkout', { token: s.customer.token, body: checkoutBody({ coupons: { [s.shop.id]: s.coupon.id } }), headers });
    expect(first.status).toBe(201);
    expect(replay.body).toEqual(first.body);
    const other = await t.api('POST', '/api/checkout', { token: s.customer.token, body: checkoutBody(), headers });
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('GraphQL door', () => {
  it('manages templates, claims, lists coupons and checks out with a coupon list', async () => {
    const { shop, product } = await shopWithProduct(t, [{ price: 2000, stock: 5 }]);
    const operator = await newOperator(t, shop.id);
    const customer = await newCustomer(t);

    const created = await mutate(
      t,
      'createCouponTemplate',
      { name: 'GQL 20%', discountKind: 'PERCENT', percentOff: 20, maxDiscount: 300, validDays: 3, claimStock: 2 },
      'template { id discountKind percentOff maxDiscount validDays claimStock status }',
      operator.token,
    );
    expect(created.errors).toBeUndefined();
    const templateId = created.payload.template.id;
    expect(created.payload.template).toMatchObject({ discountKind: 'PERCENT', percentOff: 20, maxDiscount: 300, validDays: 3, claimStock: 2, status: 'ACTIVE' });

    const bad = await mutate(t, 'updateCouponTemplate', { templateId, percentOff: 120 }, 'template { id }', operator.token);
    expect(bad.userErrors.map((e) => [e.code, e.field])).toEqual([['VALIDATION_FAILED', ['input', 'percentOff']]]);
    const edited = await mutate(t, 'updateCouponTemplate', { templateId, maxDiscount: 350 }, 'template { maxDiscount }', operator.token);
    expect(edited.payload.template.maxDiscount).toBe(350);
    const asCustomer = await t.gql(`{ merchantCouponTemplates { total } }`, {}, customer.token);
    expect(asCustomer.errors?.[0].extensions.code).toBe('FORBIDDEN');

    const listed = await t.gql(`query ($slug: String!) { shopCouponTemplates(slug: $slug) { total items { id } } }`, { slug: shop.slug });
    expect(listed.data.shopCouponTemplates).toEqual({ total: 1, items: [{ id: templateId }] });
    const claimed = await mutate(t, 'claimCoupon', { templateId }, 'coupon { id status templateId shop { id } }', customer.token);
    const couponId = claimed.payload.coupon.id;
    expect(claimed.payload.coupon).toMatchObject({ status: 'AVAILABLE', templateId, shop: { id: shop.id } });
    const twice = await mutate(t, 'claimCoupon', { templateId }, 'coupon { id }', customer.token);
    expect(twice.payload.coupon).toBeNull();
    expect(twice.userErrors).toEqual([{ code: 'COUPON_ALREADY_CLAIMED', message: expect.any(String), field: null, details: expect.objectContaining({ templateId }) }]);

    await addToCart(t, customer.token, product.skuIds[0], 1);
    const dup = await mutate(t, 'checkout', { coupons: [{ shopId: shop.id, couponId }, { shopId: shop.id, couponId }], shippingAddress: GRAPHQL_ADDRESS }, 'orders { id }', customer.token);
    expect(dup.userErrors.map((e) => e.code)).toEqual(['VALIDATION_FAILED']);
    const stranger = await newCustomer(t);
    await addToCart(t, stranger.token, product.skuIds[0], 1);
    const notTheirs = await mutate(t, 'checkout', { coupons: [{ shopId: shop.id, couponId }], shippingAddress: GRAPHQL_ADDRESS }, 'orders { id }', stranger.token);
    expect(notTheirs.userErrors).toEqual([
      { code: 'COUPON_NOT_FOUND', message: expect.any(String), field: null, details: expect.objectContaining({ shopId: shop.id, couponId }) },
    ]);
    const checkout = await mutate(t, 'checkout', { coupons: [{ shopId: shop.id, couponId }], shippingAddress: GRAPHQL_ADDRESS }, 'orders { id itemsTotal discount total couponId }', customer.token);
    expect(checkout.errors).toBeUndefined();
    expect(checkout.payload.orders).toEqual([{ id: expect.any(Number), itemsTotal: 2000, discount: 350, total: 1650, couponId }]);
    const mine = await t.gql(`{ myCoupons(status: USED) { total items { id status usedAt } } }`, {}, customer.token);
    expect(mine.data.myCoupons).toMatchObject({ total: 1, items: [{ id: couponId, status: 'USED', usedAt: expect.any(String) }] });

    const disabled = await mutate(t, 'disableCouponTemplate', { templateId }, 'template { status }', operator.token);
    expect(disabled.payload.template.status).toBe('DISABLED');
    const deleted = await mutate(t, 'deleteCouponTemplate', { templateId }, 'deletedTemplateId', operator.token);
    expect(deleted.payload).toEqual({ deletedTemplateId: templateId, userErrors: [] });
    const gone = await t.gql(`{ myCoupons { items { id templateId } } }`, {}, customer.token);
    expect(gone.data.myCoupons.items).toEqual([{ id: couponId, templateId: null }]);
  });
});

describe('coupon rules as pure functions', () => {
  const draft = (pricings: ItemPricing[], unitPrice = 1000): DraftOrder => ({
    shopId: 7,
    discount: 0,
    items: pricings.map((pricing, i) => ({ skuId: i + 1, skuName: 'v', productId: 1, productName: 'p', unitPrice, quantity: 1, pricing })),
  });
  const coupon: CouponRow = {
    id: 3, shop: 7, status: CouponStatus.Available, discountKind: DiscountKind.Fixed, amountOff: 100, percentOff: null, maxDiscount: null,
    minOrderAmount: 0, validFrom: new Date(0), validUntil: new Date(Date.now() + DAY), inWindow: true,
  };

  it('refuses a coupon on a shop order with flash-sale pricing or a group-buying order', () => {
    expect(couponForbiddenBy(draft([ItemPricing.Standard, ItemPricing.Standard]))).toBeUndefined();
    expect(couponForbiddenBy(draft([ItemPricing.Standard, ItemPricing.FlashSale]))).toBe(ItemPricing.FlashSale);
    expect(couponForbiddenBy(draft([ItemPricing.GroupBuy]))).toBe(ItemPricing.GroupBuy);
    for (const pricing of [ItemPricing.FlashSale, ItemPricing.GroupBuy]) {
      const refusal = couponRefusal(coupon, draft([ItemPricing.Standard, pricing]), { shopId: 7, couponId: 3 });
      expect(refusal).toMatchObject({ code: 'COUPON_NOT_ALLOWED', status: 422, details: { shop_id: 7, coupon_id: 3, pricing } });
    }
    expect(couponRefusal(coupon, draft([ItemPricing.Standard]), { shopId: 7, couponId: 3 })).toBeUndefined();
  });

  it('computes fixed and percentage discounts: rounded down, capped, at most the amount', () => {
    const pct = { discountKind: DiscountKind.Percent, amountOff: null, percentOff: 15, maxDiscount: null };
    expect(couponDiscount({ ...coupon }, 1000)).toBe(100);
    expect(couponDiscount({ ...coupon }, 60)).toBe(60);
    expect(couponDiscount(pct, 999)).toBe(149);
    expect(couponDiscount({ ...pct, maxDiscount: 120 }, 999)).toBe(120);
    expect(couponDiscount({ ...pct, percentOff: 100 }, 999)).toBe(999);
    expect(couponDiscount(pct, 0)).toBe(0);
  });
});

describe('ledger', () => {
  it('replays to every balance after the coupon purchases above', async () => {
    expect(await expectLedgerReplays(t)).toBeGreaterThan(0);
  });
});
