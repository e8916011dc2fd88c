import { randomUUID } from 'node:crypto';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newOperator, newProduct, newShop, type TestUser } from './support/fixtures.js';
import { addToCart, checkoutOk, payOk } from './support/shopping.js';
import { loadConfig } from '../src/config.js';
import { inTransaction } from '../src/shared/transaction.js';
import { CouponTemplate } from '../src/entities/coupon-template.entity.js';

/**
 * The audit log (issue 41, item 5): who, in which role, for which shop, which operation on which row,
 * the changed fields before and after, the request id and the time; written by the write's own
 * transaction and append-only in the database; the same entry through either door; read by platform
 * admins (all of it, filtered) and by a shop's members (their shop's only). Every staff write of the
 * route table is walked in test/audit-walk.test.ts.
 */
let t: TestApp;
let admin: TestUser;
let shop: { id: number; slug: string };
let operator: TestUser;
let otherShop: { id: number; slug: string; name: string };
let otherOperator: TestUser;

beforeAll(async () => {
  t = await startTestApp({ webhooks: { ...loadConfig({ NODE_ENV: 'test' }).webhooks, allowPrivate: true, allowHttp: true } });
  admin = await newAdmin(t);
  shop = await newShop(t);
  operator = await newOperator(t, shop.id);
  otherShop = await newShop(t);
  otherOperator = await newOperator(t, otherShop.id);
});
afterAll(() => t.close());

interface Entry {
  id: string;
  operation: string;
  actor_id: number;
  actor_role: string;
  shop_id: number | null;
  target_type: string;
  target_id: string;
  action: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  request_id: string;
  occurred_at: Date;
}

const entriesOf = (requestId: string) => t.sql<Entry>('select * from audit_entry where request_id = ? order by id', [requestId]);
const couponBody = { name: '5 off', discount_kind: 'fixed', amount_off: 500, min_order_amount: 3000, valid_days: 7, claim_stock: 50 };

async function call(method: string, path: string, token: string, body?: unknown): Promise<{ requestId: string; status: number; body: any }> {
  const requestId = `audit-${randomUUID()}`;
  const res = await t.api(method, path, { token, body, headers: { 'x-request-id': requestId } });
  return { requestId, status: res.status, body: res.body };
}

describe('what an entry holds', () => {
  it('records who, the role, the shop, the operation, the row, the changed fields before and after, the request id and the time', async () => {
    const created = await call('POST', '/api/merchant/coupon-templates', operator.token, couponBody);
    expect(created.status).toBe(201);
    const renamed = await call('PATCH', `/api/merchant/coupon-templates/${created.body.id}`, operator.token, { name: '6 off' });
    expect(renamed.status).toBe(200);
    const [entry] = await entriesOf(renamed.requestId);
    expect(entry).toMatchObject({
      operation: 'updateCouponTemplate', actor_id: operator.id, actor_role: 'shop_owner', shop_id: shop.id,
      target_type: 'CouponTemplate', target_id: String(created.body.id), action: 'update', request_id: renamed.requestId,
    });
    // Only the fields the write changed, by column name; the name's old and new values.
    expect(entry.before).toMatchObject({ name: '5 off' });
    expect(entry.after).toMatchObject({ name: '6 off' });
    expect(Object.keys(entry.after!).sort()).toEqual(Object.keys(entry.before!).sort());
    expect(Object.keys(entry.after!)).not.toContain('amount_off');
    expect(Date.now() - new Date(entry.occurred_at).getTime()).toBeLessThan(60 * 60_000);

    // A created row: no before, every field after.
    const [made] = await entriesOf(created.requestId);
    expect(made).toMatchObject({ operation: 'createCouponTemplate', action: 'create', before: null, target_id: String(created.body.id) });
    expect(made.after).toMatchObject({ name: '5 off', amount_off: 500, shop_id: shop.id });
    // A deleted row: every field before, no after.
    const deleted = await call('DELETE', `/api/merchant/coupon-templates/${created.body.id}`, operator.token);
    expect(deleted.status).toBe(204);
    const [gone] = await entriesOf(deleted.requestId);
    expect(gone).toMatchObject({ operation: 'deleteCouponTemplate', action: 'delete', after: null });
    expect(gone.before).toMatchObject({ name: '6 off' });
  });

  it('gives an admin\'s write the shop of the row it changed, and a platform row none', async () => {
    const suspended = await call('POST', `/api/admin/shops/${otherShop.id}/suspend`, admin.token, { reason: 'Counterfeits' });
    expect(suspended.status).toBe(200);
    const [entry] = await entriesOf(suspended.requestId);
    expect(entry).toMatchObject({ operation: 'suspendShop', actor_role: 'platform_admin', shop_id: otherShop.id, target_type: 'Shop', target_id: String(otherShop.id) });
    expect(entry.before).toMatchObject({ status: 'active' });
    expect(entry.after).toMatchObject({ status: 'suspended', status_reason: 'Counterfeits' });
    expect((await call('POST', `/api/admin/shops/${otherShop.id}/reinstate`, admin.token)).status).toBe(200);

    const brands = await call('PUT', '/api/admin/brands', admin.token, { items: [{ name: 'Platform brand' }] });
    expect(brands.status).toBe(200);
    const [brand] = await entriesOf(brands.requestId);
    expect(brand).toMatchObject({ operation: 'replaceBrands', target_type: 'Brand', action: 'create', shop_id: null });
    // Read through the door, a platform row names no shop.
    const listed = await t.api('GET', '/api/admin/audit-entries?target_type=Brand&page_size=1', { token: admin.token });
    expect(listed.body.items[0]).toMatchObject({ shop_id: null, shop_name: null });
  });

  it('never holds a secret: a rotated webhook secret is logged as changed, not as what it is', async () => {
    const endpoint = await call('POST', '/api/merchant/webhooks', operator.token, { url: 'http://127.0.0.1:9/hooks', event_types: ['order.paid'] });
    expect(endpoint.status).toBe(201);
    const [created] = await entriesOf(endpoint.requestId);
    expect(created.after).toMatchObject({ secret: '[redacted]', url: 'http://127.0.0.1:9/hooks' });
    const rotated = await call('POST', `/api/merchant/webhooks/${endpoint.body.id}/rotate-secret`, operator.token);
    const [entry] = await entriesOf(rotated.requestId);
    expect(entry.before).toMatchObject({ secret: '[redacted]', previous_secret: null });
    expect(entry.after).toMatchObject({ secret: '[redacted]', previous_secret: '[redacted]' });
    const text = JSON.stringify(await t.sql('select before, after from audit_entry'));
    expect(text).not.toContain(endpoint.body.secret);
    expect(text).not.toContain(rotated.body.secret);
  });
});

describe('one transaction with the write', () => {
  it('leaves no entry when the write rolls back, and no write without its entry', async () => {
    const category = await newCategory(t);
    const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 1000, stock: 2 }] });
    const [sku] = (await t.api('GET', `/api/products/${product.id}`)).body.skus;
    // The edit renames the product (flushed) and then takes more stock than there is: refused whole.
    const refused = await call('PUT', '/api/merchant/products', operator.token, {
      id: product.id, name: 'Renamed', description: 'd', image_url: 'https://img.test/p.jpg', category_id: category.id,
      skus: [{ id: sku.id, name: sku.name, price: sku.price, stock_delta: -5 }],
    });
    expect([refused.status, refused.body.error?.code]).toEqual([422, 'INSUFFICIENT_STOCK']);
    expect(await entriesOf(refused.requestId)).toEqual([]);
    expect((await t.sql('select name from product where id = ?', [product.id]))[0].name).not.toBe('Renamed');

    // A use case that changed a row and then failed: neither the row nor its entry is kept.
    const ctx = { ...(await t.context(operator.token)), operation: 'probe', requestId: `audit-${randomUUID()}` };
    const template = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: couponBody });
    await expect(inTransaction(ctx, async (tx) => {
      const row = await tx.em.findOneOrFail(CouponTemplate, template.body.id);
      row.name = 'Never';
      await tx.em.flush();
      throw new Error('the use case fails after its flush');
    })).rejects.toThrow('after its flush');
    expect(await entriesOf(ctx.requestId)).toEqual([]);
    expect((await t.sql('select name from coupon_template where id = ?', [template.body.id]))[0].name).toBe('5 off');
    // The same work committing writes the row and its entry together.
    await inTransaction(ctx, async (tx) => {
      const row = await tx.em.findOneOrFail(CouponTemplate, template.body.id);
      row.name = 'Kept';
    });
    expect((await entriesOf(ctx.requestId)).map((e) => [e.operation, e.before?.name, e.after?.name])).toEqual([['probe', '5 off', 'Kept']]);
  });

  it('is append-only in the database: UPDATE, DELETE and TRUNCATE are refused', async () => {
    const made = await call('POST', '/api/merchant/coupon-templates', operator.token, couponBody);
    const [entry] = await entriesOf(made.requestId);
    await expect(t.sql(`update audit_entry set actor_id = 1 where id = ?`, [entry.id])).rejects.toThrow(/append-only/);
    await expect(t.sql(`delete from audit_entry where id = ?`, [entry.id])).rejects.toThrow(/append-only/);
    await expect(t.sql('truncate audit_entry')).rejects.toThrow(/append-only/);
    expect(await entriesOf(made.requestId)).toHaveLength(1);
  });
});

describe('both doors', () => {
  it('writes the same entry for the same operation through REST and GraphQL', async () => {
    const viaRest = await call('POST', '/api/merchant/coupon-templates', operator.token, couponBody);
    const res = await t.gql(
      `mutation($input: CreateCouponTemplateInput!) { createCouponTemplate(input: $input) { template { id } userErrors { code } } }`,
      { input: { name: '5 off', discountKind: 'FIXED', amountOff: 500, minOrderAmount: 3000, validDays: 7, claimStock: 50 } },
      operator.token,
    );
    expect(res.errors).toBeUndefined();
    const viaGraphql = await t.sql<Entry>(`select * from audit_entry where operation = 'createCouponTemplate' and target_id = ?`, [String(res.data.createCouponTemplate.template.id)]);
    const [rest] = await entriesOf(viaRest.requestId);
    const same = (e: Entry) => ({ ...e, id: undefined, request_id: undefined, target_id: undefined, occurred_at: undefined, after: { ...e.after, id: undefined, created_at: undefined, updated_at: undefined } });
    expect(viaGraphql).toHaveLength(1);
    expect(same(viaGraphql[0])).toEqual(same(rest));
  });

  it('names each mutation of one GraphQL document by its own field', async () => {
    const a = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: couponBody });
    const b = await t.api('POST', '/api/merchant/coupon-templates', { token: operator.token, body: couponBody });
    const res = await t.gql(
      `mutation { d: disableCouponTemplate(input: { templateId: ${a.body.id} }) { template { id } } u: updateCouponTemplate(input: { templateId: ${b.body.id}, name: "Both" }) { template { id } } }`,
      undefined,
      operator.token,
    );
    expect(res.errors).toBeUndefined();
    const rows = await t.sql<{ operation: string; target_id: string }>(`select operation, target_id from audit_entry where target_type = 'CouponTemplate' and target_id in (?, ?) and action = 'update' order by id`, [String(a.body.id), String(b.body.id)]);
    expect(rows).toEqual([{ operation: 'disableCouponTemplate', target_id: String(a.body.id) }, { operation: 'updateCouponTemplate', target_id: String(b.body.id) }]);
  });
});

describe("customers' writes", () => {
  it('are not audited and cost the checkout and pay path no statement', async () => {
    const category = await newCategory(t);
    const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus: [{ price: 1000, stock: 10 }] });
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const [{ n: before }] = await t.sql<{ n: number }>('select count(*)::int as n from audit_entry');
    t.resetQueryLog();
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const [order] = await checkoutOk(t, customer.token);
    await payOk(t, customer.token, order.id);
    expect(t.queries.filter((q) => /audit_entry|to_jsonb\(t\)/.test(q))).toEqual([]);
    expect((await t.sql<{ n: number }>('select count(*)::int as n from audit_entry'))[0].n).toBe(before);
  });
});

describe('reading the log', () => {
  it('lets an admin filter by shop, actor, operation, target and time, newest first, and read on past an entry', async () => {
    const marker = await call('POST', '/api/merchant/coupon-templates', otherOperator.token, { ...couponBody, name: 'Filtered' });
    const templateId = String(marker.body.id);
    await call('PATCH', `/api/merchant/coupon-templates/${templateId}`, otherOperator.token, { name: 'Filtered again' });
    const list = (query: string) => t.api('GET', `/api/admin/audit-entries?${query}`, { token: admin.token });

    const byTarget = await list(`target_type=CouponTemplate&target_id=${templateId}`);
    expect(byTarget.status).toBe(200);
    expect(byTarget.body).toMatchObject({ page: 1, page_size: 20, total: 2 });
    expect(byTarget.body.items.map((e: { operation: string }) => e.operation)).toEqual(['updateCouponTemplate', 'createCouponTemplate']);
    const [latest] = byTarget.body.items;
    expect(latest).toMatchObject({
      actor_id: otherOperator.id, actor_email: otherOperator.email, actor_role: 'shop_owner', shop_id: otherShop.id, shop_name: otherShop.name,
      target_type: 'CouponTemplate', target_id: templateId, action: 'update', request_id: expect.stringMatching(/^audit-/), occurred_at: expect.any(String),
    });
    expect(latest.changes).toContainEqual({ field: 'name', before: '"Filtered"', after: '"Filtered again"' });

    const byShop = await list(`shop_id=${otherShop.id}&page_size=100`);
    expect(byShop.body.items.every((e: { shop_id: number }) => e.shop_id === otherShop.id)).toBe(true);
    expect(byShop.body.items.map((e: { target_id: string }) => e.target_id)).toContain(templateId);
    const byActor = await list(`actor_id=${otherOperator.id}&operation=updateCouponTemplate`);
    expect(byActor.body.items.map((e: { target_id: string }) => e.target_id)).toEqual([templateId]);
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect((await list(`from=${encodeURIComponent(future)}`)).body).toMatchObject({ items: [], total: 0 });
    expect((await list(`to=${encodeURIComponent(future)}&target_type=CouponTemplate&target_id=${templateId}`)).body.total).toBe(2);
    // A keyset: the entries older than the newest one.
    const older = await list(`target_type=CouponTemplate&target_id=${templateId}&before_id=${latest.id}`);
    expect(older.body.items.map((e: { operation: string }) => e.operation)).toEqual(['createCouponTemplate']);

    // The same over GraphQL, the values as JSON texts.
    const res = await t.gql(
      `query($id: String) { auditEntries(targetType: "CouponTemplate", targetId: $id) { total items { operation actorRole shopId shopName action changes { field before after } } } }`,
      { id: templateId },
      admin.token,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.auditEntries.total).toBe(2);
    expect(res.data.auditEntries.items[0]).toMatchObject({ operation: 'updateCouponTemplate', actorRole: 'shop_owner', shopId: otherShop.id, shopName: otherShop.name, action: 'UPDATE' });
    expect(res.data.auditEntries.items[0].changes).toContainEqual({ field: 'name', before: '"Filtered"', after: '"Filtered again"' });
  });

  it("shows a shop's member their own shop's entries only, and refuses another shop's", async () => {
    const mine = await call('POST', '/api/merchant/coupon-templates', operator.token, { ...couponBody, name: 'Mine' });
    const theirs = await call('POST', '/api/merchant/coupon-templates', otherOperator.token, { ...couponBody, name: 'Theirs' });
    const read = await t.api('GET', '/api/merchant/audit-entries?page_size=100', { token: operator.token });
    expect(read.status).toBe(200);
    const ids = read.body.items.map((e: { target_id: string }) => e.target_id);
    expect(ids).toContain(String(mine.body.id));
    expect(ids).not.toContain(String(theirs.body.id));
    expect(read.body.items.every((e: { shop_id: number }) => e.shop_id === shop.id)).toBe(true);
    expect((await t.api('GET', `/api/merchant/audit-entries?shop_id=${shop.id}`, { token: operator.token })).status).toBe(200);

    const other = await t.api('GET', `/api/merchant/audit-entries?shop_id=${otherShop.id}`, { token: operator.token });
    expect(other.status).toBe(403);
    expect(other.body.error.code).toBe('FORBIDDEN');
    const gql = await t.gql(`{ auditEntries(shopId: ${otherShop.id}) { total } }`, undefined, operator.token);
    expect(gql.errors?.[0].extensions.code).toBe('FORBIDDEN');
    const own = await t.gql(`{ auditEntries { items { shopId } } }`, undefined, operator.token);
    expect(own.data.auditEntries.items.every((e: { shopId: number }) => e.shopId === shop.id)).toBe(true);
    // The platform's door is the platform's.
    expect((await t.api('GET', '/api/admin/audit-entries', { token: operator.token })).status).toBe(403);
  });

  it('names each target in the same read: a product, its SKU, an order, a shop, an account; none once the row is gone', async () => {
    const named = await newShop(t);
    const member = await newOperator(t, named.id);
    const category = await newCategory(t);
    const upserted = await call('PUT', '/api/merchant/products', member.token, {
      name: 'Cedar Box', description: 'Boxed', image_url: 'https://img.test/cedar.jpg', category_id: category.id, skus: [{ name: 'Large', price: 1000, stock: 3 }],
    });
    expect(upserted.status).toBeLessThan(300);
    // The shop's own member reads the same name.
    const own = await t.gql(`{ auditEntries(targetType: "Product", targetId: "${upserted.body.id}") { items { targetName } } }`, undefined, member.token);
    expect([...new Set(own.data.auditEntries.items.map((e: { targetName: string }) => e.targetName))]).toEqual(['Cedar Box']);
    const coupon = await call('POST', '/api/merchant/coupon-templates', member.token, { ...couponBody, name: 'Gone soon' });
    expect((await call('DELETE', `/api/merchant/coupon-templates/${coupon.body.id}`, member.token)).status).toBe(204);
    // An order, shipped by the shop: named by its number and its customer.
    const sold = await newProduct(t, { shopId: named.id, categoryId: category.id, skus: [{ price: 1000, stock: 5 }] });
    const buyer = await newCustomer(t, { available: 100_000, points: 0 });
    await addToCart(t, buyer.token, sold.skuIds[0], 1);
    const [order] = await checkoutOk(t, buyer.token);
    await payOk(t, buyer.token, order.id);
    const shipped = await call('POST', `/api/merchant/orders/${order.id}/shipments`, member.token, { company_code: 'sf', tracking_number: 'SF-NAMES' });
    expect(shipped.status).toBeLessThan(300);
    expect((await call('POST', `/api/admin/shops/${named.id}/suspend`, admin.token, { reason: 'Naming' })).status).toBe(200);
    const [{ display_name: buyerName }] = await t.sql<{ display_name: string }>('select display_name from app_user where id = ?', [buyer.id]);

    const read = await t.api('GET', `/api/admin/audit-entries?shop_id=${named.id}&page_size=100`, { token: admin.token });
    expect(read.status).toBe(200);
    const items: { target_type: string; target_id: string; target_name: string | null }[] = read.body.items;
    const namesOf = (type: string) => [...new Set(items.filter((e) => e.target_type === type).map((e) => e.target_name))];
    // Cedar Box, and the product sold (held by the suspension): each by its own name.
    const products = await t.sql<{ id: string; name: string }>('select id::text as id, name from product where shop_id = ?', [named.id]);
    expect(items.filter((e) => e.target_type === 'Product').map((e) => [e.target_id, e.target_name])).toEqual(
      items.filter((e) => e.target_type === 'Product').map((e) => [e.target_id, products.find((p) => p.id === e.target_id)?.name]),
    );
    expect(namesOf('Product')).toContain('Cedar Box');
    expect(namesOf('Sku')).toEqual(['Cedar Box · Large']);
    expect(namesOf('Shipment')).toEqual([`Order #${order.id}, ${buyerName}`]);
    expect(namesOf('Shop')).toEqual([named.name]);
    // The template is deleted: its entries keep its type and id, and name nothing.
    expect(namesOf('CouponTemplate')).toEqual([null]);
    expect(items.filter((e) => e.target_type === 'CouponTemplate').map((e) => e.target_id)).toContain(String(coupon.body.id));

    // A platform row: an account, by its display name.
    const customer = await newCustomer(t);
    expect((await call('POST', `/api/admin/customers/${customer.id}/disable`, admin.token, { reason: 'Chargebacks' })).status).toBeLessThan(300);
    const [{ display_name: customerName }] = await t.sql<{ display_name: string }>('select display_name from app_user where id = ?', [customer.id]);
    const account = await t.api('GET', `/api/admin/audit-entries?target_type=User&target_id=${customer.id}`, { token: admin.token });
    expect(account.body.items[0]).toMatchObject({ target_type: 'User', target_name: customerName, shop_id: null });

    // The same names over GraphQL.
    const gql = await t.gql(`query($shop: Int) { auditEntries(shopId: $shop, pageSize: 100) { items { targetType targetId targetName } } }`, { shop: named.id }, admin.token);
    expect(gql.errors).toBeUndefined();
    expect(gql.data.auditEntries.items).toEqual(items.map((e) => ({ targetType: e.target_type, targetId: e.target_id, targetName: e.target_name })));
  });

  it('refuses customers and anonymous callers, and bad filters clearly', async () => {
    const customer = await newCustomer(t);
    expect((await t.api('GET', '/api/admin/audit-entries', { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/merchant/audit-entries', { token: customer.token })).status).toBe(403);
    expect((await t.gql('{ auditEntries { total } }', undefined, customer.token)).errors?.[0].extensions.code).toBe('FORBIDDEN');
    expect((await t.api('GET', '/api/admin/audit-entries')).status).toBe(401);
    for (const query of ['target_id=5', 'from=yesterday', 'shop_id=abc', 'page_size=1000', 'operation=', 'before_id=0', `from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z`]) {
      const res = await t.api('GET', `/api/admin/audit-entries?${query}`, { token: admin.token });
      expect([query, res.status, res.body.error?.code]).toEqual([query, 400, 'VALIDATION_FAILED']);
    }
  });

});
