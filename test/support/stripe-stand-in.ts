import http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { stripeJsSource, paymentFrameHtml } from './stripe-js-stand-in.js';

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
 * `succeed` and `decline`, or made in a browser through the Stripe.js stand-in below), refunds
 * (create, retrieve; a bank that answers later by `refundsPending` and `settleRefund`), webhook events
 * `payment_intent.*` (built by `event`, or sent by the stand-in itself to `webhooks.url` after a
 * browser's confirmation).
 *
 * The browser's side, as Stripe.js speaks it: with the publishable key (form field `key`) and the
 * client secret, `POST /v1/payment_methods` (a card, checked as Stripe checks it: Luhn, expiry, CVC)
 * and `POST /v1/payment_intents/{id}/confirm`, answered with CORS headers. Stripe's test cards decide
 * the outcome: 4000 0000 0000 0002 is declined (`card_declined`), 4000 0000 0000 9995 has insufficient
 * funds, any other valid number succeeds. `GET /v3/` serves a stand-in of Stripe.js itself (see
 * stripe-js-stand-in.ts), for a browser whose js.stripe.com and api.stripe.com are routed here.
 *
 * What only a real Stripe account shows: Stripe's own Payment Element and 3-D Secure, other payment
 * methods, Radar, disputes, payouts, webhook retries, API version drift.
 */
export interface StandInIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: 'requires_payment_method' | 'succeeded' | 'canceled' | 'requires_capture' | 'processing';
  client_secret: string;
  payment_method: string | null;
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
  /** Where the stand-in sends its own signed events (after a browser's confirmation), and what came of each. */
  webhooks: { url: string; secret: string } | null;
  deliveries: { type: string; intent: string; status: number }[];
  /** Cards the browser sent (number, last four) by payment method id: only ever here, never at the mall. */
  cards: Map<string, { number: string; last4: string }>;
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

/** Luhn's check digit rule, as card networks (and Stripe) check a number before anything else. */
function luhn(number: string): boolean {
  let sum = 0;
  for (let i = 0; i < number.length; i++) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Stripe's test cards that do not succeed, by number: the error's code and decline code. */
const DECLINES: Record<string, { code: string; decline_code: string; message: string }> = {
  '4000000000000002': { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  '4000000000009995': { code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' },
};

export async function startStripeStandIn(secretKey: string, options: { publishableKey?: string } = {}): Promise<StripeStandIn> {
  const publishableKey = options.publishableKey ?? 'pk_test_stand_in';
  const intents = new Map<string, StandInIntent>();
  const refunds: StripeStandIn['refunds'] = [];
  const requests: StripeStandIn['requests'] = [];
  const answered = new Map<string, { status: number; body: string }>();
  const cards = new Map<string, { number: string; last4: string }>();
  const stand: Partial<StripeStandIn> = { intents, refunds, requests, cards, failing: false, refundsPending: false, webhooks: null, deliveries: [] };

  // Stripe's API answers browsers too (Stripe.js calls it from js.stripe.com's frames).
  const CORS = { 'access-control-allow-origin': '*' };
  const send = (res: http.ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}`, ...CORS });
    res.end(text);
    return text;
  };
  const error = (res: http.ServerResponse, status: number, type: string, code: string, message: string, more: Record<string, unknown> = {}) =>
    send(res, status, { error: { type, code, message, ...more } });

  /** The stand-in's own event to the configured endpoint, signed as Stripe signs it; the answer's status is kept. */
  const deliver = (type: string, intent: StandInIntent) => {
    const target = stand.webhooks;
    if (!target) return;
    const event = stand.event!(type, intent, target.secret);
    void fetch(target.url, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, body: event.body })
      .then((answer) => stand.deliveries!.push({ type, intent: intent.id, status: answer.status }))
      .catch(() => stand.deliveries!.push({ type, intent: intent.id, status: 0 }));
  };

  /** `POST /v1/payment_methods` with the publishable key: a card checked as Stripe checks it. */
  const createCard = (res: http.ServerResponse, form: Record<string, string>) => {
    const number = (form['card[number]'] ?? '').replace(/\s/g, '');
    const month = Number(form['card[exp_month]']);
    const rawYear = Number(form['card[exp_year]']);
    const year = rawYear < 100 ? 2000 + rawYear : rawYear;
    const now = new Date();
    if (form.type !== 'card') return error(res, 400, 'invalid_request_error', 'parameter_invalid_empty', 'Missing required param: type.');
    if (!/^\d{12,19}$/.test(number) || !luhn(number)) return error(res, 402, 'card_error', 'incorrect_number', 'Your card number is incorrect.', { param: 'number' });
    if (!Number.isInteger(month) || month < 1 || month > 12) return error(res, 402, 'card_error', 'invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
    if (!Number.isInteger(year) || year < now.getUTCFullYear() || (year === now.getUTCFullYear() && month < now.getUTCMonth() + 1)) {
      return error(res, 402, 'card_error', 'invalid_expiry_year', "Your card's expiration year is in the past.", { param: 'exp_year' });
    }
    if (!/^\d{3,4}$/.test(form['card[cvc]'] ?? '')) return error(res, 402, 'card_error', 'invalid_cvc', "Your card's security code is invalid.", { param: 'cvc' });
    const id = `pm_${randomBytes(12).toString('hex')}`;
    cards.set(id, { number, last4: number.slice(-4) });
    return send(res, 200, { id, object: 'payment_method', type: 'card', card: { brand: number.startsWith('4') ? 'visa' : 'unknown', last4: number.slice(-4), exp_month: month, exp_year: year }, livemode: false });
  };

  /** `POST /v1/payment_intents/{id}/confirm`: the card's outcome, answered to the browser and sent as an event. */
  const confirm = (res: http.ServerResponse, intent: StandInIntent, form: Record<string, string>) => {
    if (intent.status !== 'requires_payment_method') {
      return error(res, 400, 'invalid_request_error', 'payment_intent_unexpected_state', `This PaymentIntent's status is ${intent.status}; it cannot be confirmed.`);
    }
    const card = cards.get(form.payment_method ?? '');
    if (!card) return error(res, 400, 'invalid_request_error', 'resource_missing', `No such PaymentMethod: '${form.payment_method}'`, { param: 'payment_method' });
    intent.payment_method = form.payment_method;
    const decline = DECLINES[card.number];
    if (decline) {
      Object.assign(intent, { status: 'requires_payment_method', last_payment_error: { message: decline.message, type: 'card_error', code: decline.code } });
      error(res, 402, 'card_error', decline.code, decline.message, { decline_code: decline.decline_code, payment_intent: intent });
      return deliver('payment_intent.payment_failed', intent);
    }
    Object.assign(intent, { status: 'succeeded', amount_received: intent.amount, last_payment_error: null });
    send(res, 200, intent);
    deliver('payment_intent.succeeded', intent);
  };

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stand-in');
      const form = Object.fromEntries(new URLSearchParams(raw));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? '', path: url.pathname, form, idempotencyKey });
      // Stripe.js itself and its card frame (js.stripe.com, routed here by the browser test).
      if (req.method === 'GET' && url.pathname === '/v3/') {
        res.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8', ...CORS });
        return res.end(stripeJsSource());
      }
      if (req.method === 'GET' && url.pathname === '/v3/elements-inner-payment.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        return res.end(paymentFrameHtml());
      }
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...CORS, 'access-control-allow-methods': 'GET, POST', 'access-control-allow-headers': 'content-type' });
        return res.end();
      }
      if (stand.failing) return error(res, 500, 'api_error', 'stand_in_down', 'The stand-in is down');
      const confirmPath = /^\/v1\/payment_intents\/([^/]+)\/confirm$/.exec(url.pathname);
      // The browser's two calls carry the publishable key, and a confirmation the intent's client secret.
      if (form.key !== undefined && req.method === 'POST' && (url.pathname === '/v1/payment_methods' || confirmPath)) {
        if (form.key !== publishableKey) return error(res, 401, 'invalid_request_error', 'api_key_invalid', `Invalid API Key provided: ${form.key.slice(0, 8)}...`);
        if (!confirmPath) return createCard(res, form);
        const intent = intents.get(confirmPath[1]);
        if (!intent || form.client_secret !== intent.client_secret) {
          return error(res, 400, 'invalid_request_error', 'payment_intent_invalid_parameter', 'The client_secret provided does not match the client_secret associated with the PaymentIntent.');
        }
        return confirm(res, intent, form);
      }
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
          client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`, payment_method: null, description: form.description ?? null, metadata,
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
