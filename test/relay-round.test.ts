import pg from 'pg';
import { startTestApp, type TestApp } from './support/harness.js';
import { RELAY_SQL, SequencedRow } from '../src/services/events/outbox.repository.js';

/**
 * The relay's round (`mf_relay_round`) reaches the events it numbers by their primary key, whatever
 * the size of the table when its plans were cached. Its connection lives as long as the process, so
 * plans made on a fresh database (a few events) are the ones it runs months later: a plan that joined
 * the numbered ids to a scan of every event cost a round milliseconds per 50,000 events kept
 * (docs/performance.md, issue 29).
 */
let t: TestApp;
let relay: pg.Client;

beforeAll(async () => {
  // Its own relay polls once a minute: the rounds below are the test's own.
  t = await startTestApp({ outbox: { pollMs: 60_000, retentionSeconds: 7 * 86_400 } });
  relay = new pg.Client({ connectionString: t.dbUrl });
  await relay.connect();
});
afterAll(async () => {
  await relay?.end();
  await t?.close();
});

const waiting = (n: number) =>
  t.sql(`insert into event (type, shop_ids, customer_id, payload, occurred_at)
         select 'stock.low', array[1], null, jsonb_build_object('skuId', g, 'productId', 0, 'stock', 0, 'threshold', 1), now() from generate_series(1, ?::int) g`, [n]);

async function round(): Promise<ReturnType<typeof SequencedRow.parse>> {
  const { rows } = await relay.query<{ round: unknown }>(RELAY_SQL.round, [500, 'mallfront_relay_round_test']);
  return SequencedRow.parse(rows[0].round);
}

describe('the relay round', () => {
  it('numbers what waits by primary key, with plans cached on a small table, after the table has grown to 100,000 events', async () => {
    // Cache the function's plans while the table is small (plpgsql keeps them for the session).
    for (let i = 0; i < 8; i++) {
      await waiting(2);
      expect(await round()).toMatchObject({ sequenced: 2 });
    }
    // The table grows: 100,000 numbered events, as days of retention would leave.
    await t.sql(`insert into event (type, shop_ids, customer_id, payload, occurred_at, position, published_at)
                 select 'stock.low', array[1], null, '{}', now(), s.last_position + g, now()
                   from event_sequence s, generate_series(1, 100000) g`);
    await t.sql(`update event_sequence set last_position = last_position + 100000`);
    await t.sql('analyze event');
    await waiting(20);
    await relay.query('begin');
    try {
      const result = await round();
      expect(result).toMatchObject({ sequenced: 20, deliveries: 0 });
      const { rows: [read] } = await relay.query<{ seq_scan: string; seq_tup_read: string; idx_tup_fetch: string }>(
        `select seq_scan::text, seq_tup_read::text, idx_tup_fetch::text from pg_stat_xact_user_tables where relname = 'event'`,
      );
      // 20 events found, locked, updated and joined to the endpoints: rows read in tens, not in thousands.
      expect(Number(read.seq_scan)).toBe(0);
      expect(Number(read.seq_tup_read) + Number(read.idx_tup_fetch)).toBeLessThan(200);
    } finally {
      await relay.query('rollback');
    }
  });

  it('takes no lock and writes nothing when nothing waits', async () => {
    await round();
    await relay.query('begin');
    try {
      expect(await round()).toEqual({ sequenced: 0, last: null, deliveries: 0 });
      const { rows } = await relay.query(`select 1 from pg_locks where locktype = 'advisory' and pid = pg_backend_pid()`);
      expect(rows).toEqual([]);
    } finally {
      await relay.query('rollback');
    }
  });
});
