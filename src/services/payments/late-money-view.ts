import { PaymentRefundStatus } from '../../entities/payment.entity.js';
import { PAYMENT_METHODS } from '../../config.js';
import { z } from '../../shared/validate.js';
import { id, money, timestamp } from '../../shared/view-fields.js';

/** A late money row (late-money.ts): REST publishes this schema and GraphQL's type is made from it. */
export const LateMoneyView = z
  .strictObject({
    id: id.describe('The payment refund sending it back'),
    paymentId: id,
    method: z.enum(PAYMENT_METHODS),
    providerReference: z.string().nullable(),
    customerId: id,
    // So the desk sees who it is without another lookup.
    customerName: z.string().describe("The customer's display name"),
    amount: money,
    status: z.enum(PaymentRefundStatus),
    unpaidOrderIds: z.array(id).describe("The payment's orders its capture could not pay"),
    refundReference: z.string().nullable().describe("The provider's id of the refund, once it answered"),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .describe('Late money: what a gateway captured for orders that could no longer be paid, on its way back to the method');
export type LateMoneyView = z.infer<typeof LateMoneyView>;
