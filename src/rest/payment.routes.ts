import type { Router } from 'express';
import { z } from 'zod';
import * as payments from '../services/payments/payment.service.js';
import { PAYMENT_METHODS } from '../config.js';
import { route, Reply } from './route.js';
import * as orderPayments from '../services/payments/order-payments.js';
import { NotificationReceipt, OrderPaymentList, Payment, PaymentEventList, PaymentMethods } from './responses/payments.js';

const tag = 'Payments';

/** Paying a checkout with a chosen method, reading the payment and its events, and the providers' notifications. */
export function paymentRoutes(router: Router) {
  route(router, '/payments/methods', {
    get: { doc: { tag, summary: 'The payment methods offered here', access: 'public', response: PaymentMethods }, handle: ({ ctx }) => Promise.resolve(payments.paymentMethods(ctx)) },
  });
  route(router, '/payments', {
    post: {
      doc: {
        tag, summary: "Start one payment for a checkout's orders with a method", access: 'customer', body: payments.StartPaymentInput, response: Payment, status: 201,
        errors: payments.startPaymentRefusals,
        description:
          'The wallet pays at once (status `captured`). A gateway answers the payment `pending` with its `next_step`; only the gateway\'s verified notification or its answer to a query captures it, never the browser coming back. `simulate_failure`: the sandbox gateway only.',
      },
      handle: async ({ ctx, body }) => new Reply(201, await payments.startPayment(ctx, body)),
    },
  });
  route(router, '/admin/payments/by-reference', {
    get: {
      doc: { tag, summary: "The payment a provider's reference names", access: 'platform_admin', query: payments.ReferenceInput, response: Payment, errors: payments.findPaymentByReferenceRefusals },
      handle: ({ ctx, query }) => payments.findPaymentByReference(ctx, query),
    },
  });
  route(router, '/payments/:paymentId', {
    get: { doc: { tag, summary: 'One payment (the customer\'s own; any for an admin)', access: 'signed_in', response: Payment, errors: payments.getPaymentRefusals }, handle: ({ ctx, params }) => payments.getPayment(ctx, params) },
  });
  route(router, '/payments/:paymentId/events', {
    get: {
      doc: { tag, summary: 'What the provider told us about a payment, and what we did', access: 'signed_in', response: PaymentEventList, errors: payments.paymentEventsRefusals },
      handle: ({ ctx, params }) => payments.paymentEvents(ctx, params),
    },
  });
  route(router, '/orders/:orderId/payments', {
    get: {
      doc: {
        tag, summary: "An order's payments and what went back on their method", access: 'signed_in', response: OrderPaymentList, errors: orderPayments.orderPaymentsRefusals,
        description: "Newest first (a failed payment, then the retry that paid). The order's customer, the operator of the shop that sold it, or a platform admin; a shop sees its own order's share only.",
      },
      handle: ({ ctx, params }) => orderPayments.orderPayments(ctx, params),
    },
  });
  route(router, '/payments/notifications/:method', {
    post: {
      doc: {
        tag, summary: "A payment provider's notification (called by the provider)", access: 'public', params: { method: z.enum(PAYMENT_METHODS) },
        response: NotificationReceipt, errors: payments.receiveNotificationRefusals,
        description: 'The body is the provider\'s own notification (its JSON as it sends it), so it is not described here. Verified with the provider\'s own signature check over the raw body; a forged one is recorded and answered 400. A verified one is answered 200 with what was done (`captured`, `duplicate`, `amount_mismatch`, `unknown_payment`...), so the provider stops resending it.',
      },
      handle: ({ ctx, params, headers, rawBody }) => payments.receiveNotification(ctx, params, { headers, rawBody: rawBody() }),
    },
  });
}
