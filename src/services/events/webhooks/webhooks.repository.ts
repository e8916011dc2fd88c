import { fixedStatement } from '../../../db/prepared-queries.js';
import { z } from '../../../shared/validate.js';

/**
 * The webhook dispatcher's statements. Deliveries are written by the relay (outbox.repository.ts);
 * every process's dispatcher claims them here. A claim runs in a transaction holding the endpoint's
 * row lock, so claims of one endpoint take turns across processes and the in-flight count it reads
 * is exact: never more than the cap in flight, and the lowest positions go first.
 */

/** Endpoints with a delivery due now. */
export const dueEndpoints = fixedStatement({
  name: 'webhook_due_endpoints',
  row: z.object({ id: z.number().int() }),
  text: `
select w.id from webhook_endpoint w
 where w.active and exists (
   select 1 from webhook_delivery d where d.endpoint_id = w.id and d.state = 'pending' and d.next_attempt_at <= now())
 order by w.id`,
});

/** Deliveries whose process died mid-attempt (lease over) are due again. */
export const reclaimLapsed = fixedStatement({
  name: 'webhook_reclaim_lapsed',
  row: z.object({ id: z.string() }),
  text: `
update webhook_delivery set state = 'pending', lease_until = null
 where state = 'delivering' and lease_until < now()
returning id::text as id`,
});

export const lockEndpoint = fixedStatement({
  name: 'webhook_lock_endpoint',
  row: z.object({ id: z.number().int() }),
  text: 'select id from webhook_endpoint where id = ? and active for update',
});

/** Parameters: endpoint, cap, lease (ms). Run after `lockEndpoint`, in its transaction. */
export const claimDeliveries = fixedStatement({
  name: 'webhook_claim',
  row: z.object({ id: z.string(), position: z.string(), attempts: z.number().int() }),
  text: `
with in_flight as (select count(*)::int as n from webhook_delivery where endpoint_id = ? and state = 'delivering'),
next as (
  select d.id from webhook_delivery d
   where d.endpoint_id = ? and d.state = 'pending' and d.next_attempt_at <= now()
   order by d.position
   limit greatest(0, ?::int - (select n from in_flight))
)
update webhook_delivery d set state = 'delivering', lease_until = now() + ?::int * interval '1 millisecond', attempts = d.attempts + 1
  from next where d.id = next.id
returning d.id::text as id, d.position::text as position, d.attempts`,
});

/** What a claimed delivery sends: the endpoint and the event. */
export const deliveryContent = fixedStatement({
  name: 'webhook_delivery_content',
  row: z.object({
    id: z.string(),
    url: z.string(),
    secret: z.string(),
    previous_secret: z.string().nullable(),
    event_id: z.string(),
    type: z.string(),
    occurred_at: z.string(),
    shop_ids: z.array(z.number().int()),
    customer_id: z.number().int().nullable(),
    payload: z.unknown(),
  }),
  text: `
select d.id::text as id, w.url, w.secret, case when w.previous_secret_until > now() then w.previous_secret end as previous_secret,
       e.position::text as event_id, e.type, to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       e.shop_ids, e.customer_id, e.payload
  from webhook_delivery d join webhook_endpoint w on w.id = d.endpoint_id join event e on e.id = d.event_id
 where d.id = any(?::bigint[])`,
});

/** The log line of one attempt. Parameters: endpoint, delivery (or null for a ping), status, latency, error, head. */
export const logAttempt = fixedStatement({
  name: 'webhook_log_attempt',
  // The time as stored, so a ping's answer and the log read later agree on it.
  row: z.object({ id: z.string(), attempted_at: z.union([z.date(), z.string()]) }),
  text: `
insert into webhook_attempt (endpoint_id, delivery_id, attempted_at, status_code, latency_ms, error, response_head)
values (?, ?, now(), ?, ?, ?, ?) returning id::text as id, attempted_at`,
});

/**
 * The delivery's outcome. Parameters: delivery, new state, the wait before the next attempt in ms
 * (when pending again), the status. Returns nothing when the delivery is no longer in flight
 * (another process took over a lapsed lease: its outcome counts).
 */
export const settleDelivery = fixedStatement({
  name: 'webhook_settle',
  row: z.object({ endpoint_id: z.number().int() }),
  text: `
update webhook_delivery set state = ?, next_attempt_at = now() + ?::int * interval '1 millisecond', lease_until = null, last_status = ?
 where id = ?::bigint and state = 'delivering'
returning endpoint_id`,
});

/**
 * The endpoint's health after an attempt. Parameters: succeeded, endpoint, the failing bound (s).
 * A success clears `failing_since`, a failure starts it; `overdue`: it has failed for longer than
 * the bound (the caller disables it and emits the event).
 */
export const endpointHealth = fixedStatement({
  name: 'webhook_endpoint_health',
  row: z.object({ overdue: z.boolean() }),
  text: `
update webhook_endpoint set failing_since = case when ?::boolean then null else coalesce(failing_since, now()) end
 where id = ?
returning coalesce(failing_since < now() - ?::int * interval '1 second', false) as overdue`,
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
