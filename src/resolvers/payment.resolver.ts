import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import * as payments from '../services/payments/payment.service.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PaymentMethodEnum } from './types/enums.js';
import { Payment, PaymentEvent, StartPaymentInput, StartPaymentPayload } from './types/payment.types.js';

/** The GraphQL door of payments (the REST door: rest/payment.routes.ts); one service call each. Notifications come over REST only: providers post them. */
@Resolver()
export class PaymentResolver {
  @Query(() => [PaymentMethodEnum], { description: 'The payment methods offered here' })
  paymentMethods(@Ctx() { ctx }: GraphQLContext) {
    return payments.paymentMethods(ctx).methods;
  }

  @Query(() => Payment, { nullable: true, description: "A payment: the customer's own, any for a platform admin" })
  payment(@Arg('id', () => Int) paymentId: number, @Ctx() { ctx }: GraphQLContext) {
    return payments.getPayment(ctx, { paymentId });
  }

  @Query(() => [PaymentEvent], { nullable: true, description: 'What the provider told us about a payment, oldest first' })
  async paymentEvents(@Arg('paymentId', () => Int) paymentId: number, @Ctx() { ctx }: GraphQLContext) {
    return (await payments.paymentEvents(ctx, { paymentId })).items;
  }

  @Query(() => Payment, { nullable: true, description: "Platform admin: the payment a provider's reference names" })
  paymentByReference(@Arg('method', () => PaymentMethodEnum) method: string, @Arg('providerReference', () => String) providerReference: string, @Ctx() { ctx }: GraphQLContext) {
    return payments.findPaymentByReference(ctx, { method, providerReference });
  }

  @Mutation(() => StartPaymentPayload, { description: "Start one payment for a checkout's orders with a method" })
  startPayment(@Arg('input', () => StartPaymentInput) input: StartPaymentInput, @Ctx() { ctx }: GraphQLContext) {
    const { idempotencyKey, ...start } = input;
    return answer(ctx, StartPaymentPayload, () => payments.startPayment(ctx, withoutNulls({ ...start }), idempotencyKey ?? undefined));
  }
}
