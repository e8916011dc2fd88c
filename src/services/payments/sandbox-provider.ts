import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { BalanceKind } from '../../entities/balance.entity.js';
import { NotificationRejected, type PaymentProvider, type ProviderAnswer, type ProviderPayment } from './provider.js';

/**
 * A development gateway, so the demo shows the whole asynchronous flow with no keys: a payment is
 * pending, then its simulated customer pays (or declines, on demand) after `delayMs`, and the gateway
 * notifies the server with a signed POST to its own notification route. The configuration refuses it
 * with NODE_ENV=production (src/config.ts).
 *
 * It keeps no state: the reference carries the payment, the amount, the outcome and when it was made,
 * under an HMAC, so any process (the sweep after a restart) answers a query the same way, and a
 * notification lost with a stopped process is found by the sweep.
 */
export interface SandboxSettings {
  delayMs: number;
  secret: string;
}

const SIGNATURE_HEADER = 'sandbox-signature';

/** How many times a notification the server did not take is sent again. */
const NOTIFY_RETRIES = 5;

export class SandboxProvider implements PaymentProvider {
  readonly method = 'sandbox' as const;
  readonly clearing = BalanceKind.SandboxClearing;
  /** Where notifications go: this server's own notification route (set once it listens). */
  private notifyUrl: string | undefined;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(private readonly settings: SandboxSettings) {}

  /** The server listens: notifications go to its own route from now on. */
  deliverTo(baseUrl: string): void {
    this.notifyUrl = `${baseUrl}/api/payments/notifications/sandbox`;
  }

  /** Stops notifications still waiting (the server is stopping; the sweep finds those payments later). */
  stop(): void {
    this.notifyUrl = undefined; // a delivery in flight sends no retry
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  create(payment: ProviderPayment) {
    const outcome = payment.simulateFailure ? 'failed' : 'captured';
    const body = `sbx_${payment.paymentId}_${payment.amount}_${payment.currency}_${outcome}_${Date.now()}`;
    const reference = `${body}_${this.mac(body).slice(0, 16)}`;
    this.schedule(reference);
    return Promise.resolve({ reference, nextStep: { type: 'wait' as const, message: `The sandbox gateway ${outcome === 'failed' ? 'declines' : 'pays'} in ${Math.round(this.settings.delayMs / 1000)} s` } });
  }

  verifyNotification(notification: { headers: Record<string, string | undefined>; rawBody: string }): Promise<ProviderAnswer> {
    const header = notification.headers[SIGNATURE_HEADER] ?? '';
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    if (!match) return Promise.reject(new NotificationRejected(`missing or malformed ${SIGNATURE_HEADER} header`));
    const expected = Buffer.from(this.mac(`${match[1]}.${notification.rawBody}`), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(match[2], 'hex'))) return Promise.reject(new NotificationRejected('signature does not match'));
    let parsed: { id?: unknown; reference?: unknown; status?: unknown; amount?: unknown; currency?: unknown };
    try {
      parsed = JSON.parse(notification.rawBody) as typeof parsed;
    } catch {
      return Promise.reject(new NotificationRejected('body is not JSON'));
    }
    const status = parsed.status === 'captured' || parsed.status === 'failed' ? parsed.status : null;
    if (typeof parsed.reference !== 'string' || !status || !Number.isSafeInteger(parsed.amount) || typeof parsed.currency !== 'string') {
      return Promise.reject(new NotificationRejected('body lacks reference, status, amount or currency'));
    }
    const paymentId = this.read(parsed.reference)?.paymentId;
    return Promise.resolve({
      reference: parsed.reference, status, amount: parsed.amount as number, currency: parsed.currency, ...(paymentId ? { paymentId } : {}),
      eventId: typeof parsed.id === 'string' ? parsed.id : null, raw: notification.rawBody,
      ...(status === 'failed' ? { reason: 'declined by the sandbox customer' } : {}),
    });
  }

  query(reference: string): Promise<ProviderAnswer> {
    const read = this.read(reference);
    if (!read) return Promise.reject(new Error(`the sandbox made no payment ${reference}`));
    const due = Date.now() >= read.createdAt + this.settings.delayMs;
    const status = due ? read.outcome : 'pending';
    return Promise.resolve({ reference, status, amount: read.amount, currency: read.currency, paymentId: read.paymentId, eventId: null, raw: JSON.stringify({ reference, status, amount: read.amount, currency: read.currency }) });
  }

  refund(reference: string, amount: number, key: string) {
    if (!this.read(reference)) return Promise.reject(new Error(`the sandbox made no payment ${reference}`));
    return Promise.resolve({ reference: `sbx_refund_${key}_${amount}`, status: 'succeeded' as const });
  }

  /** The sandbox's refunds succeed at once: one it answered is done. */
  refundStatus(_reference: string, refundReference: string) {
    return Promise.resolve({ reference: refundReference, status: 'succeeded' as const });
  }

  /** Signs a notification body as the sandbox does (`t=<seconds>,v1=<hex HMAC of "t.body">`). */
  sign(rawBody: string, timestamp = Math.floor(Date.now() / 1000)): string {
    return `t=${timestamp},v1=${this.mac(`${timestamp}.${rawBody}`)}`;
  }

  /** The notification the simulated customer's payment sends for `reference`. */
  notificationFor(reference: string): { body: string; signature: string } | null {
    const read = this.read(reference);
    if (!read) return null;
    const body = JSON.stringify({ id: `sbx_evt_${randomBytes(8).toString('hex')}`, reference, status: read.outcome, amount: read.amount, currency: read.currency });
    return { body, signature: this.sign(body) };
  }

  /**
   * Sends the notification after `delayMs`, and again while the server does not take it (no answer,
   * or not a 2xx: a busy or restarting server answers 503), as gateways do (Alipay retries for a day,
   * Stripe for three): after 1, 2, 4, 8 and 16 s. A notification already acted on is answered as a
   * duplicate, so one more is harmless. After the last try the pending-payment sweep's query finds
   * the payment.
   */
  private schedule(reference: string, attempt = 0): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.notify(reference).then((taken) => {
        if (!taken && attempt < NOTIFY_RETRIES && this.notifyUrl) this.schedule(reference, attempt + 1);
      });
    }, attempt === 0 ? this.settings.delayMs : 1000 * 2 ** (attempt - 1));
    timer.unref();
    this.timers.add(timer);
  }

  /** One delivery of the notification: whether the server took it (a 2xx). */
  private async notify(reference: string): Promise<boolean> {
    const notification = this.notificationFor(reference);
    if (!this.notifyUrl || !notification) return true;
    try {
      const answer = await fetch(this.notifyUrl, { method: 'POST', headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: notification.signature }, body: notification.body, signal: AbortSignal.timeout(10_000) });
      await answer.body?.cancel();
      return answer.ok;
    } catch {
      return false;
    }
  }

  private read(reference: string) {
    const match = /^(sbx_(\d+)_(\d+)_([A-Z]{3})_(captured|failed)_(\d+))_([0-9a-f]{16})$/.exec(reference);
    if (!match || this.mac(match[1]).slice(0, 16) !== match[7]) return null;
    return { paymentId: Number(match[2]), amount: Number(match[3]), currency: match[4], outcome: match[5] as 'captured' | 'failed', createdAt: Number(match[6]) };
  }

  private mac(text: string): string {
    return createHmac('sha256', this.settings.secret).update(text).digest('hex');
  }
}
