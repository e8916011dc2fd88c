import { generateKeyPairSync, createVerify, type KeyObject } from 'node:crypto';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import fc from 'fast-check';
import { ConfigError, loadConfig } from '../src/config.js';
import { queryPendingPayments } from '../src/services/payments/payment.service.js';
import { settlePaymentRefunds } from '../src/services/payments/payment-refunds.js';
import { AlipayProvider } from '../src/services/payments/alipay-provider.js';
import { fenOf, yuanOf } from '../src/services/payments/yuan.js';
import { openApiJson } from '../src/rest/openapi/document.js';
import type { TestApp } from './support/harness.js';
import { newAdmin, type TestUser } from './support/fixtures.js';
import { balanceOf, expectLedgerReplays } from './support/shopping.js';
import { approvedRefund, settleWhileDown, twoShopCheckout } from './support/payment-flows.js';
import type { TcpProxy } from './support/tcp-proxy.js';
import { startAlipayApp } from './support/alipay-front.js';
import { signContent, startAlipayStandIn, type AlipayStandIn } from './support/alipay-stand-in.js';

/**
 * Alipay through the official SDK against the stand-in (test/support/alipay-stand-in.ts). Every key
 * is made here: the app's pair (its private key is ALIPAY_PRIVATE_KEY, the stand-in checks requests
 * with the public one) and Alipay's pair (the stand-in signs with the private one, ALIPAY_PUBLIC_KEY is
 * the public one). Alipay reaches the server at PUBLIC_URL: here a proxy on a port chosen first, in
 * front of the test server, as a reverse proxy is in front of a real one.
 */
const APP_ID = '2021000000000001';
const keys = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const app = keys();
const alipayKeys = keys();
const stranger = keys();
const pem = (key: KeyObject, type: 'pkcs1' | 'pkcs8' | 'spki') => key.export({ format: 'pem', type } as never) as unknown as string;

describe('yuan text, converted exactly', () => {
  it('writes fen as Alipay yuan text, edge values included', () => {
    expect([0, 1, 10, 99, 100, 101, 1234, 999_999_999, 10_000_000_000].map(yuanOf)).toEqual(['0.00', '0.01', '0.10', '0.99', '1.00', '1.01', '12.34', '9999999.99', '100000000.00']);
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) expect(() => yuanOf(bad)).toThrow(RangeError);
  });

  it('reads yuan text back to fen without floats, and nothing that is not an amount', () => {
    expect(['0.01', '0.1', '0.10', '1', '1.00', '12.34', '0.07', '9999999.99', '100000000.00'].map(fenOf)).toEqual([1, 10, 10, 100, 100, 1234, 7, 999_999_999, 10_000_000_000]);
    for (const bad of ['', '1.234', '-1', '1e3', ' 1', '01.00', '.5', '1.', '1,00', 'NaN', '12.3.4']) expect(fenOf(bad)).toBeNull();
  });

  it('round-trips every amount', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999_999_999 }), (fen) => fenOf(yuanOf(fen)) === fen));
  });
});

describe('alipay settings', () => {
  const base = { NODE_ENV: 'test', PAYMENT_METHODS: 'wallet,alipay', ALIPAY_APP_ID: APP_ID, ALIPAY_PRIVATE_KEY: pem(app.privateKey, 'pkcs1'), ALIPAY_PUBLIC_KEY: pem(alipayKeys.publicKey, 'spki'), PUBLIC_URL: 'https://mall.example' };

  it('is offered when configured (and by default once ALIPAY_APP_ID is set), with the real gateway unless told', async () => {
    const listed = loadConfig(base).payments;
    expect(listed.methods).toEqual(['wallet', 'alipay']);
    expect(listed.alipay).toMatchObject({ appId: APP_ID, keyType: 'PKCS1', gatewayUrl: 'https://openapi.alipay.com/gateway.do', publicUrl: 'https://mall.example', timeoutMinutes: 30 });
    expect(loadConfig({ ...base, PAYMENT_METHODS: undefined }).payments.methods).toEqual(['wallet', 'sandbox', 'alipay']);
    expect(loadConfig({ ...base, PAYMENT_METHODS: undefined, ALIPAY_APP_ID: undefined }).payments.methods).not.toContain('alipay');
    // The base64 Alipay's key tool writes (PKCS#8 private, SPKI public), on one line.
    const bare = (text: string) => text.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');
    const fromTool = loadConfig({ ...base, ALIPAY_PRIVATE_KEY: bare(pem(app.privateKey, 'pkcs8')), ALIPAY_PUBLIC_KEY: bare(pem(alipayKeys.publicKey, 'spki')) }).payments.alipay;
    expect(fromTool?.keyType).toBe('PKCS8');
    // And the SDK signs with it: the cashier URL verifies with the app's public key.
    const { nextStep } = await new AlipayProvider(fromTool!).create({ paymentId: 7, amount: 1, currency: 'CNY', description: 'one fen' });
    const params = Object.fromEntries(new URL((nextStep as { url: string }).url).searchParams);
    expect(JSON.parse(params.biz_content)).toMatchObject({ total_amount: '0.01' });
    expect(createVerify('RSA-SHA256').update(signContent(params, ['sign'])).verify(app.publicKey, params.sign, 'base64')).toBe(true);
  });

  it('refuses to start without its settings or with keys that are not keys, naming the variable', () => {
    expect(() => loadConfig({ ...base, ALIPAY_PRIVATE_KEY: undefined, PUBLIC_URL: '' })).toThrow(/set ALIPAY_PRIVATE_KEY, PUBLIC_URL/);
    expect(() => loadConfig({ ...base, ALIPAY_PRIVATE_KEY: 'not a key' })).toThrow(/ALIPAY_PRIVATE_KEY must be/);
    expect(() => loadConfig({ ...base, ALIPAY_PUBLIC_KEY: 'MIIB' })).toThrow(/ALIPAY_PUBLIC_KEY must be/);
    expect(() => loadConfig({ ...base, ALIPAY_APP_ID: 'app' })).toThrow(/ALIPAY_APP_ID/);
    expect(() => loadConfig({ ...base, ALIPAY_GATEWAY_URL: 'https://openapi.alipay.com/' })).toThrow(/ALIPAY_GATEWAY_URL/);
    expect(() => loadConfig({ ...base, PUBLIC_URL: 'mall.example' })).toThrow(ConfigError);
  });
});

let t: TestApp;
let alipay: AlipayStandIn;
let front: TcpProxy;
let publicUrl: string;

beforeAll(async () => {
  alipay = await startAlipayStandIn({ appId: APP_ID, appPublicKey: app.publicKey, alipayPrivateKey: alipayKeys.privateKey });
  ({ t, front, publicUrl } = await startAlipayApp({ appId: APP_ID, appPrivateKey: app.privateKey, alipayPublicKey: alipayKeys.publicKey, gatewayUrl: alipay.url }));
});
afterAll(async () => {
  await front?.stop();
  await t?.close();
  await alipay?.close();
});

const checkout = () => twoShopCheckout(t);

interface StartedPayment {
  id: number;
  status: string;
  provider_reference: string;
  next_step: { type: string; url: string };
}

/** Starts an Alipay payment over REST, and the customer's browser opens the cashier (the trade exists at Alipay from then on). */
async function startAlipay(customer: TestUser, orderIds: number[], open = true): Promise<StartedPayment> {
  const res = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'alipay' } });
  expect(res.status).toBe(201);
  const payment = res.body as StartedPayment;
  if (open) expect((await alipay.open(payment.next_step.url)).status).toBe(200);
  return payment;
}

/** Alipay pays the trade and notifies: the answer the server gave Alipay. */
async function paidAndNotified(payment: StartedPayment) {
  alipay.pay(payment.provider_reference);
  const { body } = alipay.notification(payment.provider_reference);
  return { body, answer: await alipay.deliver(payment.provider_reference, body) };
}

const paymentStatus = async (id: number) => (await t.sql<{ status: string }>('select status from payment where id = ?', [id]))[0].status;
const orderStatuses = async (ids: number[]) => (await t.sql<{ status: string }>('select status from shop_order where id = any(?::int[]) order by id', [`{${ids.join(',')}}`])).map((r) => r.status);
/** Alipay's clearing account: the sum of its rows (CLEARING_SLOTS). */
const clearing = async () => Number((await t.sql(`select sum(amount) as amount from balance where kind = 'clearing_alipay'`))[0].amount);
const outcomes = async (paymentId: number) => (await t.sql<{ outcome: string }>('select outcome from payment_event where payment_id = ? order by id', [paymentId])).map((r) => r.outcome);
/** Posts a notification body as Alipay does, without a trade behind it. */
const post = async (body: string) => {
  const res = await fetch(`${publicUrl}/api/payments/notifications/alipay`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body });
  const text = await res.text();
  return { status: res.status, text, json: res.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(text) as { error: { code: string } }) : null };
};

describe('alipay', () => {
  it('a new customer with no balance pays: a signed page-pay URL to the gateway, one capture from the verified notification, `success` answered', async () => {
    expect((await t.api('GET', '/api/payments/methods')).body).toEqual({ methods: ['wallet', 'alipay'] });
    expect((await t.gql('{ paymentMethods }')).data.paymentMethods).toEqual(['WALLET', 'ALIPAY']);
    const before = await clearing();
    const { customer, orderIds, total } = await checkout();
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    const payment = await startAlipay(customer, orderIds, false);
    expect(payment).toMatchObject({ status: 'pending', next_step: { type: 'redirect' } });
    expect(payment.provider_reference).toMatch(new RegExp(`^mallfront_${payment.id}_[0-9a-f]{8}$`));

    // The URL the SDK built: Alipay's gateway, the page-pay method, our notify and return addresses, and a signature over the rest.
    const url = new URL(payment.next_step.url);
    expect(`${url.origin}${url.pathname}`).toBe(alipay.url);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ method: 'alipay.trade.page.pay', app_id: APP_ID, sign_type: 'RSA2', charset: 'utf-8', version: '1.0', notify_url: `${publicUrl}/api/payments/notifications/alipay`, return_url: `${publicUrl}/checkout/payment/${payment.id}` });
    expect(JSON.parse(params.biz_content)).toMatchObject({ out_trade_no: payment.provider_reference, total_amount: yuanOf(total), product_code: 'FAST_INSTANT_TRADE_PAY', timeout_express: '30m' });
    expect(createVerify('RSA-SHA256').update(signContent(params, ['sign'])).verify(app.publicKey, params.sign, 'base64')).toBe(true);
    // Tampered with (another amount), the gateway refuses the page.
    const cheaper = new URL(url);
    cheaper.searchParams.set('biz_content', params.biz_content.replace(`"total_amount":"${yuanOf(total)}"`, '"total_amount":"0.01"'));
    expect((await alipay.open(cheaper.toString())).status).toBe(400);
    expect((await alipay.open(url.toString())).status).toBe(200);

    const { body, answer } = await paidAndNotified(payment);
    expect(answer).toEqual({ status: 200, text: 'success', contentType: 'text/plain; charset=utf-8' });
    expect(await paymentStatus(payment.id)).toBe('captured');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
    expect(await clearing()).toBe(before - total);
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    // Alipay resends (our answer was lost): `success` again, nothing more.
    expect((await alipay.deliver(payment.provider_reference, body)).text).toBe('success');
    expect(await clearing()).toBe(before - total);
    const events = await t.api('GET', `/api/payments/${payment.id}/events`, { token: customer.token });
    expect(events.body.items.map((e: { outcome: string; verified: boolean; status: string; amount: number }) => [e.outcome, e.verified, e.status, e.amount])).toEqual([
      ['captured', true, 'captured', total],
      ['duplicate', true, 'captured', total],
    ]);
    expect(events.body.items[0].raw).toBe(body);
    await expectLedgerReplays(t);
  });

  it('over GraphQL: a phone gets the mobile-web pay URL, and reads the payment captured', async () => {
    const { customer, orderIds, total } = await checkout();
    const started = await t.gql(
      'mutation($input: StartPaymentInput!) { startPayment(input: $input) { payment { id status providerReference nextStep { type url } } errors { code } } }',
      { input: { orderIds, method: 'ALIPAY', device: 'MOBILE' } },
      customer.token,
    );
    const payment = started.data.startPayment.payment;
    expect(payment).toMatchObject({ status: 'PENDING', nextStep: { type: 'redirect' } });
    const params = Object.fromEntries(new URL(payment.nextStep.url).searchParams);
    expect(params.method).toBe('alipay.trade.wap.pay');
    expect(JSON.parse(params.biz_content)).toMatchObject({ product_code: 'QUICK_WAP_WAY', total_amount: yuanOf(total), quit_url: `${publicUrl}/checkout/payment/${payment.id}` });
    expect((await alipay.open(payment.nextStep.url)).status).toBe(200);
    expect(alipay.trades.get(payment.providerReference)?.method).toBe('alipay.trade.wap.pay');
    const { answer } = await paidAndNotified({ id: payment.id, status: 'pending', provider_reference: payment.providerReference, next_step: payment.nextStep });
    expect(answer.text).toBe('success');
    const read = await t.gql('query($id: Int!) { payment(id: $id) { status capturedAmount orderIds } }', { id: payment.id }, customer.token);
    expect(read.data.payment).toEqual({ status: 'CAPTURED', capturedAmount: total, orderIds });
    // Not offered for another device value.
    const bad = await t.api('POST', '/api/payments', { token: customer.token, body: { order_ids: orderIds, method: 'alipay', device: 'watch' } });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('a start retried with its Idempotency-Key answers the same trade and signed URL; the same key for a phone is another request', async () => {
    const { customer, orderIds } = await checkout();
    const start = (device?: string) => t.api('POST', '/api/payments', { token: customer.token, headers: { 'Idempotency-Key': `alipay-${customer.id}` }, body: { order_ids: orderIds, method: 'alipay', ...(device ? { device } : {}) } });
    const first = await start();
    const again = await start('desktop');
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect((await t.sql('select count(*)::int as n from payment p join payment_order po on po.payment_id = p.id where po.order_id = ?', [orderIds[0]]))[0].n).toBe(1);
    const mobile = await start('mobile');
    expect([mobile.status, mobile.body.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
  });

  it('refuses a forged signature, a tampered form, a missing sign and another app: 400, recorded unverified, nothing paid', async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startAlipay(customer, orderIds);
    alipay.pay(payment.provider_reference);
    const genuine = alipay.notification(payment.provider_reference);
    const forged = alipay.notification(payment.provider_reference, {}, stranger.privateKey).body;
    const tampered = genuine.body.replace(`total_amount=${genuine.fields.total_amount}`, 'total_amount=0.01');
    const unsigned = new URLSearchParams(Object.entries(genuine.fields).filter(([k]) => k !== 'sign')).toString();
    const before = Number((await t.sql(`select count(*)::int as n from payment_event where provider = 'alipay' and verified = false and outcome = 'signature_invalid'`))[0].n);
    for (const body of [forged, tampered, unsigned, '', 'sign=%%%']) {
      const res = await post(body);
      expect([res.status, res.json?.error.code]).toEqual([400, 'NOTIFICATION_REJECTED']);
    }
    const after = Number((await t.sql(`select count(*)::int as n from payment_event where provider = 'alipay' and verified = false and outcome = 'signature_invalid'`))[0].n);
    expect(after - before).toBe(5);
    // Signed by Alipay, but for another app of the same merchant.
    const otherApp = await post(alipay.notification(payment.provider_reference, { app_id: '2021000000000999' }).body);
    expect([otherApp.status, otherApp.json?.error.code]).toEqual([400, 'NOTIFICATION_REJECTED']);
    expect((await t.sql(`select verified, outcome from payment_event where provider = 'alipay' order by id desc limit 1`))[0]).toEqual({ verified: false, outcome: 'wrong_app' });
    expect(await paymentStatus(payment.id)).toBe('pending');
    expect(await orderStatuses(orderIds)).toEqual(['pending_payment', 'pending_payment']);
    expect(await outcomes(payment.id)).toEqual([]);
  });

  it('records and refuses a wrong amount or currency, records an unknown trade: `success` (Alipay would resend it unchanged), nothing paid', async () => {
    const { customer, orderIds, total } = await checkout();
    const payment = await startAlipay(customer, orderIds);
    alipay.pay(payment.provider_reference);
    for (const override of [{ total_amount: yuanOf(total - 1) }, { total_amount: yuanOf(total + 100) }, { trans_currency: 'USD' }]) {
      expect((await alipay.deliver(payment.provider_reference, alipay.notification(payment.provider_reference, override).body)).text).toBe('success');
    }
    expect(await outcomes(payment.id)).toEqual(['amount_mismatch', 'amount_mismatch', 'amount_mismatch']);
    expect(await paymentStatus(payment.id)).toBe('pending');
    const unknown = await post(alipay.notification(payment.provider_reference, { out_trade_no: 'mallfront_999999_00000000' }).body);
    expect([unknown.status, unknown.text]).toEqual([200, 'success']);
    expect((await t.sql(`select payment_id, verified, outcome from payment_event where provider = 'alipay' order by id desc limit 1`))[0]).toEqual({ payment_id: null, verified: true, outcome: 'unknown_payment' });
    expect(await orderStatuses(orderIds)).toEqual(['pending_payment', 'pending_payment']);
    // The right one still captures.
    expect((await paidAndNotified(payment)).answer.text).toBe('success');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
  });

  it('WAIT_BUYER_PAY changes nothing, TRADE_CLOSED after TRADE_SUCCESS is ignored, TRADE_CLOSED of an unpaid trade cancels it', async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startAlipay(customer, orderIds);
    const waiting = alipay.notification(payment.provider_reference);
    expect(waiting.fields.trade_status).toBe('WAIT_BUYER_PAY');
    expect((await alipay.deliver(payment.provider_reference, waiting.body)).text).toBe('success');
    const { answer } = await paidAndNotified(payment);
    expect(answer.text).toBe('success');
    const closed = alipay.notification(payment.provider_reference, { trade_status: 'TRADE_CLOSED' });
    expect((await alipay.deliver(payment.provider_reference, closed.body)).text).toBe('success');
    const finished = alipay.notification(payment.provider_reference, { trade_status: 'TRADE_FINISHED' });
    expect((await alipay.deliver(payment.provider_reference, finished.body)).text).toBe('success');
    expect(await outcomes(payment.id)).toEqual(['still_pending', 'captured', 'ignored_after_capture', 'duplicate']);
    expect(await paymentStatus(payment.id)).toBe('captured');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);

    const other = await checkout();
    const unpaid = await startAlipay(other.customer, other.orderIds);
    alipay.closeTrade(unpaid.provider_reference);
    expect((await alipay.deliver(unpaid.provider_reference, alipay.notification(unpaid.provider_reference).body)).text).toBe('success');
    expect(await paymentStatus(unpaid.id)).toBe('cancelled');
    expect(await orderStatuses(other.orderIds)).toEqual(['pending_payment', 'pending_payment']);
    await expectLedgerReplays(t);
  });

  it('the same notification delivered 20 times at once pays once', async () => {
    const before = await clearing();
    const { customer, orderIds, total } = await checkout();
    const payment = await startAlipay(customer, orderIds);
    alipay.pay(payment.provider_reference);
    const { body } = alipay.notification(payment.provider_reference);
    const answers = await Promise.all(Array.from({ length: 20 }, () => alipay.deliver(payment.provider_reference, body)));
    expect(answers.map((a) => `${a.status} ${a.text}`)).toEqual(Array.from({ length: 20 }, () => '200 success'));
    const seen = await outcomes(payment.id);
    expect(seen.filter((o) => o === 'captured')).toHaveLength(1);
    expect(seen.filter((o) => o === 'duplicate')).toHaveLength(19);
    expect(await clearing()).toBe(before - total);
    const [captures] = await t.sql(`select count(*)::int as n from ledger_entry l join balance b on b.id = l.balance_id where b.kind = 'clearing_alipay' and l.reason = 'payment_capture' and l.reference_type = 'payment' and l.reference_id = ?`, [payment.id]);
    expect(captures.n).toBe(1);
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
    await expectLedgerReplays(t);
  });

  it('the sweep asks alipay.trade.query when the notification never came; a trade not yet at the cashier stays pending; a forged answer is not believed', async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startAlipay(customer, orderIds, false);
    await t.sql(`update payment set created_at = now() - interval '10 minutes' where id = ?`, [payment.id]);
    // The customer has not reached the cashier: Alipay knows no such trade yet.
    await queryPendingPayments(await t.context());
    expect(await paymentStatus(payment.id)).toBe('pending');
    expect(await outcomes(payment.id)).toEqual(['still_pending']);
    expect((await alipay.open(payment.next_step.url)).status).toBe(200);
    alipay.pay(payment.provider_reference);
    // An answer not signed with Alipay's key (a man in the middle): the SDK refuses it, nothing moves.
    alipay.answerKey = stranger.privateKey;
    try {
      await queryPendingPayments(await t.context());
    } finally {
      alipay.answerKey = null;
    }
    expect(await paymentStatus(payment.id)).toBe('pending');
    await queryPendingPayments(await t.context());
    expect(await paymentStatus(payment.id)).toBe('captured');
    expect(await orderStatuses(orderIds)).toEqual(['paid', 'paid']);
    const queries = alipay.requests.filter((r) => r.method === 'alipay.trade.query' && r.biz.out_trade_no === payment.provider_reference);
    expect(queries).toHaveLength(3);
    expect(queries.every((r) => r.signatureValid)).toBe(true);
    expect(await outcomes(payment.id)).toEqual(['still_pending', 'captured']);
    // The notification comes after all: nothing more.
    expect((await alipay.deliver(payment.provider_reference, alipay.notification(payment.provider_reference).body)).text).toBe('success');
    expect(await outcomes(payment.id)).toEqual(['still_pending', 'captured', 'duplicate']);
    await expectLedgerReplays(t);
  });

  it('approved refunds go back through alipay.trade.refund, several and partial, one refund per key however often asked; more than is left is refused and comes back to the balance', async () => {
    const { customer, orderIds, shopIds, total } = await checkout();
    const payment = await startAlipay(customer, orderIds);
    expect((await paidAndNotified(payment)).answer.text).toBe('success');
    const first = await approvedRefund(t, customer, orderIds[0], shopIds[0]);
    const second = await approvedRefund(t, customer, orderIds[1], shopIds[1]);
    // Alipay is down at first: asked again at the next sweep.
    await settleWhileDown(t, alipay);
    expect((await t.sql('select status, attempts from payment_refund where refund_id = ?', [first.refundId]))[0]).toEqual({ status: 'pending', attempts: 1 });
    expect(await settlePaymentRefunds(await t.context())).toBe(2);
    const trade = alipay.trades.get(payment.provider_reference)!;
    const rows = await t.sql<{ id: number; status: string; provider_reference: string }>('select id, status, provider_reference from payment_refund where payment_id = ? order by id', [payment.id]);
    expect(rows.map((r) => r.status)).toEqual(['succeeded', 'succeeded']);
    expect([...trade.refunds.entries()]).toEqual([[`mallfront-refund-${rows[0].id}`, first.amount], [`mallfront-refund-${rows[1].id}`, second.amount]]);
    expect(rows.map((r) => r.provider_reference)).toEqual([`mallfront-refund-${rows[0].id}`, `mallfront-refund-${rows[1].id}`]);
    const refundCalls = alipay.requests.filter((r) => r.method === 'alipay.trade.refund' && r.biz.out_trade_no === payment.provider_reference);
    expect(refundCalls.map((r) => r.biz.refund_amount)).toEqual([yuanOf(first.amount), yuanOf(second.amount)]);

    // The same key asked again (an answer lost on the way back): Alipay answers fund_change N, its refund query confirms, nothing is refunded twice.
    const provider = t.deps.wiring.paymentProviders.alipay as AlipayProvider;
    expect(await provider.refund(payment.provider_reference, first.amount, `mallfront-refund-${rows[0].id}`)).toEqual({ reference: `mallfront-refund-${rows[0].id}`, status: 'succeeded' });
    expect(alipay.requests.at(-1)?.method).toBe('alipay.trade.fastpay.refund.query');
    expect([...trade.refunds.values()].reduce((n, a) => n + a, 0)).toBe(first.amount + second.amount);
    // Another amount under a used key, and more than is left: refused, final.
    expect((await provider.refund(payment.provider_reference, first.amount + 1, `mallfront-refund-${rows[0].id}`)).status).toBe('failed');
    expect((await provider.refund(payment.provider_reference, total, 'mallfront-refund-test-too-much')).status).toBe('failed');
    // Alipay's partial-refund notification: still captured, `success`.
    expect((await alipay.deliver(payment.provider_reference, alipay.notification(payment.provider_reference).body)).text).toBe('success');
    expect(await paymentStatus(payment.id)).toBe('captured');

    // Alipay refuses the third (here: the trade was refunded elsewhere down to what we already took back): the money comes back to the balance.
    trade.refunds.set('elsewhere', total - first.amount - second.amount);
    const third = await approvedRefund(t, customer, orderIds[1], shopIds[1]);
    await settlePaymentRefunds(await t.context());
    expect((await t.sql('select status from payment_refund where refund_id = ?', [third.refundId]))[0].status).toBe('failed');
    expect(await balanceOf(t, customer.id, 'available')).toBe(third.amount);
    expect((await t.sql('select refunded_amount from payment where id = ?', [payment.id]))[0].refunded_amount).toBe(first.amount + second.amount);
    await expectLedgerReplays(t);
  });

  it('late money: a capture after the customer cancelled one order pays the other, and the cancelled one goes back through trade.refund', async () => {
    const { customer, orderIds, total } = await checkout();
    const payment = await startAlipay(customer, orderIds);
    expect((await t.api('POST', `/api/orders/${orderIds[0]}/cancel`, { token: customer.token })).status).toBe(200);
    const [cancelledTotal] = (await t.sql<{ total: number }>('select total from shop_order where id = ?', [orderIds[0]])).map((r) => r.total);
    expect((await paidAndNotified(payment)).answer.text).toBe('success');
    expect(await outcomes(payment.id)).toEqual(['captured_orders_not_payable']);
    expect(await orderStatuses(orderIds)).toEqual(['cancelled', 'paid']);
    await settlePaymentRefunds(await t.context());
    const [refund] = await t.sql<{ id: number; status: string; amount: number }>('select id, status, amount from payment_refund where payment_id = ?', [payment.id]);
    expect(refund).toMatchObject({ status: 'succeeded', amount: cancelledTotal });
    expect([...alipay.trades.get(payment.provider_reference)!.refunds.entries()]).toEqual([[`mallfront-refund-${refund.id}`, cancelledTotal]]);
    expect(await balanceOf(t, customer.id, 'available')).toBe(0);
    expect(cancelledTotal).toBeLessThan(total);
    await expectLedgerReplays(t);
  });

  it('refuses a form body above BODY_LIMIT_BYTES with 413 in the error shape, recording nothing', async () => {
    const before = Number((await t.sql(`select count(*)::int as n from payment_event where provider = 'alipay'`))[0].n);
    const res = await post(`sign=x&subject=${'a'.repeat(t.config.bodyLimitBytes)}`);
    expect([res.status, res.json?.error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(Number((await t.sql(`select count(*)::int as n from payment_event where provider = 'alipay'`))[0].n)).toBe(before);
  });

  it('takes CNY only: a payment in another currency is refused by the provider with a clear message', async () => {
    const provider = t.deps.wiring.paymentProviders.alipay as AlipayProvider;
    await expect(provider.create({ paymentId: 1, amount: 100, currency: 'USD', description: 'x' })).rejects.toThrow(/Alipay takes CNY only; payment 1 is in USD/);
  });

  it("lets an admin look a payment up by Alipay's out_trade_no; the document states the form body and the `success` answer", async () => {
    const { customer, orderIds } = await checkout();
    const payment = await startAlipay(customer, orderIds, false);
    const admin = await newAdmin(t);
    expect((await t.api('GET', `/api/admin/payments/by-reference?method=alipay&provider_reference=${payment.provider_reference}`, { token: admin.token })).body.id).toBe(payment.id);
    const gql = await t.gql('query($r: String!) { paymentByReference(method: ALIPAY, providerReference: $r) { id } }', { r: payment.provider_reference }, admin.token);
    expect(gql.data.paymentByReference).toEqual({ id: payment.id });
    const operation = JSON.parse(openApiJson()).paths['/api/payments/notifications/{method}'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(operation.responses['200'].content['text/plain'].schema).toEqual({ $ref: '#/components/schemas/NotificationAcknowledgement' });
    expect(JSON.parse(openApiJson()).components.schemas.NotificationAcknowledgement).toMatchObject({ const: 'success' });
  });
});
