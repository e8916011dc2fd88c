import { fixedStatement } from '../db/prepared-queries.js';
import { z } from './validate.js';

/**
 * The outbox's one write from a use case: the events of a transaction, inserted by it just before
 * it commits (`inTransaction`), in emission order. They have no position yet: the relay gives it
 * after commit (src/services/events/outbox.repository.ts). Checkout's one write statement inserts
 * its own events (place-orders.repository.ts), since it has no transaction to add a statement to.
 */
export const storeEvents = fixedStatement({
  name: 'store_events',
  row: z.object({ id: z.string() }),
  text: `
insert into event (type, shop_ids, customer_id, payload, occurred_at)
select e.type, e.shop_ids, e.customer_id, e.payload, e.occurred_at
  from rows from (json_to_recordset(?::json) as (type text, shop_ids int[], customer_id int, payload jsonb, occurred_at timestamptz))
       with ordinality as e(type, shop_ids, customer_id, payload, occurred_at, n)
 order by e.n
returning id::text as id`,
});

/**
 * `storeEvents` while tracing is on (src/tracing.ts): each event also stores the `traceparent` of the
 * request that wrote it, so the relay's round and the event's webhook deliveries link to its trace.
 * A statement of its own, so that with tracing off the one above runs unchanged.
 */
export const storeTracedEvents = fixedStatement({
  name: 'store_events_traced',
  row: z.object({ id: z.string() }),
  text: `
insert into event (type, shop_ids, customer_id, payload, occurred_at, trace_parent)
select e.type, e.shop_ids, e.customer_id, e.payload, e.occurred_at, e.trace_parent
  from rows from (json_to_recordset(?::json) as (type text, shop_ids int[], customer_id int, payload jsonb, occurred_at timestamptz, trace_parent text))
       with ordinality as e(type, shop_ids, customer_id, payload, occurred_at, trace_parent, n)
 order by e.n
returning id::text as id`,
});
