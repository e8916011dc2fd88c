import os from 'node:os';
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { seedDemoData } from '../src/seed/demo-seed.js';
import { loadConfig } from '../src/config.js';
import { mediaStoreFor } from '../src/services/media/media-store-choice.js';
import { awaitUsableIndexes, inParallel, putBack, schemaOf, takeOff } from './bulk-load.js';

export interface DataSize {
  products: number;
  shops: number;
  customers: number;
  orderLines: number;
}

export const DEFAULT_SIZE: DataSize = { products: 10_000, shops: 20, customers: 1_000, orderLines: 200_000 };

/**
 * A point of the cost curves (`--sizes`): 20 order lines per product, and shops and customers in
 * proportion with the default size's as floor (so `sizeFor(10_000)` is the default size).
 */
export function sizeFor(products: number): DataSize {
  return {
    products,
    shops: Math.max(DEFAULT_SIZE.shops, Math.round(products / 1000)),
    customers: Math.max(DEFAULT_SIZE.customers, Math.round(products / 10)),
    orderLines: products * 20,
  };
}

/** Bench products are told apart by their image URL (their names are words). */
export const BENCH_IMAGE_PREFIX = 'https://img.mallfront.test/p/';

/**
 * Searchable names: most products are `<adjective> <material> <noun> <model number>` (50 x 40 x 60
 * words, so an adjective is in 2% of the names, a noun in 1.7%), every 997th also carries one of 10
 * rare words (0.01% each), and every 10th is Chinese instead: three two-character words run together
 * without spaces (`无线蓝牙耳机`), each second word in 10% of them.
 */
const ADJECTIVES = `wireless portable compact classic smart foldable waterproof ergonomic vintage modern rugged slim
  deluxe premium mini ultra quiet bright soft heavy light rapid silent sturdy elegant cozy fresh rustic sleek glossy
  matte organic natural handmade travel outdoor indoor kids family office gaming studio pocket magnetic digital
  electric manual automatic adjustable durable flexible`.split(/\s+/);
const MATERIALS = `cotton leather steel bamboo ceramic glass wooden silicone nylon linen wool canvas aluminum copper
  brass titanium plastic rubber velvet denim silk marble granite oak walnut maple cedar pine cork felt mesh suede
  carbon chrome crystal paper stone clay jute hemp`.split(/\s+/);
const NOUNS = `lamp chair table kettle headphones speaker backpack jacket sneakers watch wallet mug bottle blanket
  pillow towel umbrella notebook pen keyboard mouse monitor charger cable router camera tripod drone scooter helmet
  tent stove pan knife board rack shelf mirror clock vase candle brush comb scarf gloves socks hat belt sunglasses
  earbuds tablet phone case stand dock hub fan heater purifier`.split(/\s+/);
const RARE = 'zanzibar quixotic obsidian marzipan xylophone kumquat fjord sphinx ziggurat yurt'.split(' ');
const CJK_FIRST = '无线 便携 迷你 智能 经典 时尚 简约 户外'.split(' ');
const CJK_SECOND = '蓝牙 降噪 防水 折叠 保温 电动 静音 快充 复古 轻薄'.split(' ');
const CJK_THIRD = '耳机 音箱 水杯 台灯 背包 手表 键盘 鼠标 风扇 雨伞 茶壶 毛毯'.split(' ');

/** What the search scenarios ask for. */
export const BENCH_WORDS = { common: ADJECTIVES[0], rare: RARE[3], cjkPart: CJK_SECOND[0], prefix: ADJECTIVES[0].slice(0, 2) };
/** Every word the names are made of: the soak searches them all. */
export const BENCH_VOCABULARY = [...ADJECTIVES, ...MATERIALS, ...NOUNS, ...RARE, ...CJK_FIRST, ...CJK_SECOND, ...CJK_THIRD];

/** A constant list of words as an SQL array literal (bench constants only: no quotes in them). */
const words = (list: string[]) => `array[${list.map((w) => `'${w}'`).join(', ')}]`;

/** The tables that take millions of rows: loaded without their secondary indexes and foreign keys. */
const BULK_TABLES = ['product', 'sku', 'search_suggestion', 'shop_order', 'order_item'];
const PRODUCTS_PER_STATEMENT = 100_000;
const ORDERS_PER_STATEMENT = 500_000;

/** SKU `v` (1 to 4) of product `id`: product `id` has 2 + id % 3 of them. */
const skuPrice = (id: string, v: string) => `(990 + ((${id}) * 37 + (${v}) * 101) % 50000)`;
/** Order `g` (its id is `base + g`): 85% paid, 10% pending, 5% cancelled. */
const orderStatus = (g: string) => `case when ${g} % 20 = 0 then 'cancelled' when ${g} % 10 = 1 then 'pending_payment' else 'paid' end`;
/**
 * Joins `bc`, the product of line `l` of order `g`, among the `bs.n` products of its shop `bs`
 * (numbered 0 to n - 1 by id; order `g` is the shop's `g / shops`-th). Line 1 takes one of the shop's
 * best sellers, its first tenth; line 0 one of the others in turn. So every product sells: a best
 * seller about 100 lines, any other about 11 (at 20 lines per product). The shop's newest products,
 * first in the default order, are among the others.
 */
const lineProduct = (bc: string, g: string, l: string, shops: number) => {
  const k = `(${g}) / ${shops}`;
  const best = 'greatest(1, bs.n / 10)';
  const pos = l === '1' ? `${k} % ${best}` : l === '0' ? `least(bs.n - 1, ${best} + ${k} % greatest(1, bs.n - ${best}))`
    : `case when ${l} = 1 then ${k} % ${best} else least(bs.n - 1, ${best} + ${k} % greatest(1, bs.n - ${best})) end`;
  return `join bench_catalog ${bc} on ${bc}.shop_ord = bs.ord and ${bc}.pos = ${pos}`;
};
const lineQuantity = (id: string, l: string) => `(1 + ((${id}) + (${l})) % 3)`;

export interface LoadReport {
  seconds: number;
  /** Seconds per step, in order. */
  steps: Record<string, number>;
}

/** Integer ranges [lo, hi] of at most `per` covering 1..n. */
function chunks(n: number, per: number): [number, number][] {
  const out: [number, number][] = [];
  for (let lo = 1; lo <= n; lo += per) out.push([lo, Math.min(n, lo + per - 1)]);
  return out;
}

/**
 * The scale data set, written with set-based SQL: the demo seed for the category tree, brands and
 * demo accounts, then `shops` bench shops, `products` products with 2 to 4 SKUs over every leaf
 * category and brand (every 7th without a brand), `customers` funded customers, and `orderLines`
 * order lines in two-line orders of one shop: 85% paid, 10% pending, 5% cancelled.
 *
 * Rows are computed, not read back: product and order ids are given (the sequences are moved past
 * them afterwards), so each product's lowest price and each order's totals are written with the row
 * instead of by an UPDATE of every row. The large tables go in in chunks over several sessions,
 * without their secondary indexes and foreign keys (bulk-load.ts); every trigger runs as it would for
 * any insert, so search documents, suggestions and the catalog and sales versions are the server's own.
 */
export async function loadBenchData(orm: MikroORM, databaseUrl: string, size: DataSize, log: (line: string) => void = () => {}): Promise<LoadReport> {
  const started = performance.now();
  const steps: Record<string, number> = {};
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await work();
    steps[name] = Number(((performance.now() - t) / 1000).toFixed(1));
    log(`  ${name}: ${steps[name]} s`);
    return result;
  };

  await step('demo seed', () => seedDemoData(orm, 'development', mediaStoreFor(loadConfig().media.store)));
  const sessions = await Promise.all(Array.from({ length: Math.min(4, Math.max(2, os.availableParallelism())) }, async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    // Room to hash the catalog in memory when orders look their lines up.
    await client.query(`set work_mem = '256MB'`);
    return client;
  }));
  const [db] = sessions;
  const each = (statements: string[]) => inParallel(sessions, statements.map((sql) => (session: pg.Client) => session.query(sql)));
  const max = async (table: string) => Number((await db.query(`select coalesce(max(id), 0)::int as n from ${table}`)).rows[0].n);

  try {
    const schemaBefore = await schemaOf(db, BULK_TABLES);
    const taken = await step('take off indexes and foreign keys', () => takeOff(db, BULK_TABLES));

    await step('shops', async () => {
      await db.query(`insert into shop (slug, name, created_at) select 'bench-shop-' || g, 'Bench Shop ' || g, now() from generate_series(1, $1::int) g`, [size.shops]);
      await db.query(`insert into shop_profile (shop_id, logo_url, description, updated_at)
                      select id, 'https://img.mallfront.test/bench/' || id || '.png', 'Benchmark shop', now()
                        from shop where slug like 'bench-shop-%' and id % 4 <> 0`);
    });

    const productBase = await max('product');
    await step('products (search documents and suggestions by their triggers)', () => each(chunks(size.products, PRODUCTS_PER_STATEMENT).map(([lo, hi]) => `
      insert into product (id, shop_id, category_id, brand_id, name, description, image_url, status, price_from, created_at, updated_at)
      select ${productBase} + g,
             s.ids[1 + g % array_length(s.ids, 1)],
             c.ids[1 + g % array_length(c.ids, 1)],
             case when g % 7 = 0 then null else b.ids[1 + g % array_length(b.ids, 1)] end,
             case when g % 10 = 3
               then (${words(CJK_FIRST)})[1 + g % ${CJK_FIRST.length}] || (${words(CJK_SECOND)})[1 + (g / 10) % ${CJK_SECOND.length}]
                    || (${words(CJK_THIRD)})[1 + (g / 100) % ${CJK_THIRD.length}] || ' ' || g % 1000
               else (${words(ADJECTIVES)})[1 + g % ${ADJECTIVES.length}] || ' ' || (${words(MATERIALS)})[1 + (g / 7) % ${MATERIALS.length}] || ' '
                    || (${words(NOUNS)})[1 + (g / 11) % ${NOUNS.length}] || ' ' || g % 1000
                    || case when g % 997 = 0 then ' ' || (${words(RARE)})[1 + (g / 997) % ${RARE.length}] else '' end
             end,
             'A product of the benchmark catalog', '${BENCH_IMAGE_PREFIX}' || g || '.jpg', 'published',
             (select min(${skuPrice(`${productBase} + g`, 'v')}) from generate_series(1, 2 + (${productBase} + g) % 3) v),
             now() - make_interval(secs => g), now()
        from generate_series(${lo}, ${hi}) g,
             (select array_agg(id order by id) ids from shop where slug like 'bench-shop-%') s,
             (select array_agg(id order by id) ids from category where depth = 2) c,
             (select array_agg(id order by id) ids from brand) b`)));
    await step('SKUs', async () => {
      await each(chunks(size.products, PRODUCTS_PER_STATEMENT).map(([lo, hi]) => `
        insert into sku (product_id, name, price, stock)
        select ${productBase} + g, 'Variant ' || v, ${skuPrice(`${productBase} + g`, 'v')}, 1000000
          from generate_series(${lo}, ${hi}) g cross join generate_series(1, 4) v
         where v <= 2 + (${productBase} + g) % 3`));
      await db.query(`select setval(pg_get_serial_sequence('product', 'id'), (select max(id) from product))`);
    });

    await step('customers and their balances', async () => {
      await db.query(`insert into app_user (email, password_hash, display_name, role, created_at)
                      select 'bench-' || g || '@bench.test', 'scrypt$16384$8$1$AA==$AA==', 'Bench Customer ' || g, 'customer', now()
                        from generate_series(1, $1::int) g`, [size.customers]);
      // Funds go in through the ledger's own shape: a balance row and a seed entry that replays to it.
      await db.query(`insert into balance (user_id, kind, currency, amount)
                      select u.id, k.kind, k.currency, case when k.kind = 'available' then 100000000 else 0 end
                        from app_user u cross join (values ('available', 'CNY'), ('frozen', 'CNY'), ('points', null)) k(kind, currency)
                       where u.email like 'bench-%'`);
      await db.query(`insert into ledger_entry (balance_id, delta, balance_after, reason, created_at)
                      select b.id, b.amount, b.amount, 'seed', now() from balance b join app_user u on u.id = b.user_id
                       where u.email like 'bench-%' and b.kind = 'available'`);
      // The other side of those deposits (double-entry ledger): the platform's clearing account.
      await db.query(`with deposited as (select coalesce(sum(b.amount), 0) as total from balance b join app_user u on u.id = b.user_id
                                          where u.email like 'bench-%' and b.kind = 'available'),
                           cleared as (update balance set amount = amount - (select total from deposited)
                                        where kind = 'platform_clearing' and user_id is null and shop_id is null returning id, amount)
                      insert into ledger_entry (balance_id, delta, balance_after, reason, created_at)
                      select c.id, -(select total from deposited), c.amount, 'seed', now() from cleared c`);
    });

    // Each order takes two products of its shop, each line the product's first SKU. Products are
    // numbered within their shop (shops by `ord`, products by `pos`) so that a line finds its product
    // by a join on numbers (an array of the shop's products, read per line, cost ten times more).
    // Scratch tables (not temporary: every session reads them), dropped at the end.
    await step('order scratch tables', async () => {
      await db.query(`create unlogged table bench_catalog as
                      select dense_rank() over (order by p.shop_id)::int - 1 shop_ord, row_number() over (partition by p.shop_id order by p.id)::int - 1 pos,
                             p.id product_id, p.shop_id, p.name, s.id sku_id, s.price
                        from product p
                        join (select distinct on (product_id) product_id, id, price from sku order by product_id, id) s on s.product_id = p.id
                       where p.image_url like '${BENCH_IMAGE_PREFIX}%'`);
      await db.query('alter table bench_catalog add primary key (shop_ord, pos)');
      await db.query('create unlogged table bench_shop as select shop_ord ord, shop_id, count(*)::int n from bench_catalog group by shop_ord, shop_id');
      await db.query('analyze bench_catalog');
      await db.query('analyze bench_shop');
    });
    const shopsWithProducts = Number((await db.query('select count(*)::int n from bench_shop')).rows[0].n);
    const orderBase = await max('shop_order');
    const orderChunks = chunks(Math.ceil(size.orderLines / 2), ORDERS_PER_STATEMENT);
    await step('orders and order lines', () => inParallel(sessions, orderChunks.map(([lo, hi]) => async (session: pg.Client) => {
      const id = `${orderBase} + g`;
      const shopOf = `join bench_shop bs on bs.ord = g % ${shopsWithProducts}`;
      await session.query(`
        insert into shop_order (id, customer_id, shop_id, status, items_total, discount, total, shipping_address, created_at, paid_at, cancelled_at)
        select ${id}, c.ids[1 + g % array_length(c.ids, 1)], bs.shop_id, ${orderStatus('g')},
               first.price * ${lineQuantity(id, '0')} + second.price * ${lineQuantity(id, '1')}, 0,
               first.price * ${lineQuantity(id, '0')} + second.price * ${lineQuantity(id, '1')},
               '{"recipient": "Bench Buyer", "phone": "+86 138 0000 0000", "region": "CN-SH", "address": "1 Bench Road"}'::jsonb,
               now() - make_interval(secs => g),
               case when ${orderStatus('g')} = 'paid' then now() - make_interval(secs => g) end,
               case when ${orderStatus('g')} = 'cancelled' then now() - make_interval(secs => g) end
          from generate_series(${lo}, ${hi}) g
          ${shopOf}
          ${lineProduct('first', 'g', '0', shopsWithProducts)}
          ${lineProduct('second', 'g', '1', shopsWithProducts)},
               (select array_agg(id order by id) ids from app_user where email like 'bench-%') c`);
      await session.query(`
        insert into order_item (order_id, product_id, sku_id, product_name, sku_name, unit_price, quantity, amount, pricing, shipped_quantity, sold)
        select ${id}, bc.product_id, bc.sku_id, bc.name, 'Variant 1', bc.price, ${lineQuantity(id, 'l')}, bc.price * ${lineQuantity(id, 'l')},
               'standard', 0, ${orderStatus('g')} = 'paid'
          from generate_series(${lo}, ${hi}) g
          cross join generate_series(0, 1) l
          ${shopOf}
          ${lineProduct('bc', 'g', 'l', shopsWithProducts)}`);
    })));
    await db.query(`select setval(pg_get_serial_sequence('shop_order', 'id'), (select max(id) from shop_order))`);
    await db.query('drop table bench_catalog, bench_shop');

    await step('indexes and foreign keys back', () => putBack(sessions, taken));
    await step('wait for the indexes to be usable', () => awaitUsableIndexes(db, BULK_TABLES, log));
    const schemaAfter = await schemaOf(db, BULK_TABLES);
    if (schemaAfter.join('\n') !== schemaBefore.join('\n')) {
      throw new Error(`the bulk load did not put the schema back as it was:\n- ${schemaBefore.filter((l) => !schemaAfter.includes(l)).join('\n- ')}\n+ ${schemaAfter.filter((l) => !schemaBefore.includes(l)).join('\n+ ')}`);
    }
    // Vacuum sets the visibility map, so the sold-lines index serves index-only scans as in a settled
    // database; the large tables first, side by side, then the rest (and statistics everywhere).
    await step('vacuum analyze', async () => {
      await each(['order_item', 'shop_order', 'product', 'sku', 'search_suggestion'].map((table) => `vacuum analyze ${table}`));
      await db.query('vacuum analyze');
    });
  } finally {
    await Promise.all(sessions.map((session) => session.end()));
  }
  return { seconds: Number(((performance.now() - started) / 1000).toFixed(1)), steps };
}
