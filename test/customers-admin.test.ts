import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, newOperator, newShop, PASSWORD, type TestUser } from './support/fixtures.js';
import { placeOrder, shopWithProduct } from './support/shopping.js';
import { mutate } from './support/graphql.js';
import { subscribe, waitFor } from './support/subscriptions.js';

/**
 * Customers for the platform (issue 41, item 4): search with order counts; disabling an account
 * stops its sign-in (ACCOUNT_DISABLED), revokes its tokens and closes its websockets; enabling lets
 * it sign in again. Both doors, bad input, two admins at once.
 */
let t: TestApp;
let admin: TestUser;
let otherAdmin: TestUser;
beforeAll(async () => {
  // Open sockets are checked every second, so a closed one shows within the test's wait.
  t = await startTestApp({ subscriptionRecheckSeconds: 1 });
  admin = await newAdmin(t);
  otherAdmin = await newAdmin(t);
});
afterAll(() => t.close());

const disable = (token: string, id: number, reason: unknown = 'Chargeback fraud') => t.api('POST', `/api/admin/customers/${id}/disable`, { token, body: { reason } });
const enable = (token: string, id: number) => t.api('POST', `/api/admin/customers/${id}/enable`, { token });
const login = (user: TestUser) => t.api('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } });

describe('searching', () => {
  it('finds customers by part of the email or name, or by id, with their order counts; staff are not customers', async () => {
    const buyer = await newCustomer(t, { available: 100_000, points: 0 });
    const { product } = await shopWithProduct(t, [{ price: 100, stock: 10 }]);
    await placeOrder(t, buyer.token, product.skuIds[0], 1);
    await placeOrder(t, buyer.token, product.skuIds[0], 1);
    const byEmail = await t.api('GET', `/api/admin/customers?q=${encodeURIComponent(buyer.email.slice(0, 12).toUpperCase())}`, { token: admin.token });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.items.find((c: { id: number }) => c.id === buyer.id)).toMatchObject({ id: buyer.id, email: buyer.email, state: 'active', order_count: 2, created_at: expect.any(String) });
    const byId = await t.api('GET', `/api/admin/customers?q=${buyer.id}`, { token: admin.token });
    expect(byId.body.items.map((c: { id: number }) => c.id)).toContain(buyer.id);
    const [{ display_name: name }] = await t.sql('select display_name from app_user where id = ?', [buyer.id]);
    const byName = await t.api('GET', `/api/admin/customers?q=${encodeURIComponent(String(name))}&page_size=100`, { token: admin.token });
    expect(byName.body.items.map((c: { id: number }) => c.id)).toContain(buyer.id);
    // Wildcards typed in the box are literal; staff accounts never show.
    expect((await t.api('GET', '/api/admin/customers?q=%25%25%25', { token: admin.token })).body.items).toEqual([]);
    const operator = await newOperator(t, (await newShop(t)).id);
    expect((await t.api('GET', `/api/admin/customers?q=${operator.id}`, { token: admin.token })).body.items.map((c: { id: number }) => c.id)).not.toContain(operator.id);
    expect((await t.api('GET', `/api/admin/customers/${operator.id}`, { token: admin.token })).status).toBe(404);
    expect((await t.api('GET', `/api/admin/customers/${buyer.id}`, { token: admin.token })).body).toMatchObject({ id: buyer.id, order_count: 2 });
  });

  it('pages newest first and filters by state', async () => {
    const made = [await newCustomer(t), await newCustomer(t), await newCustomer(t)];
    const first = await t.api('GET', '/api/admin/customers?page_size=2', { token: admin.token });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0].id).toBeGreaterThan(first.body.items[1].id);
    expect(first.body.total).toBeGreaterThanOrEqual(3);
    expect(first.body.items[0].id).toBe(made[2].id);
    await disable(admin.token, made[1].id);
    const disabled = await t.api('GET', '/api/admin/customers?state=disabled&page_size=100', { token: admin.token });
    expect(disabled.body.items.map((c: { id: number }) => c.id)).toContain(made[1].id);
    expect(disabled.body.items.every((c: { state: string }) => c.state === 'disabled')).toBe(true);
    const active = await t.api('GET', '/api/admin/customers?state=active&page_size=100', { token: admin.token });
    expect(active.body.items.map((c: { id: number }) => c.id)).not.toContain(made[1].id);
  });

  it('sorts by display name both ways, or oldest first, the same over both doors', async () => {
    const tag = `sorted${Date.now().toString(36)}`;
    const made: TestUser[] = [];
    // Made out of name order, so each order below differs from the others.
    for (const name of ['Birch', 'Aspen', 'Cedar']) {
      const customer = await newCustomer(t);
      await t.sql('update app_user set display_name = ? where id = ?', [`${tag} ${name}`, customer.id]);
      made.push(customer);
    }
    const idsBy = async (sort: string) => (await t.api('GET', `/api/admin/customers?q=${tag}${sort ? `&sort=${sort}` : ''}`, { token: admin.token })).body.items.map((c: { id: number }) => c.id);
    const [birch, aspen, cedar] = made.map((c) => c.id);
    expect(await idsBy('')).toEqual([cedar, aspen, birch]);
    expect(await idsBy('oldest')).toEqual([birch, aspen, cedar]);
    expect(await idsBy('name_asc')).toEqual([aspen, birch, cedar]);
    expect(await idsBy('name_desc')).toEqual([cedar, birch, aspen]);
    const res = await t.gql(`query($q: String) { customers(q: $q, sort: NAME_ASC) { items { id displayName } } }`, { q: tag }, admin.token);
    expect(res.data.customers.items.map((c: { displayName: string }) => c.displayName)).toEqual([`${tag} Aspen`, `${tag} Birch`, `${tag} Cedar`]);
  });

  it('answers bad input and wrong callers clearly, never a 500', async () => {
    const customer = await newCustomer(t);
    for (const query of ['state=gone', 'page_size=1000', `q=${'x'.repeat(201)}`, 'page=0', 'sort=email', 'sort=total_asc']) {
      const res = await t.api('GET', `/api/admin/customers?${query}`, { token: admin.token });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await t.api('GET', '/api/admin/customers', { token: customer.token })).status).toBe(403);
    expect((await t.api('GET', '/api/admin/customers')).status).toBe(401);
    expect((await t.api('GET', '/api/admin/customers/abc', { token: admin.token })).body.error.code).toBe('VALIDATION_FAILED');
    expect((await t.api('GET', '/api/admin/customers/2000000000', { token: admin.token })).body.error).toMatchObject({ code: 'NOT_FOUND', details: { customer_id: 2_000_000_000 } });
  });
});

describe('disabling and enabling', () => {
  it('a disabled account cannot sign in (ACCOUNT_DISABLED), its tokens stop working and its websockets close; enabled, it signs in again', async () => {
    const customer = await newCustomer(t);
    const secondSession = (await login(customer)).body.token as string;
    const bystander = await newCustomer(t);
    const sockets = [
      await subscribe(t, 'subscription { myOrderEvents { id } }', { token: customer.token }),
      await subscribe(t, 'subscription { myOrderEvents { id } }', { token: secondSession }),
      await subscribe(t, 'subscription { myOrderEvents { id } }', { token: bystander.token }),
    ];
    const disabled = await disable(admin.token, customer.id);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: customer.id, state: 'disabled', disabled_reason: 'Chargeback fraud', disabled_at: expect.any(String) });

    expect(await t.sql('select count(*)::int as n from auth_token where user_id = ? and revoked_at is null', [customer.id])).toEqual([{ n: 0 }]);
    for (const token of [customer.token, secondSession]) {
      const me = await t.api('GET', '/api/me', { token });
      expect(me.status).toBe(401);
      expect(me.body.error.code).toBe('TOKEN_INVALID');
    }
    await waitFor(() => sockets[0].error !== null && sockets[1].error !== null, 10_000, "the disabled account's sockets closed");
    expect(sockets[0].error).toMatchObject({ code: 4401, reason: 'TOKEN_INVALID' });
    expect(sockets[1].error).toMatchObject({ code: 4401, reason: 'TOKEN_INVALID' });
    const refused = await login(customer);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toMatchObject({ code: 'ACCOUNT_DISABLED' });
    // A wrong password still answers as for anyone: nothing about the account leaks to a guesser.
    expect((await t.api('POST', '/api/auth/login', { body: { email: customer.email, password: 'wrong password' } })).body.error.code).toBe('INVALID_CREDENTIALS');
    // Another customer's socket stays open through more checks.
    await waitFor(async () => Number((await t.sql(`select count(*)::int as n from auth_token where user_id = ?`, [bystander.id]))[0].n) === 1, 2000);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(sockets[2].error).toBeNull();
    await sockets[2].close();

    const enabled = await enable(admin.token, customer.id);
    expect(enabled.body).toMatchObject({ state: 'active' });
    expect(enabled.body.disabled_reason).toBeUndefined();
    const back = await login(customer);
    expect(back.status).toBe(200);
    expect((await t.api('GET', '/api/me', { token: back.body.token })).status).toBe(200);
    // The tokens revoked on disabling stay revoked.
    expect((await t.api('GET', '/api/me', { token: customer.token })).status).toBe(401);
  });

  it('a token issued to a disabled account (a sign-in racing the move) does not authenticate', async () => {
    const customer = await newCustomer(t);
    await disable(admin.token, customer.id);
    await t.sql(`update auth_token set revoked_at = null where user_id = ?`, [customer.id]);
    expect((await t.api('GET', '/api/me', { token: customer.token })).body.error.code).toBe('TOKEN_INVALID');
  });

  it('moves only from the right state: CUSTOMER_WRONG_STATE; two admins at once: exactly one disables', async () => {
    const customer = await newCustomer(t);
    const answers = await Promise.all([disable(admin.token, customer.id), disable(otherAdmin.token, customer.id, 'Spam')]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(answers.find((r) => r.status === 409)!.body.error).toMatchObject({ code: 'CUSTOMER_WRONG_STATE', details: { customer_id: customer.id, status: 'disabled', expected: ['active'] } });
    const [row] = await t.sql('select disabled_reason from app_user where id = ?', [customer.id]);
    expect(row.disabled_reason).toBe(answers.find((r) => r.status === 200)!.body.disabled_reason);
    expect((await enable(admin.token, customer.id)).status).toBe(200);
    expect((await enable(admin.token, customer.id)).body.error).toMatchObject({ code: 'CUSTOMER_WRONG_STATE', details: { status: 'active', expected: ['disabled'] } });
  });

  it('refuses bad input, staff accounts and other roles, changing nothing', async () => {
    const customer = await newCustomer(t);
    for (const reason of ['', '  ', 'x'.repeat(501), 7]) {
      const res = await disable(admin.token, customer.id, reason);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
    }
    expect((await disable(admin.token, otherAdmin.id)).status).toBe(404);
    expect((await disable(customer.token, customer.id)).status).toBe(403);
    expect((await disable(admin.token, 2_000_000_000)).body.error.code).toBe('NOT_FOUND');
    expect(await t.sql('select disabled_at from app_user where id = any(?::int[])', [`{${customer.id},${otherAdmin.id}}`])).toEqual([{ disabled_at: null }, { disabled_at: null }]);
    expect((await t.api('GET', '/api/me', { token: customer.token })).status).toBe(200);
  });
});

describe('over GraphQL', () => {
  it('searches, disables and enables through the same use cases; refusals as typed user errors', async () => {
    const customer = await newCustomer(t);
    const found = await t.gql(`query($q: String) { customers(q: $q) { total items { id state orderCount } } }`, { q: String(customer.id) }, admin.token);
    expect(found.data.customers.items).toContainEqual({ id: customer.id, state: 'ACTIVE', orderCount: 0 });
    const off = await mutate(t, 'disableCustomer', { customerId: customer.id, reason: 'Abuse' }, 'customer { id state disabledReason }', admin.token);
    expect(off.payload.customer).toEqual({ id: customer.id, state: 'DISABLED', disabledReason: 'Abuse' });
    const again = await mutate(t, 'disableCustomer', { customerId: customer.id, reason: 'Abuse' }, 'customer { id }', admin.token);
    expect(again.userErrors).toMatchObject([{ code: 'CUSTOMER_WRONG_STATE', details: { status: 'DISABLED', expected: ['ACTIVE'] } }]);
    const signIn = await mutate(t, 'login', { email: customer.email, password: PASSWORD }, 'session { token }');
    expect(signIn.userErrors).toMatchObject([{ code: 'ACCOUNT_DISABLED' }]);
    const on = await mutate(t, 'enableCustomer', { customerId: customer.id }, 'customer { state }', admin.token);
    expect(on.payload.customer).toEqual({ state: 'ACTIVE' });
    const one = await t.gql(`query($id: Int!) { customer(id: $id) { id email } }`, { id: customer.id }, admin.token);
    expect(one.data.customer).toEqual({ id: customer.id, email: customer.email });
    const denied = await t.gql(`{ customers { total } }`, undefined, (await newCustomer(t)).token);
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});
