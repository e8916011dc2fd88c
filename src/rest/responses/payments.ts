import { z } from 'zod';
import { PAYMENT_METHODS } from '../../config.js';
import { PaymentStatus } from '../../entities/payment.entity.js';
import { count, id, money, named, page, timestamp } from './common.js';
import { LateMoneyView } from '../../services/payments/late-money-view.js';

export const PaymentMethods = named('PaymentMethods', z.strictObject({ methods: z.array(z.enum(PAYMENT_METHODS)) }));

/** What the customer does next while the payment is pending: nothing, wait, go to the provider, or confirm with its client library. */
export const PaymentNextStep = named(
  'PaymentNextStep',
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('none') }),
    z.strictObject({ type: z.literal('wait'), message: z.string() }),
    z.strictObject({ type: z.literal('redirect'), url: z.string() }),
    z.strictObject({ type: z.literal('client_secret'), clientSecret: z.string(), publishableKey: z.string() }),
  ]),
);

export const Payment = named(
  'Payment',
  z.strictObject({
    id,
    customerId: id,
    customerName: z.string().describe("The customer's display name"),
    method: z.enum(PAYMENT_METHODS),
    status: z.enum(PaymentStatus),
    amount: money,
    currency: z.string(),
    capturedAmount: money,
    refundedAmount: money,
    providerReference: z.string().nullable(),
    nextStep: PaymentNextStep.nullable(),
    closeReason: z.string().nullable(),
    orderIds: z.array(id),
    createdAt: timestamp,
    updatedAt: timestamp,
    capturedAt: timestamp.nullable(),
    closedAt: timestamp.nullable(),
  }),
);

export const PaymentEvent = named(
  'PaymentEvent',
  z.strictObject({
    id,
    source: z.enum(['notification', 'query', 'create']),
    providerEventId: z.string().nullable(),
    status: z.string().nullable(),
    amount: count.nullable(),
    currency: z.string().nullable(),
    verified: z.boolean(),
    outcome: z.string(),
    raw: z.string(),
    createdAt: timestamp,
  }),
);
export const PaymentEventList = named('PaymentEventList', z.strictObject({ items: z.array(PaymentEvent) }));

export const NotificationReceipt = named('NotificationReceipt', z.strictObject({ received: z.literal(true), outcome: z.string(), paymentId: id.nullable() }));

/** Money sent back on a payment's method for one order. */
export const OrderPaymentRefund = named(
  'OrderPaymentRefund',
  z.strictObject({
    refundId: id.nullable().describe('The after-sale refund it pays back; null for late money (captured after the order was cancelled)'),
    amount: money,
    status: z.enum(['pending', 'succeeded', 'failed']),
    providerReference: z.string().nullable(),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
);

/** One payment of an order as its customer, its shop and an admin see it: the order's share, not the whole checkout's. */
export const OrderPayment = named(
  'OrderPayment',
  z.strictObject({
    paymentId: id,
    method: z.enum(PAYMENT_METHODS),
    status: z.enum(PaymentStatus),
    currency: z.string(),
    orderAmount: money.describe("This order's share of the payment"),
    paidThisOrder: z.boolean().describe('The payment paid this order'),
    providerReference: z.string().nullable(),
    closeReason: z.string().nullable(),
    createdAt: timestamp,
    capturedAt: timestamp.nullable(),
    closedAt: timestamp.nullable(),
    refunds: z.array(OrderPaymentRefund),
  }),
);
export const OrderPaymentList = named('OrderPaymentList', z.strictObject({ items: z.array(OrderPayment) }));

/** What Alipay reads as "received, stop resending" (any other answer makes it send the notification again). */
export const NotificationAcknowledgement = named('NotificationAcknowledgement', z.literal('success').describe('Alipay: the notification was received (what was done is in the payment\'s events)'));

export const LateMoney = named('LateMoney', LateMoneyView);

export const LateMoneyPage = named('LateMoneyPage', page(LateMoney));
