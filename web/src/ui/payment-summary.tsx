import { Money } from '../money/currency-context';
import { formatDateTime } from './dates';
import type { PaymentRefundStatus } from '../gql/graphql';

/** How the storefront and the consoles name a payment method (GraphQL's `PaymentMethod`). */
const METHOD_LABELS: Record<string, string> = {
  WALLET: 'Mall balance',
  SANDBOX: 'Sandbox gateway (development)',
  STRIPE: 'Card (Stripe)',
  ALIPAY: 'Alipay',
};
export const methodLabel = (method: string) => METHOD_LABELS[method] ?? method;

const STATUS_LABELS: Record<string, string> = {
  PENDING: 'Waiting for the provider',
  AUTHORIZED: 'Authorized, not captured yet',
  CAPTURED: 'Paid',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
  EXPIRED: 'Expired',
};
export const paymentStatusLabel = (status: string) => STATUS_LABELS[status] ?? status;

/** How a refund to the method is named (GraphQL's `PaymentRefundStatus`): one label per value, or this does not compile. */
const REFUND_LABELS: Record<PaymentRefundStatus, string> = { PENDING: 'Sent to the provider', SUCCEEDED: 'Refunded', FAILED: 'Refused by the provider (back on the balance)' };

/** One payment of an order, with what went back on its method (from `orderPayments`). */
export interface PaymentSummaryData {
  paymentId: number;
  method: string;
  status: string;
  orderAmount: number;
  paidThisOrder: boolean;
  providerReference?: string | null;
  closeReason?: string | null;
  createdAt: string;
  refunds: readonly { refundId?: number | null; amount: number; status: PaymentRefundStatus; providerReference?: string | null; updatedAt: string }[];
}

/**
 * An order's payments, newest first: method, state, this order's share, and each refund sent back on
 * the method (a wallet's refunds go back to the balance, which is its method). Shown alike to the
 * customer and in the consoles; `showReference` adds the provider's ids for the consoles.
 */
export function PaymentSummary({ payments, showReference = false, headingId }: { payments: readonly PaymentSummaryData[]; showReference?: boolean; headingId: string }) {
  if (payments.length === 0) return <p className="meta">No payment started yet.</p>;
  return (
    <ul className="payment-summary" aria-labelledby={headingId}>
      {payments.map((p) => (
        <li key={p.paymentId} data-payment-id={p.paymentId}>
          <p>
            <strong>{methodLabel(p.method)}</strong> · <span data-testid="payment-status">{paymentStatusLabel(p.status)}</span> · <Money amount={p.orderAmount} />
            {p.status === 'CAPTURED' && !p.paidThisOrder ? ' · captured after the order was cancelled: sent back' : null}
            {p.closeReason ? ` · ${p.closeReason.replace(/_/g, ' ')}` : null}
          </p>
          <p className="meta">
            Payment #{p.paymentId} · started <time dateTime={p.createdAt}>{formatDateTime(p.createdAt)}</time>
            {showReference && p.providerReference ? <> · provider reference <code className="reference">{p.providerReference}</code></> : null}
          </p>
          {p.refunds.length > 0 ? (
            <table className="lines refunds-to-method">
              <caption>{p.method === 'WALLET' ? 'Refunds to the balance' : `Refunds to ${methodLabel(p.method)}`}</caption>
              <thead>
                <tr>
                  <th scope="col">Refund</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Status</th>
                  {showReference ? <th scope="col">Provider reference</th> : null}
                </tr>
              </thead>
              <tbody>
                {p.refunds.map((r, i) => (
                  <tr key={`${r.refundId ?? 'late'}-${i}`}>
                    <td>{r.refundId ? `#${r.refundId}` : 'Late payment returned'}</td>
                    <td>
                      <Money amount={r.amount} />
                    </td>
                    <td data-testid="refund-status">{REFUND_LABELS[r.status]}</td>
                    {showReference ? <td>{r.providerReference ? <code className="reference">{r.providerReference}</code> : '—'}</td> : null}
                  </tr>
                ))}
              </tbody>
            </table>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
