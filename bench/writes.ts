import pg from 'pg';
import { measure, once, type Figures, type LoadOptions } from './load.js';
import { perRequest } from './cpu.js';
import { checkoutCustomers, type BenchContext } from './context.js';
import { BURST_BUYERS, BURST_STOCK } from './options.js';

const CHECKOUT_BODY = JSON.stringify({ shipping_address: { recipient: 'Bench Buyer', phone: '+86 138 0000 0000', region: 'CN-SH', address: '1 Bench Road' } });

/** Answers other than the expected one, by status and error code: what a bench must show, not hide. */
export class Refusals {
  private readonly counts = new Map<string, number>();
  add(status: number, body: string): void {
    let code = '';
    try {
      code = (JSON.parse(body) as { error?: { code?: string } })?.error?.code ?? '';
    } catch {
      /* not JSON: the status says enough */
    }
    const key = `${status} ${code}`.trim();
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  get total(): number {
    return [...this.counts.values()].reduce((n, c) => n + c, 0);
  }
  toJSON(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}

export interface CustomerLoop {
  placed: number;
  paid: number;
  refusals: Refusals;
  /** autocannon options running the loop: one customer per connection, for the whole run. */
  options: LoadOptions;
}

/**
 * Customers buying distinct SKUs, one per connection: each round puts the connection's SKU in its
 * customer's cart, checks out and, with `pay`, pays the order placed. autocannon clears a request
 * sequence's context after every round, so the customer is bound to the connection here: two
 * connections sharing a customer would empty each other's carts.
 */
export function customerLoop(ctx: BenchContext, connections: number, pay: boolean): CustomerLoop {
  const customers = checkoutCustomers(ctx.fixtures, connections);
  const loop: CustomerLoop = { placed: 0, paid: 0, refusals: new Refusals(), options: { url: ctx.base } };
  let clients = 0;
  loop.options = {
    url: ctx.base,
    connections,
    setupClient: (client: any) => {
      const { token, sku } = customers[clients++ % customers.length];
      const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
      const requests: any[] = [
        {
          method: 'PUT',
          path: `/api/cart/items/${sku}`,
          body: '{"quantity":1}',
          headers,
          onResponse: (status: number, body: string) => status !== 200 && loop.refusals.add(status, body),
        },
        {
          method: 'POST',
          path: '/api/checkout',
          body: CHECKOUT_BODY,
          headers,
          onResponse: (status: number, body: string, context: { orderId?: number }) => {
            if (status !== 201) return loop.refusals.add(status, body);
            loop.placed++;
            context.orderId = (JSON.parse(body) as { orders: { id: number }[] }).orders[0].id;
          },
        },
      ];
      if (pay) {
        requests.push({
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          // No order placed this round: back to the cart (autocannon restarts the sequence).
          setupRequest: (req: any, context: { orderId?: number }) => context.orderId !== undefined && { ...req, path: `/api/orders/${context.orderId}/pay` },
          onResponse: (status: number, body: string) => (status === 200 ? loop.paid++ : loop.refusals.add(status, body)),
        });
      }
      client.setRequests(requests);
    },
  } as LoadOptions;
  return loop;
}

/** Per checkout, its cart request included. */
const perCheckout = (cpu: Parameters<typeof perRequest>[0], checkouts: number): Record<string, number> => {
  const { serverUsPerRequest, dbUsPerRequest } = perRequest(cpu, checkouts);
  return serverUsPerRequest === undefined ? {} : { serverUsPerCheckout: serverUsPerRequest, dbUsPerCheckout: dbUsPerRequest! };
};

/** Checkouts per second of customers buying distinct SKUs, one per connection. */
export async function checkoutRate(ctx: BenchContext) {
  const { connections, seconds } = ctx.options;
  await standInForAutovacuum(ctx);
  const loop = customerLoop(ctx, connections, false);
  await ctx.meter?.start();
  const figures: Figures = await measure(loop.options, seconds, 0);
  const cpu = await ctx.meter?.stop();
  // Requests cut off when the run ends are still being served: let them finish before the next scenario.
  await new Promise((r) => setTimeout(r, 1000));
  if (loop.refusals.total > 0) ctx.log(`checkout refusals: ${JSON.stringify(loop.refusals)}`);
  return {
    checkoutsPerSecond: Math.round(loop.placed / seconds),
    p99Ms: figures.p99Ms,
    errors: figures.errors,
    non2xx: figures.non2xx,
    ...perCheckout(cpu, loop.placed),
    ...(loop.refusals.total > 0 ? { refusals: loop.refusals.toJSON() } : {}),
  };
}

/** Checkouts each followed by paying the order from the balance; CPU per purchase (cart, checkout and payment). */
export async function checkoutAndPayRate(ctx: BenchContext) {
  const { connections, seconds } = ctx.options;
  await standInForAutovacuum(ctx);
  const loop = customerLoop(ctx, connections, true);
  await ctx.meter?.start();
  const figures: Figures = await measure(loop.options, seconds, 0);
  const cpu = await ctx.meter?.stop();
  await new Promise((r) => setTimeout(r, 1000));
  if (loop.refusals.total > 0) ctx.log(`checkout and pay refusals: ${JSON.stringify(loop.refusals)}`);
  const { serverUsPerRequest, dbUsPerRequest } = perRequest(cpu, loop.paid);
  return {
    checkoutsPerSecond: Math.round(loop.placed / seconds),
    paymentsPerSecond: Math.round(loop.paid / seconds),
    p99Ms: figures.p99Ms,
    errors: figures.errors,
    ...(serverUsPerRequest === undefined ? {} : { serverUsPerPurchase: serverUsPerRequest, dbUsPerPurchase: dbUsPerRequest! }),
    ...(loop.refusals.total > 0 ? { refusals: loop.refusals.toJSON() } : {}),
  };
}

export interface Burst {
  successes: number;
  soldBeyondStock: number;
  skuStockConsistent: boolean;
  /** performance.now() of the first checkout sent and of the last answer. */
  startedAt: number;
  endedAt: number;
  sellOutMs: number;
  allMs: number;
  failures: number;
  cpu: { serverUs: number; dbUs: number } | null | undefined;
}

/**
 * The flash-sale burst: BURST_BUYERS customers, each with one unit of the hot SKU in the cart, check
 * out at once (at most `connections` in flight) against activity stock BURST_STOCK. Reports how long
 * selling out took, how many units sold at the activity price (must equal the stock) and any oversell.
 *
 * The clock starts when the load generator sends the first checkout (its own start-up, before any
 * request, is not the server's time) and stops at the response that completes the activity stock.
 */
export async function flashSaleBurst(ctx: BenchContext, metered = true): Promise<Burst> {
  const { db, fixtures: f } = ctx;
  const buyers = BURST_BUYERS;
  const stock = BURST_STOCK;
  // A SKU with stock for every buyer (the demo catalog's SKUs have little), not in an earlier burst.
  const [sku] = (await db.query(`select s.id, s.price, p.shop_id from sku s join product p on p.id = s.product_id where p.status = 'published'
       and s.stock >= $1 and not exists (select 1 from flash_sale_item i where i.sku_id = s.id) order by s.id limit 1`, [buyers])).rows;
  const skuStockBefore = (await db.query('select stock from sku where id = $1', [sku.id])).rows[0].stock as number;
  const [sale] = (await db.query(
    `insert into flash_sale (shop_id, name, starts_at, ends_at, enabled, created_at, updated_at)
     values ($1, 'Bench burst', now() - interval '1 minute', now() + interval '1 hour', true, now(), now()) returning id`, [sku.shop_id])).rows;
  const [item] = (await db.query(
    `insert into flash_sale_item (flash_sale_id, sku_id, activity_price, reserved_stock, remaining_stock, per_customer_limit, enabled, sale_window)
     values ($1, $2, $3, $4, $4, 1, true, tstzrange(now() - interval '1 minute', now() + interval '1 hour', '[)')) returning id`,
    [sale.id, sku.id, Math.max(1, Math.floor(sku.price / 2)), stock])).rows;
  const tokens = f.tokens.slice(0, buyers);
  const users = f.customers.slice(0, buyers);
  await db.query(`delete from cart_item where customer_id = any($1::int[])`, [users]);
  await db.query(`insert into cart_item (customer_id, sku_id, quantity, added_at) select u, $2, 1, now() from unnest($1::int[]) u`, [users, sku.id]);

  let next = 0;
  let started = 0;
  let soldOutAt = 0;
  let lastResponseAt = 0;
  let flashUnits = 0;
  const refusals = new Refusals();
  const firstOrderId = Number((await db.query('select coalesce(max(id), 0) + 1 as id from shop_order')).rows[0].id);
  if (metered) await ctx.meter?.start();
  // autocannon, as for every other scenario: exactly `buyers` requests, each with the next buyer's token.
  await once({
    url: ctx.base,
    connections: ctx.options.connections,
    amount: tokens.length,
    requests: [
      {
        method: 'POST',
        path: '/api/checkout',
        body: CHECKOUT_BODY,
        setupRequest: (req: any) => {
          started ||= performance.now();
          return { ...req, headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[next++ % tokens.length]}` } };
        },
        onResponse: (status: number, text: string) => {
          lastResponseAt = performance.now();
          if (status !== 201) return refusals.add(status, text);
          const body = JSON.parse(text);
          const units = body.orders.flatMap((o: any) => o.items).filter((i: any) => i.pricing === 'flash_sale').reduce((n: number, i: any) => n + i.quantity, 0);
          flashUnits += units;
          if (units > 0 && flashUnits >= stock && soldOutAt === 0) soldOutAt = lastResponseAt;
        },
      },
    ],
  } as LoadOptions);
  const cpu = metered ? await ctx.meter?.stop() : undefined;
  const soldAtActivityPrice = Number((await db.query(`select coalesce(sum(quantity), 0) n from order_item where flash_sale_item_id = $1`, [item.id])).rows[0].n);
  const remaining = (await db.query('select remaining_stock from flash_sale_item where id = $1', [item.id])).rows[0].remaining_stock as number;
  const skuSold = Number((await db.query(`select coalesce(sum(oi.quantity), 0) n from order_item oi where oi.sku_id = $1 and oi.order_id >= $2`, [sku.id, firstOrderId])).rows[0].n);
  const skuStockAfter = (await db.query('select stock from sku where id = $1', [sku.id])).rows[0].stock as number;
  if (refusals.total > 0) ctx.log(`flash-sale burst refusals: ${JSON.stringify(refusals)}`);
  return {
    successes: soldAtActivityPrice,
    soldBeyondStock: Math.max(0, soldAtActivityPrice - stock) + Math.max(0, -remaining),
    skuStockConsistent: skuStockBefore - skuStockAfter === skuSold,
    startedAt: started,
    endedAt: lastResponseAt,
    sellOutMs: (soldOutAt || lastResponseAt) - started,
    allMs: lastResponseAt - started,
    failures: refusals.total,
    cpu,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** What a series of bursts shows: correctness of every one, and the median sell-out. */
export function burstSummary(runs: Burst[]) {
  const sellOutMs = runs.map((r) => r.sellOutMs);
  return {
    bursts: runs.length,
    buyers: BURST_BUYERS,
    activityStock: BURST_STOCK,
    successesMin: Math.min(...runs.map((r) => r.successes)),
    successesMax: Math.max(...runs.map((r) => r.successes)),
    soldBeyondStock: Math.max(...runs.map((r) => r.soldBeyondStock)),
    skuStockConsistent: runs.every((r) => r.skuStockConsistent) ? 1 : 0,
    sellOutMs: Math.round(median(sellOutMs)),
    sellOutMsMin: Math.round(Math.min(...sellOutMs)),
    sellOutMsMax: Math.round(Math.max(...sellOutMs)),
    flashCheckoutsPerSecond: Math.round(BURST_STOCK / (median(sellOutMs) / 1000)),
    allCheckoutsPerSecond: Math.round(BURST_BUYERS / (median(runs.map((r) => r.allMs)) / 1000)),
    failures: runs.reduce((n, r) => n + r.failures, 0),
  };
}

/**
 * Several bursts, each on a SKU and flash sale of its own with the same buyers: a burst sells out
 * in a fraction of a second, so one alone moves with whatever else the machine did in that moment.
 * Reports the median sell-out time (and the range), and the correctness figures of every burst.
 */
export async function flashSaleBursts(ctx: BenchContext) {
  // Vacuumed once before the series, not before each burst: an ANALYZE invalidates every cached
  // plan on these tables, and re-planning the checkout statements on each connection is then part
  // of the burst (it is, once, in the first burst of the series).
  await standInForAutovacuum(ctx);
  const runs: Burst[] = [];
  for (let i = 0; i < ctx.options.bursts; i++) runs.push(await flashSaleBurst(ctx));
  const cpu = runs.every((r) => r.cpu) ? { serverUs: runs.reduce((n, r) => n + r.cpu!.serverUs, 0), dbUs: runs.reduce((n, r) => n + r.cpu!.dbUs, 0) } : null;
  return { ...burstSummary(runs), ...perCheckout(cpu, BURST_BUYERS * runs.length) };
}

/**
 * Checkouts churn the cart, order and stock tables, and the outbox (each event row is written, then
 * numbered by the relay). A server with autovacuum on cleans up behind
 * them; with it off (as on some development machines) dead rows pile up from run to run, the
 * planner's row estimates go astray (a 500-row cart table read as thousands of rows turns the cart
 * read into a sequential scan of every SKU) and the write figures measure that instead. So when
 * autovacuum is off the bench vacuums those tables before each write scenario, as autovacuum would.
 */
export async function standInForAutovacuum(ctx: BenchContext): Promise<void> {
  const { rows } = await ctx.db.query(`select setting from pg_settings where name = 'autovacuum'`);
  if (rows[0]?.setting !== 'off') return;
  ctx.log('autovacuum is off on this server: vacuuming the tables checkouts churn before the next write scenario');
  // The payment and ledger tables too where this commit has them (a compared older commit may not).
  const churned = ['cart_item', 'sku', 'shop_order', 'order_item', 'flash_sale_item', 'flash_sale_purchase', 'auth_token', 'event', 'stock_movement', 'payment', 'payment_order', 'payment_event', 'balance', 'ledger_entry'];
  const { rows: present } = await ctx.db.query<{ relname: string }>(`select relname from pg_class where relkind = 'r' and relnamespace = 'public'::regnamespace and relname = any($1)`, [churned]);
  await ctx.db.query(`vacuum analyze ${present.map((r) => r.relname).join(', ')}`);
}

/** The database's own ceiling: a single-row conditional decrement at the same concurrency. */
export async function rawDecrementRate(ctx: BenchContext): Promise<number> {
  const { connections, seconds } = ctx.options;
  const pool = new pg.Pool({ connectionString: ctx.dbUrl, max: connections });
  await pool.query('create table if not exists bench_counter (id int primary key, n bigint not null)');
  await pool.query('insert into bench_counter values (1, 1000000000) on conflict (id) do update set n = excluded.n');
  let done = 0;
  const until = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (Date.now() < until) {
        await pool.query('update bench_counter set n = n - 1 where id = 1 and n >= 1');
        done++;
      }
    }),
  );
  await pool.end();
  return Math.round(done / seconds);
}
