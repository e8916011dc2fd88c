import http from 'node:http';
import type net from 'node:net';
import { EVENTS_CHANNEL } from '../src/services/events/postgres-event-bus.js';
import { newWebhookSecret } from '../src/services/events/webhooks/webhook-signing.js';
import type { BenchContext } from './context.js';
import { perRequest } from './cpu.js';
import { percentile } from './load.js';
import { WEBHOOK_ENDPOINTS, WEBHOOK_EVENTS } from './options.js';

/** Events per outbox insert: the bench commits the events as use cases would, many transactions of a few events. */
const EVENTS_PER_COMMIT = 100;
/** A run that has not delivered everything by then reports what it delivered (a slow dispatcher would take half an hour). */
const GIVE_UP_AFTER_MS = 180_000;
/** After the burst, a steady trickle: PACED_PER_COMMIT events every PACED_EVERY_MS for PACED_SECONDS. */
const PACED_PER_COMMIT = 1;
const PACED_EVERY_MS = 50;
const PACED_SECONDS = 10;

interface Arrival {
  id: string;
  /** The event's number in the run (its payload's `sku_id`): the burst's are below WEBHOOK_EVENTS. */
  n: number;
  /** Epoch ms of the arrival, and of the event's commit (the row's `occurred_at`, set by the insert that committed it). */
  at: number;
  committedAt: number;
}

/**
 * A receiver on 127.0.0.1 that verifies nothing: it counts and timestamps each POST and answers 204,
 * at once by default, so the figures are the server's (signing, sending, claiming, settling), not a
 * receiver's; or after `answerAfterMs()`, a receiver's own work.
 */
async function countingReceiver(answerAfterMs: () => number = () => 0) {
  const arrivals: Arrival[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { occurred_at: string; payload: { sku_id: number } };
      arrivals.push({ id: String(req.headers['webhook-id']), n: body.payload.sku_id, at, committedAt: Date.parse(body.occurred_at) });
      const wait = answerAfterMs();
      if (wait > 0) setTimeout(() => res.writeHead(204).end(), wait);
      else res.writeHead(204).end();
    });
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/hook`,
    arrivals,
    /** TCP connections the server opened to it: one per delivery without keep-alive. */
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

/**
 * WEBHOOK_EVENTS events fanned out to WEBHOOK_ENDPOINTS local endpoints (issue 29, item 5): the
 * endpoints are registered for `stock.low` (as platform endpoints, straight into the table: the
 * server runs in production mode, where http URLs are refused at registration, and with
 * WEBHOOK_ALLOW_PRIVATE so its sender may reach 127.0.0.1). The bench then commits the events as
 * fast as it can, EVENTS_PER_COMMIT per insert, each insert followed by the NOTIFY a use case's
 * commit sends, and waits until every endpoint received every event once.
 *
 * Reported: deliveries per second (all deliveries over the time from the first commit to the last
 * arrival), the commit-to-delivery latency (p50, p99, max: arrival time minus the event's
 * `occurred_at`, the insert's clock, which committed within the same statement), duplicates and
 * events missing when the run gave up, and server + database CPU per delivery. Under a burst the
 * latency is mostly the wait behind the backlog; so after a complete burst a steady trickle
 * (PACED_PER_COMMIT events every PACED_EVERY_MS) gives the latency when nothing waits (paced*).
 */
/** Events numbered [from, to) committed by one insert, then the NOTIFY a use case's commit sends. */
async function commitEvents(db: BenchContext['db'], from: number, to: number) {
  await db.query(
    `insert into event (type, shop_ids, customer_id, payload, occurred_at)
     select 'stock.low', '{}', null, jsonb_build_object('skuId', g, 'productId', 0, 'stock', 0, 'threshold', 1), clock_timestamp()
       from generate_series($1::int, $2::int) g order by g`,
    [from, to - 1],
  );
  await db.query('select pg_notify($1, $2)', [EVENTS_CHANNEL, 'bench']);
}

/** A platform endpoint for `stock.low`, straight into the table (http to 127.0.0.1 is refused at registration in production). */
async function registerEndpoint(db: BenchContext['db'], url: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `insert into webhook_endpoint (url, event_types, secret, created_at) values ($1, '{stock.low}', $2, now()) returning id`,
    [url, newWebhookSecret()],
  );
  return rows[0].id;
}

export async function webhookFanOut(ctx: BenchContext) {
  const { db } = ctx;
  const commit = (from: number, to: number) => commitEvents(db, from, to);
  const receivers = await Promise.all(Array.from({ length: WEBHOOK_ENDPOINTS }, () => countingReceiver()));
  const endpointIds: number[] = [];
  try {
    for (const receiver of receivers) endpointIds.push(await registerEndpoint(db, receiver.url));
    await ctx.meter?.start();
    const started = Date.now();
    for (let from = 0; from < WEBHOOK_EVENTS; from += EVENTS_PER_COMMIT) await commit(from, Math.min(WEBHOOK_EVENTS, from + EVENTS_PER_COMMIT));
    const committedMs = Date.now() - started;
    const expected = WEBHOOK_EVENTS * receivers.length;
    const count = () => receivers.reduce((n, r) => n + r.arrivals.length, 0);
    while (count() < expected && Date.now() - started < GIVE_UP_AFTER_MS) await new Promise((r) => setTimeout(r, 50));
    const cpu = await ctx.meter?.stop();
    // Anything still in flight lands before the duplicates are counted.
    await new Promise((r) => setTimeout(r, 500));
    // The burst's figures, before the trickle adds arrivals.
    const perReceiver = receivers.map((r) => [...r.arrivals]);
    const connectionsOpened = receivers.reduce((n, r) => n + r.connections(), 0);
    const arrivals = perReceiver.flat();
    const unique = perReceiver.reduce((n, list) => n + new Set(list.map((a) => a.id)).size, 0);
    const firstCommit = arrivals.reduce((min, a) => Math.min(min, a.committedAt), started);
    const lastArrival = arrivals.reduce((max, a) => Math.max(max, a.at), 0);
    const latencies = arrivals.map((a) => a.at - a.committedAt);
    const cost = perRequest(cpu, arrivals.length);
    const figures = {
      events: WEBHOOK_EVENTS,
      endpoints: receivers.length,
      delivered: unique,
      complete: unique === expected,
      duplicates: arrivals.length - unique,
      connectionsOpened,
      committedInMs: committedMs,
      deliveriesPerSecond: Math.round(unique / ((lastArrival - firstCommit) / 1000)),
      p50Ms: Math.round(percentile(latencies, 0.5)),
      p99Ms: Math.round(percentile(latencies, 0.99)),
      maxMs: Math.round(percentile(latencies, 1)),
      ...(cost.serverUsPerRequest === undefined ? {} : { serverUsPerDelivery: cost.serverUsPerRequest, dbUsPerDelivery: cost.dbUsPerRequest }),
    };
    if (!figures.complete) return figures;
    // Then a steady trickle (only after a complete burst: a backlog would be measured again): the latency when nothing waits.
    const first = WEBHOOK_EVENTS;
    let next = first;
    const until = Date.now() + PACED_SECONDS * 1000;
    while (Date.now() < until) {
      const tick = Date.now();
      await commit(next, next + PACED_PER_COMMIT);
      next += PACED_PER_COMMIT;
      await new Promise((r) => setTimeout(r, Math.max(0, PACED_EVERY_MS - (Date.now() - tick))));
    }
    const wanted = (next - first) * receivers.length;
    const trickle = () => receivers.flatMap((r) => r.arrivals.filter((a) => a.n >= first));
    const waitUntil = Date.now() + 30_000;
    while (trickle().length < wanted && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 50));
    const pacedLatencies = trickle().map((a) => a.at - a.committedAt);
    if (pacedLatencies.length < wanted) {
      const states = await db.query(`select state, count(*)::int as n, min(next_attempt_at) as due from webhook_delivery where endpoint_id = any($1::int[]) group by state`, [endpointIds]);
      const waiting = await db.query(`select count(*)::int as n, min(id)::text as first from event where position is null`);
      const seen = new Set(trickle().map((a) => a.n));
      const missing = Array.from({ length: next - first }, (_, i) => first + i).filter((n) => !seen.has(n));
      ctx.log(`trickle short by ${wanted - pacedLatencies.length}: missing events ${JSON.stringify(missing.slice(0, 20))}; deliveries ${JSON.stringify(states.rows)}; unpositioned events ${JSON.stringify(waiting.rows)}`);
    }
    return {
      ...figures,
      pacedEventsPerSecond: Math.round((PACED_PER_COMMIT * 1000) / PACED_EVERY_MS),
      // Committed in PACED_SECONDS: fewer than the rate says when each commit takes longer than its share.
      pacedEvents: next - first,
      pacedDelivered: pacedLatencies.length,
      pacedP50Ms: Math.round(percentile(pacedLatencies, 0.5)),
      pacedP99Ms: Math.round(percentile(pacedLatencies, 0.99)),
    };
  } finally {
    // Deliveries and their log go with the endpoints; the events stay, as published events do.
    if (endpointIds.length > 0) await db.query('delete from webhook_endpoint where id = any($1::int[])', [endpointIds]);
    await Promise.all(receivers.map((r) => r.close()));
  }
}

/** A receiver's time to answer: uniform between `fromMs` and `toMs`. */
export interface ReceiverPace {
  name: string;
  fromMs: number;
  toMs: number;
}

/**
 * One endpoint's backlog of `events`, drained by a server whose WEBHOOK_MAX_CONCURRENCY the caller
 * chose, to a receiver that takes `pace` to answer each delivery (issue 42: one endpoint at cap 1
 * drained about 10 deliveries a second to a 20-100 ms receiver). Reported: deliveries per second
 * from the first arrival to the last, the receiver's mean time per delivery, what the server added
 * per delivery beyond it (claim, sign, send, settle, wake: the gap between one answer and the next
 * request, at cap 1), whether the deliveries arrived in event order, and duplicates.
 */
export async function webhookDrain(ctx: BenchContext, pace: ReceiverPace, events: number, firstEvent: number) {
  const { db } = ctx;
  const waits: number[] = [];
  const receiver = await countingReceiver(() => {
    const wait = Math.round(pace.fromMs + Math.random() * (pace.toMs - pace.fromMs));
    waits.push(wait);
    return wait;
  });
  const endpointId = await registerEndpoint(db, receiver.url);
  try {
    for (let from = firstEvent; from < firstEvent + events; from += EVENTS_PER_COMMIT) await commitEvents(db, from, Math.min(firstEvent + events, from + EVENTS_PER_COMMIT));
    const until = Date.now() + GIVE_UP_AFTER_MS;
    while (receiver.arrivals.length < events && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, pace.toMs + 200));
    const arrivals = receiver.arrivals;
    const unique = new Set(arrivals.map((a) => a.id)).size;
    const spanMs = arrivals[arrivals.length - 1].at - arrivals[0].at;
    const perDeliveryMs = spanMs / Math.max(1, arrivals.length - 1);
    const meanReceiverMs = waits.reduce((n, w) => n + w, 0) / Math.max(1, waits.length);
    return {
      receiver: pace.name,
      events,
      delivered: unique,
      duplicates: arrivals.length - unique,
      inEventOrder: arrivals.every((a, i) => i === 0 || a.n > arrivals[i - 1].n),
      deliveriesPerSecond: Number((1000 / perDeliveryMs).toFixed(1)),
      receiverMeanMs: Math.round(meanReceiverMs),
      serverMsPerDelivery: Number((perDeliveryMs - meanReceiverMs).toFixed(1)),
    };
  } finally {
    await db.query('delete from webhook_endpoint where id = $1', [endpointId]);
    await receiver.close();
  }
}
