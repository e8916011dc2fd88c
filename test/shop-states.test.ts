import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCategory, newCouponTemplate, newCustomer, newGroupBuy, newOperator, newProduct, newShop, setContent, type TestUser } from './support/fixtures.js';
import { addToCart, checkoutBody, expectBooksBalance, expectLedgerReplays, payOk, placeOrder, shipOk, deliverOk, stockOf } from './support/shopping.js';
import { newFlashSale } from './support/flash-sales.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { waitFor } from './support/subscriptions.js';
import { changeListenerOf } from '../src/db/change-listener.js';
import { HOME_CONTENT_CHANNEL } from '../src/services/catalog/home-content.service.js';
import { completeDeliveredOrders } from '../src/services/orders/order.service.js';
import { homeContentItems } from '../src/services/catalog/catalog.repository.js';
import { systemContext } from '../src/server/jobs.js';
import { withIndexPlanner } from './support/plans.js';

/**
 * Shop states (issue 41, item 2): a platform admin suspends a shop (with a reason), reinstates it,
 * or closes it. A suspended shop's products are on no storefront read, in any process (remembered
 * totals, rankings, facets and the kept home content included), its lines are refused at checkout,
 * its coupons, flash sales and groups stop and its payouts are held; paid orders still ship and
 * refund. Both doors, wrong moves, bad input, closing's conditions, and the race with checkout.
 */
let t: TestApp;
let b: TestApp;
let admin: TestUser;
let stranger: TestUser;

beforeAll(async () => {
  t = await startTestApp({ afterSaleWindowDays: 7 });
  b = await startSecondApp(t);
  admin = await newAdmin(t);
  stranger = await newCustomer(t);
  await waitFor(() => Boolean(changeListenerOf(b.orm.em, HOME_CONTENT_CHANNEL)?.live), 5000, 'listener of b');
});
afterAll(async () => {
  await b?.close();
  await t?.close();
});
afterEach(async () => {
  await expectLedgerReplays(t);
  await expectBooksBalance(t);
});

/**
 * A word no other product of this database has, nor one near it: searches and suggestions find exactly
 * this shop's products. The search forgives a typo or two (pg_trgm word similarity), so words sharing
 * a prefix and a counter found each other's products (CI once saw a closed shop's search list another
 * scene's product); twelve random letters share a run of three with another such word only by rare chance.
 */
const word = () => Array.from(randomBytes(12), (byte) => String.fromCharCode(97 + (byte % 26))).join('');

async function scene(stock = 50) {
  const shop = await newShop(t);
  const category = await newCategory(t);
  const name = word();
  const product = await newProduct(t, { shopId: shop.id, categoryId: category.id, name: `${name} kettle`, skus: [{ price: 1_000, stock }] });
  const operator = await newOperator(t, shop.id);
  return { shop, category, name, product, skuId: product.skuIds[0], operator };
}

const suspend = (shopId: number | string, body: unknown = { reason: 'Counterfeit goods reported' }, token = admin.token) =>
  t.api('POST', `/api/admin/shops/${shopId}/suspend`, { token, body });
const reinstate = (shopId: number | string, token = admin.token) => t.api('POST', `/api/admin/shops/${shopId}/reinstate`, { token });
const close = (shopId: number | string, token = admin.token) => t.api('POST', `/api/admin/shops/${shopId}/close`, { token });

async function suspended(shopId: number) {
  const res = await suspend(shopId);
  if (res.status !== 200) throw new Error(`suspend failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}
async function reinstated(shopId: number) {
  const res = await reinstate(shopId);
  if (res.status !== 200) throw new Error(`reinstate failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

const shopRow = async (shopId: number) => (await t.sql('select status, status_reason, status_changed_at from shop where id = ?', [shopId]))[0];
const eventsOf = (shopId: number) =>
  t.sql<{ type: string; payload: Record<string, unknown> }>(`select type, payload from event where ? = any(shop_ids) and type like 'shop.%' order by id`, [shopId]);

/** Everything a storefront shows of the product, on one app (one process). */
async function storefront(app: TestApp, s: { shop: { id: number; slug: string }; category: { id: number }; name: string; product: { id: number } }) {
  const ids = (res: { body: { items: { id: number }[] } }) => res.body.items.map((p) => p.id);
  const [byShop, bySales, byWords, byWordsSales, inCategory, facets, suggest, detail, shopPage, shops, gql] = await Promise.all([
    app.api('GET', `/api/products?shop_id=${s.shop.id}`),
    app.api('GET', `/api/products?category=${s.category.id}&sort=sales`),
    app.api('GET', `/api/products?q=${s.name}`),
    app.api('GET', `/api/products?q=${s.name}&sort=sales`),
    app.api('GET', `/api/products?category=${s.category.id}&sort=price`),
    app.api('GET', `/api/products/facets?q=${s.name}`),
    app.api('GET', `/api/search/suggest?q=${s.name}`),
    app.api('GET', `/api/products/${s.product.id}`),
    app.api('GET', `/api/shops/${s.shop.slug}`),
    app.api('GET', '/api/shops?page_size=100'),
    app.gql(`query($id: Int!) { product(id: $id) { id } }`, { id: s.product.id }),
  ]);
  return {
    byShop: ids(byShop),
    byShopTotal: byShop.body.total,
    bySales: ids(bySales),
    byWords: ids(byWords),
    byWordsSales: ids(byWordsSales),
    inCategory: ids(inCategory),
    facetShops: (facets.body.shops as { id: number }[]).map((f) => f.id),
    suggested: (suggest.body.items as { id: number }[]).map((i) => i.id),
    detail: detail.status,
    shopPage: shopPage.status,
    listedShop: (shops.body.items as { id: number }[]).some((shop) => shop.id === s.shop.id),
    graphql: gql.data?.product?.id ?? null,
  };
}

const shown = (productId: number, shopId: number) => ({
  byShop: [productId], byShopTotal: 1, bySales: [productId], byWords: [productId], byWordsSales: [productId], inCategory: [productId],
  facetShops: [shopId], suggested: [productId], detail: 200, shopPage: 200, listedShop: true, graphql: productId,
});
const hidden = {
  byShop: [], byShopTotal: 0, bySales: [], byWords: [], byWordsSales: [], inCategory: [], facetShops: [], suggested: [], detail: 404, shopPage: 404, listedShop: false, graphql: null,
};

describe('suspending and reinstating', () => {
  it('hides the products from every read path in every process (remembered totals, rankings and facets too), and shows them again', async () => {
    const s = await scene();
    // Both processes remember the totals, rankings and facets of these filters first.
    for (const app of [t, b]) expect(await storefront(app, s)).toEqual(shown(s.product.id, s.shop.id));

    const res = await suspend(s.shop.id, { reason: '  Counterfeit goods reported  ' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ shop_id: s.shop.id, status: 'suspended', reason: 'Counterfeit goods reported', changed_at: expect.any(String) });
    for (const app of [t, b]) expect(await storefront(app, s)).toEqual(hidden);
    expect((await t.sql('select status from product where id = ?', [s.product.id]))[0].status).toBe('held');

    const back = await reinstate(s.shop.id);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ shop_id: s.shop.id, status: 'active', reason: 'Counterfeit goods reported' });
    for (const app of [t, b]) expect(await storefront(app, s)).toEqual(shown(s.product.id, s.shop.id));

    expect(await eventsOf(s.shop.id)).toEqual([
      { type: 'shop.suspended', payload: { shopId: s.shop.id, status: 'suspended', reason: 'Counterfeit goods reported' } },
      { type: 'shop.reinstated', payload: { shopId: s.shop.id, status: 'active' } },
    ]);
  });

  it('takes links to its products and its page off the home content every process keeps, and puts them back', async () => {
    const s = await scene();
    const other = await scene();
    await setContent(t, 'banners', [
      { title: 'Kettle', destination: `/products/${s.product.id}` },
      { title: 'Shop', destination: `/shops/${s.shop.slug}` },
      { title: 'Other', destination: `/products/${other.product.id}` },
    ]);
    const banners = async (app: TestApp) => ((await app.api('GET', '/api/content/home')).body.banners as { title: string }[]).map((i) => i.title);
    // Each process keeps the home content (no statement while nothing changes).
    for (const app of [t, b]) await waitFor(async () => (await banners(app)).length === 3, 5000, 'both read the banners');
    b.resetQueryLog();
    expect(await banners(b)).toEqual(['Kettle', 'Shop', 'Other']);
    expect(b.queries.filter((q) => /home_content_item/.test(q))).toEqual([]);

    await suspended(s.shop.id);
    expect(await banners(t)).toEqual(['Other']);
    // The other process hears the shop's state change (NOTIFY at commit) and reads again.
    await waitFor(async () => (await banners(b)).length === 1, 5000, 'b drops the links');
    expect(await banners(b)).toEqual(['Other']);
    // The admin's list keeps every item, so it can be edited and sent back whole.
    expect(((await t.api('GET', '/api/admin/content', { token: admin.token })).body.banners as unknown[]).length).toBe(3);

    await reinstated(s.shop.id);
    expect(await banners(t)).toEqual(['Kettle', 'Shop', 'Other']);
    await waitFor(async () => (await banners(b)).length === 3, 5000, 'b shows the links again');
    await setContent(t, 'banners', []);
  });

  it('refuses its lines at checkout with SHOP_NOT_ACTIVE (cart and stock unchanged), and checks out after reinstating', async () => {
    const s = await scene();
    const customer = await newCustomer(t);
    await addToCart(t, customer.token, s.skuId, 2);
    await suspended(s.shop.id);
    for (const app of [t, b]) {
      const res = await app.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
      expect(res.status).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'SHOP_NOT_ACTIVE', details: { shop_id: s.shop.id, sku_id: s.skuId } });
    }
    // Nor can it be added again.
    const again = await t.api('PUT', `/api/cart/items/${s.skuId}`, { token: customer.token, body: { quantity: 3 } });
    expect(again.status).toBe(422);
    expect(again.body.error).toMatchObject({ code: 'SHOP_NOT_ACTIVE', details: { shop_id: s.shop.id, status: 'suspended' } });
    expect(((await t.api('GET', '/api/cart', { token: customer.token })).body.lines as { available: boolean }[]).map((l) => l.available)).toEqual([false]);
    const preview = await t.api('POST', '/api/checkout/preview', { token: customer.token, body: { region: 'CN-SH' } });
    expect(preview.status).toBe(422);
    expect(preview.body.error.code).toBe('SHOP_NOT_ACTIVE');
    const gql = await t.gql(
      `mutation($input: CheckoutInput!) { checkout(input: $input) { orders { id } userErrors { code details { shopId } } } }`,
      { input: { shippingAddress: { recipient: 'A', phone: '+86 138 0000 0000', region: 'CN_SH', address: '1 Road' } } },
      customer.token,
    );
    expect(gql.data.checkout).toEqual({ orders: null, userErrors: [{ code: 'SHOP_NOT_ACTIVE', details: { shopId: s.shop.id } }] });
    expect(await stockOf(t, s.skuId)).toBe(50);
    expect((await t.sql('select quantity from cart_item where customer_id = ?', [customer.id])).map((r) => r.quantity)).toEqual([2]);
    expect((await t.sql('select count(*)::int as n from shop_order where shop_id = ?', [s.shop.id]))[0].n).toBe(0);

    await reinstated(s.shop.id);
    const placed = await t.api('POST', '/api/checkout', { token: customer.token, body: checkoutBody() });
    expect(placed.status).toBe(201);
    expect(await stockOf(t, s.skuId)).toBe(48);
  });

  it('stops coupon claims, flash-sale purchases and group-buying joins of the shop, and lets them go on after reinstating', async () => {
    const s = await scene();
    const second = await newProduct(t, { shopId: s.shop.id, categoryId: s.category.id, skus: [{ price: 2_000, stock: 20 }] });
    const template = await newCouponTemplate(t, s.shop.id);
    const flash = await newFlashSale(t, { shopId: s.shop.id, items: [{ skuId: second.skuIds[0], activityPrice: 900, reservedStock: 5 }] });
    const activity = await newGroupBuy(t, { shopId: s.shop.id, productId: s.product.id, skuId: s.skuId, capacity: 3 });
    const opener = await newCustomer(t, { available: 100_000, points: 0 });
    const buyer = await newCustomer(t, { available: 100_000, points: 0 });
    const open = await t.api('POST', '/api/checkout', { token: opener.token, body: checkoutBody({ group_buy: { activity_id: activity.id } }) });
    expect(open.status).toBe(201);
    const groupId = open.body.orders[0].group_id;
    await addToCart(t, buyer.token, second.skuIds[0], 1);

    await suspended(s.shop.id);
    const claim = await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: buyer.token });
    expect(claim.status).toBe(422);
    expect(claim.body.error).toMatchObject({ code: 'SHOP_NOT_ACTIVE', details: { shop_id: s.shop.id, status: 'suspended' } });
    const flashBuy = await t.api('POST', '/api/checkout', { token: buyer.token, body: checkoutBody() });
    expect(flashBuy.status).toBe(422);
    expect(flashBuy.body.error.code).toBe('SHOP_NOT_ACTIVE');
    const join = await t.api('POST', '/api/checkout', { token: buyer.token, body: checkoutBody({ group_buy: { activity_id: activity.id, group_id: groupId } }) });
    expect(join.status).toBe(422);
    expect(join.body.error).toMatchObject({ code: 'SHOP_NOT_ACTIVE', details: { shop_id: s.shop.id } });
    const openAnother = await t.api('POST', '/api/checkout', { token: buyer.token, body: checkoutBody({ group_buy: { activity_id: activity.id } }) });
    expect(openAnother.body.error.code).toBe('SHOP_NOT_ACTIVE');
    // Nor are they offered: the flash sale and the group-buying activity are off the storefront.
    expect(((await t.api('GET', '/api/flash-sales')).body.items as { id: number }[]).some((f) => f.id === flash.id)).toBe(false);
    expect(((await t.api('GET', '/api/group-buys?page_size=100')).body.items as { id: number }[]).some((g) => g.id === activity.id)).toBe(false);
    expect((await t.sql('select count(*)::int as n from coupon where template_id = ?', [template.id]))[0].n).toBe(0);
    expect((await t.api('GET', `/api/shops/${s.shop.slug}/coupon-templates`)).status).toBe(404);
    expect((await t.sql('select remaining_stock from flash_sale_item where id = ?', [flash.itemIds[0]]))[0].remaining_stock).toBe(5);

    await reinstated(s.shop.id);
    expect((await t.api('POST', `/api/coupon-templates/${template.id}/claim`, { token: buyer.token })).status).toBe(201);
    const bought = await t.api('POST', '/api/checkout', { token: buyer.token, body: checkoutBody() });
    expect(bought.status).toBe(201);
    expect(bought.body.orders[0].items[0]).toMatchObject({ pricing: 'flash_sale', unit_price: 900 });
    expect((await t.api('POST', '/api/checkout', { token: buyer.token, body: checkoutBody({ group_buy: { activity_id: activity.id, group_id: groupId } }) })).status).toBe(201);
  });

  it('lets the shop withdraw a held product (it stays unpublished when reinstated) but not publish one while suspended', async () => {
    const s = await scene();
    const draft = await newProduct(t, { shopId: s.shop.id, categoryId: s.category.id, status: 'draft' });
    await suspended(s.shop.id);
    const publish = await t.api('POST', `/api/merchant/products/${draft.id}/publish`, { token: s.operator.token });
    expect(publish.status).toBe(422);
    expect(publish.body.error).toMatchObject({ code: 'SHOP_NOT_ACTIVE', details: { shop_id: s.shop.id, status: 'suspended' } });
    const heldView = await t.api('GET', `/api/merchant/products?page_size=50`, { token: s.operator.token });
    expect((heldView.body.items as { id: number; status: string }[]).find((p) => p.id === s.product.id)?.status).toBe('held');
    const withdraw = await t.api('POST', `/api/merchant/products/${s.product.id}/unpublish`, { token: s.operator.token });
    expect(withdraw.status).toBe(200);
    expect(withdraw.body.status).toBe('unpublished');
    await reinstated(s.shop.id);
    const statuses = await t.sql('select id, status from product where shop_id = ? order by id', [s.shop.id]);
    expect(statuses).toEqual([{ id: s.product.id, status: 'unpublished' }, { id: draft.id, status: 'draft' }]);
  });

  it('still ships and refunds orders paid before the suspension', async () => {
    const s = await scene();
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const shipLater = await placeOrder(t, customer.token, s.skuId, 1);
    await payOk(t, customer.token, shipLater.id);
    const refundLater = await placeOrder(t, customer.token, s.skuId, 1);
    await payOk(t, customer.token, refundLater.id);
    await suspended(s.shop.id);

    const shipment = await shipOk(t, s.operator.token, shipLater.id);
    expect(shipment).toMatchObject({ id: shipLater.id, status: 'shipped' });
    expect((await deliverOk(t, customer.token, shipLater.id)).status).toBe('delivered');
    const refund = await t.api('POST', `/api/orders/${refundLater.id}/refunds`, {
      token: customer.token,
      body: { kind: 'refund', reason: 'Changed my mind', items: [{ order_item_id: refundLater.items[0].id, quantity: 1 }] },
    });
    expect(refund.status).toBe(201);
    const approved = await t.api('POST', `/api/merchant/refunds/${refund.body.id}/approve`, { token: s.operator.token });
    expect(approved.status).toBe(200);
    expect(approved.body.status).toBe('completed');
  });
});

describe('payouts', () => {
  const sweep = () => completeDeliveredOrders(systemContext(t.deps, 'test'));
  /** A shop with `amount` available to pay out: an order delivered, past its after-sale window, completed. */
  async function earning() {
    const s = await scene();
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const order = await placeOrder(t, customer.token, s.skuId, 1);
    await payOk(t, customer.token, order.id);
    await shipOk(t, s.operator.token, order.id);
    await deliverOk(t, customer.token, order.id);
    await t.sql(`update shop_order set delivered_at = now() - interval '8 days' where id = ?`, [order.id]);
    await sweep();
    return s;
  }
  const paidShops = (batch: { payouts: { shop_id: number }[] }) => batch.payouts.map((p) => p.shop_id);

  it('a batch skips a suspended shop (its money stays available) and pays it once reinstated', async () => {
    const held = await earning();
    const active = await earning();
    await suspended(held.shop.id);
    const batch = await t.api('POST', '/api/admin/payout-batches', { token: admin.token, body: { threshold: 1 } });
    expect(batch.status).toBe(201);
    expect(paidShops(batch.body)).toContain(active.shop.id);
    expect(paidShops(batch.body)).not.toContain(held.shop.id);
    const available = await t.sql(`select amount::int as amount from balance where shop_id = ? and kind = 'shop_available'`, [held.shop.id]);
    expect(available[0].amount).toBeGreaterThan(0);

    // Closing is refused while it holds money.
    const refusedClose = await close(held.shop.id);
    expect(refusedClose.status).toBe(409);
    expect(refusedClose.body.error).toMatchObject({ code: 'SHOP_BALANCE_NOT_ZERO', details: { shop_id: held.shop.id, kind: 'shop_available', amount: available[0].amount } });
    expect((await shopRow(held.shop.id)).status).toBe('suspended');

    await reinstated(held.shop.id);
    const next = await t.api('POST', '/api/admin/payout-batches', { token: admin.token, body: { threshold: 1 } });
    expect(paidShops(next.body)).toEqual([held.shop.id]);
  });
});

describe('closing', () => {
  it('is refused with an open order, then with an open refund, then with money on its balance; each refusal changes nothing', async () => {
    const s = await scene();
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    const order = await placeOrder(t, customer.token, s.skuId, 1);
    const withOrder = await close(s.shop.id);
    expect(withOrder.status).toBe(409);
    expect(withOrder.body.error).toMatchObject({ code: 'SHOP_HAS_OPEN_ORDERS', details: { shop_id: s.shop.id, open_orders: 1, order_id: order.id } });
    expect(await shopRow(s.shop.id)).toMatchObject({ status: 'active', status_changed_at: null });
    expect((await t.sql('select status from product where id = ?', [s.product.id]))[0].status).toBe('published');

    // Paid, then a refund requested and left open (the order would cancel once refunded whole).
    await payOk(t, customer.token, order.id);
    const refund = await t.api('POST', `/api/orders/${order.id}/refunds`, {
      token: customer.token,
      body: { kind: 'refund', reason: 'Wrong colour', items: [{ order_item_id: order.items[0].id, quantity: 1 }] },
    });
    expect(refund.status).toBe(201);
    // The order is closed by hand here to isolate the refund's rule (no use case leaves this pair).
    await t.sql(`update shop_order set status = 'cancelled', cancelled_at = now(), cancel_reason = 'customer' where id = ?`, [order.id]);
    const withRefund = await close(s.shop.id);
    expect(withRefund.status).toBe(409);
    expect(withRefund.body.error).toMatchObject({ code: 'SHOP_HAS_OPEN_REFUNDS', details: { shop_id: s.shop.id, open_refunds: 1, refund_id: refund.body.id } });
    await t.api('POST', `/api/refunds/${refund.body.id}/cancel`, { token: customer.token });

    // The payment put the shop's share in its pending balance; the cancellation by hand left it there.
    const [pending] = await t.sql(`select amount::int as amount from balance where shop_id = ? and kind = 'shop_pending'`, [s.shop.id]);
    expect(pending.amount).toBeGreaterThan(0);
    const withMoney = await close(s.shop.id);
    expect(withMoney.status).toBe(409);
    expect(withMoney.body.error).toMatchObject({ code: 'SHOP_BALANCE_NOT_ZERO', details: { shop_id: s.shop.id, kind: 'shop_pending', amount: pending.amount } });
    expect(await shopRow(s.shop.id)).toMatchObject({ status: 'active', status_changed_at: null });
  });

  it('closes a shop with nothing open: its products leave the storefront for good; every later move is SHOP_WRONG_STATE', async () => {
    const s = await scene();
    const res = await close(s.shop.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ shop_id: s.shop.id, status: 'closed' });
    expect(await storefront(t, s)).toEqual(hidden);
    for (const [call, expected] of [[() => reinstate(s.shop.id), ['suspended']], [() => suspend(s.shop.id), ['active']], [() => close(s.shop.id), ['active', 'suspended']]] as const) {
      const again = await call();
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({ code: 'SHOP_WRONG_STATE', details: { shop_id: s.shop.id, status: 'closed', expected } });
    }
    expect(await eventsOf(s.shop.id)).toEqual([{ type: 'shop.closed', payload: { shopId: s.shop.id, status: 'closed' } }]);
  });

  it('closes a suspended shop', async () => {
    const s = await scene();
    await suspended(s.shop.id);
    expect((await close(s.shop.id)).body).toMatchObject({ status: 'closed', reason: 'Counterfeit goods reported' });
    expect((await t.sql('select status from product where id = ?', [s.product.id]))[0].status).toBe('held');
  });
});

describe('wrong moves and bad input', () => {
  it('answers a move the state does not allow with 409 SHOP_WRONG_STATE and changes nothing', async () => {
    const s = await scene();
    const early = await reinstate(s.shop.id);
    expect(early.status).toBe(409);
    expect(early.body.error).toMatchObject({ code: 'SHOP_WRONG_STATE', details: { shop_id: s.shop.id, status: 'active', expected: ['suspended'] } });
    await suspended(s.shop.id);
    const twice = await suspend(s.shop.id, { reason: 'Again' });
    expect(twice.status).toBe(409);
    expect(twice.body.error).toMatchObject({ code: 'SHOP_WRONG_STATE', details: { status: 'suspended', expected: ['active'] } });
    expect((await shopRow(s.shop.id)).status_reason).toBe('Counterfeit goods reported');
    expect((await eventsOf(s.shop.id)).map((e) => e.type)).toEqual(['shop.suspended']);
  });

  it('refuses an unknown shop, a missing, blank or too long reason, unknown fields and callers who are not platform admins; nothing changes', async () => {
    const s = await scene();
    const unknown = await suspend(2_000_000_000);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'NOT_FOUND', details: { shop_id: 2_000_000_000 } });
    expect((await reinstate(2_000_000_000)).status).toBe(404);
    expect((await close(2_000_000_000)).status).toBe(404);
    for (const [body, field] of [[{}, 'reason'], [{ reason: '   ' }, 'reason'], [{ reason: 'x'.repeat(501) }, 'reason'], [{ reason: 7 }, 'reason']] as const) {
      const res = await suspend(s.shop.id, body);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(res.body.error.details.problems.map((p: { field: string }) => p.field)).toContain(field);
    }
    const extra = await suspend(s.shop.id, { reason: 'Fraud', status: 'closed' });
    expect(extra.status).toBe(400);
    const badId = await suspend('abc');
    expect(badId.status).toBe(400);
    expect((await suspend(s.shop.id, undefined, stranger.token)).status).toBe(403);
    expect((await suspend(s.shop.id, undefined, s.operator.token)).status).toBe(403);
    expect((await t.api('POST', `/api/admin/shops/${s.shop.id}/suspend`, { body: { reason: 'x' } })).status).toBe(401);
    expect(await shopRow(s.shop.id)).toEqual({ status: 'active', status_reason: null, status_changed_at: null });
    expect(await eventsOf(s.shop.id)).toEqual([]);
  });
});

describe('the GraphQL door', () => {
  it('suspends, reinstates and closes through the same service, with user errors for refusals', async () => {
    const s = await scene();
    const SUSPEND = `mutation($input: SuspendShopInput!) { suspendShop(input: $input) { shopState { shopId status reason changedAt } userErrors { code field message details { shopId status expected } } } }`;
    const REINSTATE = `mutation($input: ReinstateShopInput!) { reinstateShop(input: $input) { shopState { shopId status } userErrors { code details { status } } } }`;
    const CLOSE = `mutation($input: CloseShopInput!) { closeShop(input: $input) { shopState { shopId status } userErrors { code details { shopId } } } }`;
    const done = await t.gql(SUSPEND, { input: { shopId: s.shop.id, reason: 'Fraud' } }, admin.token);
    expect(done.data.suspendShop).toEqual({ shopState: { shopId: s.shop.id, status: 'SUSPENDED', reason: 'Fraud', changedAt: expect.any(String) }, userErrors: [] });
    const again = await t.gql(SUSPEND, { input: { shopId: s.shop.id, reason: 'Fraud' } }, admin.token);
    expect(again.data.suspendShop).toEqual({
      shopState: null,
      userErrors: [{ code: 'SHOP_WRONG_STATE', field: null, message: expect.any(String), details: { shopId: s.shop.id, status: 'SUSPENDED', expected: ['ACTIVE'] } }],
    });
    const blank = await t.gql(SUSPEND, { input: { shopId: s.shop.id, reason: ' ' } }, admin.token);
    expect(blank.data.suspendShop.userErrors[0]).toMatchObject({ code: 'VALIDATION_FAILED', field: ['input', 'reason'] });
    expect((await t.gql(REINSTATE, { input: { shopId: s.shop.id } }, admin.token)).data.reinstateShop).toEqual({ shopState: { shopId: s.shop.id, status: 'ACTIVE' }, userErrors: [] });
    const customer = await t.gql(CLOSE, { input: { shopId: s.shop.id } }, stranger.token);
    expect(customer.errors?.[0]?.extensions?.code ?? customer.data?.closeShop?.userErrors?.[0]?.code).toBe('FORBIDDEN');
    expect((await t.gql(CLOSE, { input: { shopId: s.shop.id } }, admin.token)).data.closeShop).toEqual({ shopState: { shopId: s.shop.id, status: 'CLOSED' }, userErrors: [] });
    expect((await eventsOf(s.shop.id)).map((e) => e.type)).toEqual(['shop.suspended', 'shop.reinstated', 'shop.closed']);
  });
});

describe('a suspension racing checkouts of the shop', () => {
  /** Sessions of this database waiting for a lock: how a test knows a statement reached a lock and waits there. */
  const lockWaiters = async () =>
    (await t.sql<{ n: number }>(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0].n;

  async function buyers(s: { skuId: number }, n: number) {
    const customers: TestUser[] = [];
    for (let i = 0; i < n; i++) {
      const c = await newCustomer(t);
      await addToCart(t, c.token, s.skuId, 1);
      customers.push(c);
    }
    return customers;
  }
  const checkout = (app: TestApp, c: TestUser) => app.api('POST', '/api/checkout', { token: c.token, body: checkoutBody() });
  const ordersOf = async (shopId: number) => (await t.sql('select count(*)::int as n from shop_order where shop_id = ?', [shopId]))[0].n;

  /** A connection of the test's own, holding row locks in a transaction until released. */
  async function holding(lockSql: string, params: unknown[]) {
    const client = new pg.Client({ connectionString: t.dbUrl });
    await client.connect();
    await client.query('begin');
    await client.query(lockSql, params);
    let released = false;
    return async () => {
      if (released) return;
      released = true;
      await client.query('commit');
      await client.end();
    };
  }

  it('a checkout holding the shop goes first: the suspension waits for its commit, and its order stands', async () => {
    const s = await scene();
    const [c1, c2] = await buyers(s, 2);
    // The SKU held by the test: the checkouts (one per process: a process writes one checkout
    // statement at a time) take their shop's share lock, then wait for the SKU.
    const release = await holding('select id from sku where id = $1 for update', [s.skuId]);
    const checkouts = [checkout(t, c1), checkout(b, c2)];
    let results: Awaited<(typeof checkouts)[number]>[];
    try {
      await waitFor(async () => (await lockWaiters()) >= 2, 10_000, 'checkouts wait for the SKU');
      const suspension = suspend(s.shop.id);
      await waitFor(async () => (await lockWaiters()) >= 3, 10_000, 'the suspension waits for the checkouts');
      await release();
      results = await Promise.all(checkouts);
      expect((await suspension).status).toBe(200);
    } finally {
      await release();
    }
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    expect(await ordersOf(s.shop.id)).toBe(2);
    expect(await stockOf(t, s.skuId)).toBe(48);
  });

  it('a suspension under way goes first: checkouts that read the product as on sale wait for it, and are refused', async () => {
    const s = await scene();
    const [c1, c2] = await buyers(s, 2);
    // The product held by the test: the suspension moves the shop's row, then waits for the product.
    const release = await holding('select id from product where id = $1 for update', [s.product.id]);
    let results: Awaited<ReturnType<typeof checkout>>[];
    try {
      const suspension = suspend(s.shop.id);
      await waitFor(async () => (await lockWaiters()) >= 1, 10_000, 'the suspension waits for the product');
      // Their cart reads see the product published (the suspension has not committed).
      const checkouts = [checkout(t, c1), checkout(b, c2)];
      await waitFor(async () => (await lockWaiters()) >= 3, 10_000, 'the checkouts wait for the shop');
      await release();
      expect((await suspension).status).toBe(200);
      results = await Promise.all(checkouts);
    } finally {
      await release();
    }
    for (const r of results) {
      expect(r.status).toBe(422);
      expect(r.body.error).toMatchObject({ code: 'SHOP_NOT_ACTIVE', details: { shop_id: s.shop.id, status: 'suspended' } });
    }
    expect(await ordersOf(s.shop.id)).toBe(0);
    expect(await stockOf(t, s.skuId)).toBe(50);
    expect((await t.sql('select count(*)::int as n from cart_item where sku_id = ?', [s.skuId]))[0].n).toBe(2);
  });

  it('free-running: each checkout is placed before the suspension commits or refused; no order appears after it', async () => {
    for (let round = 0; round < 3; round++) {
      const s = await scene(100);
      const customers = await buyers(s, 12);
      const outcomes: { status: number; code?: string }[] = [];
      let afterSuspension = -1;
      const checkouts = customers.map(async (c, i) => {
        const r = await checkout(i % 2 ? b : t, c);
        outcomes.push({ status: r.status, code: r.body.error?.code });
      });
      const suspension = (async () => {
        const res = await suspend(s.shop.id);
        expect(res.status).toBe(200);
        // Counted once the suspension committed: no checkout may add an order after this.
        afterSuspension = await ordersOf(s.shop.id);
      })();
      await Promise.all([...checkouts, suspension]);
      const placed = outcomes.filter((o) => o.status === 201).length;
      expect(outcomes.filter((o) => o.status !== 201)).toEqual(Array(12 - placed).fill({ status: 422, code: 'SHOP_NOT_ACTIVE' }));
      expect(await ordersOf(s.shop.id)).toBe(placed);
      expect(afterSuspension).toBe(placed);
      expect(await stockOf(t, s.skuId)).toBe(100 - placed);
      expect((await t.sql('select count(*)::int as n from cart_item where sku_id = ?', [s.skuId]))[0].n).toBe(12 - placed);
    }
  });
});

describe('plans', () => {
  /**
   * How each statement shop states added or changed reads `product` and `shop`: with sequential scans
   * priced out (`enable_seqscan = off`, on tables this small the planner would scan them anyway), a
   * read no index can serve would still be a Seq Scan. The listing, search and detail statements are
   * unchanged (sql/statements.sql): suspension costs them nothing.
   */
  it('reads the shop and its products by key in the statements shop states add', async () => {
    await withIndexPlanner(t.dbUrl, async (explain) => {
      /** The tables read by a sequential scan, and the indexes the plan reads. */
      const scans = async (text: string, params: unknown[] = []) => {
        const plan = await explain(text, params);
        return {
          seqScans: plan.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']).filter((r) => r === 'product' || r === 'shop'),
          indexes: [...new Set(plan.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : [])))].sort(),
        };
      };
      // The storefront's home content, as kept by each process.
      expect(await scans(homeContentItems.textOf(t.orm.em, { activeOnly: true }))).toMatchObject({ seqScans: [], indexes: expect.arrayContaining(['product_pkey', 'shop_slug_unique']) });
      // Checkout's share lock of its shops (the `shop_lock` step of place_orders; the transactional writer's own).
      expect(await scans(`select sh.id, sh.status from shop sh where sh.id = any($1::int[]) order by sh.id for share`, [[1, 2]])).toEqual({ seqScans: [], indexes: ['shop_pkey'] });
      // A shop's move: its row by key, its products by an index holding shop_id (which one is the planner's choice).
      expect(await scans(`update shop set status = 'suspended' where id = $1 and status in ('active')`, [1])).toEqual({ seqScans: [], indexes: ['shop_pkey'] });
      expect(await scans(`update product set status = 'held' where shop_id = $1 and status = 'published'`, [1])).toMatchObject({ seqScans: [], indexes: [expect.stringMatching(/^product_/)] });
      // A payout batch's shops.
      expect(await scans(`select b.shop_id from balance b join shop s on s.id = b.shop_id where b.kind = 'shop_available' and b.amount >= 1 and s.status = 'active'`)).toMatchObject({ seqScans: [], indexes: expect.arrayContaining(['shop_pkey']) });
    });
  });
});

describe('in another OS process', () => {
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    // The compiled server (`npm start`'s code path) on this test's database; production: no demo seed.
    server = await startServerProcess({ DATABASE_URL: t.dbUrl, NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'p'.repeat(48) });
  });
  afterAll(async () => {
    if (server && server.child.exitCode === null) await server.stop();
  });

  it('never shows a suspended shop product from what that process keeps (rankings, totals, facets, home content), and shows it again once reinstated', async () => {
    const s = await scene();
    await setContent(t, 'promos', [{ title: 'Kettle', destination: `/products/${s.product.id}` }]);
    const get = async (path: string) => {
      const res = await fetch(`${server!.baseUrl}${path}`);
      return { status: res.status, body: (await res.json()) as any };
    };
    const seen = async () => {
      const [sales, words, facets, detail, home] = await Promise.all([
        get(`/api/products?category=${s.category.id}&sort=sales`),
        get(`/api/products?q=${s.name}`),
        get(`/api/products/facets?q=${s.name}`),
        get(`/api/products/${s.product.id}`),
        get('/api/content/home'),
      ]);
      return {
        sales: (sales.body.items as { id: number }[]).map((p) => p.id),
        words: (words.body.items as { id: number }[]).map((p) => p.id),
        facetShops: (facets.body.shops as { id: number }[]).map((f) => f.id),
        detail: detail.status,
        promos: (home.body.promos as { title: string }[]).map((p) => p.title),
      };
    };
    const visible = { sales: [s.product.id], words: [s.product.id], facetShops: [s.shop.id], detail: 200, promos: ['Kettle'] };
    // The other process has read (and keeps) all of it.
    await waitFor(async () => JSON.stringify(await seen()) === JSON.stringify(visible), 10_000, 'the server process shows the product');

    await suspended(s.shop.id);
    // The home content is read again when the shop's notification arrives; the rest at once.
    await waitFor(async () => (await seen()).promos.length === 0, 10_000, 'the server process drops the promo');
    expect(await seen()).toEqual({ sales: [], words: [], facetShops: [], detail: 404, promos: [] });

    await reinstated(s.shop.id);
    await waitFor(async () => JSON.stringify(await seen()) === JSON.stringify(visible), 10_000, 'the server process shows the product again');
    await setContent(t, 'promos', []);
    expect(server!.output()).not.toMatch(/"level":(50|60)/);
  });
});
