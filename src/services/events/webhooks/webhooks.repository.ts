import { fixedStatement } from '../../../db/prepared-queries.js';
import { z } from '../../../shared/validate.js';
import { EventRow } from '../outbox.repository.js';

/**
 * The webhook dispatcher's statements. Deliveries are written by the relay (outbox.repository.ts);
 * every process's dispatcher claims them here, for every endpoint at once. A claim runs in a
 * transaction holding the row locks of the endpoints it claims for, so claims of one endpoint take
 * turns across processes and the in-flight count it reads is exact: never more than the cap in
 * flight, and the lowest positions go first. Outcomes are settled in batches, one statement each.
 */

/** Deliveries whose process died mid-attempt (lease over) are due again. */
export const reclaimLapsed = fixedStatement({
  name: 'webhook_reclaim_lapsed',
  row: z.object({ id: z.string() }),
  text: `
update webhook_delivery set state = 'pending', lease_until = null
 where state = 'delivering' and lease_until < now()
returning id::text as id`,
});

/**
 * The endpoints with a delivery due now, locked for the claim that follows in the same transaction.
 * Endpoints another process is claiming for are skipped (it claims their due deliveries itself): no
 * process waits for another's claim. In order (parameter: true when WEBHOOK_MAX_CONCURRENCY is 1) an
 * endpoint is due only when its lowest waiting delivery is: later ones wait behind a failed one.
 */
export const lockDueEndpoints = fixedStatement({
  name: 'webhook_lock_due_endpoints',
  row: z.object({ id: z.number().int() }),
  text: `
select w.id from webhook_endpoint w
 where w.active and exists (
   select 1 from (
     select d.next_attempt_at from webhook_delivery d where d.endpoint_id = w.id and d.state = 'pending'
      order by d.position limit case when ?::boolean then 1 end
   ) waiting where waiting.next_attempt_at <= now())
 order by w.id
   for update of w skip locked`,
});

/** What a claimed delivery sends: its endpoint, and its event as stored (`id` is the delivery's, `event_id` the event's position). */
export const ClaimedDelivery = EventRow.extend({
  endpoint_id: z.number().int(),
  attempts: z.number().int(),
  url: z.string(),
  secret: z.string(),
  previous_secret: z.string().nullable(),
  event_id: z.string(),
  /** The `traceparent` of the request that wrote the event, when tracing was on: the delivery's trace links to it. */
  trace_parent: z.string().nullable(),
});
export type ClaimedDelivery = z.infer<typeof ClaimedDelivery>;

/**
 * Claims, for each endpoint locked by `lockDueEndpoints` (in its transaction, so the in-flight count
 * read here, by a statement after the lock, is exact), its lowest due positions up to the cap less
 * what is in flight, and answers what each sends. In order (cap 1), only the endpoint's lowest
 * waiting delivery may go, once it is due: a delivery waiting for its retry holds back every later
 * one, as Shopify's and Stripe's ordered deliveries do. Parameters: cap, endpoints (int[]), in order
 * (boolean), lease (ms).
 */
export const claimDeliveries = fixedStatement({
  name: 'webhook_claim',
  row: ClaimedDelivery,
  text: `
with room as (
  select w.id, ?::int - (select count(*) from webhook_delivery f where f.endpoint_id = w.id and f.state = 'delivering')::int as free
    from webhook_endpoint w where w.id = any(?::int[])
),
next as (
  select n.id from room r
  cross join lateral (
    select d.id, d.next_attempt_at from webhook_delivery d
     where d.endpoint_id = r.id and d.state = 'pending' and (?::boolean or d.next_attempt_at <= now())
     order by d.position limit greatest(r.free, 0)
  ) n
  where n.next_attempt_at <= now()
),
claimed as (
  update webhook_delivery d set state = 'delivering', lease_until = now() + ?::int * interval '1 millisecond', attempts = d.attempts + 1
    from next where d.id = next.id
  returning d.id, d.endpoint_id, d.event_id, d.attempts
)
select c.id::text as id, c.endpoint_id, c.attempts, w.url, w.secret,
       case when w.previous_secret_until > now() then w.previous_secret end as previous_secret,
       e.position::text as event_id, e.type, to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       e.shop_ids, e.customer_id, e.payload, e.trace_parent
  from claimed c join webhook_endpoint w on w.id = c.endpoint_id join event e on e.id = c.event_id
 order by c.endpoint_id, e.position`,
});

/** The log line of one attempt. Parameters: endpoint, delivery (or null for a ping), status, latency, error, head. */
export const logAttempt = fixedStatement({
  name: 'webhook_log_attempt',
  // The time as stored (text, as the pool returns a timestamp), so a ping's answer and the log read later agree on it.
  row: z.object({ id: z.string(), attempted_at: z.string() }),
  text: `
insert into webhook_attempt (endpoint_id, delivery_id, attempted_at, status_code, latency_ms, error, response_head)
values (?, ?, now(), ?, ?, ?, ?) returning id::text as id, attempted_at`,
});

/**
 * The outcomes of a batch of attempts, in one statement: each attempt logged, each delivery settled
 * (delivered, pending again after its wait, or failed) unless it is no longer in flight (another
 * process took over a lapsed lease: its outcome counts), and each endpoint's health: the last
 * attempt succeeded clears `failing_since`, a failure starts it when it was clear (the row is written
 * only when it changes). An attempt whose delivery is gone (its endpoint was deleted meanwhile, or
 * its event pruned) is not logged: its log went with it, and the others of the batch are settled.
 * Answers the endpoints whose attempts in the batch all failed and that have failed for longer than
 * the bound: the caller disables them and emits the event.
 * Parameters: the outcomes (JSON: n, delivery_id, endpoint_id, attempted_at, status, latency_ms,
 * error, head, ok, state, wait_ms), the failing bound (s).
 */
export const settleAttempts = fixedStatement({
  name: 'webhook_settle_attempts',
  row: z.object({ endpoint_id: z.number().int() }),
  text: `
with outcome as (
  select * from json_to_recordset(?::json) as o(n int, delivery_id bigint, endpoint_id int, attempted_at timestamptz, status int,
                                                latency_ms int, error text, head text, ok boolean, state text, wait_ms int)
),
logged as (
  insert into webhook_attempt (endpoint_id, delivery_id, attempted_at, status_code, latency_ms, error, response_head)
  select o.endpoint_id, o.delivery_id, o.attempted_at, o.status, o.latency_ms, o.error, o.head from outcome o
   where exists (select 1 from webhook_delivery d where d.id = o.delivery_id)
   order by o.n
),
settled as (
  update webhook_delivery d set state = o.state, next_attempt_at = now() + o.wait_ms * interval '1 millisecond', lease_until = null, last_status = o.status
    from outcome o where d.id = o.delivery_id and d.state = 'delivering'
),
health as (
  select endpoint_id, bool_or(ok) as any_ok, (array_agg(ok order by n desc))[1] as last_ok from outcome group by endpoint_id
),
changed as (
  update webhook_endpoint w set failing_since = case when h.last_ok then null else now() end
    from health h
   where w.id = h.endpoint_id
     and case when h.last_ok then w.failing_since is not null when h.any_ok then true else w.failing_since is null end
)
select w.id as endpoint_id from webhook_endpoint w join health h on h.endpoint_id = w.id
 where w.active and not h.any_ok and w.failing_since < now() - ?::int * interval '1 second'
 order by w.id`,
});

/** Disables an endpoint (410 Gone, failing, or its owner), cancelling what waits for it. Returns the endpoint when it was active. */
export const disableEndpoint = fixedStatement({
  name: 'webhook_disable',
  row: z.object({ id: z.number().int(), shop_id: z.number().int().nullable(), url: z.string() }),
  text: `
with disabled as (
  update webhook_endpoint set active = false, disabled_reason = ? where id = ? and active returning id, shop_id, url
),
cancelled as (
  update webhook_delivery d set state = 'cancelled', lease_until = null
    from disabled w where d.endpoint_id = w.id and d.state = 'pending'
  returning d.id
)
select id, shop_id, url from disabled where (select count(*) from cancelled) >= 0`,
});
