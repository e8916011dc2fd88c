import { expressionBuilder, sql, type Expression } from 'kysely';
import type { Database } from '../../db/typed-sql.js';
import { RefundStatus } from '../../entities/refund.entity.js';

/**
 * What an order finally cost the customer, on its row's `id` and `total`: its total less the refunds
 * completed so far. Invoices are for it and delivery earns points on it.
 */
export function netPaid(order: { id: Expression<number>; total: Expression<number> }) {
  const eb = expressionBuilder<Database, never>();
  const refunded = eb
    .selectFrom('Refund as r')
    .select((r) => r.fn.sum<number>('r.amount').as('refunded'))
    .where('r.order', '=', order.id)
    .where('r.status', '=', RefundStatus.Completed);
  return eb.cast<number>(eb(order.total, '-', eb.fn.coalesce(refunded, sql.lit(0))), 'integer');
}
