import { useQuery } from 'urql';
import { graphql } from './gql';
import { ErrorNotice, Loading } from '../ui/query-state';
import { PaymentSummary } from '../ui/payment-summary';

const ConsoleOrderPayments = graphql(`
  query ConsoleOrderPayments($orderId: Int!) {
    orderPayments(orderId: $orderId) {
      ...OrderPaymentFields
    }
  }
`);

/**
 * An order's payments in a console: method, state, the order's share, the provider's reference and
 * each refund sent back on the method. A shop sees its own order's share only (the server's rule).
 */
export function OrderPaymentsPanel({ orderId }: { orderId: number }) {
  const [result] = useQuery({ query: ConsoleOrderPayments, variables: { orderId }, requestPolicy: 'cache-and-network' });
  const headingId = `order-${orderId}-payments`;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid="order-payments">
      <h2 id={headingId}>Payment and refunds</h2>
      {result.error && !result.data?.orderPayments ? <ErrorNotice error={result.error} title="The payment could not be read" /> : null}
      {result.data?.orderPayments ? <PaymentSummary payments={result.data.orderPayments} showReference headingId={headingId} /> : result.fetching ? <Loading what="Loading the payment" /> : null}
    </section>
  );
}
