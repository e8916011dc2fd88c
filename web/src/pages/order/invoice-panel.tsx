import { useState } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { Money } from '../../money/currency-context';
import { Missing, QueryResult } from '../../ui/query-result';
import { formatDate } from '../../ui/dates';

const OrderInvoice = graphql(`
  query OrderInvoice($orderId: Int!) {
    orderInvoice(orderId: $orderId) {
      status
      invoiceNo
      title
      taxNumber
      amount
      issuedAt
    }
  }
`);

function Invoice({ orderId }: { orderId: number }) {
  const [result] = useQuery({ query: OrderInvoice, variables: { orderId }, requestPolicy: 'network-only' });
  return (
    <QueryResult result={result} what="Loading the invoice">
      {({ orderInvoice: inv }) =>
        !inv ? (
          <Missing error={result.error} what="invoice" />
        ) : inv.status === 'ISSUED' ? (
          <dl className="totals">
            <dt>Invoice number</dt>
            <dd>{inv.invoiceNo}</dd>
            {inv.title ? (
              <>
                <dt>Title</dt>
                <dd>{inv.title}</dd>
              </>
            ) : null}
            <dt>Amount</dt>
            <dd>
              <Money amount={inv.amount} />
            </dd>
            <dt>Issued</dt>
            <dd>{inv.issuedAt ? formatDate(inv.issuedAt) : null}</dd>
          </dl>
        ) : (
          <p>
            The shop has not issued the invoice yet (amount <Money amount={inv.amount} />).
          </p>
        )
      }
    </QueryResult>
  );
}

export function InvoicePanel({ orderId }: { orderId: number }) {
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="invoice-heading">
      <h2 id="invoice-heading">Invoice</h2>
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open}>
        {open ? 'Hide invoice' : 'Show invoice'}
      </button>
      {open ? <Invoice orderId={orderId} /> : null}
    </section>
  );
}
