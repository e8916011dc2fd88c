import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startTestApp, type TestApp } from './support/harness.js';
import { newAdmin, newCustomer, type TestUser } from './support/fixtures.js';
import { ADDRESS, shopWithProduct } from './support/shopping.js';
import { startReceiver } from './support/webhook-receiver.js';
import { startOtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { startServerProcess, type ServerProcess } from './support/server-process.js';
import { until } from './support/prometheus.js';
import { loadConfig } from '../src/config.js';
import { SandboxProvider } from '../src/services/payments/sandbox-provider.js';
import { subscribe } from './support/subscriptions.js';
import { addToCart, checkoutOk } from './support/shopping.js';

/**
 * OpenTelemetry traces (issue 45, docs/operations.md "Traces"): a server process started with an
 * OTLP endpoint exports, to a receiver here, one trace per request with its spans in parent order
 * (HTTP, then Express or GraphQL, then `pg`), and the outbox relay's round and the webhook delivery
 * of the checkout's event as traces of their own linked to the checkout's. Its request log lines
 * carry the trace id the client got back. Started without one, the process loads no OpenTelemetry
 * module beyond the API that prom-client imports.
 */
const SPAN_KIND_SERVER = 2;

class SilentSandbox extends SandboxProvider {
  override deliverTo(): void {}
}
const SPAN_KIND_CLIENT = 3;

let t: TestApp;
let admin: TestUser;
let otlp: Awaited<ReturnType<typeof startOtlpReceiver>>;
let hooks: Awaited<ReturnType<typeof startReceiver>>;
let moduleDir: string;

beforeAll(async () => {
  otlp = await startOtlpReceiver();
  hooks = await startReceiver();
  t = await startTestApp(
    { webhooks: { ...loadConfig({ NODE_ENV: 'test' }).webhooks, dispatch: false, allowPrivate: true, allowHttp: true } },
    // The sandbox gateway here notifies only when a test sends its notification.
    { wiring: (base) => ({ paymentProviders: { ...base.paymentProviders, sandbox: new SilentSandbox({ delayMs: 0, secret: 'tracing-sandbox-secret' }) } }) },
  );
  admin = await newAdmin(t);
  moduleDir = await mkdtemp(path.join(tmpdir(), 'mallfront-modules-'));
});

afterAll(async () => {
  await t?.close();
  await hooks?.close();
  await otlp?.close();
  if (moduleDir) await rm(moduleDir, { recursive: true, force: true });
});

/**
 * A module given to `node --import`: it records every module URL from node_modules that the process
 * resolves, by `import` or `require` (Node's synchronous hooks see both), in the file MODULE_LOG names.
 */
async function moduleRecorder(): Promise<string> {
  const file = path.join(moduleDir, 'record-modules.mjs');
  await writeFile(
    file,
    `import { registerHooks } from 'node:module';
import { appendFileSync } from 'node:fs';
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context);
    if (resolved.url.includes('/node_modules/')) appendFileSync(process.env.MODULE_LOG, resolved.url + '\\n');
    return resolved;
  },
});
`,
  );
  return pathToFileURL(file).href;
}

const serverEnv = (extra: Record<string, string> = {}) => ({
  DATABASE_URL: t.dbUrl,
  NODE_ENV: 'production',
  DEVICE_TOKEN_SECRET: 'p'.repeat(48),
  WEBHOOK_ALLOW_PRIVATE: 'true',
  OUTBOX_POLL_MS: '100',
  SWEEP_INTERVAL_SECONDS: '0',
  LOG_LEVEL: 'info',
  ...extra,
});

/** The JSON log lines a server process wrote. */
const logLines = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The span's ancestors, nearest first (within what was received). */
function ancestors(span: ReceivedSpan, spans: ReceivedSpan[]): ReceivedSpan[] {
  const chain: ReceivedSpan[] = [];
  for (let parent = span.parentSpanId; parent; ) {
    const found = spans.find((s) => s.spanId === parent && s.traceId === span.traceId);
    if (!found) throw new Error(`span ${span.name}: its parent ${parent} was not received`);
    chain.push(found);
    parent = found.parentSpanId;
  }
  return chain;
}

const isPg = (span: ReceivedSpan) => span.scope === '@opentelemetry/instrumentation-pg' && span.name.startsWith('pg.query');

describe('tracing on (OTEL_EXPORTER_OTLP_ENDPOINT set)', () => {
  let registered = false;

  // Both checkout writers store the checkout's trace context with its events: the combined statement's traced twin, and the use case's transaction.
  it.each(['combined', 'transactional'])('exports one trace per request, HTTP → Express or GraphQL → pg, the relay and the delivery linked to the checkout, and logs the trace ids (%s writer)', async (writer) => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const customer = await newCustomer(t, { available: 100_000, points: 0 });
    if (!registered) {
      const endpoint = await t.api('POST', '/api/admin/webhooks', { token: admin.token, body: { url: hooks.url, event_types: ['order.placed'] } });
      expect(endpoint.status).toBe(201);
      registered = true;
    }
    // Only the traced process relays from here on: its relay's round is the one that links to the checkout.
    await t.events.stop();
    const delivered = hooks.received.length;
    const server = await startServerProcess(
      serverEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100', CHECKOUT_WRITER: writer }),
    );
    try {
      const rest = await fetch(`${server.baseUrl}/api/products/${product.id}`);
      expect(rest.status).toBe(200);
      const graphql = await fetch(`${server.baseUrl}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query TracedCategories { categories { id name } }' }),
      });
      expect(graphql.status).toBe(200);
      expect(((await graphql.json()) as { errors?: unknown }).errors).toBeUndefined();
      const auth = { 'content-type': 'application/json', authorization: `Bearer ${customer.token}` };
      expect((await fetch(`${server.baseUrl}/api/cart/items/${product.skuIds[0]}`, { method: 'PUT', headers: auth, body: JSON.stringify({ quantity: 1 }) })).status).toBe(200);
      const checkout = await fetch(`${server.baseUrl}/api/checkout`, { method: 'POST', headers: auth, body: JSON.stringify({ shipping_address: ADDRESS }) });
      expect(checkout.status).toBe(201);
      const [restTrace, graphqlTrace, checkoutTrace] = [rest, graphql, checkout].map((res) => res.headers.get('x-trace-id')!);
      for (const id of [restTrace, graphqlTrace, checkoutTrace]) expect(id).toMatch(/^[0-9a-f]{32}$/);

      // The webhook is delivered, and the delivery's and the relay's spans reach the receiver.
      await until('the webhook delivery', () => Promise.resolve(hooks.received.length > delivered ? true : undefined));
      const linkedTo = (name: string, trace: string) => otlp.spans.find((s) => s.name === name && s.links.some((l) => l.traceId === trace));
      const delivery = await until('the delivery span', () => Promise.resolve(linkedTo('webhook delivery', checkoutTrace)));
      const relay = await until('the relay span', () => Promise.resolve(linkedTo('outbox relay', checkoutTrace)));
      await until('every request span', () =>
        Promise.resolve([restTrace, graphqlTrace, checkoutTrace].every((trace) => otlp.spans.some((s) => s.traceId === trace && !s.parentSpanId)) ? true : undefined));
      const spans = otlp.spans;

      // One trace per request: one root, the HTTP server span, and every span of it in one tree.
      const rootOf = (trace: string) => {
        const roots = spans.filter((s) => s.traceId === trace && !s.parentSpanId);
        expect(roots).toHaveLength(1);
        expect(roots[0]).toMatchObject({ kind: SPAN_KIND_SERVER, scope: '@opentelemetry/instrumentation-http', service: 'mallfront' });
        for (const span of spans.filter((s) => s.traceId === trace)) expect(ancestors(span, spans).at(-1) ?? span).toBe(roots[0]);
        return roots[0];
      };
      const restRoot = rootOf(restTrace);
      const graphqlRoot = rootOf(graphqlTrace);
      const checkoutRoot = rootOf(checkoutTrace);
      expect(restRoot.name).toBe('GET /api/products/:id');

      // REST: each statement sits under an Express span, under the HTTP span.
      const restStatements = spans.filter((s) => s.traceId === restTrace && isPg(s));
      expect(restStatements.length).toBeGreaterThan(0);
      for (const statement of restStatements) {
        const chain = ancestors(statement, spans);
        expect(chain.some((s) => s.scope === '@opentelemetry/instrumentation-express')).toBe(true);
        expect(chain.at(-1)).toBe(restRoot);
        expect(statement.attributes['db.query.text'] ?? statement.attributes['db.statement']).toBeDefined();
      }

      // GraphQL: the operation, its root field, then the statements.
      const operation = spans.find((s) => s.traceId === graphqlTrace && s.name === 'query TracedCategories');
      expect(operation).toMatchObject({ parentSpanId: graphqlRoot.spanId, attributes: { 'graphql.operation.name': 'TracedCategories', 'graphql.operation.type': 'query' } });
      const field = spans.find((s) => s.traceId === graphqlTrace && s.name === 'graphql.resolve Query.categories');
      expect(field?.parentSpanId).toBe(operation!.spanId);
      const graphqlStatements = spans.filter((s) => s.traceId === graphqlTrace && isPg(s));
      expect(graphqlStatements.length).toBeGreaterThan(0);
      for (const statement of graphqlStatements) expect(ancestors(statement, spans).slice(-2)).toEqual([operation, graphqlRoot]);
      expect(graphqlStatements.some((s) => s.parentSpanId === field!.spanId)).toBe(true);

      // Checkout: its statements in its trace, the order's write among them, under Express.
      const checkoutStatements = spans.filter((s) => s.traceId === checkoutTrace && isPg(s));
      expect(checkoutStatements.length).toBeGreaterThan(1);
      const write = checkoutStatements.find((s) => /insert into "?shop_order"?/i.test(String(s.attributes['db.query.text'] ?? s.attributes['db.statement'])));
      expect(write).toBeDefined();
      expect(ancestors(write!, spans).some((s) => s.scope === '@opentelemetry/instrumentation-express')).toBe(true);
      expect(checkoutRoot.name).toBe('POST /api/checkout');

      // The relay's round and the delivery: traces of their own, linked to the checkout's.
      for (const background of [relay, delivery]) {
        expect(background.parentSpanId).toBeUndefined();
        expect(background.traceId).not.toBe(checkoutTrace);
      }
      expect(relay.attributes['mallfront.outbox.events']).toBeDefined();
      expect(delivery.attributes).toMatchObject({ 'mallfront.event.type': 'order.placed' });
      // The delivery's POST is its child, and the receiver got the delivery's trace context.
      const post = spans.find((s) => s.traceId === delivery.traceId && s.kind === SPAN_KIND_CLIENT);
      expect(post?.parentSpanId).toBe(delivery.spanId);
      expect(hooks.received.slice(delivered).some((r) => String(r.headers.traceparent).includes(delivery.traceId))).toBe(true);

      // Log lines: each request's line carries the trace id the client got and its HTTP span's id.
      await until('the request log lines', () =>
        Promise.resolve(logLines(server).filter((l) => l.msg === 'request' && [restTrace, graphqlTrace, checkoutTrace].includes(String(l.traceId))).length >= 3 ? true : undefined));
      const lines = logLines(server);
      for (const [trace, root] of [[restTrace, restRoot], [graphqlTrace, graphqlRoot], [checkoutTrace, checkoutRoot]] as const) {
        const line = lines.find((l) => l.msg === 'request' && l.traceId === trace);
        expect(line).toMatchObject({ spanId: root.spanId });
      }
    } finally {
      await server.stop();
    }
  });

  it("continues the caller's trace (traceparent): the client gets that trace id back, one id", async () => {
    const server = await startServerProcess(serverEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' }));
    try {
      const caller = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await fetch(`${server.baseUrl}/api/categories`, { headers: { traceparent: `00-${caller}-00f067aa0ba902b7-01` } });
      expect(res.headers.get('x-trace-id')).toBe(caller);
      const root = await until('the request span', () => Promise.resolve(otlp.spans.find((s) => s.traceId === caller && s.kind === SPAN_KIND_SERVER)));
      expect(root.parentSpanId).toBe('00f067aa0ba902b7');
      // Probes are not traced.
      expect((await fetch(`${server.baseUrl}/readyz`)).status).toBe(200);
      await until('the request log line', () => Promise.resolve(logLines(server).some((l) => l.msg === 'request' && l.path === '/readyz') ? true : undefined));
      const probe = logLines(server).find((l) => l.msg === 'request' && l.path === '/readyz')!;
      expect(otlp.spans.some((s) => s.traceId === probe.traceId)).toBe(false);
    } finally {
      await server.stop();
    }
  });
});

describe('a subscription, traced', () => {
  it("spans its subscribe over the websocket, and the read of each later event as a trace of its own, with the statements under them", async () => {
    const { product } = await shopWithProduct(t, [{ price: 1000, stock: 10 }]);
    const customer = await newCustomer(t, { available: 0, points: 0 });
    await addToCart(t, customer.token, product.skuIds[0], 1);
    const orders = await checkoutOk(t, customer.token);
    const started = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orders.map((o) => o.id), method: 'sandbox' } });
    expect(started.status).toBe(201);
    const payment = started.body as { id: number; provider_reference: string };
    const server = await startServerProcess(serverEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' }));
    const sub = await subscribe(server, 'subscription Watch($id: Int!) { paymentUpdates(paymentId: $id) { id status } }', { token: customer.token, variables: { id: payment.id } });
    try {
      expect(await sub.next('paymentUpdates')).toMatchObject({ id: payment.id, status: 'PENDING' });
      // The gateway's notification, received by another process: its event reaches the traced one through the outbox.
      const signed = (t.deps.wiring.paymentProviders.sandbox as SandboxProvider).notificationFor(payment.provider_reference)!;
      const notified = await t.api('POST', '/api/payments/notifications/sandbox', { raw: signed.body, headers: { 'sandbox-signature': signed.signature } });
      expect(notified.body.outcome).toBe('captured');
      expect(await sub.next('paymentUpdates')).toMatchObject({ id: payment.id, status: 'CAPTURED' });

      const subscribeSpan = await until('the subscribe span', () => Promise.resolve(otlp.spans.find((s) => s.name === 'graphql.subscribe Subscription.paymentUpdates')));
      const eventSpan = await until('the event span', () =>
        Promise.resolve(otlp.spans.find((s) => s.name === 'subscription event Subscription.paymentUpdates' && s.attributes['mallfront.payment.id'] === payment.id)));
      // The event's read is a trace of its own (no request is under way when an event arrives), not a child of the subscribe.
      expect(eventSpan.parentSpanId ?? '').toBe('');
      expect(eventSpan.traceId).not.toBe(subscribeSpan.traceId);
      for (const span of [subscribeSpan, eventSpan]) {
        const statements = await until(`the statements under ${span.name}`, () => {
          const found = otlp.spans.filter((s) => isPg(s) && s.traceId === span.traceId && ancestors(s, otlp.spans).some((a) => a.spanId === span.spanId));
          return Promise.resolve(found.length > 0 ? found : undefined);
        });
        expect(statements.length).toBeGreaterThan(0);
      }
    } finally {
      await sub.close();
      await server.stop();
    }
  });
});

describe('tracing off (no OTLP endpoint)', () => {
  it('loads no OpenTelemetry SDK, instrumentation or loader hook, and answers the request id as the trace id', async () => {
    const log = path.join(moduleDir, 'modules-off.txt');
    await writeFile(log, '');
    const server = await startServerProcess(serverEnv({ MODULE_LOG: log }), { nodeArgs: ['--import', await moduleRecorder()] });
    let modules: string[];
    try {
      const res = await fetch(`${server.baseUrl}/api/categories`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-trace-id')).toBe(res.headers.get('x-request-id')!.replaceAll('-', ''));
      const graphql = await fetch(`${server.baseUrl}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ categories { id } }' }) });
      expect(graphql.status).toBe(200);
      await until('the request log lines', () => Promise.resolve(logLines(server).filter((l) => l.msg === 'request').length >= 2 ? true : undefined));
      for (const line of logLines(server).filter((l) => l.msg === 'request')) expect(line.spanId).toBeUndefined();
    } finally {
      await server.stop();
      modules = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    }
    // The recorder sees what is required from CommonJS too: prom-client's import of the API is there.
    expect(modules.some((url) => url.includes('/node_modules/prom-client/'))).toBe(true);
    expect(modules.some((url) => url.includes('/node_modules/@opentelemetry/api/'))).toBe(true);
    const telemetry = modules.filter((url) => /\/node_modules\/(@opentelemetry\/(?!api\/)|import-in-the-middle\/|require-in-the-middle\/)/.test(url));
    expect(telemetry).toEqual([]);
  });
});
