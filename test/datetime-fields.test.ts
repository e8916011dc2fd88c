import { type GraphQLField, type GraphQLNamedType, type GraphQLObjectType, type GraphQLOutputType, type GraphQLInputType } from 'graphql';
import { completeDeliveredOrders } from '../src/services/orders/order.service.js';
import { systemContext } from '../src/server/jobs.js';
import { startTestApp, type TestApp } from './support/harness.js';
import {
  newAdmin, newCouponTemplate, newCustomer, newFreightTemplate, newGroupBuy, newOperator, newPointsProduct, newShop, setContent, type TestUser,
} from './support/fixtures.js';
import { newFlashSale } from './support/flash-sales.js';
import { ADDRESS, addToCart, checkoutOk, deliveredOrder, groupCheckoutOk, payOk, placeOrder, shipOk, shopWithProduct } from './support/shopping.js';
import { graphqlSchema } from '../src/resolvers/schema.js';
import type { SandboxProvider } from '../src/services/payments/sandbox-provider.js';

/**
 * Every DateTime field of the GraphQL schema is served on real data, for every query that reaches
 * it: the schema is walked (so a new query or type is covered without touching this test), each
 * query selects every DateTime field it can reach, and each DateTime field of each type must be seen
 * with a value at least once. (REST's `*_at` values are checked on every response of the suite by the
 * test harness.)
 */
let t: TestApp;
let ids: Record<string, number | string>;
let actors: { customer: TestUser; operator: TestUser; admin: TestUser };

beforeAll(async () => {
  t = await startTestApp();
  const { shop, category, product } = await shopWithProduct(t, [{ price: 1_000, stock: 50 }, { price: 900, stock: 50 }, { price: 2_000, stock: 50 }]);
  const [sku, groupSku, plainSku] = product.skuIds;
  const operator = await newOperator(t, shop.id);
  const admin = await newAdmin(t);
  const customer = await newCustomer(t, { available: 100_000, points: 10_000 });
  actors = { customer, operator, admin };

  await newFreightTemplate(t, shop.id, { firstUnitFee: 500, additionalUnitFee: 100, regions: [{ region: 'CN-XZ', firstUnitFee: 900, additionalUnitFee: 200 }] }, [product.id]);
  await newFlashSale(t, { shopId: shop.id, items: [{ skuId: sku, activityPrice: 800, reservedStock: 5 }] });
  const template = await newCouponTemplate(t, shop.id, { validFrom: new Date(Date.now() - 60_000), validUntil: new Date(Date.now() + 86_400_000) });
  const coupon = await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: customer.token });
  await addToCart(t, customer.token, plainSku, 1);
  await checkoutOk(t, customer.token, {}, { coupons: { [shop.id]: coupon.body.id } });
  const activity = await newGroupBuy(t, { shopId: shop.id, productId: product.id, skuId: groupSku });
  const groupOrder = await groupCheckoutOk(t, customer.token, { activity_id: activity.id });
  await payOk(t, customer.token, groupOrder.id);
  await setContent(t, 'banners', [{ title: 'Sale', destination: `/products/${product.id}` }]);
  await t.api('PUT', `/api/me/favorites/products/${product.id}`, { token: customer.token });
  const profiled = await newShop(t, { withProfile: true });
  await t.api('PUT', `/api/me/favorites/shops/${profiled.id}`, { token: customer.token });
  await t.api('POST', '/api/me/addresses', { token: customer.token, body: { recipient: 'Li Lei', phone: '13900000000', region: 'CN-HB', address: '1 Luoyu Road, Wuhan' } });
  // An open invitation to the shop's staff.
  await t.api('POST', '/api/merchant/invitations', { token: operator.token, body: { email: 'invited@example.test', role: 'finance' } });
  // And one to the platform's staff.
  await t.api('POST', '/api/admin/staff-invitations', { token: admin.token, body: { email: 'staff@example.test', role: 'support' } });
  // A picture in the shop's library and one in the platform's (a 1 x 1 PNG).
  const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
  for (const [path, token] of [['/api/merchant/media', operator.token], ['/api/admin/media', admin.token]]) {
    expect((await t.api('POST', path, { token, raw: pixel, headers: { 'content-type': 'image/png' } })).status).toBe(201);
  }

  // An order through its whole life, reviewed and replied to, its invoice issued.
  const delivered = await deliveredOrder(t, customer.token, operator.token, sku);
  await t.api('POST', `/api/merchant/orders/${delivered.id}/invoice`, { token: operator.token });
  const review = await t.api('POST', `/api/orders/${delivered.id}/items/${delivered.items[0].id}/review`, { token: customer.token, body: { rating: 5, text: 'Good' } });
  await t.api('POST', `/api/merchant/reviews/${review.body.id}/reply`, { token: operator.token, body: { text: 'Thanks' } });
  // A return, shipped back, received and completed; a cancelled order.
  const returned = await deliveredOrder(t, customer.token, operator.token, sku);
  const refund = await t.api('POST', `/api/orders/${returned.id}/refunds`, { token: customer.token, body: { kind: 'return', reason: 'Too big', items: [{ order_item_id: returned.items[0].id, quantity: 1 }] } });
  await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: operator.token, body: {} });
  await t.api('POST', `/api/refunds/${refund.body.id}/ship-back`, { token: customer.token, body: { company_code: 'sf', tracking_number: 'SF-BACK' } });
  await t.api('POST', `/api/merchant/refunds/${refund.body.id}/receive`, { token: operator.token, body: {} });
  const withdrawn = await deliveredOrder(t, customer.token, operator.token, sku);
  const cancelledRefund = await t.api('POST', `/api/orders/${withdrawn.id}/refunds`, { token: customer.token, body: { kind: 'return', reason: 'No', items: [{ order_item_id: withdrawn.items[0].id, quantity: 1 }] } });
  await t.api('POST', `/api/refunds/${cancelledRefund.body.id}/cancel`, { token: customer.token });
  const cancelled = await placeOrder(t, customer.token, sku);
  await t.api('POST', `/api/orders/${cancelled.id}/cancel`, { token: customer.token });
  // Gateway payments: one captured by its notification, one declined (closed), each with its events.
  const sandbox = t.deps.wiring.paymentProviders.sandbox as SandboxProvider;
  const sandboxPayment = async (simulateFailure: boolean) => {
    const order = await placeOrder(t, customer.token, sku);
    const started = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: [order.id], method: 'sandbox', ...(simulateFailure ? { simulate_failure: true } : {}) } });
    const notification = sandbox.notificationFor(started.body.provider_reference)!;
    await t.api('POST', '/api/payments/notifications/sandbox', { raw: notification.body, headers: { 'sandbox-signature': notification.signature } });
    return started.body as { id: number; provider_reference: string; order_ids: number[] };
  };
  // Late money: a capture arriving after its order's payment window, sent back to the method.
  const lateOrder = await placeOrder(t, customer.token, sku);
  const late = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: [lateOrder.id], method: 'sandbox' } });
  await t.sql(`update shop_order set created_at = now() - make_interval(mins => ?) where id = ?`, [t.config.paymentWindowMinutes + 1, lateOrder.id]);
  const lateNotification = sandbox.notificationFor(late.body.provider_reference)!;
  await t.api('POST', '/api/payments/notifications/sandbox', { raw: lateNotification.body, headers: { 'sandbox-signature': lateNotification.signature } });
  const capturedPayment = await sandboxPayment(false);
  const capturedOrderId = capturedPayment.order_ids[0];
  const declinedPayment = await sandboxPayment(true);
  // A shipped order still waiting for delivery, and one left in the cart.
  const shipped = await placeOrder(t, customer.token, sku);
  await payOk(t, customer.token, shipped.id);
  await shipOk(t, operator.token, shipped.id);
  await addToCart(t, customer.token, sku, 1);
  await checkoutOk(t, customer.token, {}, { shipping_address: ADDRESS });
  await addToCart(t, customer.token, sku, 1);

  const pointsProduct = await newPointsProduct(t, { pointsPrice: 100 });
  const redemption = await t.api('POST', `/api/points/products/${pointsProduct.id}/redeem`, { token: customer.token, body: { quantity: 1, shipping_address: ADDRESS } });
  await t.api('POST', `/api/admin/redemptions/${redemption.body.id}/fulfil`, { token: admin.token });
  const flashSales = await t.api('GET', '/api/merchant/flash-sales', { token: operator.token });
  // Settlement: a rate, and a batch paying the delivered order's shop once its earnings are released.
  await t.api('POST', `/api/admin/shops/${shop.id}/commission-rates`, { token: admin.token, body: { rate_bp: 100, valid_until: new Date(Date.now() + 86_400_000).toISOString() } });
  await t.sql(`update shop_order set delivered_at = now() - make_interval(days => ?) where id = ?`, [t.config.afterSaleWindowDays + 1, delivered.id]);
  await completeDeliveredOrders(systemContext(t.deps, 'test'));
  const batch = await t.api('POST', '/api/admin/payout-batches', { token: admin.token, body: { threshold: 1 } });
  for (const p of batch.body.payouts) await t.api('POST', `/api/admin/payouts/${p.id}/settle`, { token: admin.token, body: { status: 'paid' } });
  // A platform webhook endpoint with a logged ping (written directly: no receiver is needed to read a log).
  const [endpoint] = await t.sql<{ id: number }>(`insert into webhook_endpoint (url, event_types, secret, created_at) values ('https://example.com/hook', '{order.paid}', 'whsec_AAAA', now()) returning id`);
  await t.sql('insert into webhook_attempt (endpoint_id, attempted_at, status_code, latency_ms) values (?, now(), 200, 3)', [endpoint.id]);
  // A customer disabled by the platform; a shop suspended and reinstated (its state's time).
  const disabled = await newCustomer(t);
  await t.api('POST', `/api/admin/customers/${disabled.id}/disable`, { token: admin.token, body: { reason: 'Chargebacks' } });
  const suspended = await newShop(t);
  await t.api('POST', `/api/admin/shops/${suspended.id}/suspend`, { token: admin.token, body: { reason: 'Counterfeits' } });
  // A refund the shop rejected, escalated to a dispute the platform upheld.
  const disputed = await placeOrder(t, customer.token, sku);
  await payOk(t, customer.token, disputed.id);
  const asked = await t.api('POST', `/api/orders/${disputed.id}/refunds`, { token: customer.token, body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: disputed.items[0].id, quantity: 1 }] } });
  await t.api('POST', `/api/merchant/refunds/${asked.body.id}/reject`, { token: operator.token, body: { reason: 'Already packed' } });
  const dispute = await t.api('POST', `/api/refunds/${asked.body.id}/dispute`, { token: customer.token, body: { reason: 'It never left the shop' } });
  await t.api('POST', `/api/admin/disputes/${dispute.body.id}/uphold`, { token: admin.token, body: { reason: 'The shop shipped it' } });
  // Shop applications: the customer's rejected one and a withdrawn one; another customer's approved one.
  const applyFor = async (token: string, slug: string) => (await t.api('POST', '/api/me/shop-applications', {
    token,
    body: { legal_name: 'Dated Ltd.', shop_name: 'Dated', slug, contact_name: 'Zhao Lei', contact_phone: '010-5555-0100', contact_email: 'zl@example.test', category_ids: [category.id], terms_accepted: true },
  })).body;
  const rejectedApplication = await applyFor(customer.token, `dated-rejected-${process.pid}`);
  await t.api('POST', `/api/admin/shop-applications/${rejectedApplication.id}/reject`, { token: admin.token, body: { reason: 'No licence' } });
  const withdrawnApplication = await applyFor(customer.token, `dated-withdrawn-${process.pid}`);
  await t.api('POST', `/api/me/shop-applications/${withdrawnApplication.id}/withdraw`, { token: customer.token });
  const approvedApplication = await applyFor((await newCustomer(t)).token, `dated-approved-${process.pid}`);
  await t.api('POST', `/api/admin/shop-applications/${approvedApplication.id}/approve`, { token: admin.token });

  // Values for the required arguments of queries, by `query.argument`.
  ids = {
    'myShopApplication.id': rejectedApplication.id,
    'shopApplication.id': approvedApplication.id,
    'category.id': category.id,
    'shop.slug': shop.slug,
    'product.id': product.id,
    'order.id': delivered.id,
    'orderInvoice.orderId': delivered.id,
    'merchantOrder.id': delivered.id,
    'shopCouponTemplates.slug': shop.slug,
    'groupBuy.id': activity.id,
    'merchantFlashSale.id': flashSales.body.items[0].id,
    'productReviews.productId': product.id,
    'refund.id': refund.body.id,
    'merchantRefund.id': refund.body.id,
    'payoutBatch.id': batch.body.id,
    'commissionRates.shopId': shop.id,
    'payoutBatchCsv.id': batch.body.id,
    'webhookAttempts.endpointId': endpoint.id,
    'payment.id': capturedPayment.id,
    'paymentEvents.paymentId': capturedPayment.id,
    'paymentByReference.method': 'SANDBOX',
    'paymentByReference.providerReference': declinedPayment.provider_reference,
    'orderPayments.orderId': capturedOrderId,
    'dispute.id': dispute.body.id,
    'customer.id': customer.id,
    'adminOrder.id': delivered.id,
  };
}, 120_000);
afterAll(() => t.close());

// The schema is built by type-graphql, which may load another copy of graphql-js than this test
// (ESM and CommonJS), so types are told apart by shape, not by `instanceof`.
const isObjectType = (type: GraphQLNamedType): type is GraphQLObjectType => 'getInterfaces' in type && 'getFields' in type;
/** type-graphql's date scalar (ISO 8601 text). */
const DATE_TIME = 'DateTimeISO';
const isNonNullType = (type: GraphQLInputType) => type.toString().endsWith('!');
function getNamedType(type: GraphQLOutputType): GraphQLNamedType {
  let inner: GraphQLOutputType = type;
  while ('ofType' in inner && inner.ofType) inner = inner.ofType;
  return inner as GraphQLNamedType;
}

/** `{ a b { c } }`: every DateTime field reachable from `type` through fields without required arguments. */
function dateTimeSelection(type: GraphQLOutputType, depth = 0): string | null {
  const named = getNamedType(type);
  if (named.name === DATE_TIME) return '';
  if (!isObjectType(named) || depth > 4) return null;
  const parts: string[] = [];
  for (const field of Object.values((named as GraphQLObjectType).getFields())) {
    if (field.args.some((a) => isNonNullType(a.type) && a.defaultValue === undefined)) continue;
    const inner = dateTimeSelection(field.type, depth + 1);
    if (inner !== null) parts.push(inner === '' ? field.name : `${field.name} ${inner}`);
  }
  return parts.length ? `{ __typename ${parts.join(' ')} }` : null;
}

/** Records `Type.field` for each DateTime value found in an answer, and fails on any other shape. */
function collectDates(value: unknown, parentType: string | null, key: string | null, seen: Set<string>) {
  if (Array.isArray(value)) return value.forEach((v) => collectDates(v, parentType, key, seen));
  if (value && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const typename = typeof object.__typename === 'string' ? object.__typename : parentType;
    for (const [k, v] of Object.entries(object)) if (k !== '__typename') collectDates(v, typename, k, seen);
    return;
  }
  if (typeof value === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value)) seen.add(`${parentType}.${key}`);
}

/** Every `Type.field` of DateTime type on an object type that queries can reach. */
function dateTimeFieldsReachableFrom(root: GraphQLObjectType): string[] {
  const visited = new Set<string>();
  const found: string[] = [];
  const visit = (type: GraphQLObjectType) => {
    if (visited.has(type.name)) return;
    visited.add(type.name);
    for (const field of Object.values(type.getFields()) as GraphQLField<unknown, unknown>[]) {
      const named = getNamedType(field.type);
      if (named.name === DATE_TIME) found.push(`${type.name}.${field.name}`);
      else if (isObjectType(named)) visit(named);
    }
  };
  visit(root);
  return found;
}

it('serves every DateTime field of every query on real data, with no error', async () => {
  const schema = await graphqlSchema();
  const queryFields = Object.values(schema.getQueryType()!.getFields());
  const seen = new Set<string>();
  const problems: string[] = [];
  let queried = 0;

  for (const field of queryFields) {
    const selection = dateTimeSelection(field.type);
    if (selection === null) continue;
    queried++;
    const args = field.args
      .filter((a) => isNonNullType(a.type) && a.defaultValue === undefined)
      .map((a) => {
        const value = ids[`${field.name}.${a.name}`];
        if (value === undefined) problems.push(`${field.name}: no test value for its required argument ${a.name}`);
        // An enum's value is written bare (`method: SANDBOX`), anything else as JSON.
        const isEnum = 'getValues' in (schema.getType(a.type.toString().replace(/[![\]]/g, '')) ?? {});
        return `${a.name}: ${isEnum ? String(value) : JSON.stringify(value ?? 0)}`;
      });
    const query = `{ ${field.name}${args.length ? `(${args.join(', ')})` : ''} ${selection} }`;
    let answered = false;
    for (const [who, actor] of Object.entries(actors)) {
      const res = await t.gql(query, {}, actor.token);
      const errors = (res.errors ?? []).filter((e) => !['FORBIDDEN', 'UNAUTHENTICATED', 'NOT_FOUND'].includes(e.extensions?.code));
      if (errors.length) problems.push(`${field.name} as ${who}: ${JSON.stringify(errors)}`);
      if (!res.errors && res.data?.[field.name]) {
        answered = true;
        collectDates(res.data[field.name], null, null, seen);
      }
    }
    if (!answered) problems.push(`${field.name}: no actor got an answer`);
  }

  const neverSeen = dateTimeFieldsReachableFrom(schema.getQueryType()!).filter((name) => !seen.has(name));
  expect(queried).toBeGreaterThan(20);
  expect(problems).toEqual([]);
  expect(neverSeen).toEqual([]);
});
