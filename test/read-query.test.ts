import pg from 'pg';
import { ReadQuery } from '../src/db/read-query.js';
import { SERVER_URL } from './support/databases.js';

/**
 * The prepared reads make their rows with one function per statement's columns (src/db/read-query.ts)
 * instead of `pg`'s generic copy: the rows must be exactly `pg`'s, whatever the columns.
 */
let client: pg.Client;

beforeAll(async () => {
  client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
});
afterAll(() => client.end());

/** The same statement answered through a ReadQuery. */
function readRows(text: string, values: unknown[] = [], name?: string): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new ReadQuery({ text, values, name });
    (client.query as unknown as (query: ReadQuery, callback: (error: Error | null, result: pg.QueryResult) => void) => void).call(client, query, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

/** Rows as `pg` makes them, keys in order and prototypes included. */
const shape = (rows: object[]) => rows.map((row) => ({ keys: Object.keys(row), values: Object.values(row), proto: Object.getPrototypeOf(row) as unknown }));

const COLUMNS = `select n as id, 'name ' || n as name, case when n % 2 = 0 then null else n * 10 end as "priceFrom",
                        n::bigint * 1000000000000 as big, json_build_object('n', n) as doc, timestamptz '2026-01-01 00:00:00+00' - interval '1 day' * n as at,
                        n % 3 = 0 as flag, array[n, n + 1] as pair, 'ünïcode ' || n as text
                   from generate_series(1, 5) n where n <= $1`;

it('makes the rows pg makes: every type parser, nulls, key order, plain objects', async () => {
  const ours = await readRows(COLUMNS, [5]);
  const theirs = await client.query(COLUMNS, [5]);
  expect(ours.rows).toHaveLength(5);
  expect(shape(ours.rows)).toEqual(shape(theirs.rows));
  expect(ours.rows).toEqual(theirs.rows);
  expect(ours.fields.map((field) => field.name)).toEqual(theirs.fields.map((field) => field.name));
  expect(ours.rowCount).toBe(5);
  expect(ours.command).toBe('SELECT');
});

it('keeps its rows right when one statement is run many times, named, and when another shares nothing with it', async () => {
  for (let i = 0; i < 3; i++) {
    const ours = await readRows(COLUMNS, [i + 1], 'read_query_test_columns');
    expect(ours.rows).toEqual((await client.query(COLUMNS, [i + 1])).rows);
  }
  expect((await readRows('select 1 as one, 2 as two')).rows).toEqual([{ one: 1, two: 2 }]);
  expect((await readRows('select 1 as one where false')).rows).toEqual([]);
});

it("falls back to pg's own rows where a literal cannot make them: a repeated name, __proto__", async () => {
  const repeated = 'select 1 as a, 2 as a, 3 as b';
  expect(shape((await readRows(repeated)).rows)).toEqual(shape((await client.query(repeated)).rows));
  expect((await readRows(repeated)).rows).toEqual([{ a: 2, b: 3 }]);
  const proto = 'select 1 as "__proto__", 2 as b';
  const ours = (await readRows(proto)).rows[0] as Record<string, unknown>;
  expect(Object.getPrototypeOf(ours)).toBe(Object.getPrototypeOf((await client.query(proto)).rows[0]));
  expect(ours.b).toBe(2);
});

it('fails as pg fails: a bad statement rejects with the database error, and the connection goes on', async () => {
  await expect(readRows('select * from no_such_table')).rejects.toMatchObject({ code: '42P01' });
  await expect(readRows('select 1 / $1::int as x', [0])).rejects.toMatchObject({ code: '22012' });
  expect((await readRows('select 7 as x')).rows).toEqual([{ x: 7 }]);
});
