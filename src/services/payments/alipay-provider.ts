import { randomBytes } from 'node:crypto';
import { AlipaySdk, type AlipaySdkCommonResult } from 'alipay-sdk';
import type { AlipayConfig } from '../../config.js';
import { BalanceKind } from '../../entities/balance.entity.js';
import { NotificationRejected, type IncomingNotification, type PaymentProvider, type ProviderAnswer, type ProviderPayment, type ProviderStatus, type RefundAnswer } from './provider.js';
import { fenOf, yuanOf } from './yuan.js';

/**
 * Alipay through its official SDK (`alipay-sdk`, the OpenAPI v2 gateway `gateway.do`, public-key mode
 * with RSA2). The customer is sent to Alipay's cashier by a URL the SDK signs (`pageExecute`): page pay
 * (`alipay.trade.page.pay`) on a desktop, mobile-web pay (`alipay.trade.wap.pay`) on a phone. Alipay
 * then posts a signed form to `notify_url`, checked by the SDK's `checkNotifySignV2` against Alipay's
 * public key, and reads the plain word `success` as "received". The sweep asks `alipay.trade.query`;
 * refunds are `alipay.trade.refund` with `out_request_no` as the key, both through the SDK's `exec`,
 * whose answers the SDK checks against the same key. Alipay takes yuan text ("12.34") and CNY only.
 *
 * The reference is our `out_trade_no`: Alipay's own `trade_no` exists only once the customer reached
 * its cashier, and every call and notification names the trade by ours too.
 */
export class AlipayProvider implements PaymentProvider {
  readonly method = 'alipay' as const;
  readonly clearing = BalanceKind.AlipayClearing;
  readonly notificationAnswer = 'success';
  private readonly sdk: AlipaySdk;

  constructor(private readonly settings: AlipayConfig) {
    this.sdk = new AlipaySdk({
      appId: settings.appId,
      // Trimmed: the SDK rebuilds the PEM from its lines and keeps an END line that a trailing newline hides.
      privateKey: settings.privateKey.trim(),
      keyType: settings.keyType,
      alipayPublicKey: settings.alipayPublicKey.trim(),
      gateway: settings.gatewayUrl,
      signType: 'RSA2',
      timeout: 10_000,
      // Alipay's own field names (`trade_status`, `total_amount`), as its documentation and notifications spell them.
      camelcase: false,
    });
  }

  create(payment: ProviderPayment) {
    if (payment.currency !== 'CNY') return Promise.reject(new Error(`Alipay takes CNY only; payment ${payment.paymentId} is in ${payment.currency}`));
    // Unique per app for ever, across databases (a development reset starts ids again): a random tail.
    const reference = `mallfront_${payment.paymentId}_${randomBytes(4).toString('hex')}`;
    const mobile = payment.device === 'mobile';
    // The storefront's waiting page for the payment (web/src/app/router.tsx `checkout/payment/:id`): it only
    // shows "checking" until a notification or a query decides. A browser test follows it back.
    const returnUrl = `${this.settings.publicUrl}/checkout/payment/${payment.paymentId}`;
    const url = this.sdk.pageExecute(mobile ? 'alipay.trade.wap.pay' : 'alipay.trade.page.pay', 'GET', {
      notifyUrl: `${this.settings.publicUrl}/api/payments/notifications/alipay`,
      returnUrl,
      bizContent: {
        out_trade_no: reference,
        total_amount: yuanOf(payment.amount),
        subject: payment.description.slice(0, 256),
        product_code: mobile ? 'QUICK_WAP_WAY' : 'FAST_INSTANT_TRADE_PAY',
        // Alipay closes the trade unpaid after the payment window; a payment made after ours closed is late money.
        timeout_express: `${this.settings.timeoutMinutes}m`,
        ...(mobile ? { quit_url: returnUrl } : {}),
      },
    });
    return Promise.resolve({ reference, nextStep: { type: 'redirect' as const, url } });
  }

  verifyNotification(notification: IncomingNotification): Promise<ProviderAnswer> {
    const params: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(notification.rawBody)) {
      if (key in params) return Promise.reject(new NotificationRejected(`the form repeats ${key}`));
      params[key] = value;
    }
    // The form is already decoded: the V2 check signs the values as they are, not decoded once more.
    if (!params.sign || !this.checkSign(params)) return Promise.reject(new NotificationRejected('missing sign, or it does not verify against ALIPAY_PUBLIC_KEY'));
    if (params.app_id !== this.settings.appId) return Promise.reject(new NotificationRejected(`addressed to app ${params.app_id ?? '(none)'}, not ${this.settings.appId}`, 'wrong_app'));
    return Promise.resolve(answerOf(params, notification.rawBody, params.notify_id ?? null));
  }

  async query(reference: string): Promise<ProviderAnswer> {
    const answer = await this.sdk.exec('alipay.trade.query', { bizContent: { out_trade_no: reference } }, { validateSign: true });
    const raw = JSON.stringify(answer);
    // A page-pay trade exists at Alipay only once the customer reached its cashier: until then, pending.
    if (answer.code === '40004' && answer.sub_code === 'ACQ.TRADE_NOT_EXIST') return { reference, status: 'pending', amount: null, currency: null, eventId: null, raw };
    if (answer.code !== '10000') throw refusal('alipay.trade.query', answer);
    return answerOf(answer, raw, null);
  }

  async refund(reference: string, amount: number, key: string): Promise<RefundAnswer> {
    const answer = await this.sdk.exec(
      'alipay.trade.refund',
      { bizContent: { out_trade_no: reference, refund_amount: yuanOf(amount), out_request_no: key } },
      { validateSign: true },
    );
    if (answer.code === '10000') {
      // `fund_change: N` is Alipay's answer to a repeated `out_request_no` too: whether that refund went
      // through is asked (its refund query), and until it says so the refund stays pending.
      if (answer.fund_change === 'Y') return { reference: key, status: 'succeeded' };
      return { reference: key, status: (await this.refunded(reference, key)) ? 'succeeded' : 'pending' };
    }
    // A business refusal is final (more than is left, a trade not paid or unknown, another amount under the
    // same key); Alipay's own trouble and a seller account short of funds are asked again next sweep.
    if (answer.code === '40004' && !RETRY_REFUND.has(String(answer.sub_code))) return { reference: key, status: 'failed' };
    throw refusal('alipay.trade.refund', answer);
  }

  async refundStatus(reference: string, refundReference: string): Promise<RefundAnswer> {
    return { reference: refundReference, status: (await this.refunded(reference, refundReference)) ? 'succeeded' : 'pending' };
  }

  /** Alipay's refund query: whether the refund `key` of the trade was made. */
  private async refunded(reference: string, key: string): Promise<boolean> {
    const answer = await this.sdk.exec('alipay.trade.fastpay.refund.query', { bizContent: { out_trade_no: reference, out_request_no: key } }, { validateSign: true });
    if (answer.code !== '10000') throw refusal('alipay.trade.fastpay.refund.query', answer);
    // Documented: an answer with the refund's amount and no status, or REFUND_SUCCESS, is a refund made.
    return Boolean(answer.refund_amount) && (answer.refund_status === undefined || answer.refund_status === 'REFUND_SUCCESS');
  }

  private checkSign(params: Record<string, string>): boolean {
    try {
      return this.sdk.checkNotifySignV2(params);
    } catch {
      return false;
    }
  }
}

/** Alipay's refusals worth asking again (its documentation: retry with the same `out_request_no`). */
const RETRY_REFUND = new Set(['ACQ.SYSTEM_ERROR', 'ACQ.SELLER_BALANCE_NOT_ENOUGH']);

function refusal(method: string, answer: AlipaySdkCommonResult): Error {
  return new Error(`Alipay refused ${method}: ${answer.code} ${answer.msg}${answer.sub_code ? ` (${answer.sub_code}: ${answer.sub_msg ?? ''})` : ''}`);
}

/** A trade's state in the module's words. */
function statusOf(tradeStatus: string | undefined): ProviderStatus {
  switch (tradeStatus) {
    case 'TRADE_SUCCESS': // paid, still refundable
    case 'TRADE_FINISHED': // paid, and past refunds (or never refundable)
      return 'captured';
    case 'TRADE_CLOSED': // closed unpaid (timed out), or fully refunded after a capture (then ignored)
      return 'cancelled';
    default: // WAIT_BUYER_PAY, or a notification about something other than the trade's status
      return 'pending';
  }
}

/** A notification's form or a query's answer, read (both spell the trade the same way). */
function answerOf(fields: Record<string, string>, raw: string, eventId: string | null): ProviderAnswer {
  const reference = fields.out_trade_no ?? '';
  const paymentId = Number(/^mallfront_(\d+)_[0-9a-f]{8}$/.exec(reference)?.[1]);
  const status = statusOf(fields.trade_status);
  return {
    reference,
    status,
    ...(Number.isSafeInteger(paymentId) && paymentId > 0 ? { paymentId } : {}),
    // An amount that is not one is compared as -1: never the payment's, so refused and recorded.
    amount: fields.total_amount === undefined ? null : (fenOf(fields.total_amount) ?? -1),
    // Domestic trades name no currency: they are in yuan. A cross-border one names its own.
    currency: fields.trans_currency ?? 'CNY',
    eventId,
    raw,
    ...(status === 'cancelled' ? { reason: 'Alipay closed the trade' } : {}),
  };
}
