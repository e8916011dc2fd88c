import type { OrderStatus } from '../gql/graphql';

const LABELS: Record<OrderStatus, string> = {
  PendingPayment: 'Waiting for payment',
  AwaitingGroup: 'Waiting for the group',
  Paid: 'Paid',
  Shipped: 'Shipped',
  Delivered: 'Delivered',
  Cancelled: 'Cancelled',
};

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`status status-${status.toLowerCase()}`}>{LABELS[status]}</span>;
}
