import type { MikroORM } from '@mikro-orm/postgresql';
import { seedDemoData } from '../src/seed/demo-seed.js';

export interface DataSize {
  products: number;
  shops: number;
  customers: number;
  orderLines: number;
}

export const DEFAULT_SIZE: DataSize = { products: 10_000, shops: 20, customers: 1_000, orderLines: 200_000 };

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

/** A constant list of words as an SQL array literal (bench constants only: no quotes in them). */
const words = (list: string[]) => `array[${list.map((w) => `'${w}'`).join(', ')}]`;

/**
 * The scale data set, written with set-based SQL (seconds, not minutes): the demo seed for the
 * category tree, brands and demo accounts, then `shops` bench shops, `products` products with 2 to 4
 * SKUs over every leaf category and brand (every 7th without a brand), `customers` funded customers,
 * and `orderLines` order lines in two-line orders: 85% paid, 10% pending, 5% cancelled.
 */
export async function loadBenchData(orm: MikroORM, size: DataSize): Promise<void> {
  await seedDemoData(orm, 'development');
  const em = orm.em.fork();
  const run = async (sql: string, params: unknown[] = []) => {
    const started = Date.now();
    await em.execute(sql, params);
    if (process.env.BENCH_DEBUG) console.log(`${Date.now() - started} ms  ${sql.trim().slice(0, 70).replace(/\s+/g, ' ')}`);
  };

  await run(`insert into shop (slug, name, created_at) select 'bench-shop-' || g, 'Bench Shop ' || g, now() from generate_series(1, ?) g`, [size.shops]);
  await run(`insert into shop_profile (shop_id, logo_url, description, updated_at)
             select id, 'https://img.mallfront.test/bench/' || id || '.png', 'Benchmark shop', now()
               from shop where slug like 'bench-shop-%' and id % 4 <> 0`);
  await run(`
    insert into product (shop_id, category_id, brand_id, name, description, image_url, status, price_from, created_at, updated_at)
    select s.ids[1 + g % array_length(s.ids, 1)],
           c.ids[1 + g % array_length(c.ids, 1)],
           case when g % 7 = 0 then null else b.ids[1 + g % array_length(b.ids, 1)] end,
           case when g % 10 = 3
             then (${words(CJK_FIRST)})[1 + g % ${CJK_FIRST.length}] || (${words(CJK_SECOND)})[1 + (g / 10) % ${CJK_SECOND.length}]
                  || (${words(CJK_THIRD)})[1 + (g / 100) % ${CJK_THIRD.length}] || ' ' || g % 1000
             else (${words(ADJECTIVES)})[1 + g % ${ADJECTIVES.length}] || ' ' || (${words(MATERIALS)})[1 + (g / 7) % ${MATERIALS.length}] || ' '
                  || (${words(NOUNS)})[1 + (g / 11) % ${NOUNS.length}] || ' ' || g % 1000
                  || case when g % 997 = 0 then ' ' || (${words(RARE)})[1 + (g / 997) % ${RARE.length}] else '' end
           end,
           'A product of the benchmark catalog', '${BENCH_IMAGE_PREFIX}' || g || '.jpg',
           'published', 0, now() - make_interval(secs => g), now()
      from generate_series(1, ?) g,
           (select array_agg(id order by id) ids from shop where slug like 'bench-shop-%') s,
           (select array_agg(id order by id) ids from category where depth = 2) c,
           (select array_agg(id order by id) ids from brand) b`, [size.products]);
  await run(`
    insert into sku (product_id, name, price, stock)
    select p.id, 'Variant ' || v, 990 + ((p.id * 37 + v * 101) % 50000), 1000000
      from product p cross join generate_series(1, 4) v
     where p.image_url like '${BENCH_IMAGE_PREFIX}%' and v <= 2 + p.id % 3`);
  await run(`update product p set price_from = m.price from (select product_id, min(price) price from sku group by product_id) m where m.product_id = p.id`);

  await run(`insert into app_user (email, password_hash, display_name, role, created_at)
             select 'bench-' || g || '@bench.test', 'scrypt$16384$8$1$AA==$AA==', 'Bench Customer ' || g, 'customer', now()
               from generate_series(1, ?) g`, [size.customers]);
  // Funds go in through the ledger's own shape: a balance row and a seed entry that replays to it.
  await run(`insert into balance (user_id, kind, currency, amount)
             select u.id, k.kind, k.currency, case when k.kind = 'available' then 100000000 else 0 end
               from app_user u cross join (values ('available', 'CNY'), ('frozen', 'CNY'), ('points', null)) k(kind, currency)
              where u.email like 'bench-%'`);
  await run(`insert into ledger_entry (balance_id, delta, balance_after, reason, created_at)
             select b.id, b.amount, b.amount, 'seed', now() from balance b join app_user u on u.id = b.user_id
              where u.email like 'bench-%' and b.kind = 'available'`);

  // Orders: each of a shop's orders takes two of that shop's products.
  await run(`create temp table bench_catalog as
             select p.id product_id, p.shop_id, p.name, s.sku_id, s.price
               from product p
               join (select distinct on (product_id) product_id, id sku_id, price from sku order by product_id, id) s on s.product_id = p.id
              where p.image_url like '${BENCH_IMAGE_PREFIX}%'`);
  await run('create unique index on bench_catalog (product_id)');
  await run('create temp table bench_shop as select shop_id, array_agg(product_id order by product_id) products from bench_catalog group by shop_id');
  await run('analyze bench_catalog');
  await run('analyze bench_shop');
  const orders = Math.ceil(size.orderLines / 2);
  await run(`
    insert into shop_order (customer_id, shop_id, status, items_total, discount, total, shipping_address, created_at, paid_at, cancelled_at)
    select c.ids[1 + g % array_length(c.ids, 1)], s.ids[1 + g % array_length(s.ids, 1)],
           case when g % 20 = 0 then 'cancelled' when g % 10 = 1 then 'pending_payment' else 'paid' end,
           0, 0, 0, '{"recipient": "Bench Buyer", "phone": "+86 138 0000 0000", "region": "CN-SH", "address": "1 Bench Road"}'::jsonb, now() - make_interval(secs => g),
           case when g % 20 <> 0 and g % 10 <> 1 then now() - make_interval(secs => g) end,
           case when g % 20 = 0 then now() - make_interval(secs => g) end
      from generate_series(1, ?) g,
           (select array_agg(id order by id) ids from app_user where email like 'bench-%') c,
           (select array_agg(id order by id) ids from shop where slug like 'bench-shop-%') s`, [orders]);
  await run(`
    insert into order_item (order_id, product_id, sku_id, product_name, sku_name, unit_price, quantity, amount, pricing, shipped_quantity, sold)
    select o.id, bc.product_id, bc.sku_id, bc.name, 'Variant 1', bc.price, 1 + (o.id + l) % 3, bc.price * (1 + (o.id + l) % 3),
           'standard', 0, o.status = 'paid'
      from shop_order o
      cross join generate_series(0, 1) l
      join bench_shop bs on bs.shop_id = o.shop_id
      join bench_catalog bc on bc.product_id = bs.products[1 + ((o.id * 7 + l * 13) % array_length(bs.products, 1))]
     where o.items_total = 0`);
  await run(`update shop_order o set items_total = t.sum, total = t.sum from (select order_id, sum(amount) sum from order_item group by order_id) t
             where t.order_id = o.id and o.items_total = 0`);
  // Vacuum sets the visibility map, so the sold-lines index serves index-only scans as in a settled database.
  await run('vacuum analyze');
}
