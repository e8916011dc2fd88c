import { useState } from 'react';
import { Link } from 'react-router';
import { useMutation } from 'urql';
import { graphql } from '../../gql';
import type { PlacedOrderFieldsFragment } from '../../gql/graphql';
import { Money } from '../../money/currency-context';
import { ErrorNotice } from '../../ui/query-state';
import { refusalOf } from '../../api/errors';
import { useIdempotencyKey } from '../../api/idempotency-key';
import { OrderTotals } from '../../ui/order-totals';
import { OrderStatusBadge } from '../../ui/order-status';
import { Cashier } from './cashier';

export const PlacedOrderFields = graphql(`
  fragment PlacedOrderFields on Order {
    id
    status
    itemsTotal
    discount
    freightFee
    total
    groupId
    shop {
      id
      name
    }
    items {
      id
      productName
      skuName
      quantity
      amount
      pricing
    }
  }
`);

const PayCheckout = graphql(`
  mutation PayCheckout($input: PayCheckoutInput!) {
    payCheckout(input: $input) {
      orders {
        ...PlacedOrderFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function PlacedOrder({ order }: { order: PlacedOrderFieldsFragment }) {
  return (
    <li className="placed-order">
      <h3>
        Order #{order.id} from {order.shop.name} <OrderStatusBadge status={order.status} />
      </h3>
      <ul>
        {order.items.map((i) => (
          <li key={i.id}>
            {i.productName} ({i.skuName}) × {i.quantity}: <Money amount={i.amount} />
            {i.pricing === 'FLASH_SALE' ? <span className="badge">Flash sale</span> : i.pricing === 'GROUP_BUY' ? <span className="badge">Group price</span> : null}
          </li>
        ))}
      </ul>
      <OrderTotals order={order} />
      {order.status !== 'PENDING_PAYMENT' ? (
        <p role="status">
          {order.status === 'AWAITING_GROUP' ? 'Seat paid: the amount is held until the group fills.' : 'Paid. Thank you!'} <Link to={`/orders/${order.id}`}>View the order</Link>
        </p>
      ) : null}
    </li>
  );
}

/**
 * The orders checkout created, with the server's freight and totals, paid together in one payment
 * (all or none: each shop still gets its own order): from the balance here, or through a gateway
 * chosen at the cashier.
 */
export function PlacedOrders({ orders: placed }: { orders: PlacedOrderFieldsFragment[] }) {
  const [state, pay] = useMutation(PayCheckout);
  const idempotency = useIdempotencyKey();
  const [orders, setOrders] = useState(placed);
  const pending = orders.filter((o) => o.status === 'PENDING_PAYMENT');
  const due = pending.reduce((sum, o) => sum + o.total, 0);
  const submit = async () => {
    const result = await pay({ input: { orderIds: pending.map((o) => o.id), idempotencyKey: idempotency.key() } });
    if (!result.error?.networkError) idempotency.answered();
    const paid = result.data?.payCheckout.orders;
    if (paid) setOrders(orders.map((o) => paid.find((p) => p.id === o.id) ?? o));
  };
  const refused = refusalOf(state.error, state.data?.payCheckout);
  return (
    <section aria-labelledby="placed-heading">
      <h2 id="placed-heading">{orders.length === 1 ? 'Your order' : `Your ${orders.length} orders (one per shop)`}</h2>
      <ul className="placed-orders">
        {orders.map((o) => (
          <PlacedOrder key={o.id} order={o} />
        ))}
      </ul>
      {refused ? <ErrorNotice error={refused} title="Not paid" /> : null}
      {pending.length > 0 ? (
        <div className="pay-bar">
          <p>
            To pay: <Money amount={due} className="money price-now" />
          </p>
          <Cashier
            orderIds={pending.map((o) => o.id)}
            wallet={{ label: state.fetching ? 'Paying…' : pending.length === 1 ? `Pay order #${pending[0].id} from balance` : `Pay all ${pending.length} orders from balance`, pay: () => void submit(), busy: state.fetching }}
          />
        </div>
      ) : null}
    </section>
  );
}
