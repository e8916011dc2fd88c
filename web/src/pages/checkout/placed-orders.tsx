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

const PayOrder = graphql(`
  mutation PayOrder($input: PayOrderInput!) {
    payOrder(input: $input) {
      order {
        ...PlacedOrderFields
      }
      userErrors {
        ...UserErrorFields
      }
    }
  }
`);

function PlacedOrder({ order }: { order: PlacedOrderFieldsFragment }) {
  const [state, pay] = useMutation(PayOrder);
  const idempotency = useIdempotencyKey();
  const [current, setCurrent] = useState(order);
  const submit = async () => {
    const result = await pay({ input: { orderId: current.id, idempotencyKey: idempotency.key() } });
    if (!result.error?.networkError) idempotency.answered();
    const paid = result.data?.payOrder.order;
    if (paid) setCurrent(paid);
  };
  const refused = refusalOf(state.error, state.data?.payOrder);
  return (
    <li className="placed-order">
      <h3>
        Order #{current.id} from {current.shop.name} <OrderStatusBadge status={current.status} />
      </h3>
      <ul>
        {current.items.map((i) => (
          <li key={i.id}>
            {i.productName} ({i.skuName}) × {i.quantity}: <Money amount={i.amount} />
            {i.pricing === 'FLASH_SALE' ? <span className="badge">Flash sale</span> : i.pricing === 'GROUP_BUY' ? <span className="badge">Group price</span> : null}
          </li>
        ))}
      </ul>
      <OrderTotals order={current} />
      {refused ? <ErrorNotice error={refused} title="Not paid" /> : null}
      {current.status === 'PENDING_PAYMENT' ? (
        <button type="button" className="primary" onClick={submit} disabled={state.fetching}>
          {state.fetching ? 'Paying…' : `Pay order #${current.id} from balance`}
        </button>
      ) : (
        <p role="status">
          {current.status === 'AWAITING_GROUP' ? 'Seat paid: the amount is held until the group fills.' : 'Paid. Thank you!'} <Link to={`/orders/${current.id}`}>View the order</Link>
        </p>
      )}
    </li>
  );
}

/** The orders checkout created, with the server's freight and totals, each paid on its own. */
export function PlacedOrders({ orders }: { orders: PlacedOrderFieldsFragment[] }) {
  return (
    <section aria-labelledby="placed-heading">
      <h2 id="placed-heading">{orders.length === 1 ? 'Your order' : `Your ${orders.length} orders (one per shop)`}</h2>
      <ul className="placed-orders">
        {orders.map((o) => (
          <PlacedOrder key={o.id} order={o} />
        ))}
      </ul>
    </section>
  );
}
