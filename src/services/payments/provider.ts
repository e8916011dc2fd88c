import type { PaymentMethod } from '../../config.js';
import type { ClearingKind } from '../../entities/balance.entity.js';
import type { PaymentNextStepView } from './payment-view.js';

/**
 * What a payment provider does for the payment module, and nothing more: it translates. The module
 * owns the states, the ledger and the orders (payment-lifecycle.ts); a provider only talks to its
 * gateway. As Medusa's payment providers and Vendure's payment handlers: a few calls, the same for
 * every gateway. docs/decisions.md (2026-12-02) maps WeChat Pay v3 onto the same calls.
 */
export interface PaymentProvider {
  readonly method: PaymentMethod;
  /**
   * The platform account on the other side of money this provider captures or refunds
   * (`clearing_<provider>`). Null for the wallet: its money is already in the mall.
   */
  readonly clearing: ClearingKind | null;
  /**
   * The plain-text body this provider reads as "received, stop resending" (Alipay: `success`); without
   * it a verified notification is answered with the JSON receipt.
   */
  readonly notificationAnswer?: string;
  /** Starts the payment at the provider: its reference and what the customer does next. */
  create(payment: ProviderPayment): Promise<CreatedAtProvider>;
  /**
   * Checks a notification's signature and reads it. A notification that fails the check throws
   * `NotificationRejected` (it is recorded, unverified, and changes nothing).
   */
  verifyNotification(notification: IncomingNotification): Promise<ProviderAnswer>;
  /** Asks the provider where the payment stands (the sweep, for notifications that never came). */
  query(reference: string): Promise<ProviderAnswer>;
  /** Gives `amount` of a captured payment back to the method; `key` makes a retried refund one refund. */
  refund(reference: string, amount: number, key: string): Promise<RefundAnswer>;
  /**
   * Where a refund the provider answered `pending` stands now (the refund sweep follows it to its
   * end, rather than asking for the refund again: a provider's idempotency keys expire).
   */
  refundStatus(reference: string, refundReference: string): Promise<RefundAnswer>;
}

/** What the module asks a provider to collect. */
export interface ProviderPayment {
  paymentId: number;
  /** Minor units of `currency`. */
  amount: number;
  currency: string;
  description: string;
  /** Development gateways only: make the simulated customer decline. */
  simulateFailure?: boolean;
  /** Where the customer pays: a provider with a page for phones (Alipay's mobile-web pay) sends `mobile` there. */
  device?: PaymentDevice;
}

export const PAYMENT_DEVICES = ['desktop', 'mobile'] as const;
export type PaymentDevice = (typeof PAYMENT_DEVICES)[number];

/** What the customer does next to pay (the payment's view says it as both doors answer it). */
export type NextStep = PaymentNextStepView;

export interface CreatedAtProvider {
  reference: string;
  nextStep: NextStep;
}

/** Where a payment stands, as its provider says. */
export type ProviderStatus = 'pending' | 'authorized' | 'captured' | 'failed' | 'cancelled';

/** One notification or query answer, read: the module compares it with the payment before acting. */
export interface ProviderAnswer {
  reference: string;
  status: ProviderStatus;
  /** Minor units, as the provider states them (null when it states none). */
  amount: number | null;
  currency: string | null;
  /** The provider's id of this notification (a webhook event id), when it has one. */
  eventId: string | null;
  /**
   * Our payment id as the provider echoes it (Stripe's metadata, the sandbox's reference, WeChat's
   * `out_trade_no`): a notification may arrive before the reference of a payment just started is stored.
   */
  paymentId?: number;
  /** The provider's words on a failure. */
  reason?: string;
  /** What the provider sent, as text, kept with the event. */
  raw: string;
}

export interface RefundAnswer {
  reference: string;
  status: 'pending' | 'succeeded' | 'failed';
}

export interface IncomingNotification {
  headers: Record<string, string | undefined>;
  /** The body exactly as received: signatures cover the bytes, not re-serialized JSON. */
  rawBody: string;
}

/**
 * A notification whose signature (or form) did not check out, or that is not addressed to us (another
 * app's): recorded unverified with `outcome`, and refused.
 */
export class NotificationRejected extends Error {
  constructor(message: string, readonly outcome: string = 'signature_invalid') {
    super(message);
  }
}

/** The configured providers of this process, by method (built by the service wiring). */
export type PaymentProviders = Partial<Record<PaymentMethod, PaymentProvider>>;

declare module '../../shared/context.js' {
  interface ServiceWiring {
    /** The payment methods this process offers, each with its provider (src/services/wiring.ts). */
    paymentProviders: PaymentProviders;
  }
}
