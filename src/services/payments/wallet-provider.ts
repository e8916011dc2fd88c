import type { PaymentProvider } from './provider.js';
import { NotificationRejected } from './provider.js';

/**
 * The customer's own balance as a payment method. Its money is already in the mall, so it has no
 * clearing account and nothing to call: the module captures a wallet payment in the transaction that
 * starts it, and the order moves' subscribers take the money from the available balance with a guarded
 * debit (short funds refuse the payment). A refund to the wallet is a ledger transfer back to
 * `available` (after-sale), so `refund` has no work of its own either.
 */
export const walletProvider: PaymentProvider = {
  method: 'wallet',
  clearing: null,
  create: (payment) => Promise.resolve({ reference: `wallet-${payment.paymentId}`, nextStep: { type: 'none' } }),
  verifyNotification: () => Promise.reject(new NotificationRejected('the wallet sends no notifications')),
  query: (reference) => Promise.reject(new Error(`the wallet answers when it is paid; there is nothing to ask about ${reference}`)),
  refund: (reference) => Promise.resolve({ reference: `${reference}-refund`, status: 'succeeded' }),
  refundStatus: (_reference, refundReference) => Promise.resolve({ reference: refundReference, status: 'succeeded' }),
};
