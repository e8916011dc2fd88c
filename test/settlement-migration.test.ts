import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openOrm, type MikroORM } from '../src/db/orm.js';
import { adminQuery, databaseUrl, PREFIX } from './support/databases.js';

/**
 * Migration SettlementLedger on a database with history: customers with balances and ledger entries,
 * orders paid before the ledger. The history stays, and the books open at zero.
 */
const dbName = `${PREFIX}_ledgermig_${randomBytes(4).toString('hex')}`;
let orm: MikroORM;
let db: pg.Client;

beforeAll(async () => {
  await adminQuery(`create database ${dbName}`);
  orm = await openOrm({ clientUrl: databaseUrl(dbName), poolSize: 1 });
  await orm.migrator.up({ to: 'Migration20261126500000OrderCompleted' });
  db = new pg.Client({ connectionString: databaseUrl(dbName) });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await orm?.close();
  await adminQuery(`drop database if exists ${dbName} with (force)`);
});

const one = async (text: string, params: unknown[] = []) => (await db.query(text, params)).rows[0];

it('keeps every entry, opens the clearing account against the customers and paid orders, and the books sum to zero', async () => {
  const user = await one(`insert into app_user (email, password_hash, display_name, role, created_at) values ('old@example.test', 'x', 'Old', 'customer', now()) returning id`);
  const shop = await one(`insert into shop (slug, name, created_at) values ('old-shop', 'Old Shop', now()) returning id`);
  const available = await one(`insert into balance (user_id, kind, currency, amount) values ($1, 'available', 'CNY', 7000) returning id`, [user.id]);
  const frozen = await one(`insert into balance (user_id, kind, currency, amount) values ($1, 'frozen', 'CNY', 500) returning id`, [user.id]);
  await db.query(`insert into balance (user_id, kind, currency, amount) values ($1, 'points', null, 30)`, [user.id]);
  await db.query(`insert into ledger_entry (balance_id, delta, balance_after, reason, created_at) values ($1, 500, 500, 'freeze', now())`, [frozen.id]);
  // The old single-sided history: a credit, then a payment that went nowhere.
  await db.query(
    `insert into ledger_entry (balance_id, delta, balance_after, reason, created_at) values ($1, 10000, 10000, 'seed', now()), ($1, -3000, 7000, 'order_payment', now())`,
    [available.id],
  );
  const address = JSON.stringify({ recipient: 'r', phone: 'p', region: 'CN-SH', address: 'a' });
  const insertOrder = (status: string, total: number) =>
    one(`insert into shop_order (customer_id, shop_id, status, items_total, total, created_at, shipping_address) values ($1, $2, $3, $4, $4, now(), $5::jsonb) returning id`, [
      user.id, shop.id, status, total, address,
    ]);
  const delivered = await insertOrder('delivered', 3000);
  await insertOrder('shipped', 2000);
  await insertOrder('pending_payment', 9999);
  await insertOrder('cancelled', 8888);
  await db.query(`insert into refund (order_id, shop_id, customer_id, kind, status, reason, amount, created_at) values ($1, $2, $3, 'refund', 'completed', 'r', 1000, now())`, [
    delivered.id, shop.id, user.id,
  ]);
  const entriesBefore = await db.query('select id, balance_id, delta, balance_after, reason from ledger_entry order by id');

  await orm.migrator.up();

  // History kept, untouched.
  const kept = await db.query('select id, balance_id, delta, balance_after, reason from ledger_entry where id <= $1 order by id', [entriesBefore.rows.at(-1).id]);
  expect(kept.rows).toEqual(entriesBefore.rows);
  // The paid orders (3000 - 1000 refunded, 2000) are the shop's, pending; clearing is the other side of everything.
  expect(await one(`select amount::int from balance where shop_id = $1 and kind = 'shop_pending'`, [shop.id])).toEqual({ amount: 4000 });
  expect(await one(`select amount::int from balance where kind = 'platform_clearing'`)).toEqual({ amount: -(7000 + 500 + 4000) });
  expect(await one(`select sum(amount)::int as total from balance where currency is not null`)).toEqual({ total: 0 });
  expect(await one(`select sum(delta)::int as total from ledger_entry l join balance b on b.id = l.balance_id where b.currency is not null`)).toEqual({ total: 0 });
  // Every money account replays to its balance.
  const drift = await db.query(`select b.id from balance b left join ledger_entry l on l.balance_id = b.id where b.currency is not null group by b.id having b.amount <> coalesce(sum(l.delta), 0)`);
  expect(drift.rows).toEqual([]);
});

// This file's database, migrated to the end with history, also serves the later migrations' own history.
it('IdempotencyKeyPerOperation: a key used for two operations keeps its first use, and a key is then unique per customer', async () => {
  await orm.migrator.down({ to: 'Migration20261127200000CategoryCoverIndex' });
  const user = await one(`select id from app_user limit 1`);
  const key = (scope: string, minutesAgo: number) =>
    db.query(`insert into idempotency_key (user_id, scope, key, request_hash, response, created_at) values ($1, $2, 'k', 'h', '{}', now() - make_interval(mins => $3))`, [user.id, scope, minutesAgo]);
  await key('checkout', 10);
  await key('checkout.pay', 5);
  await db.query(`insert into idempotency_key (user_id, scope, key, request_hash, response, created_at) values ($1, 'cart.merge', 'other', 'h', '{}', now())`, [user.id]);

  await orm.migrator.up();

  expect((await db.query('select scope, key from idempotency_key order by key')).rows).toEqual([{ scope: 'checkout', key: 'k' }, { scope: 'cart.merge', key: 'other' }]);
  await expect(key('order.pay:1', 0)).rejects.toMatchObject({ code: '23505' });
});
