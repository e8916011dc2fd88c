import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openOrm } from '../src/db/orm.js';
import { loadBenchData, sizeFor, DEFAULT_SIZE, type DataSize } from '../bench/load-data.js';
import { awaitUsableIndexes, schemaOf } from '../bench/bulk-load.js';
import { BenchRefused, parseOptions } from '../bench/options.js';
import { checkoutCustomers } from '../bench/context.js';
import { costCurveSvg, niceCeiling, shortCount } from '../bench/chart.js';
import { slope, soakGrowth } from '../bench/memory.js';
import { percentile } from '../bench/load.js';
import { shareOf } from '../bench/profile-share.js';
import { compareRuns, comparisonTable, median, pairsDisagree, percentChange } from '../bench/compare.js';
import { adminQuery, databaseUrl, PREFIX, TEMPLATE_DB } from './support/databases.js';
import { ensureTemplate } from './support/template.js';

/**
 * The bench's own machinery (bench/): what it refuses, the data it loads, and the figures it derives.
 * Its measurements are not tested here; that the data set and the figures are right is.
 */
describe('bench options', () => {
  it('refuses a size whose write scenarios have too few customers, saying how many they need', () => {
    // The size that once reported 0 checkouts/s: 200 customers for 500 burst buyers and 50 checkout connections.
    const refusal = () => parseOptions(['--products', '500', '--customers', '200', '--order-lines', '5000']);
    expect(refusal).toThrow(BenchRefused);
    expect(refusal).toThrow(/--customers 200 is too few.*need 550 bench customers.*--customers 550 or more/);
  });

  it('runs that size when the write scenarios are left out, and any size that has the customers', () => {
    expect(parseOptions(['--products', '500', '--customers', '200', '--order-lines', '5000', '--only', 'REST|GraphQL']).sizes).toEqual([
      { products: 500, shops: DEFAULT_SIZE.shops, customers: 200, orderLines: 5000 },
    ]);
    expect(parseOptions(['--products', '500', '--customers', '550', '--order-lines', '5000']).sizes[0].customers).toBe(550);
    expect(parseOptions(['--products', '500', '--customers', '520', '--connections', '20', '--only', 'Checkout']).sizes[0].customers).toBe(520);
  });

  it('never hands a checkout connection a missing customer', () => {
    const f = { topCategory: 1, productIds: [1], tokens: Array.from({ length: 200 }, (_, i) => `t${i}`), customers: [], skus: Array.from({ length: 50 }, (_, i) => i + 1) };
    expect(() => checkoutCustomers(f, 50)).toThrow(/50 checkout customers needed, 0 loaded/);
    f.tokens = Array.from({ length: 550 }, (_, i) => `t${i}`);
    expect(checkoutCustomers(f, 50)).toHaveLength(50);
    expect(checkoutCustomers(f, 50).every((c) => c.token && c.sku)).toBe(true);
  });

  it('refuses too few products for one SKU per checkout connection', () => {
    expect(() => parseOptions(['--products', '10', '--customers', '600'])).toThrow(/--products 10 is too few.*50 distinct SKUs/);
  });

  it('builds the cost curves from product counts, 20 order lines each, the smallest being the default size', () => {
    const options = parseOptions(['--sizes', '10000,100_000,1000000', '--db', 'mf_bench']);
    expect(options.sizes.map((s) => [s.products, s.orderLines])).toEqual([[10_000, 200_000], [100_000, 2_000_000], [1_000_000, 20_000_000]]);
    expect(sizeFor(10_000)).toEqual(DEFAULT_SIZE);
    expect(options.perSizeDatabases).toBe(true);
  });

  it('refuses sizes given both ways, bad numbers and bad database names', () => {
    expect(() => parseOptions(['--sizes', '10000', '--products', '5'])).toThrow(/leave out --products/);
    expect(() => parseOptions(['--products', 'many'])).toThrow(/--products must be an integer/);
    expect(() => parseOptions(['--sizes', '10000,abc'])).toThrow(/--sizes must be an integer/);
    expect(() => parseOptions(['--db', 'Bench; drop'])).toThrow(/plain lower-case database name/);
    expect(parseOptions(['--soak']).soakSeconds).toBe(300);
    expect(parseOptions([]).soakSeconds).toBeUndefined();
  });
});

describe('bench data set', () => {
  let dbName: string;
  let db: pg.Client;
  let template: string[];
  const size: DataSize = { products: 700, shops: 9, customers: 60, orderLines: 14_000 };
  const TABLES = ['product', 'sku', 'search_suggestion', 'shop_order', 'order_item'];
  const one = async <T = number>(sql: string): Promise<T> => Object.values((await db.query(sql)).rows[0])[0] as T;

  beforeAll(async () => {
    await ensureTemplate();
    dbName = `${PREFIX}_bench_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${dbName} template ${TEMPLATE_DB}`);
    db = new pg.Client({ connectionString: databaseUrl(dbName) });
    await db.connect();
    template = await schemaOf(db, TABLES);
    const orm = await openOrm({ clientUrl: databaseUrl(dbName), poolSize: 2 });
    try {
      await loadBenchData(orm, databaseUrl(dbName), size);
    } finally {
      await orm.close();
    }
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    if (dbName) await adminQuery(`drop database if exists ${dbName} with (force)`);
  });

  it('puts back every index, constraint and trigger it took off, all valid', async () => {
    expect(await schemaOf(db, TABLES)).toEqual(template);
    expect(await one(`select count(*)::int from pg_index where indrelid::regclass::text = any(array['${TABLES.join("','")}']) and not indisvalid`)).toBe(0);
    expect(await one(`select count(*)::int from pg_class where relname in ('bench_catalog', 'bench_shop')`)).toBe(0);
  });

  it('loads the size asked for: products with 2 to 4 SKUs, customers with funds, two-line orders', async () => {
    const bench = `image_url like 'https://img.mallfront.test/p/%'`;
    expect(await one(`select count(*)::int from product where ${bench}`)).toBe(size.products);
    expect(await one(`select count(*)::int from (select product_id, count(*) n from sku join product p on p.id = product_id where ${bench} group by 1) t where n not between 2 and 4`)).toBe(0);
    expect(await one(`select count(*)::int from shop where slug like 'bench-shop-%'`)).toBe(size.shops);
    expect(await one(`select count(*)::int from app_user u join balance b on b.user_id = u.id and b.kind = 'available' where u.email like 'bench-%' and b.amount = 100000000`)).toBe(size.customers);
    expect(await one(`select count(*)::int from order_item i join product p on p.id = i.product_id where ${bench}`)).toBe(size.orderLines);
    expect(await one(`select count(*)::int from (select order_id from order_item group by 1 having count(*) <> 2) t where order_id in (select id from shop_order where customer_id in (select id from app_user where email like 'bench-%'))`)).toBe(0);
  });

  it('writes rows as the server would have: totals, lowest prices, search documents, suggestions, sold lines', async () => {
    // Computed with the row, not by an UPDATE: each must still match what it summarizes.
    expect(await one(`select count(*)::int from shop_order o join (select order_id, sum(amount) s from order_item group by 1) t on t.order_id = o.id
                        where (o.items_total <> t.s or o.total <> t.s) and o.customer_id in (select id from app_user where email like 'bench-%')`)).toBe(0);
    expect(await one(`select count(*)::int from product p join (select product_id, min(price) m from sku group by 1) t on t.product_id = p.id where p.price_from <> t.m`)).toBe(0);
    expect(await one(`select count(*)::int from product where status = 'published' and search_document is null`)).toBe(0);
    expect(await one(`select count(*)::int from product p where status = 'published' and not exists (select 1 from search_suggestion s where s.kind = 'product' and s.ref_id = p.id)`)).toBe(0);
    expect(await one(`select count(*)::int from order_item i join shop_order o on o.id = i.order_id
                        where i.sold <> (o.status = 'paid') and o.customer_id in (select id from app_user where email like 'bench-%')`)).toBe(0);
    expect(await one(`select count(*)::int from order_item i join shop_order o on o.id = i.order_id join product p on p.id = i.product_id where p.shop_id <> o.shop_id`)).toBe(0);
    expect(await one(`select round(100.0 * count(*) filter (where status = 'paid') / count(*))::int from shop_order where customer_id in (select id from app_user where email like 'bench-%')`)).toBe(85);
    // The triggers ran: the versions the listing caches depend on have moved.
    expect(Number(await one('select n from catalog_version where id = 1'))).toBeGreaterThan(0);
    expect(Number(await one('select sum(n) from sales_version'))).toBeGreaterThan(0);
  });

  it('lets every product sell, a tenth of each shop as best sellers', async () => {
    const { rows } = await db.query(`select count(*)::int lines from product p left join order_item i on i.product_id = p.id
                                      where p.image_url like 'https://img.mallfront.test/p/%' group by p.id order by 1`);
    const lines = rows.map((r) => r.lines as number);
    expect(lines[0]).toBeGreaterThan(0);
    expect(lines.at(-1)!).toBeGreaterThan(5 * lines[Math.floor(lines.length / 2)]);
  });

  it('moves the sequences past the ids it gave, so the server inserts after them', async () => {
    expect(await one(`select (select max(id) from product) < nextval(pg_get_serial_sequence('product', 'id'))`)).toBe(true);
    expect(await one(`select (select max(id) from shop_order) < nextval(pg_get_serial_sequence('shop_order', 'id'))`)).toBe(true);
  });
});

describe('bench: indexes rebuilt over HOT-updated rows', () => {
  let dbName: string;
  const clients: pg.Client[] = [];
  const connect = async () => {
    const client = new pg.Client({ connectionString: databaseUrl(dbName) });
    await client.connect();
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    dbName = `${PREFIX}_bench_hot_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${dbName}`);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => {})));
    await adminQuery(`drop database if exists ${dbName} with (force)`);
  });

  it('waits until no older transaction keeps the rebuilt index from being used, then returns', async () => {
    const db = await connect();
    // Room on every page, so that an update of a column no index holds stays on its page (HOT).
    await db.query('create table hot (id int primary key, k int not null, note text) with (fillfactor = 50)');
    await db.query('insert into hot select g, g, null from generate_series(1, 1000) g');
    // An older transaction, writing (it has a transaction id), that keeps seeing the rows' first versions.
    const old = await connect();
    await old.query('begin isolation level repeatable read');
    await old.query('select count(*) from hot');
    await old.query('select pg_current_xact_id()');
    await db.query(`update hot set note = 'changed' where id <= 10`);
    await db.query('create index hot_k_idx on hot (k)');
    expect((await db.query(`select indcheckxmin from pg_index where indexrelid = 'hot_k_idx'::regclass`)).rows[0].indcheckxmin).toBe(true);
    await db.query('set enable_seqscan = off');
    expect(JSON.stringify((await db.query('explain select * from hot where k = 5')).rows)).not.toContain('hot_k_idx');

    const said: string[] = [];
    let done = false;
    const waiting = awaitUsableIndexes(db, ['hot'], (line) => said.push(line)).then(() => (done = true));
    await new Promise((r) => setTimeout(r, 3000));
    expect(done).toBe(false);
    expect(said[0]).toMatch(/waiting for older transactions.*hot_k_idx.*pid \d+/);
    await old.query('commit');
    await waiting;
    expect(JSON.stringify((await db.query('explain select * from hot where k = 5')).rows)).toContain('hot_k_idx');
  }, 30_000);
});

describe('bench figures', () => {
  it('takes percentiles by nearest rank', () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile([], 0.99)).toBe(0);
  });

  it('tells memory that settles from memory that keeps growing', () => {
    expect(slope([{ x: 0, y: 1 }, { x: 1, y: 3 }, { x: 2, y: 5 }])).toBeCloseTo(2);
    const settles = Array.from({ length: 61 }, (_, i) => ({ t: i * 5, mb: { primary: 200 + Math.min(i, 20) * 3 } }));
    const grows = Array.from({ length: 61 }, (_, i) => ({ t: i * 5, mb: { primary: 200 + i * 2 } }));
    expect(soakGrowth(settles).primary.mbPerMinuteSecondHalf).toBe(0);
    expect(soakGrowth(settles).primary).toMatchObject({ startMb: 200, endMb: 260, peakMb: 260 });
    expect(soakGrowth(grows).primary.mbPerMinuteSecondHalf).toBeCloseTo(24);
  });

  it('draws one row per read scenario, each point labelled with its figure, names escaped', () => {
    const figures = (rps: number, p99: number) => ({ 'Search & facets': { requestsPerSecond: rps, p99Ms: p99 }, Listing: { requestsPerSecond: rps * 2, p99Ms: p99 / 2 } });
    const svg = costCurveSvg(
      [
        { products: 1_000_000, orderLines: 20_000_000, processes: { '1': figures(500, 320), '2': figures(700, 250) } },
        { products: 10_000, orderLines: 200_000, processes: { '1': figures(2500, 48), '2': figures(3100, 41) } },
      ],
      { title: 'Cost curves', subtitle: 'shared machine' },
    );
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    expect(svg).toContain('Search &amp; facets');
    expect(svg).not.toContain('Search & facets');
    for (const label of ['>2500<', '>500<', '>320<', '>48<', '>5000<', '>3100<', '>10k<', '>1M<', 'shared machine', '2 server processes']) expect(svg).toContain(label);
    // Two scenarios x two figures x two process counts: one line each.
    expect(svg.match(/<polyline/g)).toHaveLength(8);
    // Sizes left to right whatever order the results came in.
    const xs = [...svg.matchAll(/<text x="([\d.]+)"[^>]*>(10k|1M)</g)].slice(0, 2).map((m) => [m[2], Number(m[1])]);
    expect(xs).toEqual([['10k', expect.any(Number)], ['1M', expect.any(Number)]]);
    expect((xs[0][1] as number) < (xs[1][1] as number)).toBe(true);
  });

  it('rounds axes up to 1, 2 or 5 times a power of ten and shortens counts', () => {
    expect([niceCeiling(0.7), niceCeiling(3), niceCeiling(2349), niceCeiling(5000), niceCeiling(0)]).toEqual([1, 5, 5000, 5000, 1]);
    expect([shortCount(10_000), shortCount(100_000), shortCount(1_000_000), shortCount(20_000_000), shortCount(500)]).toEqual(['10k', '100k', '1M', '20M', '500']);
  });
});

describe('bench compare mode (--against)', () => {
  it('takes a commit and at least three pairs, at one size, and measures one process unless told', () => {
    const options = parseOptions(['--against', '59d0a31', '--products', '200', '--customers', '10']);
    expect(options.against).toBe('59d0a31');
    expect(options.pairs).toBe(3);
    expect(options.workers).toBe(1);
    expect(parseOptions(['--against', 'main~3', '--pairs', '5', '--workers', '2']).pairs).toBe(5);
    expect(() => parseOptions(['--against', '59d0a31', '--pairs', '2'])).toThrow(/--pairs must be an integer of at least 3/);
    expect(() => parseOptions(['--against', '59d0a31', '--sizes', '10000,100000'])).toThrow(/one data size/);
    expect(() => parseOptions(['--against=--upload-pack=x'])).toThrow(/takes a commit/);
    expect(() => parseOptions(['--pairs', '4'])).toThrow(/give --against/);
    // One commit against itself under two settings: each side's server gets its own.
    expect(parseOptions(['--against', 'HEAD', '--env-a', 'METRICS=public', '--env-b', 'METRICS=off,OTEL_TRACES_SAMPLER_ARG=0.1']).sideEnv)
      .toEqual({ a: { METRICS: 'public' }, b: { METRICS: 'off', OTEL_TRACES_SAMPLER_ARG: '0.1' } });
    expect(parseOptions(['--against', 'HEAD']).sideEnv).toEqual({ a: {}, b: {} });
    expect(() => parseOptions(['--against', 'HEAD', '--env-a', 'metrics=on'])).toThrow(/KEY=value pairs/);
    expect(() => parseOptions(['--env-b', 'METRICS=off'])).toThrow(/--env-b is for compare mode/);
    // Reads at a fixed rate (both sides alike), or at saturation when not given.
    expect(parseOptions(['--against', 'HEAD', '--rate', '2000']).rate).toBe(2000);
    expect(parseOptions(['--against', 'HEAD']).rate).toBeUndefined();
    expect(() => parseOptions(['--rate', 'fast'])).toThrow(/--rate must be an integer of at least 1/);
    expect(() => parseOptions(['--rate', '0'])).toThrow(/--rate must be an integer of at least 1/);
  });

  it('compares medians of server and database CPU per request, and flags a rise above 10%', () => {
    const run = (serverUsPerRequest: number, dbUsPerRequest: number) => ({ requestsPerSecond: 1, p50Ms: 1, p99Ms: 1, errors: 0, non2xx: 0, requests: 1, serverUsPerRequest, dbUsPerRequest });
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(percentChange(110, 100)).toBe(10);
    const rows = compareRuns({
      // One wild run on either side does not move a median of three.
      listing: { a: [run(120, 50), run(900, 50), run(118, 51)], b: [run(100, 40), run(101, 40), run(20, 40)] },
      home: { a: [run(110, 10), run(109, 10), run(111, 10)], b: [run(100, 10), run(100, 10), run(100, 10)] },
      detail: { a: [run(80, 30), run(81, 30), run(79, 30)], b: [run(100, 30), run(100, 30), run(100, 30)] },
    });
    expect(rows).toEqual([
      { scenario: 'listing', a: { serverUs: 120, dbUs: 50 }, b: { serverUs: 100, dbUs: 40 }, serverChangePercent: 20, dbChangePercent: 25, serverPairChanges: { low: 20, high: 791.1 }, flagged: true },
      { scenario: 'home', a: { serverUs: 110, dbUs: 10 }, b: { serverUs: 100, dbUs: 10 }, serverChangePercent: 10, dbChangePercent: 0, serverPairChanges: { low: 9, high: 11 }, flagged: false },
      { scenario: 'detail', a: { serverUs: 80, dbUs: 30 }, b: { serverUs: 100, dbUs: 30 }, serverChangePercent: -20, dbChangePercent: 0, serverPairChanges: { low: -21, high: -19 }, flagged: false },
    ]);
    const table = comparisonTable(rows, 'A new', 'B old').split('\n');
    expect(table[0]).toMatch(/server µs B old\s+server µs A new\s+change\s+pairs\s+db µs B old\s+db µs A new\s+change/);
    expect(table[1]).toMatch(/^listing\s+100\s+120\s+\+20\.0%\s+\+20\.0%\.\.\+791\.1%\s+40\s+50\s+\+25\.0%\s+<< worse by more than 10%$/);
    expect(table[2]).not.toMatch(/worse/);
    expect(table[3]).toMatch(/-20\.0%\s+-21\.0%\.\.-19\.0%/);
    // Pairs that disagree in sign: the median's change is noise, and the range shows it.
    const [noisy] = compareRuns({ detail: { a: [run(144, 1), run(121, 1), run(128, 1)], b: [run(124, 1), run(153, 1), run(120, 1)] } });
    expect(noisy.serverChangePercent).toBe(3.2);
    expect(noisy.serverPairChanges).toEqual({ low: -20.9, high: 16.1 });
    expect(pairsDisagree(noisy)).toBe(true);
    expect(rows.map(pairsDisagree)).toEqual([false, false, false]);
  });
});

describe('profile share', () => {
  it("counts the samples whose stack holds a matching file's frame once, of the samples that were not idle", () => {
    const frame = (functionName: string, url = '') => ({ functionName, url });
    const profile = {
      nodes: [
        { id: 1, callFrame: frame('(root)'), children: [2, 3, 6] },
        { id: 2, callFrame: frame('handle', 'file:///app/dist/src/server/app.js'), children: [4] },
        { id: 3, callFrame: frame('(idle)') },
        { id: 4, callFrame: frame('observeHttp', 'file:///app/dist/src/server/metrics-endpoint.js'), children: [5] },
        { id: 5, callFrame: frame('observe', 'file:///app/node_modules/prom-client/lib/histogram.js') },
        { id: 6, callFrame: frame('(garbage collector)') },
      ],
      // 2 in the app, 1 in observeHttp, 1 in prom-client under it, 3 idle, 1 GC: 5 busy samples.
      samples: [2, 2, 4, 5, 3, 3, 3, 6],
    };
    expect(shareOf(profile, /metrics-endpoint|prom-client/)).toEqual({ samples: 5, matching: 2, share: 0.4 });
    expect(shareOf(profile, /server\/app\.js/)).toEqual({ samples: 5, matching: 4, share: 0.8 });
    expect(shareOf(profile, /nothing/).share).toBe(0);
    // From the 4th second: the samples before it (a server's start) are left out.
    const timed = { ...profile, timeDeltas: [1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6, 1e6] };
    expect(shareOf(timed, /metrics-endpoint|prom-client/, 4)).toEqual({ samples: 2, matching: 1, share: 0.5 });
  });
});
