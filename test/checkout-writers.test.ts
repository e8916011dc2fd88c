import fc from 'fast-check';
import { startTestApp, type TestApp } from './support/harness.js';
import { newCategory, newCustomer, newFreightTemplate, type TestUser } from './support/fixtures.js';
import { minutesFromNow } from './support/flash-sales.js';
import { ADDRESS } from './support/shopping.js';
import { expectStockAudited } from './support/inventory-audit.js';
import { AppError } from '../src/errors.js';
import { checkout } from '../src/services/checkout/checkout.service.js';
import { cancelOrder } from '../src/services/orders/order.service.js';
import type { OrderView } from '../src/services/orders/order-view.js';

/**
 * Checkout's two writers held to one truth. The transactional writer (one guarded statement per step,
 * stock through inventory) is the reference; the combined writer (one statement, production) must
 * give the same answers. fast-check generates small worlds (shops with SKUs, short stock, flash-sale
 * items with limits, coupons, freight, a group buy) and sequences of checkouts over them (several
 * shops per cart, coupons right and wrong, group seats opened and joined, repeated Idempotency-Keys,
 * cancellations between them); each sequence runs on both writers, each against its own fresh
 * database, and every answer (orders and totals, or the refusal's code and details) and every
 * counter after it (stock, activity stock, purchase counters, coupons, carts, groups, movements)
 * must be the same.
 */
const RUNS = Number(process.env.WRITER_DIFF_RUNS ?? 48);
const MIN_CHECKOUTS = 200;

let reference: TestApp;
let production: TestApp;
let categories: [number, number];
let checkouts = 0;
let world = 0;
/** How often each outcome (placed, a refusal's code) came up. */
const seen = new Map<string, number>();

beforeAll(async () => {
  [reference, production] = await Promise.all([startTestApp({ checkoutWriter: 'transactional' }), startTestApp({ checkoutWriter: 'combined' })]);
  const [a, b] = await Promise.all([newCategory(reference), newCategory(production)]);
  expect(a.id).toBe(b.id);
  categories = [a.id, b.id];
});
afterAll(async () => {
  try {
    await Promise.all([expectStockAudited(reference), expectStockAudited(production)]);
  } finally {
    await Promise.all([reference.close(), production.close()]);
  }
});

// The world: what a checkout can meet.

interface SkuSpec {
  price: number;
  stock: number;
  flash: { activityPrice: number; reserved: number; limit: number } | null;
}
interface ShopSpec {
  skus: SkuSpec[];
  freight: { first: number; additional: number; freeOver: number | null } | null;
  coupons: { kind: 'fixed' | 'percent'; value: number; min: number }[];
}
interface WorldSpec {
  shops: ShopSpec[];
  group: { shop: number; sku: number; capacity: number; price: number } | null;
  customers: number;
  steps: Step[];
}
type Step =
  | { kind: 'cart'; customer: number; lines: { shop: number; sku: number; quantity: number }[]; coupons: { shop: number; coupon: number; owner: number }[]; key: number | null }
  | { kind: 'group'; customer: number; join: number | null; key: number | null }
  | { kind: 'cancel'; customer: number; step: number };

const sku: fc.Arbitrary<SkuSpec> = fc.record({
  price: fc.integer({ min: 1, max: 40 }).map((n) => n * 100),
  // Short stock is common: a few units against carts of up to three per line.
  stock: fc.integer({ min: 0, max: 10 }),
  flash: fc.oneof(
    { weight: 3, arbitrary: fc.constant(null) },
    { weight: 2, arbitrary: fc.record({ activityPrice: fc.integer({ min: 1, max: 99 }), reserved: fc.integer({ min: 0, max: 4 }), limit: fc.integer({ min: 1, max: 3 }) }) },
  ),
});
const shop: fc.Arbitrary<ShopSpec> = fc.record({
  skus: fc.array(sku, { minLength: 1, maxLength: 3 }),
  freight: fc.option(fc.record({ first: fc.integer({ min: 0, max: 20 }).map((n) => n * 50), additional: fc.integer({ min: 0, max: 10 }).map((n) => n * 50), freeOver: fc.option(fc.integer({ min: 1, max: 100 }).map((n) => n * 100)) })),
  coupons: fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('fixed' as const), value: fc.integer({ min: 1, max: 30 }).map((n) => n * 100), min: fc.integer({ min: 0, max: 60 }).map((n) => n * 100) }),
      fc.record({ kind: fc.constant('percent' as const), value: fc.integer({ min: 1, max: 100 }), min: fc.integer({ min: 0, max: 60 }).map((n) => n * 100) }),
    ),
    { maxLength: 2 },
  ),
});

const worldSpec: fc.Arbitrary<WorldSpec> = fc
  .record({ shops: fc.array(shop, { minLength: 1, maxLength: 3 }), customers: fc.integer({ min: 1, max: 3 }), withGroup: fc.boolean(), seed: fc.nat() })
  .chain(({ shops, customers, withGroup }) => {
    const skuRef = fc.integer({ min: 0, max: shops.length - 1 }).chain((s) => fc.record({ shop: fc.constant(s), sku: fc.integer({ min: 0, max: shops[s].skus.length - 1 }) }));
    const group = withGroup
      ? skuRef.chain((ref) => fc.record({ shop: fc.constant(ref.shop), sku: fc.constant(ref.sku), capacity: fc.integer({ min: 2, max: 3 }), price: fc.integer({ min: 1, max: 30 }).map((n) => n * 100) }))
      : fc.constant(null);
    const customer = fc.integer({ min: 0, max: customers - 1 });
    const key = fc.option(fc.integer({ min: 0, max: 2 }), { freq: 2 });
    const cartStep = fc.record({
      kind: fc.constant('cart' as const),
      customer,
      lines: fc.uniqueArray(fc.record({ ref: skuRef, quantity: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 4, selector: (l) => `${l.ref.shop}/${l.ref.sku}` }).map((lines) =>
        lines.map((l) => ({ shop: l.ref.shop, sku: l.ref.sku, quantity: l.quantity })),
      ),
      coupons: fc.oneof(fc.constant<{ shop: number; coupon: number; owner: number }[]>([]), fc.uniqueArray(fc.record({ shop: fc.integer({ min: 0, max: shops.length - 1 }), coupon: fc.integer({ min: 0, max: 1 }), owner: fc.oneof({ weight: 4, arbitrary: fc.constant(-1) }, customer) }), {
        maxLength: 1,
        selector: (c) => c.shop,
      })),
      key,
    });
    const steps = fc.array(
      fc.oneof(
        { weight: 6, arbitrary: cartStep },
        { weight: withGroup ? 2 : 0, arbitrary: fc.record({ kind: fc.constant('group' as const), customer, join: fc.option(fc.nat(7)), key }) },
        { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), customer, step: fc.nat(3) }) },
      ),
      { minLength: 4, maxLength: 8 },
    );
    return fc.record({ shops: fc.constant(shops), customers: fc.constant(customers), group, steps });
  });

/** The ids a world's objects got in one database (equal in both: the same inserts in the same order). */
interface Built {
  shops: { id: number; skus: { id: number; productId: number; flashItemId: number | null }[]; coupons: Map<string, number> }[];
  customers: TestUser[];
  activityId: number | null;
}

async function build(t: TestApp, spec: WorldSpec, n: number): Promise<Built> {
  const customers: TestUser[] = [];
  for (let c = 0; c < spec.customers; c++) customers.push(await newCustomer(t, { available: 1_000_000, points: 0 }));
  const shops: Built['shops'] = [];
  for (const [s, shopSpec] of spec.shops.entries()) {
    const [shopRow] = await t.sql<{ id: number }>(`insert into shop (slug, name, created_at) values (?, ?, now()) returning id`, [`w${n}-s${s}`, `World ${n} shop ${s}`]);
    const skus: Built['shops'][number]['skus'] = [];
    const flashItems: { skuId: number; spec: NonNullable<SkuSpec['flash']>; price: number }[] = [];
    for (const [k, skuSpec] of shopSpec.skus.entries()) {
      const [product] = await t.sql<{ id: number }>(
        `insert into product (shop_id, category_id, name, status, price_from, created_at, updated_at) values (?, ?, ?, 'published', ?, now(), now()) returning id`,
        [shopRow.id, categories[0], `World ${n} product ${s}.${k}`, skuSpec.price],
      );
      const [row] = await t.sql<{ id: number }>(`insert into sku (product_id, name, price, stock) values (?, ?, ?, ?) returning id`, [product.id, `Variant ${k}`, skuSpec.price, skuSpec.stock]);
      if (skuSpec.stock > 0) await t.sql(`insert into stock_movement (sku_id, delta, kind, created_at) values (?, ?, 'adjustment', now())`, [row.id, skuSpec.stock]);
      skus.push({ id: row.id, productId: product.id, flashItemId: null });
      if (skuSpec.flash) flashItems.push({ skuId: row.id, spec: skuSpec.flash, price: Math.floor((skuSpec.price * skuSpec.flash.activityPrice) / 100) });
    }
    if (flashItems.length > 0) {
      const startsAt = minutesFromNow(-10);
      const endsAt = minutesFromNow(60);
      const [session] = await t.sql<{ id: number }>(
        `insert into flash_sale (shop_id, name, starts_at, ends_at, enabled, created_at, updated_at) values (?, 'Sale', ?, ?, true, now(), now()) returning id`,
        [shopRow.id, startsAt, endsAt],
      );
      for (const item of flashItems) {
        const [row] = await t.sql<{ id: number }>(
          `insert into flash_sale_item (flash_sale_id, sku_id, activity_price, reserved_stock, remaining_stock, per_customer_limit, enabled, sale_window)
           values (?, ?, ?, ?, ?, ?, true, tstzrange(?, ?, '[)')) returning id`,
          [session.id, item.skuId, item.price, item.spec.reserved, item.spec.reserved, item.spec.limit, startsAt, endsAt],
        );
        if (item.spec.reserved > 0) await t.sql(`insert into stock_movement (flash_sale_item_id, delta, kind, created_at) values (?, ?, 'adjustment', now())`, [row.id, item.spec.reserved]);
        skus.find((k) => k.id === item.skuId)!.flashItemId = row.id;
      }
    }
    if (shopSpec.freight) {
      const { first, additional, freeOver } = shopSpec.freight;
      await newFreightTemplate(t, shopRow.id, { firstUnitFee: first, additionalUnitFee: additional, freeThreshold: freeOver }, skus.map((k) => k.productId));
    }
    const coupons = new Map<string, number>();
    for (const [c, coupon] of shopSpec.coupons.entries()) {
      for (const [owner, customer] of customers.entries()) {
        const [row] = await t.sql<{ id: number }>(
          `insert into coupon (customer_id, shop_id, name, discount_kind, amount_off, percent_off, min_order_amount, valid_from, valid_until, claimed_at)
           values (?, ?, 'Coupon', ?, ?, ?, ?, now() - interval '1 hour', now() + interval '1 day', now()) returning id`,
          [customer.id, shopRow.id, coupon.kind, coupon.kind === 'fixed' ? coupon.value : null, coupon.kind === 'percent' ? coupon.value : null, coupon.min],
        );
        coupons.set(`${c}/${owner}`, row.id);
      }
    }
    shops.push({ id: shopRow.id, skus, coupons });
  }
  let activityId: number | null = null;
  if (spec.group) {
    const target = shops[spec.group.shop].skus[spec.group.sku];
    const [row] = await t.sql<{ id: number }>(
      `insert into group_buy_activity (shop_id, product_id, sku_id, group_price, capacity, lifetime_minutes, starts_at, ends_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, 60, now() - interval '1 hour', now() + interval '1 day', now(), now()) returning id`,
      [shops[spec.group.shop].id, target.productId, target.id, spec.group.price, spec.group.capacity],
    );
    activityId = row.id;
  }
  return { shops, customers, activityId };
}

// Running a sequence of steps on one writer, and what it answered.

type Outcome = { placed: unknown[] } | { refused: { code: string; details: unknown } } | { skipped: true };

async function run(t: TestApp, spec: WorldSpec, built: Built): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const placedAt: { orders: { id: number; groupId?: number }[] }[] = [];
  for (const [i, step] of spec.steps.entries()) {
    const customer = built.customers[step.customer];
    const ctx = await t.context(customer.token);
    let placed: { id: number; groupId?: number }[] = [];
    try {
      if (step.kind === 'cancel') {
        const target = placedAt[step.step]?.orders[0];
        if (!target) {
          outcomes.push({ skipped: true });
        } else {
          const view = await cancelOrder(ctx, { orderId: target.id });
          outcomes.push({ placed: [normalizedView(view)] });
        }
      } else {
        const key = step.key === null ? undefined : `world-${world}-key-${step.customer}-${step.key}`;
        let input: Record<string, unknown>;
        if (step.kind === 'cart') {
          await t.sql('delete from cart_item where customer_id = ?', [customer.id]);
          for (const line of step.lines) {
            await t.sql('insert into cart_item (customer_id, sku_id, quantity, added_at) values (?, ?, ?, now())', [customer.id, built.shops[line.shop].skus[line.sku].id, line.quantity]);
          }
          const coupons = step.coupons.flatMap((c) => {
            const id = built.shops[c.shop].coupons.get(`${c.coupon}/${c.owner === -1 ? step.customer : c.owner}`);
            return id === undefined ? [] : [{ shopId: built.shops[c.shop].id, couponId: id }];
          });
          input = { shippingAddress: ADDRESS, ...(coupons.length > 0 ? { coupons } : {}) };
        } else {
          const joined = step.join === null ? undefined : placedAt[step.join]?.orders.find((o) => o.groupId !== undefined)?.groupId;
          input = { shippingAddress: ADDRESS, groupBuy: { activityId: built.activityId!, ...(joined === undefined ? {} : { groupId: joined }) } };
        }
        const views = await checkout(ctx, input, key);
        placed = views.map((v) => ({ id: v.id, groupId: v.groupId }));
        outcomes.push({ placed: views.map(normalizedView) });
      }
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      outcomes.push({ refused: { code: error.code, details: ranked(error.details ?? null, placedAt) } });
    }
    placedAt[i] = { orders: placed };
  }
  return outcomes;
}

/**
 * A refusal's details with each order or group id named by the step that placed it (ids the
 * databases give out may differ: a refused statement of one writer can use sequence values the
 * other does not).
 */
function ranked(details: Record<string, unknown> | null, placedAt: { orders: { id: number; groupId?: number }[] }[]) {
  if (details === null) return null;
  const name = (key: string, value: unknown) => {
    for (const [step, { orders }] of placedAt.entries()) {
      for (const [n, order] of orders.entries()) {
        if (key === 'order_id' && order.id === value) return `order ${n} of step ${step}`;
        if (key === 'group_id' && order.groupId === value) return `group of step ${step}`;
      }
    }
    return value;
  };
  return Object.fromEntries(Object.entries(details).map(([key, value]) => [key, name(key, value)]));
}

/** An order view without what differs by database (its own ids and times). */
function normalizedView(view: OrderView) {
  const { id: _id, createdAt: _c, paidAt: _p, cancelledAt: _x, groupId, items, ...rest } = view;
  return { ...rest, group: groupId === undefined ? null : 'group', items: items.map(({ id: _i, ...item }) => item) };
}

/** Every counter a checkout touches, for the world's objects, with database-own ids replaced by their rank. */
async function counters(t: TestApp, built: Built) {
  const skuIds = built.shops.flatMap((s) => s.skus.map((k) => k.id));
  const customerIds = built.customers.map((c) => c.id);
  const ints = (ids: number[]) => `{${ids.join(',')}}`;
  const orders = await t.sql<{ id: number }>('select id from shop_order where customer_id = any(?::int[]) order by id', [ints(customerIds)]);
  const rank = new Map(orders.map((o, i) => [o.id, i]));
  const groups = await t.sql<{ id: number }>('select id from group_buy_group where activity_id = ? order by id', [built.activityId ?? 0]);
  const groupRank = new Map(groups.map((g, i) => [g.id, i]));
  const of = <T extends Record<string, unknown>>(rows: T[], fields: (keyof T)[]) =>
    rows.map((r) => {
      const out: Record<string, unknown> = { ...r };
      for (const f of fields) out[f as string] = r[f] === null ? null : (f === 'group_id' ? groupRank : rank).get(r[f] as number);
      return out;
    });
  return {
    skus: await t.sql('select id, stock from sku where id = any(?::int[]) order by id', [ints(skuIds)]),
    activity: await t.sql('select i.id, i.remaining_stock from flash_sale_item i where i.sku_id = any(?::int[]) order by i.id', [ints(skuIds)]),
    purchases: await t.sql('select flash_sale_item_id, customer_id, quantity from flash_sale_purchase where customer_id = any(?::int[]) order by 1, 2', [ints(customerIds)]),
    coupons: await t.sql('select id, status from coupon where customer_id = any(?::int[]) order by id', [ints(customerIds)]),
    carts: await t.sql('select customer_id, sku_id, quantity from cart_item where customer_id = any(?::int[]) order by 1, 2', [ints(customerIds)]),
    orders: of(
      await t.sql(
        `select o.id, o.customer_id, o.shop_id, o.status, o.items_total, o.discount, o.coupon_id, o.freight_fee, o.total, o.group_id, o.group_price, o.cancel_reason,
                (select json_agg(json_build_object('sku', i.sku_id, 'price', i.unit_price, 'quantity', i.quantity, 'pricing', i.pricing, 'flash', i.flash_sale_item_id) order by i.id)
                   from order_item i where i.order_id = o.id) as items
           from shop_order o where o.customer_id = any(?::int[]) order by o.id`,
        [ints(customerIds)],
      ),
      ['id', 'group_id'],
    ),
    groups: (await t.sql('select state, capacity, paid_seats from group_buy_group where activity_id = ? order by id', [built.activityId ?? 0])),
    movements: of(
      await t.sql(
        `select m.sku_id, m.flash_sale_item_id, m.delta, m.kind, m.order_id from stock_movement m
          where m.sku_id = any(?::int[]) or m.flash_sale_item_id in (select id from flash_sale_item where sku_id = any(?::int[]))`,
        [ints(skuIds), ints(skuIds)],
      ),
      ['order_id'],
    ).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
    answers: await t.sql('select user_id, scope, key, response is not null as answered from idempotency_key where user_id = any(?::int[]) order by 1, 3', [ints(customerIds)]),
    // The events each writer stored: the combined statement builds `order.placed` and `stock.low`
    // payloads in SQL, the transactional writer in TypeScript (announcePlaced, emitStockLow).
    events: (
      await t.sql<{ type: string; shop_ids: number[]; customer_id: number | null; payload: Record<string, unknown> }>(
        `select type, shop_ids, customer_id, payload from event
          where customer_id = any(?::int[]) or (type = 'stock.low' and (payload->>'skuId')::int = any(?::int[]))`,
        [ints(customerIds), ints(skuIds)],
      )
    )
      .map((e) => ({ ...e, payload: { ...e.payload, ...('orderId' in e.payload ? { orderId: rank.get(e.payload.orderId as number) } : {}), ...('groupId' in e.payload ? { groupId: groupRank.get(e.payload.groupId as number) } : {}) } }))
      .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}

it(`holds the combined writer to the transactional one over ${RUNS} generated worlds (at least ${MIN_CHECKOUTS} checkouts)`, async () => {
  const started = Date.now();
  await fc.assert(
    fc.asyncProperty(worldSpec, async (spec) => {
      world++;
      checkouts += spec.steps.filter((step) => step.kind !== 'cancel').length;
      const built = await Promise.all([build(reference, spec, world), build(production, spec, world)]);
      // Both databases gave the world the same ids: the steps name the same rows in each.
      const ids = (b: Built) => JSON.stringify({ ...b, customers: b.customers.map((c) => c.id) }, (_k, v: unknown) => (v instanceof Map ? [...v] : v));
      expect(ids(built[1])).toBe(ids(built[0]));
      // Each writer on its own database, at the same time.
      const [expected, actual] = await Promise.all([run(reference, spec, built[0]), run(production, spec, built[1])]);
      expect(actual).toEqual(expected);
      for (const outcome of expected) {
        const kind = 'placed' in outcome ? 'placed' : 'refused' in outcome ? outcome.refused.code : 'skipped';
        seen.set(kind, (seen.get(kind) ?? 0) + 1);
      }
      const [got, want] = await Promise.all([counters(production, built[1]), counters(reference, built[0])]);
      expect(got).toEqual(want);
      for (const event of want.events) seen.set(event.type, (seen.get(event.type) ?? 0) + 1);
    }),
    { numRuns: RUNS, endOnFailure: true },
  );
  console.log(`writer differential: ${world} worlds, ${checkouts} checkouts per writer in ${Date.now() - started} ms; outcomes ${JSON.stringify(Object.fromEntries(seen))}`);
  expect(checkouts).toBeGreaterThanOrEqual(MIN_CHECKOUTS);
  // The worlds reach the writers' refusals, not only their happy path.
  expect(seen.get('INSUFFICIENT_STOCK') ?? 0).toBeGreaterThan(0);
  expect(seen.get('placed') ?? 0).toBeGreaterThan(RUNS);
  // Both events the combined statement builds in SQL were compared, not only the orders.
  expect(seen.get('order.placed') ?? 0).toBeGreaterThan(RUNS);
  expect(seen.get('stock.low') ?? 0).toBeGreaterThan(0);
}, 600_000);
