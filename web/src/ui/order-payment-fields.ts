import { graphql } from '../gql';

/** What the order page and the consoles show of an order's payments (`PaymentSummary`): one selection for both. */
export const OrderPaymentFields = graphql(`
  fragment OrderPaymentFields on OrderPayment {
    paymentId
    method
    status
    orderAmount
    paidThisOrder
    providerReference
    closeReason
    createdAt
    refunds {
      refundId
      amount
      status
      providerReference
      updatedAt
    }
  }
`);
