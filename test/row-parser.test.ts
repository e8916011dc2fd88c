import pg from 'pg';
import { DeadlineClient } from '../src/db/deadline-client.js';
import { RowParser } from '../src/db/row-parser.js';
import { SERVER_URL } from './support/databases.js';

/**
 * The pool's connections read rows with RowParser (src/db/row-parser.ts) instead of pg-protocol's
 * own row reading: whatever the columns, the rows must be exactly what a plain `pg` client reads,
 * across socket chunks, with the other messages (errors, notices, empty answers) untouched.
 */
let ours: DeadlineClient;
let theirs: pg.Client;
const rowsRead = vi.spyOn(RowParser.prototype, 'handlePacket');

beforeAll(async () => {
  ours = new DeadlineClient({ connectionString: SERVER_URL });
  theirs = new pg.Client({ connectionString: SERVER_URL });
  await Promise.all([ours.connect(), theirs.connect()]);
});
afterAll(() => Promise.all([ours.end(), theirs.end()]));

async function same(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  rowsRead.mockClear();
  const [a, b] = await Promise.all([ours.query(text, values), theirs.query(text, values)]);
  expect(a.rows).toEqual(b.rows);
  expect(a.rows.map((row: object) => Object.keys(row))).toEqual(b.rows.map((row: object) => Object.keys(row)));
  expect(a.rowCount).toBe(b.rowCount);
  return a;
}

it('reads every kind of column as pg does: multi-byte text, nulls, empty strings, numbers, json, arrays, bytea, timestamps', async () => {
  const result = await same(
    `select n as id, '商品 ' || n || ' 🛒 ünï' as name, case when n % 2 = 0 then null else n * 10 end as price,
            '' as empty, n::numeric / 3 as ratio, json_build_object('名', n, 'emoji', '😀') as doc, array['a', null, 'ç'] as tags,
            decode('00ff10', 'hex') as raw, timestamptz '2026-01-01 00:00:00+00' + interval '1 hour' * n as at, n % 3 = 0 as flag
       from generate_series(1, $1::int) n`,
    [50],
  );
  expect(result.rows).toHaveLength(50);
  expect(result.rows[0]).toMatchObject({ name: '商品 1 🛒 ünï', price: 10, empty: '' });
  expect(result.rows[1].price).toBeNull();
  // The rows came through RowParser: one DataRow message (code 'D') per row.
  expect(rowsRead.mock.calls.filter(([, code]) => code === 0x44)).toHaveLength(50);
});

it('reads rows split across socket chunks: large values and many rows', async () => {
  const big = await same(`select n, repeat('ж', 100000 + n) as text, repeat('x', n) as small from generate_series(1, 5) n`);
  expect(big.rows[4].text).toHaveLength(100005);
  const many = await same(`select n, md5(n::text) as hash, case when n % 7 = 0 then null else 'é' || n end as note from generate_series(1, 20000) n`);
  expect(many.rows).toHaveLength(20000);
});

it('a row of no columns, an empty answer, and a row of many columns', async () => {
  expect((await same('select from generate_series(1, 3)')).rows).toEqual([{}, {}, {}]);
  expect((await same('select 1 as one where false')).rows).toEqual([]);
  const columns = Array.from({ length: 300 }, (_, i) => `${i % 5 === 0 ? 'null' : `'v${i}'`} as c${i}`).join(', ');
  expect(Object.keys((await same(`select ${columns}`)).rows[0])).toHaveLength(300);
});

it('leaves the other messages as they were: an error keeps its fields, and the connection reads on after it', async () => {
  const failure = await ours.query('select 1 / 0').catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(pg.DatabaseError);
  expect((failure as pg.DatabaseError).code).toBe('22012');
  await expect(ours.query("select 'after' as still")).resolves.toMatchObject({ rows: [{ still: 'after' }] });
  const notices: string[] = [];
  ours.on('notice', (notice) => notices.push(notice.message ?? ''));
  await ours.query(`do $$ begin raise notice 'noticed ü'; end $$`);
  expect(notices).toEqual(['noticed ü']);
});
