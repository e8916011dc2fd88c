import { Arg, Args, ArgsType, Ctx, Field, Int, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import type { SubscribeResolverData } from 'type-graphql';
import * as payments from '../services/payments/payment.service.js';
import { orderPayments } from '../services/payments/order-payments.js';
import { watchPayment } from '../services/payments/payment-watch.js';
import type { PaymentView } from '../services/payments/payment-view.js';
import type { GraphQLContext } from './graphql-context.js';
import { withoutNulls } from './without-nulls.js';
import { answer } from './answer.js';
import { PaymentMethodEnum } from './types/enums.js';
import { LateMoneyListArgs, LateMoneyPage, OrderPayment, Payment, PaymentEvent, StartPaymentInput, StartPaymentPayload } from './types/payment.types.js';
import { listLateMoney } from '../services/payments/late-money.js';
import { Allow } from './allow.js';
import { Permission } from '../shared/permissions.js';

@ArgsType()
class PaymentUpdatesArgs {
  @Field(() => Int) paymentId!: number;
}

/** The GraphQL door of payments (the REST door: rest/payment.routes.ts); one service call each. Notifications come over REST only: providers post them. */
@Resolver()
export class PaymentResolver {
  @Allow(Permission.Public)
  @Query(() => [PaymentMethodEnum], { description: 'The payment methods offered here' })
  paymentMethods(@Ctx() { ctx }: GraphQLContext) {
    return payments.paymentMethods(ctx).methods;
  }

  @Allow(Permission.SignedIn)
  @Query(() => Payment, { nullable: true, description: "A payment: the customer's own, any for a platform admin" })
  payment(@Arg('id', () => Int) paymentId: number, @Ctx() { ctx }: GraphQLContext) {
    return payments.getPayment(ctx, { paymentId });
  }

  @Allow(Permission.SignedIn)
  @Query(() => [PaymentEvent], { nullable: true, description: 'What the provider told us about a payment, oldest first' })
  async paymentEvents(@Arg('paymentId', () => Int) paymentId: number, @Ctx() { ctx }: GraphQLContext) {
    return (await payments.paymentEvents(ctx, { paymentId })).items;
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => LateMoneyPage, { description: 'Platform admin: late money sent back to the methods (captures whose orders could no longer be paid), newest first' })
  lateMoney(@Args(() => LateMoneyListArgs) args: LateMoneyListArgs, @Ctx() { ctx }: GraphQLContext) {
    return listLateMoney(ctx, withoutNulls(args));
  }

  @Allow(Permission.PlatformMoneyManage)
  @Query(() => Payment, { nullable: true, description: "Platform admin: the payment a provider's reference names" })
  paymentByReference(@Arg('method', () => PaymentMethodEnum) method: string, @Arg('providerReference', () => String) providerReference: string, @Ctx() { ctx }: GraphQLContext) {
    return payments.findPaymentByReference(ctx, { method, providerReference });
  }

  @Allow(Permission.SignedIn)
  @Query(() => [OrderPayment], { nullable: true, description: "An order's payments, newest first, with what went back on their method: the order's customer, the operator of the shop that sold it (its own order's share only), or a platform admin" })
  async orderPayments(@Arg('orderId', () => Int) orderId: number, @Ctx() { ctx }: GraphQLContext) {
    return (await orderPayments(ctx, { orderId })).items;
  }

  @Allow(Permission.SignedIn)
  @Subscription(() => Payment, {
    description: 'A payment as it is now, then again each time it is captured, fails or is refunded (read from the server, never from the browser): its customer, or a platform admin',
    subscribe: ({ args, context }: SubscribeResolverData<unknown, PaymentUpdatesArgs, GraphQLContext>) => watchPayment(context.ctx, args),
  })
  // The parameter declares the subscription's arguments in the schema; `subscribe` is what reads them.
  paymentUpdates(@Root() payment: PaymentView, @Args(() => PaymentUpdatesArgs) _args: PaymentUpdatesArgs): PaymentView {
    return payment;
  }

  @Allow(Permission.Customer)
  @Mutation(() => StartPaymentPayload, { description: "Start one payment for a checkout's orders with a method" })
  startPayment(@Arg('input', () => StartPaymentInput) input: StartPaymentInput, @Ctx() { ctx }: GraphQLContext) {
    const { idempotencyKey, ...start } = input;
    return answer(ctx, StartPaymentPayload, () => payments.startPayment(ctx, withoutNulls({ ...start }), idempotencyKey ?? undefined));
  }
}
