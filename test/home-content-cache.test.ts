import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import pg from 'pg';
import { startSecondApp, startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, setContent, type TestUser } from './support/fixtures.js';
import { waitFor } from './support/subscriptions.js';
import { changeListenerOf } from '../src/db/change-listener.js';
import { HOME_CONTENT_CHANNEL } from '../src/services/catalog/home-content.service.js';

/**
 * The storefront's home content is kept by each server process until a change is heard (issue 43):
 * no database statement per request while nothing changed, and every change (the admin route, any
 * other writer) reaches every process. Two apps on one database stand for two server processes.
 */
let a: TestApp;
let b: TestApp;
let admin: TestUser;

beforeAll(async () => {
  a = await startTestApp();
  b = await startSecondApp(a);
  admin = await newAdmin(a);
  await setContent(a, 'banners', [{ title: 'First', destination: '/' }]);
  await waitFor(() => Boolean(changeListenerOf(b.orm.em, HOME_CONTENT_CHANNEL)?.live), 5000, 'listener of b');
});

afterAll(async () => {
  await b?.close();
  await a?.close();
});

const homeStatements = (t: TestApp) => t.queries.filter((q) => /home_content_item/.test(q));
const bannersOf = async (t: TestApp) => ((await t.api('GET', '/api/content/home')).body.banners as { title: string }[]).map((i) => i.title);

/** A write no trigger fires for (`session_replication_role = replica`): nobody hears of it. */
async function silentWrite(t: TestApp, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: t.dbUrl });
  await client.connect();
  try {
    await client.query('set session_replication_role = replica');
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe('home content kept per process', () => {
  it('is read from the database once, then answered without a statement while nothing changes (both doors)', async () => {
    // Whatever b kept before is stale once it hears of the setContent above.
    await waitFor(async () => (await bannersOf(b)).includes('First'), 5000, 'b reads the content');
    // A notification of the setup's other writes (shops, products) may still be on its way on a busy
    // machine and make b read once more: wait until a read costs no statement, then hold it there.
    await waitFor(
      async () => {
        b.resetQueryLog();
        await bannersOf(b);
        return homeStatements(b).length === 0;
      },
      5000,
      'b keeps what it read',
    );
    b.resetQueryLog();
    for (let i = 0; i < 5; i++) expect(await bannersOf(b)).toEqual(['First']);
    const gql = await b.gql('{ homeContent { banners { title } } }');
    expect(gql.data.homeContent.banners).toEqual([{ title: 'First' }]);
    expect(homeStatements(b)).toEqual([]);
  });

  it('is kept for real: a change nobody hears of is not seen (which is why every writer is heard, below)', async () => {
    await bannersOf(b);
    await silentWrite(a, `update home_content_item set title = 'Unheard' where kind = 'banners'`);
    expect(await bannersOf(b)).toEqual(['First']);
  });

  it("reaches another process after the admin route's change, and the writer's own process at once", async () => {
    const put = await a.api('PUT', '/api/admin/content/banners', { token: admin.token, body: { items: [{ title: 'Second', destination: '/' }] } });
    expect(put.status).toBe(200);
    expect(await bannersOf(a)).toEqual(['Second']);
    await waitFor(async () => (await bannersOf(b)).includes('Second'), 5000, 'b hears the admin change');
    b.resetQueryLog();
    expect(await bannersOf(b)).toEqual(['Second']);
    expect(homeStatements(b)).toEqual([]);
  });

  it('reaches every process after any other writer (plain SQL, as maintenance would write)', async () => {
    const client = new pg.Client({ connectionString: a.dbUrl });
    await client.connect();
    try {
      await client.query(`update home_content_item set title = 'Third' where kind = 'banners'`);
    } finally {
      await client.end();
    }
    await waitFor(async () => (await bannersOf(b)).includes('Third') && (await bannersOf(a)).includes('Third'), 5000, 'both hear the SQL change');
  });

  it('reads again after its listening connection was lost: a change made meanwhile is seen', async () => {
    const listener = changeListenerOf(b.orm.em, HOME_CONTENT_CHANNEL)!;
    expect(await bannersOf(b)).toEqual(['Third']);
    const reconnectedBefore = listener.generation;
    // A change nobody hears of, then b's listening session ended by the server.
    await silentWrite(a, `update home_content_item set title = 'While away' where kind = 'banners'`);
    const [session] = await a.sql<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and query = 'LISTEN ${HOME_CONTENT_CHANNEL}' and pid <> pg_backend_pid()`,
    );
    expect(session).toBeDefined();
    await a.sql('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and query = ? and pid <> pg_backend_pid()', [
      `LISTEN ${HOME_CONTENT_CHANNEL}`,
    ]);
    await waitFor(() => listener.generation > reconnectedBefore, 5000, 'b notices the loss');
    // Down or back already: either way the change made while away is what b answers now.
    expect(await bannersOf(b)).toEqual(['While away']);
    await waitFor(() => listener.live, 5000, 'b listens again');
    expect(await bannersOf(b)).toEqual(['While away']);
    b.resetQueryLog();
    expect(await bannersOf(b)).toEqual(['While away']);
    expect(homeStatements(b)).toEqual([]);
  });
});
