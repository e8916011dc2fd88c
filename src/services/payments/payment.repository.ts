import { sql } from 'kysely';
import { preparedQuery } from '../../db/prepared-queries.js';
import type { PaymentStatus } from '../../entities/payment.entity.js';
import type { PaymentMethod } from '../../config.js';

/**
 * A new payment and its order links in one statement (the payment's insert in a WITH, the links
 * selected from it and the orders' arrays): on every purchase's path, so prepared once per connection
 * and never built again. Built per call it cost 280 µs of query building a purchase (2026-12-02
 * profile of checkout and pay) and sent its whole text each time.
 * The links' insert runs although nothing reads it (PostgreSQL runs every data-modifying WITH).
 */
export const insertPaymentWithLinks = preparedQuery({
  name: 'insert_payment_with_links',
  examples: [{}],
  build: (
    db,
    _shape: object,
    v: {
      customerId: number;
      method: PaymentMethod;
      status: PaymentStatus;
      amount: number;
      currency: string;
      now: Date;
      capturedAmount: number;
      capturedAt: Date | null;
      orderIds: number[];
      totals: number[];
      captured: boolean;
    },
  ) =>
    db
      .with('p', (w) =>
        w
          .insertInto('Payment')
          .columns(['customer', 'provider', 'status', 'amount', 'currency', 'createdAt', 'updatedAt', 'capturedAmount', 'capturedAt'])
          .expression(
            // Typed parameters: in an INSERT ... SELECT PostgreSQL takes an untyped one as text.
            w.selectNoFrom((e) => [
              e.cast<number>(e.val(v.customerId), 'integer').as('customer'), e.cast<PaymentMethod>(e.val(v.method), 'text').as('provider'),
              e.cast<PaymentStatus>(e.val(v.status), 'text').as('status'), e.cast<number>(e.val(v.amount), 'bigint').as('amount'),
              e.cast<string>(e.val(v.currency), 'text').as('currency'), e.cast<Date>(e.val(v.now), 'timestamptz').as('createdAt'),
              e.cast<Date>(e.val(v.now), 'timestamptz').as('updatedAt'), e.cast<number>(e.val(v.capturedAmount), 'bigint').as('capturedAmount'),
              e.cast<Date | null>(e.val(v.capturedAt), 'timestamptz').as('capturedAt'),
            ]),
          )
          .returning('id as id'),
      )
      .with('links', (w) =>
        w
          .insertInto('PaymentOrder')
          .columns(['payment', 'order', 'amount', 'captured'])
          .expression((eb) =>
            eb
              .selectFrom('p')
              .crossJoin(sql<{ order: number; amount: number }>`unnest(${v.orderIds}::int[], ${v.totals}::bigint[])`.as<'o'>(sql`o("order", amount)`))
              .select((e) => ['p.id as payment', 'o.order as order', 'o.amount as amount', e.cast<boolean>(e.val(v.captured), 'boolean').as('captured')]),
          ),
      )
      .selectFrom('p')
      .select('p.id as id'),
});
