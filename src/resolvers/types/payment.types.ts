import { ArgsType, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { PaymentMethod } from '../../config.js';
import type { PaymentRefundStatus, PaymentStatus } from '../../entities/payment.entity.js';
import { startPaymentRefusals } from '../../services/payments/payment.service.js';
import type { PaymentDevice } from '../../services/payments/provider.js';
import { PaymentDeviceEnum, PaymentMethodEnum, PaymentRefundStatusEnum, PaymentStatusEnum } from './enums.js';
import { PageArgs, PageType } from './page.types.js';
import { PayloadType } from './payload.types.js';
import { objectType } from './object-type.js';
import { LateMoneyView } from '../../services/payments/late-money-view.js';
import { OrderPaymentRefundView, OrderPaymentView } from '../../services/payments/order-payments.js';

// Written here rather than made from services/payments/payment-view.ts (GraphQL's next step is one object where
// REST's is a union; an event's source is text), and held to those schemas by test/one-description.test.ts.
@ObjectType({ description: 'What the customer does next while a payment is pending' })
export class PaymentNextStep {
  @Field({ description: 'none, wait (the provider answers by itself), redirect (go to `url`), client_secret (confirm with the provider\'s client library)' }) type!: string;
  @Field(() => String, { nullable: true }) message?: string | null;
  @Field(() => String, { nullable: true }) url?: string | null;
  @Field(() => String, { nullable: true }) clientSecret?: string | null;
  @Field(() => String, { nullable: true, description: "With `client_secret`: the provider's publishable key for its client library (public by design)" }) publishableKey?: string | null;
}

@ObjectType({ description: "One payment of a checkout's orders, with one method" })
export class Payment {
  @Field(() => Int) id!: number;
  @Field(() => Int) customerId!: number;
  @Field(() => String, { description: "The customer's display name" }) customerName!: string;
  @Field(() => PaymentMethodEnum) method!: PaymentMethod;
  @Field(() => PaymentStatusEnum) status!: PaymentStatus;
  @Field(() => Int, { description: 'Minor units of `currency`' }) amount!: number;
  @Field() currency!: string;
  @Field(() => Int) capturedAmount!: number;
  @Field(() => Int) refundedAmount!: number;
  @Field(() => String, { nullable: true, description: "The provider's id of the payment" }) providerReference!: string | null;
  @Field(() => PaymentNextStep, { nullable: true, description: 'While pending: what the customer does next' }) nextStep!: PaymentNextStep | null;
  @Field(() => String, { nullable: true }) closeReason!: string | null;
  @Field(() => [Int]) orderIds!: number[];
  @Field() createdAt!: Date;
  @Field() updatedAt!: Date;
  @Field(() => Date, { nullable: true }) capturedAt!: Date | null;
  @Field(() => Date, { nullable: true }) closedAt!: Date | null;
}

@ObjectType({ description: 'What a provider told us about a payment (a notification or an answer to a query), and what we did' })
export class PaymentEvent {
  @Field(() => Int) id!: number;
  @Field({ description: 'notification, query or create' }) source!: string;
  @Field(() => String, { nullable: true }) providerEventId!: string | null;
  @Field(() => String, { nullable: true, description: 'What the provider said: captured, failed, pending...' }) status!: string | null;
  @Field(() => Int, { nullable: true }) amount!: number | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field({ description: 'The signature (or the answer) checked out' }) verified!: boolean;
  @Field({ description: 'captured, duplicate, amount_mismatch, signature_invalid, unknown_payment, ...' }) outcome!: string;
  @Field({ description: 'What the provider sent, as received' }) raw!: string;
  @Field() createdAt!: Date;
}

@InputType()
export class StartPaymentInput {
  @Field(() => [Int], { description: 'The orders of one checkout, each once' }) orderIds!: number[];
  @Field(() => PaymentMethodEnum) method!: PaymentMethod;
  @Field(() => Boolean, { nullable: true, description: 'The sandbox gateway only: its simulated customer declines' }) simulateFailure?: boolean | null;
  @Field(() => PaymentDeviceEnum, { nullable: true, description: 'Where the customer pays (default DESKTOP)' }) device?: PaymentDevice | null;
  @Field(() => String, { nullable: true, description: 'The same key answers the same payment: a retry never starts a second one (retry safely)' }) idempotencyKey?: string | null;
}

export const StartPaymentPayload = PayloadType('StartPayment', 'payment', () => Payment, 'The payment: CAPTURED for the wallet, PENDING with its next step for a gateway', startPaymentRefusals);

// Made from services/payments/order-payments.ts's view schemas (object-type.ts); a refund's status is the
// PaymentRefundStatus enum, as late money's is.
export const OrderPaymentRefund = objectType('OrderPaymentRefund', OrderPaymentRefundView);
export type OrderPaymentRefund = OrderPaymentRefundView;
export const OrderPayment = objectType('OrderPayment', OrderPaymentView);
export type OrderPayment = OrderPaymentView;

// Made from the late money view schema (object-type.ts).
export const LateMoney = objectType('LateMoney', LateMoneyView);

@ObjectType()
export class LateMoneyPage extends PageType(LateMoney) {}

@ArgsType()
export class LateMoneyListArgs extends PageArgs {
  @Field(() => PaymentRefundStatusEnum, { nullable: true }) status?: PaymentRefundStatus | null;
}
