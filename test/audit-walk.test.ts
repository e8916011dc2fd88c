import { allPermissions, isShopPermission, Permission } from '../src/shared/permissions.js';
import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCustomer, newMember, newOperator, newProduct, newShop, newStaff, type TestUser } from './support/fixtures.js';
import { PlatformRole } from '../src/entities/user.entity.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';
import { ADDRESS, deliverOk, payOk, placeOrder, shipOk } from './support/shopping.js';
import { minutesFromNow } from './support/flash-sales.js';
import { loadConfig } from '../src/config.js';
import { apiRouter } from '../src/rest/api.js';
import { registeredOperations, type RegisteredOperation } from '../src/rest/openapi/operation.js';
import { operationName } from '../src/rest/operation-names.js';
import { graphqlSchema } from '../src/resolvers/schema.js';
import { completeDeliveredOrders } from '../src/services/orders/order.service.js';
import { systemContext } from '../src/server/jobs.js';

/**
 * The audit log's walk (issue 41, item 5, "every write operation in the route table appears in the
 * log when called"): every write of staff, as the route table declares it (shop operator and platform
 * admin access levels), is called with valid input, and an entry under its one operation name, with
 * its request id, its actor and role, must be in the log. The list comes from the route table: a new
 * staff write with no call below, or whose use case writes without an entry, fails here. Customers'
 * writes are not staff writes and are not audited (docs/decisions.md, "Audit log").
 */
let t: TestApp;
let admin: TestUser;
let shopId: number;
let operator: TestUser;
let categoryId: number;
let skuId: number;

const base = loadConfig({ NODE_ENV: 'test' }).webhooks;
// No receiver listens there: a ping's or redelivery's send fails, which they record as any attempt.
const HOOK_URL = 'http://127.0.0.1:9/hooks';

beforeAll(async () => {
  t = await startTestApp({ webhooks: { ...base, allowPrivate: true, allowHttp: true, timeoutMs: 500 } });
  admin = await newAdmin(t);
  const shop = await newShop(t);
  shopId = shop.id;
  operator = await newOperator(t, shopId);
  categoryId = (await newCategory(t)).id;
  const product = await newProduct(t, { shopId, categoryId, skus: [{ price: 1000, stock: 500 }, { price: 2000, stock: 500 }] });
  skuId = product.skuIds[0];
});
afterAll(() => t.close());

/** Staff permissions: held through a shop membership or a platform role (not a customer's or anyone's). */
const STAFF = new Set<Permission>(allPermissions().filter((p) => p !== Permission.Public && p !== Permission.SignedIn && p !== Permission.Customer));

const staffWrites = (): RegisteredOperation[] => {
  apiRouter();
  return registeredOperations().filter((op) => op.method !== 'get' && STAFF.has(op.doc.permission));
};
const keyOf = (op: { method: string; path: string }) => `${op.method.toUpperCase()} ${op.path}`;

/** A call of one operation: its path with ids filled in, its body, and who calls. */
interface Call {
  path: string;
  body?: unknown;
  token: string;
  /** A file sent as the body (an upload), with its type. */
  file?: { bytes: Buffer; type: string };
}

/** A picture no call has sent before: an upload of a known one writes nothing. */
let pictures = 0;
const newPicture = async () => ({ bytes: await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: pictures++ % 256, g: 9, b: 99 } } }).png().toBuffer(), type: 'image/png' });

async function ok<T = any>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await t.api(method, path, { token, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
}

async function paidOrder(customer: TestUser, quantity = 1) {
  const order = await placeOrder(t, customer.token, skuId, quantity);
  await payOk(t, customer.token, order.id);
  return order;
}

async function deliveredOrder(customer: TestUser) {
  const order = await paidOrder(customer);
  await shipOk(t, operator.token, order.id);
  await deliverOk(t, customer.token, order.id);
  return order;
}

async function requestedRefund(kind: 'refund' | 'return' = 'refund') {
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const order = kind === 'return' ? await deliveredOrder(customer) : await paidOrder(customer);
  const refund = await ok('POST', `/api/orders/${order.id}/refunds`, customer.token, { kind, reason: 'Changed my mind', items: [{ order_item_id: order.items[0].id, quantity: 1 }] });
  return { customer, order, refund };
}

async function openDispute() {
  const { customer, refund } = await requestedRefund();
  await ok('POST', `/api/merchant/refunds/${refund.id}/reject`, operator.token, { reason: 'Already packed' });
  return ok('POST', `/api/refunds/${refund.id}/dispute`, customer.token, { reason: 'It never shipped' });
}

async function availableEarnings() {
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const order = await deliveredOrder(customer);
  await t.sql(`update shop_order set delivered_at = now() - interval '8 days' where id = ?`, [order.id]);
  await completeDeliveredOrders(systemContext(t.deps, 'test'));
}

async function review() {
  const customer = await newCustomer(t, { available: 100_000, points: 0 });
  const order = await deliveredOrder(customer);
  return ok('POST', `/api/orders/${order.id}/items/${order.items[0].id}/review`, customer.token, { rating: 4, text: 'Good' });
}

async function pointsProduct() {
  return ok('POST', '/api/admin/points/products', admin.token, { name: 'Pen', description: 'Blue ink', points_price: 10, stock: 50 });
}

async function webhook(token: string, scope: 'admin' | 'merchant') {
  return ok('POST', `/api/${scope}/webhooks`, token, { url: HOOK_URL, event_types: ['order.paid'] });
}

/** An event the endpoint may be sent again: a paid order of the shop (every scope receives it). */
async function eventId(): Promise<string> {
  await paidOrder(await newCustomer(t, { available: 100_000, points: 0 }));
  const [row] = await t.sql<{ id: string }>(`select id::text as id from event where type = 'order.paid' order by id desc limit 1`);
  return row.id;
}

const couponBody = { name: '5 off', discount_kind: 'fixed', amount_off: 500, min_order_amount: 3000, valid_days: 7, claim_stock: 50 };
// Each session in a window of its own: enabling one never overlaps another.
let sessions = 0;
const flashBody = (name = 'Midnight') => ({
  name, starts_at: minutesFromNow(600 + 120 * ++sessions).toISOString(), ends_at: minutesFromNow(660 + 120 * sessions).toISOString(),
  items: [{ sku_id: skuId, activity_price: 700, reserved_stock: 5, per_customer_limit: 2 }],
});
const groupBody = (price = 700) => ({ sku_id: skuId, group_price: price, capacity: 3, lifetime_minutes: 1440, starts_at: minutesFromNow(-10).toISOString(), ends_at: minutesFromNow(60 * 24 * 7).toISOString() });
const freightBody = (name = 'Standard') => ({ name, first_unit_fee: 800, additional_unit_fee: 200, free_threshold: 9900, regions: [] });
const applicationBody = () => {
  const slug = `walk-${randomUUID().slice(0, 8)}`;
  return { legal_name: 'Walk Ltd', shop_name: `Walk ${slug}`, slug, contact_name: 'Wanda', contact_phone: '+86 138 0000 0000', contact_email: `${slug}@walk.test`, category_ids: [categoryId], terms_accepted: true };
};
const application = async () => ok('POST', '/api/me/shop-applications', (await newCustomer(t)).token, applicationBody());
const draftProduct = (name = 'Walk product') => ({ name, description: 'Walked', image_url: 'https://img.test/walk.jpg', category_id: categoryId, skus: [{ name: 'One', price: 1000, stock: 3 }] });

/** How to call each staff write with valid input, by method and route as the router declares it. */
const CALLS: Record<string, () => Promise<Call>> = {
  // Platform admins.
  'DELETE /admin/webhooks/:id': async () => ({ path: `/api/admin/webhooks/${(await webhook(admin.token, 'admin')).id}`, token: admin.token }),
  'PATCH /admin/webhooks/:id': async () => ({ path: `/api/admin/webhooks/${(await webhook(admin.token, 'admin')).id}`, body: { event_types: ['order.paid', 'stock.low'] }, token: admin.token }),
  'POST /admin/webhooks': async () => ({ path: '/api/admin/webhooks', body: { url: HOOK_URL, event_types: ['stock.low'] }, token: admin.token }),
  'POST /admin/webhooks/:id/ping': async () => ({ path: `/api/admin/webhooks/${(await webhook(admin.token, 'admin')).id}/ping`, token: admin.token }),
  'POST /admin/webhooks/:id/redeliver': async () => {
    const endpoint = await webhook(admin.token, 'admin');
    return { path: `/api/admin/webhooks/${endpoint.id}/redeliver`, body: { event_id: await eventId() }, token: admin.token };
  },
  'POST /admin/webhooks/:id/rotate-secret': async () => ({ path: `/api/admin/webhooks/${(await webhook(admin.token, 'admin')).id}/rotate-secret`, token: admin.token }),
  'POST /admin/customers/:customerId/disable': async () => ({ path: `/api/admin/customers/${(await newCustomer(t)).id}/disable`, body: { reason: 'Chargebacks' }, token: admin.token }),
  'POST /admin/customers/:customerId/enable': async () => {
    const customer = await newCustomer(t);
    await ok('POST', `/api/admin/customers/${customer.id}/disable`, admin.token, { reason: 'Chargebacks' });
    return { path: `/api/admin/customers/${customer.id}/enable`, token: admin.token };
  },
  'POST /admin/disputes/:disputeId/refund': async () => ({ path: `/api/admin/disputes/${(await openDispute()).id}/refund`, body: { amount: 500, reason: 'Half back' }, token: admin.token }),
  'POST /admin/disputes/:disputeId/uphold': async () => ({ path: `/api/admin/disputes/${(await openDispute()).id}/uphold`, body: { reason: 'Made to order' }, token: admin.token }),
  'POST /admin/payout-batches': async () => {
    await availableEarnings();
    return { path: '/api/admin/payout-batches', body: { threshold: 1 }, token: admin.token };
  },
  'POST /admin/payouts/:payoutId/settle': async () => {
    await availableEarnings();
    const batch = await ok('POST', '/api/admin/payout-batches', admin.token, { threshold: 1 });
    const payout = batch.payouts.find((p: { shop_id: number }) => p.shop_id === shopId);
    return { path: `/api/admin/payouts/${payout.id}/settle`, body: { status: 'paid' }, token: admin.token };
  },
  'POST /admin/points/products': async () => ({ path: '/api/admin/points/products', body: { name: 'Mug', description: 'White', points_price: 20, stock: 5 }, token: admin.token }),
  'PUT /admin/points/products/:id': async () => ({ path: `/api/admin/points/products/${(await pointsProduct()).id}`, body: { name: 'Renamed', published: true }, token: admin.token }),
  'POST /admin/redemptions/:id/fulfil': async () => {
    const product = await pointsProduct();
    await ok('PUT', `/api/admin/points/products/${product.id}`, admin.token, { published: true });
    const customer = await newCustomer(t, { available: 0, points: 1000 });
    const redemption = await ok('POST', `/api/points/products/${product.id}/redeem`, customer.token, { quantity: 1, shipping_address: ADDRESS });
    return { path: `/api/admin/redemptions/${redemption.id}/fulfil`, token: admin.token };
  },
  'POST /admin/reviews/:reviewId/hide': async () => ({ path: `/api/admin/reviews/${(await review()).id}/hide`, token: admin.token }),
  'POST /admin/reviews/:reviewId/show': async () => {
    const written = await review();
    await ok('POST', `/api/admin/reviews/${written.id}/hide`, admin.token);
    return { path: `/api/admin/reviews/${written.id}/show`, token: admin.token };
  },
  'POST /admin/shop-applications/:applicationId/approve': async () => ({ path: `/api/admin/shop-applications/${(await application()).id}/approve`, token: admin.token }),
  'POST /admin/shop-applications/:applicationId/reject': async () => ({ path: `/api/admin/shop-applications/${(await application()).id}/reject`, body: { reason: 'No licence' }, token: admin.token }),
  'POST /admin/shops/:shopId/close': async () => ({ path: `/api/admin/shops/${(await newShop(t)).id}/close`, token: admin.token }),
  'POST /admin/shops/:shopId/suspend': async () => ({ path: `/api/admin/shops/${(await newShop(t)).id}/suspend`, body: { reason: 'Counterfeits' }, token: admin.token }),
  'POST /admin/shops/:shopId/reinstate': async () => {
    const shop = await newShop(t);
    await ok('POST', `/api/admin/shops/${shop.id}/suspend`, admin.token, { reason: 'Counterfeits' });
    return { path: `/api/admin/shops/${shop.id}/reinstate`, token: admin.token };
  },
  'POST /admin/shops/:shopId/commission-rates': async () => ({ path: `/api/admin/shops/${shopId}/commission-rates`, body: { rate_bp: 500 }, token: admin.token }),
  'PUT /admin/brands': async () => ({ path: '/api/admin/brands', body: { items: [{ name: `Brand ${randomUUID().slice(0, 6)}` }] }, token: admin.token }),
  'PUT /admin/content/:kind': async () => ({ path: '/api/admin/content/banners', body: { items: [{ title: `Sale ${randomUUID().slice(0, 6)}`, destination: '/flash-sales' }] }, token: admin.token }),
  'PUT /admin/staff/:userId/role': async () => ({ path: `/api/admin/staff/${(await newStaff(t, PlatformRole.Content)).id}/role`, body: { role: 'support' }, token: admin.token }),
  'DELETE /admin/staff/:userId': async () => ({ path: `/api/admin/staff/${(await newStaff(t, PlatformRole.Finance)).id}`, token: admin.token }),
  'POST /admin/staff-invitations': async () => ({ path: '/api/admin/staff-invitations', body: { email: `staff-${randomUUID()}@example.test`, role: 'support' }, token: admin.token }),
  'DELETE /admin/staff-invitations/:invitationId': async () => {
    const sent = await ok<{ invitation: { id: number } }>('POST', '/api/admin/staff-invitations', admin.token, { email: `revoked-staff-${randomUUID()}@example.test`, role: 'content' });
    return { path: `/api/admin/staff-invitations/${sent.invitation.id}`, token: admin.token };
  },
  'PUT /admin/shops/:id/profile': async () => ({ path: `/api/admin/shops/${shopId}/profile`, body: { logo_url: 'https://img.test/logo.png', description: `Profile ${randomUUID().slice(0, 6)}` }, token: admin.token }),

  'POST /admin/staff-invitations/:invitationId/resend': async () => {
    const sent = await ok<{ invitation: { id: number } }>('POST', '/api/admin/staff-invitations', admin.token, { email: `resent-staff-${randomUUID()}@example.test`, role: 'content' });
    return { path: `/api/admin/staff-invitations/${sent.invitation.id}/resend`, token: admin.token };
  },
  'POST /admin/media': async () => ({ path: '/api/admin/media', file: await newPicture(), token: admin.token }),

  // Shop operators.
  'POST /merchant/invitations/:invitationId/resend': async () => {
    const sent = await ok<{ invitation: { id: number } }>('POST', '/api/merchant/invitations', operator.token, { email: `resent-${randomUUID()}@example.test`, role: 'support' });
    return { path: `/api/merchant/invitations/${sent.invitation.id}/resend`, token: operator.token };
  },
  'POST /merchant/media': async () => ({ path: '/api/merchant/media', file: await newPicture(), token: operator.token }),
  'PUT /merchant/members/:userId/role': async () => ({ path: `/api/merchant/members/${(await newMember(t, shopId, ShopRole.Catalog)).id}/role`, body: { role: 'finance' }, token: operator.token }),
  'DELETE /merchant/members/:userId': async () => ({ path: `/api/merchant/members/${(await newMember(t, shopId, ShopRole.Support)).id}`, token: operator.token }),
  'POST /merchant/invitations': async () => ({ path: '/api/merchant/invitations', body: { email: `invited-${randomUUID()}@example.test`, role: 'fulfilment' }, token: operator.token }),
  'DELETE /merchant/invitations/:invitationId': async () => {
    const sent = await ok<{ invitation: { id: number } }>('POST', '/api/merchant/invitations', operator.token, { email: `revoked-${randomUUID()}@example.test`, role: 'support' });
    return { path: `/api/merchant/invitations/${sent.invitation.id}`, token: operator.token };
  },
  'POST /merchant/coupon-templates': async () => ({ path: '/api/merchant/coupon-templates', body: couponBody, token: operator.token }),
  'PATCH /merchant/coupon-templates/:templateId': async () => ({ path: `/api/merchant/coupon-templates/${(await ok('POST', '/api/merchant/coupon-templates', operator.token, couponBody)).id}`, body: { name: '6 off' }, token: operator.token }),
  'DELETE /merchant/coupon-templates/:templateId': async () => ({ path: `/api/merchant/coupon-templates/${(await ok('POST', '/api/merchant/coupon-templates', operator.token, couponBody)).id}`, token: operator.token }),
  'POST /merchant/coupon-templates/:templateId/disable': async () => ({ path: `/api/merchant/coupon-templates/${(await ok('POST', '/api/merchant/coupon-templates', operator.token, couponBody)).id}/disable`, token: operator.token }),
  'POST /merchant/flash-sales': async () => ({ path: '/api/merchant/flash-sales', body: flashBody(), token: operator.token }),
  'PUT /merchant/flash-sales/:flashSaleId': async () => ({ path: `/api/merchant/flash-sales/${(await ok('POST', '/api/merchant/flash-sales', operator.token, flashBody())).id}`, body: flashBody('Renamed'), token: operator.token }),
  'DELETE /merchant/flash-sales/:flashSaleId': async () => ({ path: `/api/merchant/flash-sales/${(await ok('POST', '/api/merchant/flash-sales', operator.token, flashBody())).id}`, token: operator.token }),
  'POST /merchant/flash-sales/:flashSaleId/disable': async () => {
    const sale = await ok('POST', '/api/merchant/flash-sales', operator.token, flashBody());
    if (!sale.enabled) await ok('POST', `/api/merchant/flash-sales/${sale.id}/enable`, operator.token);
    return { path: `/api/merchant/flash-sales/${sale.id}/disable`, token: operator.token };
  },
  'POST /merchant/flash-sales/:flashSaleId/enable': async () => {
    const sale = await ok('POST', '/api/merchant/flash-sales', operator.token, flashBody());
    if (sale.enabled) await ok('POST', `/api/merchant/flash-sales/${sale.id}/disable`, operator.token);
    return { path: `/api/merchant/flash-sales/${sale.id}/enable`, token: operator.token };
  },
  'POST /merchant/freight-templates': async () => ({ path: '/api/merchant/freight-templates', body: freightBody(), token: operator.token }),
  'PUT /merchant/freight-templates/:templateId': async () => ({ path: `/api/merchant/freight-templates/${(await ok('POST', '/api/merchant/freight-templates', operator.token, freightBody())).id}`, body: freightBody('Heavy'), token: operator.token }),
  'DELETE /merchant/freight-templates/:templateId': async () => ({ path: `/api/merchant/freight-templates/${(await ok('POST', '/api/merchant/freight-templates', operator.token, freightBody())).id}`, token: operator.token }),
  'PUT /merchant/products/:productId/freight-template': async () => {
    const template = await ok('POST', '/api/merchant/freight-templates', operator.token, freightBody());
    const product = await ok('PUT', '/api/merchant/products', operator.token, draftProduct());
    return { path: `/api/merchant/products/${product.id}/freight-template`, body: { freight_template_id: template.id }, token: operator.token };
  },
  'POST /merchant/group-buys': async () => ({ path: '/api/merchant/group-buys', body: groupBody(), token: operator.token }),
  'PUT /merchant/group-buys/:activityId': async () => ({ path: `/api/merchant/group-buys/${(await ok('POST', '/api/merchant/group-buys', operator.token, groupBody())).id}`, body: groupBody(650), token: operator.token }),
  'DELETE /merchant/group-buys/:activityId': async () => ({ path: `/api/merchant/group-buys/${(await ok('POST', '/api/merchant/group-buys', operator.token, groupBody())).id}`, token: operator.token }),
  'POST /merchant/orders/:orderId/shipments': async () => ({
    path: `/api/merchant/orders/${(await paidOrder(await newCustomer(t, { available: 100_000, points: 0 }))).id}/shipments`, body: { company_code: 'sf', tracking_number: 'SF1' }, token: operator.token,
  }),
  'POST /merchant/orders/:orderId/invoice': async () => ({
    path: `/api/merchant/orders/${(await deliveredOrder(await newCustomer(t, { available: 100_000, points: 0 }))).id}/invoice`, body: { title: 'ACME Ltd', tax_number: '9131' }, token: operator.token,
  }),
  'PUT /merchant/products': async () => ({ path: '/api/merchant/products', body: draftProduct(), token: operator.token }),
  'POST /merchant/products/:id/publish': async () => ({ path: `/api/merchant/products/${(await ok('PUT', '/api/merchant/products', operator.token, draftProduct())).id}/publish`, token: operator.token }),
  'POST /merchant/products/:id/unpublish': async () => {
    const product = await ok('PUT', '/api/merchant/products', operator.token, draftProduct());
    await ok('POST', `/api/merchant/products/${product.id}/publish`, operator.token);
    return { path: `/api/merchant/products/${product.id}/unpublish`, token: operator.token };
  },
  'POST /merchant/refunds/:refundId/approve': async () => ({ path: `/api/merchant/refunds/${(await requestedRefund()).refund.id}/approve`, body: {}, token: operator.token }),
  'POST /merchant/refunds/:refundId/reject': async () => ({ path: `/api/merchant/refunds/${(await requestedRefund()).refund.id}/reject`, body: { reason: 'Already packed' }, token: operator.token }),
  'POST /merchant/refunds/:refundId/receive': async () => {
    const { customer, refund } = await requestedRefund('return');
    await ok('POST', `/api/merchant/refunds/${refund.id}/approve`, operator.token, {});
    await ok('POST', `/api/refunds/${refund.id}/ship-back`, customer.token, { company_code: 'sf', tracking_number: `R${refund.id}` });
    return { path: `/api/merchant/refunds/${refund.id}/receive`, token: operator.token };
  },
  'POST /merchant/reviews/:reviewId/reply': async () => ({ path: `/api/merchant/reviews/${(await review()).id}/reply`, body: { text: 'Thank you' }, token: operator.token }),
  'POST /merchant/webhooks': async () => ({ path: '/api/merchant/webhooks', body: { url: HOOK_URL, event_types: ['order.paid'] }, token: operator.token }),
  'PATCH /merchant/webhooks/:id': async () => ({ path: `/api/merchant/webhooks/${(await webhook(operator.token, 'merchant')).id}`, body: { active: false }, token: operator.token }),
  'DELETE /merchant/webhooks/:id': async () => ({ path: `/api/merchant/webhooks/${(await webhook(operator.token, 'merchant')).id}`, token: operator.token }),
  'POST /merchant/webhooks/:id/ping': async () => ({ path: `/api/merchant/webhooks/${(await webhook(operator.token, 'merchant')).id}/ping`, token: operator.token }),
  'POST /merchant/webhooks/:id/redeliver': async () => {
    const endpoint = await webhook(operator.token, 'merchant');
    return { path: `/api/merchant/webhooks/${endpoint.id}/redeliver`, body: { event_id: await eventId() }, token: operator.token };
  },
  'POST /merchant/webhooks/:id/rotate-secret': async () => ({ path: `/api/merchant/webhooks/${(await webhook(operator.token, 'merchant')).id}/rotate-secret`, token: operator.token }),
};

interface EntryRow {
  operation: string;
  actor_id: number;
  actor_role: string;
  shop_id: number | null;
  target_type: string;
  action: string;
}

describe('the audit walk', () => {
  it('has a call for every staff write of the route table, and names each by a mutation of the schema', async () => {
    const writes = staffWrites();
    expect(writes.length).toBeGreaterThan(50);
    expect(writes.map(keyOf).filter((key) => !CALLS[key])).toEqual([]);
    expect(Object.keys(CALLS).filter((key) => !writes.some((op) => keyOf(op) === key))).toEqual([]);
    const mutations = (await graphqlSchema()).getMutationType()!.getFields();
    expect(writes.map((op) => operationName(op.method, op.path)).filter((name) => !mutations[name])).toEqual([]);
  });

  it('finds an entry of every staff write in the log, under its name, request id, actor and role', async () => {
    const missing: string[] = [];
    const failed: string[] = [];
    for (const op of staffWrites()) {
      const call = await CALLS[keyOf(op)]().catch((error: Error) => error);
      if (call instanceof Error) {
        failed.push(`${keyOf(op)}: setting up: ${call.message}`);
        continue;
      }
      const requestId = `walk-${randomUUID()}`;
      const res = call.file
        ? await t.api(op.method.toUpperCase(), call.path, { token: call.token, raw: call.file.bytes, headers: { 'x-request-id': requestId, 'content-type': call.file.type } })
        : await t.api(op.method.toUpperCase(), call.path, { token: call.token, body: call.body, headers: { 'x-request-id': requestId } });
      if (res.status >= 300) {
        failed.push(`${keyOf(op)}: ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const entries = await t.sql<EntryRow>('select operation, actor_id, actor_role, shop_id, target_type, action from audit_entry where request_id = ?', [requestId]);
      if (entries.length === 0) {
        missing.push(keyOf(op));
        continue;
      }
      const asOperator = isShopPermission(op.doc.permission);
      for (const entry of entries) {
        expect([keyOf(op), entry.operation, entry.actor_id, entry.actor_role]).toEqual([
          keyOf(op), operationName(op.method, op.path), asOperator ? operator.id : admin.id, asOperator ? 'shop_owner' : 'platform_admin',
        ]);
        // A member's write is for their shop, always.
        if (asOperator) expect([keyOf(op), entry.shop_id]).toEqual([keyOf(op), shopId]);
      }
    }
    expect(failed).toEqual([]);
    expect(missing).toEqual([]);
  });
});
