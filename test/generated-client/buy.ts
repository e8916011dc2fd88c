/**
 * A customer's purchase through a client generated from the OpenAPI document (openapi-typescript
 * types, openapi-fetch calls), run by test/generated-client.test.ts: log in, list, fill the cart,
 * check out with an Idempotency-Key, pay, read the order. Every request and answer is typed by the
 * document alone: the test compiles this file strictly and refuses a cast, `any` or `unknown` in it.
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './api.js';

const { BASE_URL, EMAIL, PASSWORD } = process.env;
if (!BASE_URL || !EMAIL || !PASSWORD) throw new Error('BASE_URL, EMAIL and PASSWORD are needed');

const api = createClient<paths>({ baseUrl: BASE_URL });

const login = await api.POST('/api/auth/login', { body: { email: EMAIL, password: PASSWORD } });
if (login.error) throw new Error(`login: ${login.error.error.code}`);
const headers = { authorization: `Bearer ${login.data.token}` };

const listing = await api.GET('/api/products', { params: { query: { sort: 'price', order: 'asc', page_size: 10 } } });
if (listing.error) throw new Error(`listing: ${listing.error.error.code}`);
const listed = listing.data.items.find((product) => product.price_from > 0);
if (!listed) throw new Error('nothing for sale');

const detail = await api.GET('/api/products/{id}', { params: { path: { id: listed.id } } });
if (detail.error) throw new Error(`product: ${detail.error.error.code}`);
const sku = detail.data.skus.find((candidate) => candidate.stock >= 2);
if (!sku) throw new Error('no SKU with stock');

const cart = await api.PUT('/api/cart/items/{sku_id}', { params: { path: { sku_id: sku.id } }, body: { quantity: 2 }, headers });
if (cart.error) throw new Error(`cart: ${cart.error.error.code}`);

// Typed by the document: the region is one of its `RegionCode` values, not any string.
const address: components['schemas']['ShippingAddress'] = { recipient: 'Generated Client', phone: '+86 138 0000 0001', region: 'CN-SH', address: '1 Typed Road, Shanghai' };

// A bad address first (the compiler already refuses an unknown region; the server refuses what only it can
// judge, a phone that is not one): the refusal is typed down to the field it names. Its code narrows its
// details: a VALIDATION_FAILED always has `problems`.
const refused = await api.POST('/api/checkout', { body: { shipping_address: { ...address, phone: 'call me' } }, headers });
const refusal = refused.error?.error;
if (refusal?.code !== 'VALIDATION_FAILED') throw new Error('an invalid phone was not refused');
const problem = refusal.details.problems[0];

const checkoutKey = `buy-${Date.now()}`;
const checkout = () => api.POST('/api/checkout', { params: { header: { 'Idempotency-Key': checkoutKey } }, body: { shipping_address: address }, headers });
const placed = await checkout();
if (placed.error) throw new Error(`checkout: ${placed.error.error.code}`);
const replayed = await checkout();
if (replayed.error) throw new Error(`checkout again: ${replayed.error.error.code}`);
const order = placed.data.orders[0];

const payment = await api.POST('/api/orders/{order_id}/pay', {
  params: { path: { order_id: order.id }, header: { 'Idempotency-Key': `pay-${order.id}` } },
  headers,
});
if (payment.error) throw new Error(`pay: ${payment.error.error.code}`);

const read = await api.GET('/api/orders/{order_id}', { params: { path: { order_id: order.id } }, headers });
if (read.error) throw new Error(`order: ${read.error.error.code}`);

const missing = await api.GET('/api/orders/{order_id}', { params: { path: { order_id: 2147483647 } }, headers });
const missingCode: 'NOT_FOUND' | undefined = missing.response.status === 404 && missing.error?.error.code === 'NOT_FOUND' ? missing.error.error.code : undefined;

const result = {
  orderId: read.data.id,
  status: read.data.status,
  total: read.data.total,
  skuId: sku.id,
  quantity: read.data.items.reduce((sum, item) => sum + item.quantity, 0),
  shippedTo: read.data.shipping_address.region,
  replayedSameOrder: replayed.data.orders[0].id === order.id,
  paidStatus: payment.data.status,
  requestId: read.response.headers.get('x-request-id'),
  refusedField: problem.field,
  missingCode,
};
console.log(JSON.stringify(result));
