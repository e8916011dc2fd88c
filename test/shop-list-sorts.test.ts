import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newOperator, newProduct, newShop, type TestUser } from './support/fixtures.js';
import { placeOrder } from './support/shopping.js';

/** The shop console's tables sort by a column: the shop's products and orders take a `sort` over both doors. */
let t: TestApp;
let operator: TestUser;
const ids: Record<string, number> = {};
let orderIds: number[] = [];

beforeAll(async () => {
  t = await startTestApp();
  const shop = await newShop(t);
  operator = await newOperator(t, shop.id);
  const category = await newCategory(t);
  // Made in this order (ids ascending), so no sort below equals the order of creation by accident.
  for (const [name, price] of [['Banana', 300], ['Cherry', 100], ['Apple', 200]] as const) {
    ids[name] = (await newProduct(t, { shopId: shop.id, categoryId: category.id, name, skus: [{ price, stock: 50 }] })).id;
  }
  const customer = await newCustomer(t);
  const sku = (await t.sql<{ id: number }>('select id from sku where product_id = ?', [ids.Cherry]))[0].id;
  // Totals 200, 500, 300 (units of 100, no freight).
  for (const quantity of [2, 5, 3]) orderIds.push((await placeOrder(t, customer.token, sku, quantity)).id);
});
afterAll(() => t.close());

const restProducts = async (sort?: string) => {
  const res = await t.api('GET', `/api/merchant/products${sort ? `?sort=${sort}` : ''}`, { token: operator.token });
  return { status: res.status, body: res.body, names: res.status === 200 ? (res.body.items as { name: string }[]).map((p) => p.name) : [] };
};
const gqlProducts = (sort: string) => t.gql(`query ($sort: MerchantProductSort) { merchantProducts(sort: $sort) { items { name } } }`, { sort }, operator.token);
const restOrders = (sort: string) => t.api('GET', `/api/merchant/orders?sort=${sort}`, { token: operator.token });
const gqlOrders = (sort: string) => t.gql(`query ($sort: ShopOrderSort) { merchantOrders(sort: $sort) { items { id total } } }`, { sort }, operator.token);

describe("the shop's product list by a column", () => {
  it('sorts newest first by default, and by name or lowest price either way, over REST', async () => {
    expect((await restProducts()).names).toEqual(['Apple', 'Cherry', 'Banana']);
    expect((await restProducts('oldest')).names).toEqual(['Banana', 'Cherry', 'Apple']);
    expect((await restProducts('name_asc')).names).toEqual(['Apple', 'Banana', 'Cherry']);
    expect((await restProducts('name_desc')).names).toEqual(['Cherry', 'Banana', 'Apple']);
    expect((await restProducts('price_asc')).names).toEqual(['Cherry', 'Apple', 'Banana']);
    expect((await restProducts('price_desc')).names).toEqual(['Banana', 'Apple', 'Cherry']);
  });

  it('sorts the same over GraphQL', async () => {
    const res = await gqlProducts('PRICE_ASC');
    expect(res.errors).toBeUndefined();
    expect(res.data.merchantProducts.items.map((p: { name: string }) => p.name)).toEqual(['Cherry', 'Apple', 'Banana']);
    expect((await gqlProducts('NAME_DESC')).data.merchantProducts.items.map((p: { name: string }) => p.name)).toEqual(['Cherry', 'Banana', 'Apple']);
  });

  it('refuses a sort it does not know: 400 in the common error shape over REST, an input error over GraphQL, never a 500', async () => {
    const before = await t.sql('select id, name, status, updated_at from product order by id');
    const rest = await restProducts('price');
    expect([rest.status, rest.body.error.code, rest.body.error.details.problems.map((p: { field: string }) => p.field)]).toEqual([400, 'VALIDATION_FAILED', ['sort']]);
    expect(rest.body.error.details.problems[0].message).toMatch(/^must be one of "newest", "oldest"/);
    const gql = await gqlProducts('PRICE');
    expect(gql.status).toBeLessThan(500);
    expect(gql.data?.merchantProducts ?? null).toBeNull();
    expect(gql.errors?.map((e: { extensions?: { code?: string } }) => e.extensions?.code)).not.toContain('INTERNAL');
    expect(gql.errors?.[0].message).toMatch(/MerchantProductSort/);
    expect(await t.sql('select id, name, status, updated_at from product order by id')).toEqual(before);
  });
});

describe("the shop's order list by a column", () => {
  it('sorts newest first by default, oldest first, and by total either way, over both doors', async () => {
    const restIds = async (sort: string) => ((await restOrders(sort)).body.items as { id: number }[]).map((o) => o.id);
    const [small, large, middle] = orderIds;
    expect(((await t.api('GET', '/api/merchant/orders', { token: operator.token })).body.items as { id: number }[]).map((o) => o.id)).toEqual([middle, large, small]);
    expect(await restIds('oldest')).toEqual([small, large, middle]);
    expect(await restIds('total_asc')).toEqual([small, middle, large]);
    expect(await restIds('total_desc')).toEqual([large, middle, small]);
    const gql = await gqlOrders('TOTAL_DESC');
    expect(gql.errors).toBeUndefined();
    expect(gql.data.merchantOrders.items.map((o: { id: number }) => o.id)).toEqual([large, middle, small]);
  });

  it('refuses a sort it does not know over both doors, never a 500', async () => {
    const rest = await restOrders('total');
    expect([rest.status, rest.body.error.code, rest.body.error.details.problems.map((p: { field: string }) => p.field)]).toEqual([400, 'VALIDATION_FAILED', ['sort']]);
    const gql = await gqlOrders('TOTAL');
    expect(gql.status).toBeLessThan(500);
    expect(gql.errors?.[0].message).toMatch(/ShopOrderSort/);
    // The customer's own list has no sort: an unknown parameter there is refused as before.
    const customer = await newCustomer(t);
    expect((await t.api('GET', '/api/orders?sort=total_asc', { token: customer.token })).status).toBe(400);
  });
});
