import { once } from './load.js';
import { perRequest } from './cpu.js';
import { checkoutCustomers, type BenchContext } from './context.js';
import { Refusals } from './writes.js';
import { startStripeStandIn, type StripeStandIn } from '../test/support/stripe-stand-in.js';

/**
 * Payment notifications per second (issue 40): Stripe webhooks, signed as Stripe signs them and
 * verified by the official SDK's `constructEvent`, each capturing one pending payment of a one-shop
 * order (the payment row locked, its orders paid, the money through the clearing account, the
 * events written). Stripe itself cannot be reached from a bench machine: the server's SDK talks to
 * the tests' stand-in (test/support/stripe-stand-in.ts), which only creates the PaymentIntents and
 * is not part of what is measured. A second pass sends every notification again: what a gateway's
 * retries cost (verified, found captured, recorded as a duplicate).
 */
const SECRET_KEY = 'sk_test_mallfront_bench';
const WEBHOOK_SECRET = 'whsec_mallfront_bench_secret';

/** The notifications sent in one pass (each a distinct payment, made before the clock starts). */
export const NOTIFICATIONS_PER_PASS = 2_000;

const CHECKOUT_BODY = JSON.stringify({ shipping_address: { recipient: 'Bench Buyer', phone: '+86 138 0000 0000', region: 'CN-SH', address: '1 Bench Road' } });

/** The server's settings for this scenario: Stripe offered, its SDK pointed at the stand-in. */
export async function notificationGateway(): Promise<{ standIn: StripeStandIn; env: Record<string, string> }> {
  const standIn = await startStripeStandIn(SECRET_KEY);
  return { standIn, env: { PAYMENT_METHODS: 'wallet,stripe', STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: 'pk_test_bench', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: standIn.url } };
}

async function call(ctx: BenchContext, method: string, path: string, token: string, body?: string) {
  const res = await fetch(`${ctx.base}${path}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
  const text = await res.text();
  return { status: res.status, json: () => JSON.parse(text) as Record<string, any>, text };
}

/** `count` pending Stripe payments, each of one order just placed, made by the checkout customers in parallel. */
async function pendingPayments(ctx: BenchContext, count: number, refusals: Refusals): Promise<string[]> {
  const customers = checkoutCustomers(ctx.fixtures, ctx.options.connections);
  const references: string[] = [];
  let started = 0;
  await Promise.all(
    customers.map(async ({ token, sku }) => {
      while (started < count) {
        started++;
        const cart = await call(ctx, 'PUT', `/api/cart/items/${sku}`, token, '{"quantity":1}');
        if (cart.status !== 200) return refusals.add(cart.status, cart.text);
        const placed = await call(ctx, 'POST', '/api/checkout', token, CHECKOUT_BODY);
        if (placed.status !== 201) return refusals.add(placed.status, placed.text);
        const orderId = (placed.json().orders as { id: number }[])[0].id;
        const payment = await call(ctx, 'POST', '/api/payments', token, JSON.stringify({ order_ids: [orderId], method: 'stripe' }));
        if (payment.status !== 201) return refusals.add(payment.status, payment.text);
        references.push(payment.json().provider_reference as string);
      }
    }),
  );
  return references;
}

/** One pass: every notification once, at `connections` in flight; outcomes counted from the answers. */
async function pass(ctx: BenchContext, notifications: { body: string; signature: string }[]) {
  const outcomes = new Map<string, number>();
  let next = 0;
  await ctx.meter?.start();
  const started = performance.now();
  await once({
    url: ctx.base,
    connections: ctx.options.connections,
    amount: notifications.length,
    requests: [
      {
        method: 'POST',
        path: '/api/payments/notifications/stripe',
        setupRequest: (req: any) => {
          const n = notifications[next++ % notifications.length];
          return { ...req, body: n.body, headers: { 'content-type': 'application/json', 'stripe-signature': n.signature } };
        },
        onResponse: (status: number, body: string) => {
          const outcome = status === 200 ? ((JSON.parse(body) as { outcome: string }).outcome ?? '?') : `${status}`;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        },
      },
    ],
  } as any);
  const seconds = (performance.now() - started) / 1000;
  const cpu = await ctx.meter?.stop();
  const { serverUsPerRequest, dbUsPerRequest } = perRequest(cpu, notifications.length);
  return {
    perSecond: Math.round(notifications.length / seconds),
    ...(serverUsPerRequest === undefined ? {} : { serverUsPerNotification: serverUsPerRequest, dbUsPerNotification: dbUsPerRequest! }),
    outcomes: Object.fromEntries(outcomes),
  };
}

/** Notifications processed per second and their CPU: first deliveries (captures), then the same again (duplicates). */
export async function notificationRate(ctx: BenchContext, standIn: StripeStandIn) {
  const refusals = new Refusals();
  const references = await pendingPayments(ctx, NOTIFICATIONS_PER_PASS, refusals);
  if (refusals.total > 0) ctx.log(`notification set-up refusals: ${JSON.stringify(refusals)}`);
  // The customers paid at Stripe: each intent succeeded, and Stripe signs its event.
  const notifications = references.map((reference) => standIn.event('payment_intent.succeeded', standIn.succeed(reference), WEBHOOK_SECRET));
  const first = await pass(ctx, notifications);
  const again = await pass(ctx, notifications);
  return {
    notifications: notifications.length,
    capturesPerSecond: first.perSecond,
    ...(first.serverUsPerNotification === undefined ? {} : { serverUsPerCapture: first.serverUsPerNotification, dbUsPerCapture: first.dbUsPerNotification }),
    duplicatesPerSecond: again.perSecond,
    ...(again.serverUsPerNotification === undefined ? {} : { serverUsPerDuplicate: again.serverUsPerNotification, dbUsPerDuplicate: again.dbUsPerNotification }),
    outcomes: { first: first.outcomes, again: again.outcomes },
    ...(refusals.total > 0 ? { refusals: refusals.toJSON() } : {}),
  };
}
