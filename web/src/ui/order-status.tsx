import type { OrderStatus } from '../gql/graphql';

const LABELS: Record<OrderStatus, string> = {
  PENDING_PAYMENT: 'Waiting for payment',
  AWAITING_GROUP: 'Waiting for the group',
  PAID: 'Paid',
  SHIPPED: 'Shipped',
  DELIVERED: 'Delivered',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
};

/** How the storefront names an order's state. */
export const orderStatusLabel = (status: OrderStatus) => LABELS[status];

export function OrderStatusBadge({ status }: { status: OrderStatus }) {
  return <span className={`status status-${status.toLowerCase().replace(/_/g, '-')}`}>{LABELS[status]}</span>;
}
