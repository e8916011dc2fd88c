import http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Stripe's API, enough for the payment module, speaking Stripe's documented wire
 * protocol so the official `stripe` SDK talks to it unchanged (pointed at it with host, port and
 * protocol): form-encoded POST bodies with bracketed keys (`metadata[payment_id]`), bearer secret
 * keys, `Idempotency-Key` (a repeated key answers the first answer), JSON objects with `object`
 * names and Stripe's error shape (`{error: {type, code, message}}`). Webhook events are signed as
 * Stripe signs them: header `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`
 * with the endpoint's `whsec_` secret.
 *
 * What it covers: PaymentIntents (create, retrieve; the customer's confirmation is simulated by
 * `succeed` and `decline`), refunds (create, retrieve; a bank that answers later by `refundsPending`
 * and `settleRefund`), webhook events `payment_intent.*`. What only a real
 * Stripe account shows: card confirmation and 3-D Secure in Stripe.js, other payment methods,
 * disputes, payouts, API version drift.
 */
export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled' | 'requires_capture' | 'processing';
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  last_payment_error: { message: string; type: string; code: string } | null;
  livemode: false;
  created: number;
}

export interface StripeStandIn {
  url: string;
  intents: Map<string, StandInIntent>;
  refunds: { id: string; payment_intent: string; amount: number; status: string }[];
  /** Requests seen, for assertions: method, path, form fields, headers. */
  requests: { method: string; path: string; form: Record<string, string>; idempotencyKey: string | undefined }[];
  /** The customer confirmed: the intent succeeded with its full amount. */
  succeed(id: string): StandInIntent;
  /** The card was declined: the intent waits for another method, with the error. */
  decline(id: string): StandInIntent;
  /** A signed webhook event about the intent as it is (or as changed by `override`). */
  event(type: string, intent: StandInIntent, secret: string, override?: Partial<StandInIntent>): { body: string; signature: string; id: string };
  /** Refuse every request with a 500 (an outage). */
  failing: boolean;
  /** New refunds answer `pending` (a bank that takes its time) until `settleRefund`. */
  refundsPending: boolean;
  /** The bank answered: a pending refund succeeds or fails. */
  settleRefund(id: string, status: 'succeeded' | 'failed'): void;
  close(): Promise<void>;
}

export function signStripe(body: string, secret: string, timestamp = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export async function startStripeStandIn(secretKey: string): Promise<StripeStandIn> {
  const intents = new Map<string, StandInIntent>();
  const refunds: StripeStandIn['refunds'] = [];
  const requests: StripeStandIn['requests'] = [];
  const answered = new Map<string, { status: number; body: string }>();
  const stand: Partial<StripeStandIn> = { intents, refunds, requests, failing: false, refundsPending: false };

  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
    res.end(text);
    return text;
  };
  const error = (res: http.ServerResponse, status: number, type: string, code: string, message: string) => send(res, status, { error: { type, code, message } });

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const form = Object.fromEntries(new URLSearchParams(raw));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? '', path: url.pathname, form, idempotencyKey });
      if (stand.failing) return error(res, 500, 'api_error', 'stand_in_down', 'The stand-in is down');
      if (req.headers.authorization !== `Bearer ${secretKey}`) return error(res, 401, 'invalid_request_error', 'api_key_invalid', 'Invalid API Key provided');
      if (req.method === 'POST' && idempotencyKey && answered.has(`${url.pathname}:${idempotencyKey}`)) {
        const first = answered.get(`${url.pathname}:${idempotencyKey}`)!;
        res.writeHead(first.status, { 'content-type': 'application/json', 'idempotent-replayed': 'true' });
        return res.end(first.body);
      }
      const remember = (status: number, body: unknown) => {
        const text = send(res, status, body);
        if (idempotencyKey) answered.set(`${url.pathname}:${idempotencyKey}`, { status, body: text });
      };
      if (req.method === 'POST' && url.pathname === '/v1/payment_intents') {
        const amount = Number(form.amount);
        if (!Number.isSafeInteger(amount) || amount < 1) return error(res, 400, 'invalid_request_error', 'parameter_invalid_integer', 'Invalid integer: amount');
        if (!/^[a-z]{3}$/.test(form.currency ?? '')) return error(res, 400, 'invalid_request_error', 'parameter_invalid', 'Invalid currency');
        const id = `pi_${randomBytes(12).toString('hex')}`;
        const metadata = Object.fromEntries(Object.entries(form).filter(([k]) => k.startsWith('metadata[')).map(([k, v]) => [k.slice(9, -1), v]));
        const intent: StandInIntent = {
          id, object: 'payment_intent', amount, amount_received: 0, currency: form.currency, status: 'requires_payment_method',
          client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`, description: form.description ?? null, metadata,
          last_payment_error: null, livemode: false, created: Math.floor(Date.now() / 1000),
        };
        intents.set(id, intent);
        return remember(200, intent);
      }
      const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && intentPath) {
        const intent = intents.get(intentPath[1]);
        return intent ? send(res, 200, intent) : error(res, 404, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${intentPath[1]}'`);
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const intent = intents.get(form.payment_intent ?? '');
        if (!intent) return error(res, 404, 'invalid_request_error', 'resource_missing', `No such payment_intent: '${form.payment_intent}'`);
        const amount = form.amount ? Number(form.amount) : intent.amount_received;
        const already = refunds.filter((r) => r.payment_intent === intent.id && r.status !== 'failed').reduce((n, r) => n + r.amount, 0);
        if (intent.status !== 'succeeded' || amount < 1 || already + amount > intent.amount_received) {
          return error(res, 400, 'invalid_request_error', 'amount_too_large', 'Refund amount is greater than the unrefunded amount');
        }
        const refund = { id: `re_${randomBytes(12).toString('hex')}`, object: 'refund', payment_intent: intent.id, amount, currency: intent.currency, status: stand.refundsPending ? 'pending' : 'succeeded' };
        refunds.push(refund);
        return remember(200, refund);
      }
      const refundPath = /^\/v1\/refunds\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && refundPath) {
        const refund = refunds.find((r) => r.id === refundPath[1]);
        return refund ? send(res, 200, refund) : error(res, 404, 'invalid_request_error', 'resource_missing', `No such refund: '${refundPath[1]}'`);
      }
      return error(res, 404, 'invalid_request_error', 'resource_missing', `Unrecognized request URL (${req.method} ${url.pathname})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(stand, {
    url: `http://127.0.0.1:${port}`,
    succeed(id: string) {
      const intent = intents.get(id)!;
      Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, last_payment_error: null });
      return intent;
    },
    settleRefund(id: string, status: 'succeeded' | 'failed') {
      const refund = refunds.find((r) => r.id === id)!;
      refund.status = status;
    },
    decline(id: string) {
      const intent = intents.get(id)!;
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { message: 'Your card was declined.', type: 'card_error', code: 'card_declined' } });
      return intent;
    },
    event(type: string, intent: StandInIntent, secret: string, override: Partial<StandInIntent> = {}) {
      const id = `evt_${randomBytes(12).toString('hex')}`;
      const body = JSON.stringify({
        id, object: 'event', api_version: '2025-01-01', created: Math.floor(Date.now() / 1000), livemode: false, pending_webhooks: 1,
        request: { id: null, idempotency_key: null }, type, data: { object: { ...intent, ...override } },
      });
      return { id, body, signature: signStripe(body, secret) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }) as StripeStandIn;
}
