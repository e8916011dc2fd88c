import { startTestApp, type TestApp } from './support/harness.js';
import { seedDemoData, SeedRefused } from '../src/seed/demo-seed.js';
import { PASSWORD } from './support/fixtures.js';
import { DEMO_PASSWORD } from '../src/seed/demo-data.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const TABLES = ['category', 'brand', 'shop', 'shop_profile', 'product', 'sku', 'home_content_item', 'app_user', 'balance', 'ledger_entry', 'points_product'];

async function counts() {
  const out: Record<string, number> = {};
  for (const table of TABLES) out[table] = (await t.sql(`select count(*)::int as n from ${table}`))[0].n;
  return out;
}

describe('demo seed', () => {
  it('refuses to run with NODE_ENV=production', async () => {
    await expect(seedDemoData(t.orm, 'production', t.deps.wiring.mediaStore)).rejects.toBeInstanceOf(SeedRefused);
    expect((await counts()).app_user).toBe(0);
  });

  it('seeds once: a second run adds nothing', async () => {
    expect(await seedDemoData(t.orm, 'development', t.deps.wiring.mediaStore)).toBe('seeded');
    const first = await counts();
    expect(await seedDemoData(t.orm, 'development', t.deps.wiring.mediaStore)).toBe('already-seeded');
    expect(await counts()).toEqual(first);
  });

  it('has the reference category tree: 6 top-level nodes, each with 2 children, each with 2 children', async () => {
    const byDepth = await t.sql(`select depth, count(*)::int as n from category group by depth order by depth`);
    expect(byDepth).toEqual([{ depth: 0, n: 6 }, { depth: 1, n: 12 }, { depth: 2, n: 24 }]);
    const fanOut = await t.sql(`select count(*)::int as n from category p where (select count(*) from category c where c.parent_id = p.id) not in (0, 2)`);
    expect(fanOut[0].n).toBe(0);
  });

  it('has the demo catalog, shops, content and accounts', async () => {
    const c = await counts();
    expect(c.brand).toBeGreaterThanOrEqual(8);
    expect(c.shop).toBeGreaterThanOrEqual(4);
    expect(c.shop_profile).toBeLessThan(c.shop);
    expect(c.product).toBeGreaterThanOrEqual(40);
    const [spread] = await t.sql(`select count(distinct shop_id)::int as shops, count(distinct category_id)::int as leaves,
      count(*) filter (where brand_id is null)::int as unbranded from product`);
    expect(spread.shops).toBeGreaterThanOrEqual(4);
    expect(spread.leaves).toBe(24);
    expect(spread.unbranded).toBeGreaterThan(0);
    const content = await t.sql(`select kind, count(*) filter (where active)::int as active, count(*) filter (where not active)::int as inactive from home_content_item group by kind order by kind`);
    expect(content).toHaveLength(4);
    for (const row of content) expect(row.inactive).toBeGreaterThanOrEqual(1);

    for (const email of ['admin@mallfront.test', 'alice@mallfront.test', 'bob@mallfront.test', 'ops@tech-harbor.mallfront.test']) {
      const res = await t.api('POST', '/api/auth/login', { body: { email, password: DEMO_PASSWORD } });
      expect(res.status).toBe(200);
    }
    const points = await t.api('GET', '/api/points/products');
    expect(points.body.total).toBeGreaterThanOrEqual(3);
    // Each shop has its owner; the first a finance member too, who sees its money and not its catalog.
    const owners = await t.sql(`select count(distinct shop_id)::int as shops, count(*)::int as n from shop_membership where role = 'owner'`);
    expect(owners[0]).toEqual({ shops: c.shop, n: c.shop });
    const [finance] = await t.sql<{ email: string; shop_id: number }>(`select u.email, m.shop_id from shop_membership m join app_user u on u.id = m.user_id where m.role = 'finance'`);
    expect(finance.email).toMatch(/^finance@/);
    const session = await t.api('POST', '/api/auth/login', { body: { email: finance.email, password: DEMO_PASSWORD } });
    expect(session.body.user).toMatchObject({ role: 'shop_operator', shop_id: finance.shop_id, memberships: [{ shop_id: finance.shop_id, role: 'finance' }] });
    expect((await t.api('GET', '/api/merchant/balances', { token: session.body.token })).status).toBe(200);
    expect((await t.api('GET', '/api/merchant/products', { token: session.body.token })).status).toBe(403);
    expect(PASSWORD).not.toBe(DEMO_PASSWORD);
  });

  it('gives every demo account its own salt, so no two share a hash', async () => {
    const [row] = await t.sql(`select count(*)::int as accounts, count(distinct password_hash)::int as hashes,
      count(distinct split_part(password_hash, '$', 5))::int as salts from app_user where email like '%mallfront.test'`);
    expect(row.accounts).toBe(9);
    expect(row.hashes).toBe(9);
    expect(row.salts).toBe(9);
  });
});
