import { startTestApp, type TestApp } from './support/harness.js';
import { seedDemoData } from '../src/seed/demo-seed.js';
import { DEMO_PASSWORD, POINTS_PRODUCTS, SEED_FUNDS, SEED_POINTS, startingStock } from '../src/seed/demo-data.js';
import { FREIGHT_TEMPLATE, REDEMPTION } from '../src/seed/showcase-data.js';
import { auditStockAndClose } from './support/inventory-audit.js';

/**
 * The demo data shows every feature to a client that has just started the server: each check here
 * goes through the API as a client would see it, then the books are checked against the rules the
 * use cases keep (stock, ledgers, sold counts).
 */
let t: TestApp;
const tokens: Record<string, string> = {};
const login = async (email: string) => {
  tokens[email] ??= (await t.api('POST', '/api/auth/login', { body: { email, password: DEMO_PASSWORD } })).body.token;
  return tokens[email];
};

beforeAll(async () => {
  t = await startTestApp();
  expect(await seedDemoData(t.orm, 'development')).toBe('seeded');
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

describe('demo data', () => {
  it('names a quarter of the catalog in Chinese, finds it by a Chinese word, and draws every picture on this server', async () => {
    const [counts] = await t.sql(`select count(*)::int as products, count(*) filter (where name ~ '[\u4e00-\u9fff]')::int as chinese from product`);
    expect(counts.chinese * 4).toBeGreaterThanOrEqual(counts.products);
    const found = await t.api('GET', `/api/products?q=${encodeURIComponent('咖啡')}`);
    expect(found.status).toBe(200);
    expect(found.body.items.length).toBeGreaterThan(0);
    const urls = await t.sql(`
      select image_url as url from product union all select logo_url from brand union all select image_url from home_content_item
      union all select logo_url from shop_profile union all select banner_url from shop_profile where banner_url is not null
      union all select image_url from points_product`);
    expect(urls.length).toBeGreaterThan(50);
    expect(urls.filter((r: { url: string | null }) => !r.url?.startsWith('/demo-images/'))).toEqual([]);
    const picture = await fetch(`${t.baseUrl}${urls[0].url}`);
    expect([picture.status, picture.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
  });

  it('has claimable coupon templates: a fixed amount and a capped percent', async () => {
    const fixed = await t.api('GET', '/api/shops/tech-harbor/coupon-templates');
    expect(fixed.body.items).toEqual([expect.objectContaining({ discount_kind: 'fixed', amount_off: 2_000, min_order_amount: 20_000 })]);
    const percent = await t.api('GET', '/api/shops/style-avenue/coupon-templates');
    expect(percent.body.items).toEqual([expect.objectContaining({ discount_kind: 'percent', percent_off: 10, max_discount: 5_000 })]);

    const bob = await login('bob@mallfront.test');
    const claimed = await t.api('POST', `/api/coupon-templates/${percent.body.items[0].id}/claim`, { token: bob });
    expect(claimed.status).toBe(201);
    expect(claimed.body.status).toBe('available');
  });

  it('has a flash sale running now and one upcoming', async () => {
    const now = await t.api('GET', '/api/flash-sales');
    expect(now.body.items).toHaveLength(1);
    expect(now.body.items[0]).toMatchObject({ state: 'active', enabled: true, shop: { slug: 'fresh-pantry' } });
    expect(now.body.items[0].items.length).toBeGreaterThan(0);

    const { data } = await t.gql('{ flashSales(includeUpcoming: true) { items { state startsAt shop { slug } } } }');
    expect(data.flashSales.items.map((s: { state: string }) => s.state)).toEqual(['ACTIVE', 'UPCOMING']);
    expect(new Date(data.flashSales.items[1].startsAt).getTime()).toBeGreaterThan(Date.now());
  });

  it('has an open group buy with a group waiting for its last member', async () => {
    const list = await t.api('GET', '/api/group-buys');
    expect(list.body.items).toHaveLength(1);
    const { data } = await t.gql('query ($id: Int!) { groupBuy(id: $id) { active capacity groups { state seatsTaken seatsLeft } } }', { id: list.body.items[0].id });
    expect(data.groupBuy).toEqual({ active: true, capacity: 3, groups: [{ state: 'OPEN', seatsTaken: 2, seatsLeft: 1 }] });
  });

  it("has alice's delivered orders, reviewed, one review with the shop's reply", async () => {
    const alice = await login('alice@mallfront.test');
    const delivered = await t.api('GET', '/api/orders?status=delivered', { token: alice });
    expect(delivered.body.total).toBe(2);
    const replies = [];
    for (const order of delivered.body.items) {
      expect(order.shipments).toHaveLength(1);
      const reviews = await t.api('GET', `/api/products/${order.items[0].product_id}/reviews`);
      expect(reviews.body.items).toHaveLength(1);
      replies.push(reviews.body.items[0].reply?.text);
    }
    expect(replies.filter(Boolean)).toHaveLength(1);
    const waiting = await t.api('GET', '/api/merchant/reviews?replied=false', { token: await login('ops@style-avenue.mallfront.test') });
    expect(waiting.body.total).toBe(1);
  });

  it('has a freight template whose regional override changes the checkout preview', async () => {
    const ops = await login(`ops@${FREIGHT_TEMPLATE.shop}.mallfront.test`);
    const templates = await t.api('GET', '/api/merchant/freight-templates', { token: ops });
    expect(templates.body.items).toEqual([expect.objectContaining({ first_unit_fee: 1_000, regions: [expect.objectContaining({ region: 'CN-XJ' }), expect.objectContaining({ region: 'CN-XZ' })] })]);

    const [product] = await t.sql(`select s.id from sku s join product p on p.id = s.product_id where p.freight_template_id is not null order by s.id limit 1`);
    const bob = await login('bob@mallfront.test');
    await t.api('PUT', `/api/cart/items/${product.id}`, { token: bob, body: { quantity: 1 } });
    const fee = async (region: string) => (await t.api('POST', '/api/checkout/preview', { token: bob, body: { region } })).body.orders[0].freight_fee;
    expect(await fee('CN-SH')).toBe(1_000);
    expect(await fee('CN-XZ')).toBe(3_000);
    await t.api('DELETE', `/api/cart/items/${product.id}`, { token: bob });
  });

  it('has a redemption waiting for fulfilment, visible to the admin', async () => {
    const queue = await t.api('GET', '/api/admin/redemptions?status=pending_fulfillment', { token: await login('admin@mallfront.test') });
    expect(queue.body.items).toEqual([expect.objectContaining({ product_name: REDEMPTION.item, quantity: REDEMPTION.quantity })]);
  });

  it('keeps the books: stock, balances, ledgers and sold counts agree with the orders', async () => {
    // Every SKU's stock is its starting stock less the units of orders that are not cancelled.
    const skus = await t.sql(`
      select s.stock, row_number() over (partition by s.product_id order by s.id)::int - 1 as variant,
             dense_rank() over (order by s.product_id)::int as n,
             (select coalesce(sum(oi.quantity), 0)::int from order_item oi join shop_order o on o.id = oi.order_id
               where oi.sku_id = s.id and o.status <> 'cancelled') as ordered
        from sku s order by s.id`);
    for (const sku of skus) expect(sku.stock).toBe(startingStock(sku.n, sku.variant) - sku.ordered);
    expect(skus.reduce((sum, s) => sum + s.ordered, 0)).toBe(4);

    const redeemed = POINTS_PRODUCTS.find((p) => p.name === REDEMPTION.item)!;
    const [tote] = await t.sql(`select stock from points_product where name = ?`, [REDEMPTION.item]);
    expect(tote.stock).toBe(redeemed.stock - REDEMPTION.quantity);

    // Every balance is the sum of its ledger entries, and its last entry's running figure.
    const drift = await t.sql(`
      select b.id from balance b
       where b.amount <> (select coalesce(sum(l.delta), 0) from ledger_entry l where l.balance_id = b.id)
          or b.amount <> coalesce((select l.balance_after from ledger_entry l where l.balance_id = b.id order by l.id desc limit 1), 0)`);
    expect(drift).toEqual([]);

    // Alice paid two orders and froze one group seat; bob froze a seat and spent points.
    const alice = (await t.api('GET', '/api/me/stats', { token: await login('alice@mallfront.test') })).body;
    const orders = await t.api('GET', '/api/orders?page_size=100', { token: await login('alice@mallfront.test') });
    const paid = orders.body.items.filter((o: { status: string }) => o.status === 'delivered').reduce((sum: number, o: { total: number }) => sum + o.total, 0);
    const seat = orders.body.items.find((o: { status: string }) => o.status === 'awaiting_group').total;
    expect(alice).toMatchObject({ available: SEED_FUNDS - paid - seat, frozen: seat, orders: { delivered: 2, awaiting_group: 1 } });
    expect(alice.points).toBeGreaterThan(SEED_POINTS);
    const bob = (await t.api('GET', '/api/me/stats', { token: await login('bob@mallfront.test') })).body;
    expect(bob).toMatchObject({ points: SEED_POINTS - redeemed.pointsPrice * REDEMPTION.quantity, orders: { awaiting_group: 1 } });

    // Sold counts: delivered units count, seats of a group not yet full do not.
    for (const order of orders.body.items) {
      const product = await t.api('GET', `/api/products/${order.items[0].product_id}`);
      expect(product.body.sold_count).toBe(order.status === 'delivered' ? 1 : 0);
    }
  });

  it('seeds once: a second run changes nothing', async () => {
    const tables = ['coupon_template', 'coupon', 'flash_sale', 'flash_sale_item', 'group_buy_activity', 'group_buy_group', 'shop_order', 'order_item',
      'shipment', 'review', 'freight_template', 'freight_template_region', 'redemption', 'ledger_entry', 'sku'];
    const snapshot = async () => {
      const out: Record<string, unknown> = {};
      for (const table of tables) out[table] = (await t.sql(`select count(*)::int as n from ${table}`))[0].n;
      out.stock = (await t.sql(`select sum(stock)::int as n from sku`))[0].n;
      return out;
    };
    const before = await snapshot();
    expect(await seedDemoData(t.orm, 'development')).toBe('already-seeded');
    expect(await snapshot()).toEqual(before);
  });
});
