import { startTestApp, type TestApp } from './support/harness.js';
import { expiredTokenFor, newAdmin, newCustomer, newOperator, newShop, PASSWORD } from './support/fixtures.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('accounts and auth', () => {
  it('registers a customer and answers GET /api/me with the token', async () => {
    const reg = await t.api('POST', '/api/auth/register', { body: { email: 'New.Person@Example.test', password: 'long enough pw', display_name: 'New Person' } });
    expect(reg.status).toBe(201);
    expect(reg.body.token).toEqual(expect.any(String));
    expect(reg.body.user).toMatchObject({ email: 'new.person@example.test', role: 'customer', shop_id: null });

    const me = await t.api('GET', '/api/me', { token: reg.body.token });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: reg.body.user.id, email: 'new.person@example.test', display_name: 'New Person' });
  });

  it('stores only a hash of the token and a scrypt hash of the password', async () => {
    const reg = await t.api('POST', '/api/auth/register', { body: { email: 'hash@example.test', password: 'long enough pw', display_name: 'H' } });
    const [user] = await t.sql('select password_hash from app_user where id = ?', [reg.body.user.id]);
    expect(user.password_hash).toMatch(/^scrypt\$/);
    const tokens = await t.sql('select token_hash from auth_token where user_id = ?', [reg.body.user.id]);
    expect(tokens.map((r: any) => r.token_hash)).not.toContain(reg.body.token);
  });

  it('refuses a second account with the same email (any case) with 409', async () => {
    await t.api('POST', '/api/auth/register', { body: { email: 'twice@example.test', password: 'long enough pw', display_name: 'T' } });
    const again = await t.api('POST', '/api/auth/register', { body: { email: 'TWICE@example.test', password: 'long enough pw', display_name: 'T' } });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('EMAIL_TAKEN');
  });

  it('rejects bad registration input with 400 and creates nothing', async () => {
    const before = await t.sql('select count(*)::int as n from app_user');
    const res = await t.api('POST', '/api/auth/register', { body: { email: 'not-an-email', password: 'short', display_name: '' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.problems.map((p: any) => p.field).sort()).toEqual(['display_name', 'email', 'password']);
    expect(await t.sql('select count(*)::int as n from app_user')).toEqual(before);
  });

  it('logs in with the right password and refuses a wrong one with 401', async () => {
    const user = await newCustomer(t);
    const ok = await t.api('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } });
    expect(ok.status).toBe(200);
    expect((await t.api('GET', '/api/me', { token: ok.body.token })).status).toBe(200);

    const wrong = await t.api('POST', '/api/auth/login', { body: { email: user.email, password: 'wrong password' } });
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('does not reveal whether an email exists', async () => {
    const user = await newCustomer(t);
    const wrongPassword = await t.api('POST', '/api/auth/login', { body: { email: user.email, password: 'nope nope' } });
    const unknownEmail = await t.api('POST', '/api/auth/login', { body: { email: 'nobody@example.test', password: 'nope nope' } });
    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.body).toEqual(wrongPassword.body);
  });

  it('refuses an expired token with 401 TOKEN_EXPIRED', async () => {
    const user = await newCustomer(t);
    const expired = await expiredTokenFor(t, user.id);
    const res = await t.api('GET', '/api/me', { token: expired });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('TOKEN_EXPIRED');
  });

  it('refuses a revoked token after logout, and only that token', async () => {
    const user = await newCustomer(t);
    const other = await t.api('POST', '/api/auth/login', { body: { email: user.email, password: PASSWORD } });
    const out = await t.api('POST', '/api/auth/logout', { token: user.token });
    expect(out.status).toBe(204);
    const res = await t.api('GET', '/api/me', { token: user.token });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('TOKEN_INVALID');
    expect((await t.api('GET', '/api/me', { token: other.body.token })).status).toBe(200);
  });

  it('answers 401 UNAUTHENTICATED to an anonymous caller', async () => {
    const res = await t.api('GET', '/api/me');
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('UNAUTHENTICATED');
  });

  it('knows the three roles', async () => {
    const shop = await newShop(t);
    const operator = await newOperator(t, shop.id);
    const admin = await newAdmin(t);
    expect((await t.api('GET', '/api/me', { token: operator.token })).body).toMatchObject({ role: 'shop_operator', shop_id: shop.id });
    expect((await t.api('GET', '/api/me', { token: admin.token })).body).toMatchObject({ role: 'platform_admin', shop_id: null });
  });

  it('works the same over GraphQL: register, me, login failure code', async () => {
    const reg = await t.gql(`mutation($i: RegisterInput!) { register(input: $i) { session { token user { email role } } userErrors { code } } }`, {
      i: { email: 'gql@example.test', password: 'long enough pw', displayName: 'G' },
    });
    expect(reg.errors).toBeUndefined();
    expect(reg.data.register.userErrors).toEqual([]);
    const me = await t.gql(`{ me { email role } }`, {}, reg.data.register.session.token);
    expect(me.data.me).toEqual({ email: 'gql@example.test', role: 'CUSTOMER' });
    const again = await t.gql(`mutation { register(input: { email: "gql@example.test", password: "long enough pw", displayName: "G" }) { session { token } userErrors { code field } } }`);
    expect(again.data.register).toEqual({ session: null, userErrors: [{ code: 'EMAIL_TAKEN', field: null }] });
    const bad = await t.gql(`mutation { login(input: { email: "gql@example.test", password: "wrong one" }) { session { token } userErrors { code message } } }`);
    expect(bad.errors).toBeUndefined();
    expect(bad.data.login).toEqual({ session: null, userErrors: [{ code: 'INVALID_CREDENTIALS', message: expect.any(String) }] });
    const anon = await t.gql(`{ me { email } }`);
    expect(anon.errors?.[0].extensions.code).toBe('UNAUTHENTICATED');
  });
});
