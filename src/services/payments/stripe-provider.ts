import Stripe from 'stripe';
import { BalanceKind } from '../../entities/balance.entity.js';
import { NotificationRejected, type IncomingNotification, type PaymentProvider, type ProviderAnswer, type ProviderPayment, type ProviderStatus, type RefundAnswer } from './provider.js';

export interface StripeSettings {
  secretKey: string;
  /** The publishable key (`pk_...`, public by design) the storefront gives Stripe.js with the client secret. */
  publishableKey: string;
  webhookSecret: string;
  /** Another address for Stripe's API (the tests' stand-in); Stripe itself when absent. */
  apiUrl: string | undefined;
}

/**
 * Stripe through its official SDK: one PaymentIntent per payment (the storefront confirms it with
 * Stripe's own client library and the client secret, so no card number reaches this server),
 * webhooks verified by `stripe.webhooks.constructEvent` over the raw body, refunds through the SDK.
 * Amounts are minor units both here and at Stripe for the base currency (CNY: fen).
 */
export class StripeProvider implements PaymentProvider {
  readonly method = 'stripe' as const;
  readonly clearing = BalanceKind.StripeClearing;
  private readonly client: Stripe;

  constructor(private readonly settings: StripeSettings) {
    const url = settings.apiUrl ? new URL(settings.apiUrl) : undefined;
    const protocol = url?.protocol === 'http:' ? 'http' : 'https';
    this.client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 10_000,
      telemetry: false,
      ...(url ? { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol } : {}),
    });
  }

  async create(payment: ProviderPayment) {
    const intent = await this.client.paymentIntents.create(
      {
        amount: payment.amount,
        currency: payment.currency.toLowerCase(),
        description: payment.description,
        metadata: { payment_id: String(payment.paymentId) },
        automatic_payment_methods: { enabled: true },
      },
      // A retried create (the SDK's own network retries included) makes one PaymentIntent.
      { idempotencyKey: `mallfront-payment-${payment.paymentId}` },
    );
    if (!intent.client_secret) throw new Error(`Stripe answered PaymentIntent ${intent.id} without a client secret`);
    return { reference: intent.id, nextStep: { type: 'client_secret' as const, clientSecret: intent.client_secret, publishableKey: this.settings.publishableKey } };
  }

  verifyNotification(notification: IncomingNotification): Promise<ProviderAnswer> {
    let event: Stripe.Event;
    try {
      event = this.client.webhooks.constructEvent(notification.rawBody, notification.headers['stripe-signature'] ?? '', this.settings.webhookSecret);
    } catch (error) {
      return Promise.reject(new NotificationRejected(error instanceof Error ? error.message : 'signature check failed'));
    }
    const object = event.data.object as { object?: string; id?: string };
    if (object.object !== 'payment_intent') {
      // A verified event about something else (the endpoint may be subscribed to more): nothing to do.
      return Promise.resolve({ reference: object.id ?? '', status: 'pending', amount: null, currency: null, eventId: event.id, raw: notification.rawBody });
    }
    return Promise.resolve(answerOf(event.data.object as Stripe.PaymentIntent, event.id, notification.rawBody));
  }

  async query(reference: string): Promise<ProviderAnswer> {
    const intent = await this.client.paymentIntents.retrieve(reference);
    return answerOf(intent, null, JSON.stringify(intent));
  }

  async refund(reference: string, amount: number, key: string): Promise<RefundAnswer> {
    let refund: Stripe.Refund;
    try {
      refund = await this.client.refunds.create({ payment_intent: reference, amount }, { idempotencyKey: key });
    } catch (error) {
      // Stripe refused the request itself (more than is left, an intent it does not know): final. Anything
      // else (unreachable, 5xx, rate limited) is thrown, and the refund is asked again later.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return { reference: '', status: 'failed' };
      throw error;
    }
    return answerOfRefund(refund);
  }

  async refundStatus(_reference: string, refundReference: string): Promise<RefundAnswer> {
    return answerOfRefund(await this.client.refunds.retrieve(refundReference));
  }
}

/** A refund's state in the module's words (`pending` and `requires_action` wait on the bank or the customer). */
function answerOfRefund(refund: Stripe.Refund): RefundAnswer {
  const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
  return { reference: refund.id, status };
}

/** A PaymentIntent's state in the module's words. */
function statusOf(intent: Stripe.PaymentIntent): ProviderStatus {
  switch (intent.status) {
    case 'succeeded':
      return 'captured';
    case 'requires_capture':
      return 'authorized';
    case 'canceled':
      return 'cancelled';
    case 'requires_payment_method':
      // After a declined attempt the intent waits for another method; the payment failed (a later
      // success on the same intent still captures it: payment-lifecycle's captureLate).
      return intent.last_payment_error ? 'failed' : 'pending';
    default:
      return 'pending';
  }
}

function answerOf(intent: Stripe.PaymentIntent, eventId: string | null, raw: string): ProviderAnswer {
  const status = statusOf(intent);
  const paymentId = Number(intent.metadata?.payment_id);
  return {
    reference: intent.id,
    status,
    ...(Number.isSafeInteger(paymentId) && paymentId > 0 ? { paymentId } : {}),
    // What was received is what a capture must match; before that, what is asked.
    amount: status === 'captured' ? intent.amount_received : intent.amount,
    currency: intent.currency.toUpperCase(),
    eventId,
    raw,
    ...(intent.last_payment_error?.message ? { reason: intent.last_payment_error.message } : {}),
  };
}
