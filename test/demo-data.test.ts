import { startTestApp, type TestApp } from './support/harness.js';
import { seedDemoData } from '../src/seed/demo-seed.js';
import { DEMO_PASSWORD, POINTS_PRODUCTS, SEED_FUNDS, SEED_POINTS, startingStock } from '../src/seed/demo-data.js';
import { FREIGHT_TEMPLATE, GATEWAY_PURCHASE, REDEMPTION } from '../src/seed/showcase-data.js';
import { auditStockAndClose } from './support/inventory-audit.js';
import { openApiJson } from '../src/rest/openapi/document.js';
import { graphqlSchema } from '../src/resolvers/schema.js';
import type { GraphQLInputType, GraphQLNamedType } from 'graphql';

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
  expect(await seedDemoData(t.orm, 'development', t.deps.wiring.mediaStore)).toBe('seeded');
});
// Every stock change of the suite came with its movement (test/support/inventory-audit.ts).
afterAll(() => auditStockAndClose(t));

describe('demo data', () => {
  it('names a quarter of the catalog in Chinese, finds it by a Chinese word, and serves every picture from this server', async () => {
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
    expect(urls.filter((r: { url: string | null }) => !r.url?.startsWith('/demo-images/') && !r.url?.startsWith('/media/'))).toEqual([]);
    const drawn = await fetch(`${t.baseUrl}${(await t.sql<{ url: string }>('select logo_url as url from brand limit 1'))[0].url}`);
    expect([drawn.status, drawn.headers.get('content-type')]).toEqual([200, 'image/svg+xml']);
  });

  it("puts the products' and shops' pictures through the upload pipeline: each an asset of its owner, thumbnailed and served", async () => {
    const products = await t.sql<{ url: string; digest: string | null; owner: number | null; shop: number }>(`
      select p.image_url as url, a.digest, a.shop_id as owner, p.shop_id as shop from product p
      left join media_asset a on a.shop_id = p.shop_id and p.image_url = '/media/' || a.digest || '/640.webp'`);
    expect(products.length).toBeGreaterThan(40);
    expect(products.filter((p) => p.digest === null || p.owner !== p.shop)).toEqual([]);
    const logos = await t.sql<{ digest: string | null }>(`
      select a.digest from shop_profile s left join media_asset a on a.shop_id is null and s.logo_url = '/media/' || a.digest || '/640.webp'`);
    expect(logos.length).toBeGreaterThan(0);
    expect(logos.filter((l) => l.digest === null)).toEqual([]);
    for (const width of [160, 320, 640, 1280]) {
      const thumb = await fetch(`${t.baseUrl}/media/${products[0].digest}/${width}.webp`);
      expect([thumb.status, thumb.headers.get('content-type'), thumb.headers.get('cache-control')]).toEqual([200, 'image/webp', 'public, max-age=31536000, immutable']);
    }
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

  it("has bob's purchase paid through the sandbox gateway, with its verified notification, and a line refunded back through the gateway", async () => {
    const bob = await login('bob@mallfront.test');
    // One order still paid (a line refunded), the other delivered ten days ago and completed.
    const mine = (await t.api('GET', '/api/orders?page_size=100', { token: bob })).body.items as { id: number; status: string; shop: { slug: string } }[];
    const paid = mine.filter((o) => o.status === 'paid' || o.status === 'completed');
    expect(paid.map((o) => o.shop.slug).sort()).toEqual(GATEWAY_PURCHASE.lines.map((l) => l.shop).sort());
    expect(paid.find((o) => o.shop.slug === GATEWAY_PURCHASE.refund.shop)?.status).toBe('paid');
    const refunded = paid.find((o) => o.shop.slug === GATEWAY_PURCHASE.refund.shop)!;
    const [payment] = (await t.api('GET', `/api/orders/${refunded.id}/payments`, { token: bob })).body.items;
    expect(payment).toMatchObject({ method: 'sandbox', status: 'captured', paid_this_order: true, refunds: [expect.objectContaining({ status: 'succeeded', provider_reference: expect.stringMatching(/^sbx_refund_/) })] });
    // The shop sees the same payment of its order, the admin finds it by the gateway's reference with what the gateway said.
    const shop = await t.api('GET', `/api/orders/${refunded.id}/payments`, { token: await login(`ops@${GATEWAY_PURCHASE.refund.shop}.mallfront.test`) });
    expect(shop.body.items[0].payment_id).toBe(payment.payment_id);
    const admin = await login('admin@mallfront.test');
    const found = await t.api('GET', `/api/admin/payments/by-reference?method=sandbox&provider_reference=${encodeURIComponent(payment.provider_reference)}`, { token: admin });
    expect(found.body).toMatchObject({ id: payment.payment_id, status: 'captured', refunded_amount: payment.refunds[0].amount });
    const events = await t.api('GET', `/api/payments/${payment.payment_id}/events`, { token: admin });
    expect(events.body.items).toEqual([expect.objectContaining({ source: 'notification', verified: true, status: 'captured', outcome: 'captured' })]);
  });

  it("has a shop whose earnings are available, so the platform's payout flow runs on the demo data", async () => {
    const [kept] = GATEWAY_PURCHASE.lines.filter((l) => l.shop !== GATEWAY_PURCHASE.refund.shop);
    const balances = (await t.api('GET', '/api/merchant/balances', { token: await login(`ops@${kept.shop}.mallfront.test`) })).body;
    expect(balances.available).toBeGreaterThan(0);
    const batch = await t.api('POST', '/api/admin/payout-batches', { token: await login('admin@mallfront.test'), body: { threshold: 1 } });
    expect(batch.status).toBe(201);
    expect(batch.body.payouts).toContainEqual(expect.objectContaining({ amount: balances.available, status: 'pending' }));
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
               where oi.sku_id = s.id and o.status <> 'cancelled')
             - (select coalesce(sum(ri.quantity), 0)::int from refund_item ri join refund r on r.id = ri.refund_id join order_item oi on oi.id = ri.order_item_id
               where oi.sku_id = s.id and r.status = 'completed' and r.kind = 'refund') as ordered
        from sku s order by s.id`);
    for (const sku of skus) expect(sku.stock).toBe(startingStock(sku.n, sku.variant) - sku.ordered);
    // Alice's four, and bob's gateway purchase of three less the unit refunded.
    expect(skus.reduce((sum, s) => sum + s.ordered, 0)).toBe(4 + GATEWAY_PURCHASE.lines.reduce((n, l) => n + l.quantity, 0) - GATEWAY_PURCHASE.refund.quantity);

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
    // Bob spent points on the tote, and earned some for his completed order (a yuan paid, a point).
    const [{ earned }] = await t.sql<{ earned: number }>(
      `select coalesce(sum(l.delta), 0)::int as earned from ledger_entry l join balance b on b.id = l.balance_id join app_user u on u.id = b.user_id
        where u.email = 'bob@mallfront.test' and b.kind = 'points' and l.reason = 'points_earned'`);
    expect(earned).toBeGreaterThan(0);
    expect(bob).toMatchObject({ points: SEED_POINTS - redeemed.pointsPrice * REDEMPTION.quantity + earned, orders: { awaiting_group: 1, completed: 1 } });

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
    expect(await seedDemoData(t.orm, 'development', t.deps.wiring.mediaStore)).toBe('already-seeded');
    expect(await snapshot()).toEqual(before);
  });
});

/**
 * What the server gives, it takes back (issue 42): for each resource with a read and a matching
 * write, the values the read answers for the write's own fields (as the write's OpenAPI request
 * schema lists them; read-only fields such as ids and timestamps are left out) are sent back. The
 * write accepts them and nothing changes: a read again answers the same. The demo data is the source,
 * as a new admin or operator meets it: pictures that are paths on this server (`/demo-images/...`),
 * windows that started in the past, an enabled flash sale that has sold.
 */
describe('round trips: what a read answers, the matching write takes back', () => {
  type Schema = Record<string, any>;
  const doc = JSON.parse(openApiJson()) as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
  const deref = (schema: Schema): Schema => (schema.$ref ? deref(doc.components.schemas[String(schema.$ref).split('/').pop()!]) : schema);
  const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value);

  /** `value` cut to what `schema` takes: the form of a choice that fits it, the properties it lists. */
  function project(value: unknown, schema: Schema): unknown {
    const s = deref(schema);
    const forms = (s.oneOf ?? s.anyOf) as Schema[] | undefined;
    if (forms) {
      const key = s.discriminator?.propertyName as string | undefined;
      const fits = (form: Schema) => {
        const f = deref(form);
        if (key) return [f.properties?.[key]?.const, ...(f.properties?.[key]?.enum ?? [])].includes((value as Record<string, unknown>)[key]);
        const type = jsonType(value);
        return f.type === type || (type === 'integer' && f.type === 'number') || (f.type === undefined && type !== 'null');
      };
      return project(value, forms.find(fits) ?? forms[0]);
    }
    if (Array.isArray(value)) return value.map((v) => project(v, s.items ?? {}));
    if (value !== null && typeof value === 'object' && s.properties) {
      const object = value as Record<string, unknown>;
      return Object.fromEntries(Object.entries(s.properties as Record<string, Schema>).filter(([k]) => object[k] !== undefined).map(([k, inner]) => [k, project(object[k], inner)]));
    }
    return value;
  }

  interface RoundTrip {
    /** The write, as the document names it. */
    write: [method: string, path: string];
    /** Each object read, shaped as the write's body: who writes it, where, and a read of it again. */
    read: () => Promise<{ token: string; path: string; value: unknown; again: () => Promise<unknown> }[]>;
    /** Fields the write takes but sets itself (a replaced list's item ids and positions), left out when comparing. */
    recomputed?: string[];
  }

  const get = async (path: string, token?: string) => {
    const res = await t.api('GET', path, { token });
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const admin = () => login('admin@mallfront.test');
  const alice = () => login('alice@mallfront.test');
  const SHOPS = ['tech-harbor', 'style-avenue', 'home-nest', 'fresh-pantry', 'outdoor-lab'];
  /** Items of a list read by `token`, each written at `write(id)` (`pick`: the body's part of it), found again by id. */
  const each = async (token: string, list: string, write: (id: number) => string, items = (body: any) => body.items as { id: number }[], limit = Infinity) =>
    items(await get(list, token)).slice(0, limit).map((item) => ({
      token, path: write(item.id), value: item, again: async () => items(await get(list, token)).find((i) => i.id === item.id),
    }));
  /** The same for every shop's operator. */
  const perShop = (list: string, write: (id: number) => string, limit = Infinity) => async () =>
    (await Promise.all(SHOPS.map(async (slug) => each(await login(`ops@${slug}.mallfront.test`), list, write, undefined, limit)))).flat();

  const ROUND_TRIPS: RoundTrip[] = [
    {
      // The case: the seeded banners sent back reversed (a reorder), and each other list too.
      write: ['put', '/api/admin/content/{kind}'], recomputed: ['id', 'position'],
      read: async () => {
        const token = await admin();
        return Object.entries(await get('/api/admin/content', token)).map(([kind, items]) => ({
          token, path: `/api/admin/content/${kind}`, value: { items: [...(items as unknown[])].reverse() }, again: async () => ({ items: (await get('/api/admin/content', token))[kind] }),
        }));
      },
    },
    { write: ['put', '/api/admin/brands'], read: async () => [{ token: await admin(), path: '/api/admin/brands', value: await get('/api/brands'), again: () => get('/api/brands') }] },
    {
      write: ['put', '/api/admin/shops/{id}/profile'],
      read: async () => {
        const token = await admin();
        const shops = (await get('/api/shops')).items.filter((s: { profile?: unknown }) => s.profile);
        return shops.map((s: { id: number; slug: string; profile: unknown }) => ({ token, path: `/api/admin/shops/${s.id}/profile`, value: s.profile, again: async () => (await get(`/api/shops/${s.slug}`)).profile }));
      },
    },
    // Two products per shop: every shop's pictures are paths of the same kind.
    { write: ['put', '/api/merchant/products'], read: perShop('/api/merchant/products', () => '/api/merchant/products', 2) },
    { write: ['patch', '/api/merchant/coupon-templates/{template_id}'], read: perShop('/api/merchant/coupon-templates', (id) => `/api/merchant/coupon-templates/${id}`) },
    { write: ['put', '/api/merchant/flash-sales/{flash_sale_id}'], read: perShop('/api/merchant/flash-sales', (id) => `/api/merchant/flash-sales/${id}`) },
    { write: ['put', '/api/merchant/group-buys/{activity_id}'], read: perShop('/api/merchant/group-buys', (id) => `/api/merchant/group-buys/${id}`) },
    { write: ['put', '/api/merchant/freight-templates/{template_id}'], read: perShop('/api/merchant/freight-templates', (id) => `/api/merchant/freight-templates/${id}`) },
    { write: ['put', '/api/admin/points/products/{id}'], read: async () => each(await admin(), '/api/admin/points/products?page_size=100', (id) => `/api/admin/points/products/${id}`) },
    { write: ['patch', '/api/me/addresses/{address_id}'], read: async () => each(await alice(), '/api/me/addresses', (id) => `/api/me/addresses/${id}`) },
    {
      write: ['put', '/api/cart/items/{sku_id}'],
      read: async () => {
        const token = await alice();
        const lines = (await get('/api/cart', token)).lines as { sku_id: number }[];
        return lines.map((line) => ({ token, path: `/api/cart/items/${line.sku_id}`, value: line, again: async () => (await get('/api/cart', token)).lines.find((l: { sku_id: number }) => l.sku_id === line.sku_id) }));
      },
    },
    { write: ['patch', '/api/admin/webhooks/{id}'], read: async () => each(await admin(), '/api/admin/webhooks', (id) => `/api/admin/webhooks/${id}`) },
    {
      // Rates are never edited: the matching write adds one with the same terms (a window started in the past included).
      write: ['post', '/api/admin/shops/{shop_id}/commission-rates'],
      read: async () => {
        const token = await admin();
        const shopId = (await get('/api/shops')).items[0].id;
        return (await get(`/api/admin/shops/${shopId}/commission-rates`, token)).items.map((rate: unknown) => ({ token, path: `/api/admin/shops/${shopId}/commission-rates`, value: rate, again: async () => rate }));
      },
    },
  ];

  beforeAll(async () => {
    // What the demo has none of: an address, a cart line, a platform webhook, a commission rate with an end.
    const customer = await alice();
    await t.api('POST', '/api/me/addresses', { token: customer, body: { recipient: 'Alice Wang', phone: '+86 139 0000 0001', region: 'CN-SH', address: '1 Century Avenue, Shanghai' } });
    const [sku] = await t.sql<{ id: number }>(`select s.id from sku s join product p on p.id = s.product_id where p.status = 'published' and s.stock > 2 order by s.id limit 1`);
    await t.api('PUT', `/api/cart/items/${sku.id}`, { token: customer, body: { quantity: 2 } });
    const platform = await admin();
    await t.api('POST', '/api/admin/webhooks', { token: platform, body: { url: 'https://8.8.8.8/hooks/mallfront', event_types: ['order.paid'] } });
    const shopId = (await get('/api/shops', '')).items[0].id;
    await t.api('POST', `/api/admin/shops/${shopId}/commission-rates`, { token: platform, body: { rate_bp: 500, valid_from: '2026-01-01T00:00:00Z', valid_until: '2099-01-01T00:00:00Z' } });
  });

  it('over REST: each write takes back what its read answered, and changes nothing', async () => {
    for (const trip of ROUND_TRIPS) {
      const [method, path] = trip.write;
      const schema = doc.paths[path][method].requestBody.content['application/json'].schema as Schema;
      const without = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, v) => (trip.recomputed?.includes(key) ? undefined : v)));
      const reads = await trip.read();
      // Every resource has something to send back in the demo data (or the setup above).
      expect([path, reads.length > 0]).toEqual([path, true]);
      for (const read of reads) {
        const body = project(read.value, schema);
        const res = await t.api(method.toUpperCase(), read.path, { token: read.token, body });
        expect([method, read.path, res.status, res.body?.error]).toEqual([method, read.path, method === 'post' ? 201 : 200, undefined]);
        expect([read.path, without(project(await read.again(), schema))]).toEqual([read.path, without(body)]);
      }
    }
  });

  it('over GraphQL: the admin content and a flash sale, read by their queries, are taken back by their mutations', async () => {
    const schema = await graphqlSchema();
    const named = (type: GraphQLInputType): GraphQLNamedType => ('ofType' in type && type.ofType ? named(type.ofType as GraphQLInputType) : (type as GraphQLNamedType));
    const fieldsOf = (type: GraphQLNamedType) => ('getFields' in type ? Object.values((type as { getFields(): Record<string, { name: string; type: GraphQLInputType }> }).getFields()) : null);
    /** A selection of an input type's fields, for the query whose answer feeds it. */
    const selection = (type: GraphQLNamedType, skip: string[] = []): string =>
      fieldsOf(type)!.filter((f) => !skip.includes(f.name)).map((f) => (fieldsOf(named(f.type)) ? `${f.name} { ${selection(named(f.type))} }` : f.name)).join(' ');
    const input = (name: string) => schema.getType(name) as GraphQLNamedType;
    const token = await admin();

    const banners = `{ adminContent { banners { ${selection(named(fieldsOf(input('ReplaceHomeContentInput'))!.find((f) => f.name === 'items')!.type))} } } }`;
    const before = (await t.gql(banners, undefined, token)).data.adminContent.banners;
    expect(before.length).toBeGreaterThan(1);
    const reversed = [...before].reverse();
    const replaced = await t.gql('mutation($input: ReplaceHomeContentInput!) { replaceHomeContent(input: $input) { userErrors { code field message } } }', { input: { kind: 'BANNERS', items: reversed } }, token);
    expect([replaced.errors, replaced.data.replaceHomeContent.userErrors]).toEqual([undefined, []]);
    expect((await t.gql(banners, undefined, token)).data.adminContent.banners).toEqual(reversed);

    const ops = await login('ops@fresh-pantry.mallfront.test');
    const sessions = `{ merchantFlashSales { items { id ${selection(input('UpdateFlashSaleInput'), ['flashSaleId'])} } } }`;
    const [session] = (await t.gql(sessions, undefined, ops)).data.merchantFlashSales.items;
    const { id, ...fields } = session;
    const updated = await t.gql('mutation($input: UpdateFlashSaleInput!) { updateFlashSale(input: $input) { userErrors { code field message } } }', { input: { ...fields, flashSaleId: id } }, ops);
    expect([updated.errors, updated.data.updateFlashSale.userErrors]).toEqual([undefined, []]);
    expect((await t.gql(sessions, undefined, ops)).data.merchantFlashSales.items[0]).toEqual(session);
  });
});

