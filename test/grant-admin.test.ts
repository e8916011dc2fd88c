import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startTestApp, type TestApp } from './support/harness.js';
import { addMembership, newAdmin, newCustomer, newShop } from './support/fixtures.js';
import { ShopRole } from '../src/entities/shop-membership.entity.js';

/**
 * A mall started without the demo data gets its first platform admin from the server's console
 * (`npm run grant-admin -- <email>`, the compiled CLI as an operator runs it): a signed-up account
 * becomes an admin; an unknown email, a shop's member and a disabled account are refused with a
 * sentence and exit code 1, changing nothing. And an admin removed from the staff who was never a
 * customer (the demo seed's) gets a customer's zero balances, so they can shop.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const CLI = join(process.cwd(), 'dist/src/cli/grant-admin.js');
const run = async (...args: string[]): Promise<{ code: number; out: string }> => {
  const env = { ...process.env, DATABASE_URL: t.dbUrl, NODE_ENV: 'production', DEVICE_TOKEN_SECRET: 'x'.repeat(48), LOG_LEVEL: 'warn' };
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], { env });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
};
const accountOf = async (id: number) => (await t.sql<{ role: string; platform_role: string | null }>('select role, platform_role from app_user where id = ?', [id]))[0];

it('makes a signed-up account the first admin, who can then run the staff', async () => {
  const founder = await newCustomer(t);
  const [{ email }] = await t.sql<{ email: string }>('select email from app_user where id = ?', [founder.id]);
  expect((await t.api('GET', '/api/admin/staff', { token: founder.token })).status).toBe(403);

  const granted = await run(email.toUpperCase());
  expect(granted).toMatchObject({ code: 0 });
  expect(granted.out).toContain('is now a platform admin');
  expect(await accountOf(founder.id)).toEqual({ role: 'platform_admin', platform_role: 'admin' });
  // The account's own session now acts as an admin: it can invite the rest of the staff.
  expect((await t.api('GET', '/api/admin/staff', { token: founder.token })).status).toBe(200);
  const invited = await t.api('POST', '/api/admin/staff-invitations', { token: founder.token, body: { email: 'support@mall.test', role: 'support' } });
  expect(invited.status).toBe(201);

  const again = await run(email);
  expect(again.code).toBe(0);
  expect(again.out).toContain('was already a platform admin');
});

it("refuses an unknown email, a shop's member and a disabled account, changing nothing", async () => {
  expect(await run()).toMatchObject({ code: 2 });
  expect((await run('nobody@mall.test')).code).toBe(1);
  expect((await run('not an email')).code).toBe(1);

  const shop = await newShop(t);
  const member = await newCustomer(t);
  await addMembership(t, member.id, shop.id, ShopRole.Catalog);
  const [{ email: memberEmail }] = await t.sql<{ email: string }>('select email from app_user where id = ?', [member.id]);
  const refused = await run(memberEmail);
  expect(refused.code).toBe(1);
  expect(refused.out).toContain("A shop's member cannot join the platform's staff");
  expect((await accountOf(member.id)).platform_role).toBeNull();

  const disabled = await newCustomer(t);
  const admin = await newAdmin(t);
  expect((await t.api('POST', `/api/admin/customers/${disabled.id}/disable`, { token: admin.token, body: { reason: 'Fraud' } })).status).toBe(200);
  const [{ email: disabledEmail }] = await t.sql<{ email: string }>('select email from app_user where id = ?', [disabled.id]);
  expect((await run(disabledEmail)).code).toBe(1);
  expect(await accountOf(disabled.id)).toEqual({ role: 'customer', platform_role: null });
});

it("gives an admin who was never a customer a customer's zero balances when removed from the staff", async () => {
  const [first, second] = [await newAdmin(t), await newAdmin(t)];
  await t.sql('delete from balance where user_id = ?', [second.id]);
  expect((await t.api('DELETE', `/api/admin/staff/${second.id}`, { token: first.token })).status).toBe(204);
  const balances = await t.sql<{ kind: string; amount: string }>('select kind, amount from balance where user_id = ? order by kind', [second.id]);
  expect(balances.map((b) => [b.kind, Number(b.amount)])).toEqual([['available', 0], ['frozen', 0], ['points', 0]]);
});
