import { OrderStatus } from '../../entities/order.entity.js';
import { z } from '../../shared/validate.js';
import { count } from '../../shared/view-fields.js';

/** The customer's orders in each state: one count per order status, named as the status in camelCase. */
export const OrderCountsView = z.strictObject({
  pendingPayment: count,
  awaitingGroup: count,
  paid: count,
  shipped: count,
  delivered: count,
  completed: count.describe('Delivered orders whose after-sale window is over'),
  cancelled: count,
});
export type OrderCountsView = z.infer<typeof OrderCountsView>;

/** Each order status's count in OrderCountsView. */
export const orderCountOf: Record<OrderStatus, keyof OrderCountsView> = {
  [OrderStatus.PendingPayment]: 'pendingPayment',
  [OrderStatus.AwaitingGroup]: 'awaitingGroup',
  [OrderStatus.Paid]: 'paid',
  [OrderStatus.Shipped]: 'shipped',
  [OrderStatus.Delivered]: 'delivered',
  [OrderStatus.Completed]: 'completed',
  [OrderStatus.Cancelled]: 'cancelled',
};

/** The customer's account summary: REST publishes this schema and GraphQL's type is made from it. */
export const AccountStatsView = z.strictObject({
  currency: z.string(),
  // Minor units of the base currency.
  available: z.number().int(),
  frozen: z.number().int(),
  points: z.number().int(),
  orders: OrderCountsView,
});
export type AccountStatsView = z.infer<typeof AccountStatsView>;
