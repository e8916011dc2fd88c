import type { Router } from 'express';
import { z } from 'zod';
import * as payments from '../services/payments/payment.service.js';
import { PAYMENT_METHODS } from '../config.js';
import { route, Reply, TextReply } from './route.js';
import * as orderPayments from '../services/payments/order-payments.js';
import { LateMoneyPage, NotificationAcknowledgement, NotificationReceipt, OrderPaymentList, Payment, PaymentEventList, PaymentMethods } from './responses/payments.js';
import { LateMoneyListInput, listLateMoney, listLateMoneyRefusals } from '../services/payments/late-money.js';
import { Permission } from '../shared/permissions.js';

const tag = 'Payments';

/** Paying a checkout with a chosen method, reading the payment and its events, and the providers' notifications. */
export function paymentRoutes(router: Router) {
  route(router, '/payments/methods', {
    get: { doc: { tag, summary: 'The payment methods offered here', permission: Permission.Public, response: PaymentMethods }, handle: ({ ctx }) => Promise.resolve(payments.paymentMethods(ctx)) },
  });
  route(router, '/payments', {
    post: {
      doc: {
        tag, summary: "Start one payment for a checkout's orders with a method", permission: Permission.Customer, body: payments.StartPaymentInput, response: Payment, status: 201, idempotent: true,
        errors: payments.startPaymentRefusals,
        description:
          'The wallet pays at once (status `captured`). A gateway answers the payment `pending` with its `next_step`; only the gateway\'s verified notification or its answer to a query captures it, never the browser coming back. `simulate_failure`: the sandbox gateway only.',
      },
      handle: async ({ ctx, body, header }) => new Reply(201, await payments.startPayment(ctx, body, header('idempotency-key'))),
    },
  });
  route(router, '/admin/payments/late-money', {
    get: {
      doc: {
        tag, summary: 'Late money sent back to the methods, newest first', permission: Permission.PlatformMoneyManage, query: LateMoneyListInput, response: LateMoneyPage, errors: listLateMoneyRefusals,
        description: 'What a gateway captured for orders that could no longer be paid (cancelled by the payment window meanwhile, a group seat filled): each goes back to the method by itself; `status` says where it stands at the provider.',
      },
      handle: ({ ctx, query }) => listLateMoney(ctx, query),
    },
  });
  route(router, '/admin/payments/by-reference', {
    get: {
      doc: { tag, summary: "The payment a provider's reference names", permission: Permission.PlatformMoneyManage, query: payments.ReferenceInput, response: Payment, errors: payments.findPaymentByReferenceRefusals },
      handle: ({ ctx, query }) => payments.findPaymentByReference(ctx, query),
    },
  });
  route(router, '/payments/:paymentId', {
    get: { doc: { tag, summary: 'One payment (the customer\'s own; any for an admin)', permission: Permission.SignedIn, response: Payment, errors: payments.getPaymentRefusals }, handle: ({ ctx, params }) => payments.getPayment(ctx, params) },
  });
  route(router, '/payments/:paymentId/events', {
    get: {
      doc: { tag, summary: 'What the provider told us about a payment, and what we did', permission: Permission.SignedIn, response: PaymentEventList, errors: payments.paymentEventsRefusals },
      handle: ({ ctx, params }) => payments.paymentEvents(ctx, params),
    },
  });
  route(router, '/orders/:orderId/payments', {
    get: {
      doc: {
        tag, summary: "An order's payments and what went back on their method", permission: Permission.SignedIn, response: OrderPaymentList, errors: orderPayments.orderPaymentsRefusals,
        description: "Newest first (a failed payment, then the retry that paid). The order's customer, the operator of the shop that sold it, or a platform admin; a shop sees its own order's share only.",
      },
      handle: ({ ctx, params }) => orderPayments.orderPayments(ctx, params),
    },
  });
  route(router, '/payments/notifications/:method', {
    post: {
      doc: {
        tag, summary: "A payment provider's notification (called by the provider)", permission: Permission.Public, params: { method: z.enum(PAYMENT_METHODS) },
        response: NotificationReceipt, alsoAnswers: { 'text/plain': NotificationAcknowledgement }, errors: payments.receiveNotificationRefusals,
        foreignBody: {
          mediaTypes: ['application/json', 'application/x-www-form-urlencoded'],
          description: "The provider's own notification as it sends it: JSON from `stripe` and `sandbox`, a signed form from `alipay`.",
        },
        description:
          "The body is the provider's own notification, so its fields are not described here. Verified with the provider's own signature check over the body as received; a forged one (or one addressed to another Alipay app) is recorded and answered 400. A verified one is answered 200 so the provider stops resending it: with what was done (`captured`, `duplicate`, `amount_mismatch`, `unknown_payment`...) in JSON, or, to Alipay, the plain text `success` it waits for (what was done is in the payment's events).",
      },
      handle: async ({ ctx, params, headers, rawBody }) => {
        const { plainAnswer, ...receipt } = await payments.receiveNotification(ctx, params, { headers: headers(), rawBody: rawBody() });
        return plainAnswer ? new TextReply('text/plain; charset=utf-8', plainAnswer) : receipt;
      },
    },
  });
}
