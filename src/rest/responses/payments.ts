import { z } from 'zod';
import { id, named, page } from './common.js';
import { LateMoneyView } from '../../services/payments/late-money-view.js';
import { PaymentEventView, PaymentMethodsView, PaymentNextStepView, PaymentView } from '../../services/payments/payment-view.js';
import { OrderPaymentRefundView, OrderPaymentView } from '../../services/payments/order-payments.js';

export const PaymentMethods = named('PaymentMethods', PaymentMethodsView);

export const PaymentNextStep = named('PaymentNextStep', PaymentNextStepView);

export const Payment = named('Payment', PaymentView);

export const PaymentEvent = named('PaymentEvent', PaymentEventView);
export const PaymentEventList = named('PaymentEventList', z.strictObject({ items: z.array(PaymentEvent) }));

export const NotificationReceipt = named('NotificationReceipt', z.strictObject({ received: z.literal(true), outcome: z.string(), paymentId: id.nullable() }));

export const OrderPaymentRefund = named('OrderPaymentRefund', OrderPaymentRefundView);

export const OrderPayment = named('OrderPayment', OrderPaymentView);
export const OrderPaymentList = named('OrderPaymentList', z.strictObject({ items: z.array(OrderPayment) }));

/** What Alipay reads as "received, stop resending" (any other answer makes it send the notification again). */
export const NotificationAcknowledgement = named('NotificationAcknowledgement', z.literal('success').describe('Alipay: the notification was received (what was done is in the payment\'s events)'));

export const LateMoney = named('LateMoney', LateMoneyView);

export const LateMoneyPage = named('LateMoneyPage', page(LateMoney));
