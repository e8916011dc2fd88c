import { startTestApp, type TestApp } from './support/harness.js';
import { newCustomer } from './support/fixtures.js';
import { BACKFILL_CUSTOMER_BALANCES } from '../migrations/Migration20261122000100BackfillBalances.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('balance rows', () => {
  it('creates the zero rows at registration in the same transaction', async () => {
    const reg = await t.api('POST', '/api/auth/register', { body: { email: 'zero@example.test', password: 'long enough pw', display_name: 'Z' } });
    const rows = await t.sql('select kind, currency, amount::int as amount from balance where user_id = ? order by kind', [reg.body.user.id]);
    expect(rows).toEqual([
      { kind: 'available', currency: 'CNY', amount: 0 },
      { kind: 'frozen', currency: 'CNY', amount: 0 },
      { kind: 'points', currency: null, amount: 0 },
    ]);
  });

  it('refuses a second points row (null currency) and a second money row in the database', async () => {
    const user = await newCustomer(t);
    await expect(t.sql(`insert into balance (user_id, kind, currency, amount) values (?, 'points', null, 0)`, [user.id])).rejects.toThrow(/unique|duplicate/i);
    await expect(t.sql(`insert into balance (user_id, kind, currency, amount) values (?, 'available', 'CNY', 0)`, [user.id])).rejects.toThrow(/unique|duplicate/i);
  });

  it('refuses a negative balance and a points row with a currency', async () => {
    const user = await newCustomer(t);
    await expect(t.sql(`update balance set amount = -1 where user_id = ? and kind = 'available'`, [user.id])).rejects.toThrow(/balance_amount_sign/);
    await expect(t.sql(`update balance set currency = 'CNY' where user_id = ? and kind = 'points'`, [user.id])).rejects.toThrow(/balance_currency_matches_kind/);
  });

  it('keeps the ledger append-only in the database', async () => {
    const user = await newCustomer(t, { available: 500, points: 0 });
    await expect(t.sql(`update ledger_entry set delta = 1 where balance_id in (select id from balance where user_id = ?)`, [user.id])).rejects.toThrow(/append-only/);
    await expect(t.sql(`delete from ledger_entry where balance_id in (select id from balance where user_id = ?)`, [user.id])).rejects.toThrow(/append-only/);
  });

  it('backfills zero rows for existing customers that have none', async () => {
    const [u] = await t.sql(`insert into app_user (email, password_hash, display_name, role, created_at) values ('old@example.test', 'x', 'Old', 'customer', now()) returning id`);
    expect(await t.sql('select * from balance where user_id = ?', [u.id])).toHaveLength(0);
    // What the backfill migration runs on a database whose customers predate the balance rows.
    await t.sql(BACKFILL_CUSTOMER_BALANCES);
    expect(await t.sql('select kind from balance where user_id = ? order by kind', [u.id])).toEqual([{ kind: 'available' }, { kind: 'frozen' }, { kind: 'points' }]);
  });
});
