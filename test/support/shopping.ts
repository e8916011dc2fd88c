import type { TestApp } from './harness.js';
import { newCategory, newProduct, newShop } from './fixtures.js';

/** Purchase-flow steps through the REST door, asserting each step succeeded. */
export async function addToCart(t: TestApp, token: string, skuId: number, quantity: number) {
  const res = await t.api('PUT', `/api/cart/items/${skuId}`, { token, body: { quantity } });
  if (res.status !== 200) throw new Error(`add to cart failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Checkout requires a shipping address; this one is in a region no test template overrides unless it means to. */
export const ADDRESS = { recipient: 'Test Buyer', phone: '+86 138 0000 0000', region: 'CN-SH', address: '1 Test Road, Shanghai' };

/** The same address as a GraphQL `ShippingAddressInput`: the schema spells the region as its `RegionCode` value. */
export const GRAPHQL_ADDRESS = { ...ADDRESS, region: 'CN_SH' };

/** A checkout body: the default address plus whatever the test adds. */
export const checkoutBody = (extra: Record<string, unknown> = {}) => ({ shipping_address: ADDRESS, ...extra });

export async function checkoutOk(t: TestApp, token: string, headers: Record<string, string> = {}, extra: Record<string, unknown> = {}) {
  const res = await t.api('POST', '/api/checkout', { token, body: checkoutBody(extra), headers });
  if (res.status !== 201) throw new Error(`checkout failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orders as any[];
}

/** Cart with one SKU, checked out: returns the single order. */
export async function placeOrder(t: TestApp, token: string, skuId: number, quantity = 1) {
  await addToCart(t, token, skuId, quantity);
  const [order] = await checkoutOk(t, token);
  return order;
}

export async function payOk(t: TestApp, token: string, orderId: number) {
  const res = await t.api('POST', `/api/orders/${orderId}/pay`, { token });
  if (res.status !== 200) throw new Error(`pay failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A shop with one published product whose SKUs are given. */
export async function shopWithProduct(t: TestApp, skus: { price: number; stock: number }[] = [{ price: 1000, stock: 10 }]) {
  const shop = await newShop(t);
  const category = await newCategory(t);
  const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, skus });
  return { shop, category, product };
}

export async function stockOf(t: TestApp, skuId: number): Promise<number> {
  return (await t.sql('select stock from sku where id = ?', [skuId]))[0].stock;
}

export async function balanceOf(t: TestApp, userId: number, kind: 'available' | 'frozen' | 'points'): Promise<number> {
  return Number((await t.sql('select amount from balance where user_id = ? and kind = ?', [userId, kind]))[0].amount);
}

/** Every balance equals the sum of its ledger deltas and the last entry's resulting balance. */
export async function expectLedgerReplays(t: TestApp) {
  const rows = await t.sql(`
    select b.id, b.amount::bigint as amount,
           coalesce(sum(l.delta), 0)::bigint as replayed,
           (select l2.balance_after from ledger_entry l2 where l2.balance_id = b.id order by l2.id desc limit 1) as last_after
      from balance b left join ledger_entry l on l.balance_id = b.id group by b.id`);
  for (const r of rows) {
    if (String(r.amount) !== String(r.replayed)) throw new Error(`balance ${r.id}: amount ${r.amount} but ledger sums to ${r.replayed}`);
    if (r.last_after !== null && String(r.last_after) !== String(r.amount)) throw new Error(`balance ${r.id}: last entry says ${r.last_after}, row says ${r.amount}`);
  }
  await expectBooksBalance(t);
  return rows.length;
}

/**
 * The double-entry invariants (issue 30): the money accounts sum to zero, and every transfer is
 * exactly two entries that cancel out.
 */
export async function expectBooksBalance(t: TestApp) {
  const [sum] = await t.sql<{ total: string }>(`select coalesce(sum(amount), 0)::text as total from balance where currency is not null`);
  if (sum.total !== '0') throw new Error(`the money accounts sum to ${sum.total}, not zero`);
  const broken = await t.sql(`select transfer_id, count(*)::int as entries, sum(delta)::text as total from ledger_entry where transfer_id is not null group by transfer_id having count(*) <> 2 or sum(delta) <> 0 limit 5`);
  if (broken.length > 0) throw new Error(`unbalanced transfers: ${JSON.stringify(broken)}`);
}

/** A group-buying checkout (opens a group without `group_id`); returns the single order. */
export async function groupCheckoutOk(t: TestApp, token: string, intent: { activity_id: number; group_id?: number }) {
  const res = await t.api('POST', '/api/checkout', { token, body: checkoutBody({ group_buy: intent }) });
  if (res.status !== 201) throw new Error(`group checkout failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.orders[0];
}

/** The group row as stored. */
export async function groupRow(t: TestApp, groupId: number) {
  return (await t.sql('select id, state, capacity, paid_seats, group_price, opener_id, expires_at, closed_at from group_buy_group where id = ?', [groupId]))[0];
}

/** Moves a group's expiry into the past, as if its lifetime had ended. */
export async function lapseGroup(t: TestApp, groupId: number) {
  await t.sql(`update group_buy_group set expires_at = now() - interval '1 minute' where id = ?`, [groupId]);
}

/** The shop ships everything left (or the given parts) with SF Express. */
export async function shipOk(t: TestApp, operatorToken: string, orderId: number, items?: { order_item_id: number; quantity: number }[]) {
  const res = await t.api('POST', `/api/merchant/orders/${orderId}/shipments`, { token: operatorToken, body: { company_code: 'sf', tracking_number: `SF${orderId}`, items } });
  if (res.status !== 201) throw new Error(`shipment failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function deliverOk(t: TestApp, token: string, orderId: number) {
  const res = await t.api('POST', `/api/orders/${orderId}/confirm-delivery`, { token });
  if (res.status !== 200) throw new Error(`delivery failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Placed, paid, shipped whole and confirmed: returns the delivered order. */
export async function deliveredOrder(t: TestApp, customerToken: string, operatorToken: string, skuId: number, quantity = 1) {
  const order = await placeOrder(t, customerToken, skuId, quantity);
  await payOk(t, customerToken, order.id);
  await shipOk(t, operatorToken, order.id);
  return deliverOk(t, customerToken, order.id);
}
