import { fixedStatement } from '../../db/prepared-queries.js';
import { z } from '../../shared/validate.js';
import type pg from 'pg';
import type { Backlog } from '../../metrics.js';

/**
 * The outbox's statements after commit (how events get in: src/shared/outbox.repository.ts).
 *
 * The relay's round is one statement, the stored function `mf_relay_round` (src/entities/routines.ts),
 * run on the relay's own connection: under `RELAY_LOCK` (an advisory lock: one relay at a time across
 * every process) it finds the events that have no position yet, in insertion order, numbers them on
 * from the last position given, writes one webhook delivery per event and matching endpoint, and
 * NOTIFYs the new last position, all in one transaction. Since relays take turns and each reads what
 * committed before it, a reader that sees position n has seen every position below it: positions
 * never appear out of order, even though the use cases' transactions commit in any order of their ids.
 */

/** pg_advisory_xact_lock key of the relay ("mfoutbox" as ASCII); `mf_relay_round` has it written in. */
export const RELAY_LOCK = '7883404617358583928';

/** The relay's statements, run on its own connection (numbered placeholders, plain `pg`). */
export const RELAY_SQL = {
  /** Parameters: the batch size, the NOTIFY channel. */
  round: 'select mf_relay_round($1::int, $2::text) as round',
  lastPosition: 'select last_position::text as last from event_sequence where id = 1',
  /** With tracing on: the trace contexts of the events a round numbered (positions after $1, up to $2), for the round's span links. */
  traceParents: 'select distinct trace_parent from event where position > $1::bigint and position <= $2::bigint and trace_parent is not null',
  /** The committed events after a position, in order: what a process hands its live subscribers. */
  after: `
select position::text as id, type, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       shop_ids, customer_id, payload
  from event where position > $1::bigint order by position limit $2`,
} as const;

/** What `mf_relay_round` answers: how many events it numbered, the last position given (null: none), the deliveries written. */
export const SequencedRow = z.object({ sequenced: z.number().int(), last: z.string().nullable(), deliveries: z.number().int() });

/** An event as stored, in its public form's names. */
export const EventRow = z.object({
  id: z.string(),
  type: z.string(),
  occurred_at: z.string(),
  shop_ids: z.array(z.number().int()),
  customer_id: z.number().int().nullable(),
  payload: z.record(z.string(), z.unknown()),
});
export type EventRow = z.infer<typeof EventRow>;

/**
 * A feed's page (replay of a subscription, `GET /api/events`): the events after a position that the
 * caller may see, of the asked types, in order. One statement per audience, so each uses its index.
 * Parameters: after, types (text[]), limit; then the shop or the customer. Each text is complete
 * (the same columns three times), as the snapshot and the ownership test want.
 */
export const feedForAdmin = fixedStatement({
  name: 'event_feed_admin',
  row: EventRow,
  text: `select position::text as id, type, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       shop_ids, customer_id, payload
  from event where position > ?::bigint and type = any(?::text[]) order by position limit ?`,
});

export const feedForShop = fixedStatement({
  name: 'event_feed_shop',
  row: EventRow,
  text: `select position::text as id, type, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       shop_ids, customer_id, payload
  from event
 where position > ?::bigint and type = any(?::text[]) and shop_ids @> array[?::int]
 order by position limit ?`,
});

export const feedForCustomer = fixedStatement({
  name: 'event_feed_customer',
  row: EventRow,
  text: `select position::text as id, type, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       shop_ids, customer_id, payload
  from event
 where position > ?::bigint and type = any(?::text[]) and customer_id = ?::int
 order by position limit ?`,
});

/** The retention horizon: a feed resumed after an earlier position may have missed pruned events. */
export const retentionHorizon = fixedStatement({
  name: 'event_retention_horizon',
  row: z.object({ pruned_through: z.string(), last_position: z.string() }),
  text: 'select pruned_through::text as pruned_through, last_position::text as last_position from event_sequence where id = 1',
});

/**
 * Retention: deletes the events published before the cut-off, as a prefix of positions (so
 * `pruned_through` says exactly which positions may be gone), with their webhook deliveries and log.
 * The prefix ends before the oldest kept event that is still young: found by walking positions from
 * the last pruned one (the relay publishes in position order), so no index on `published_at` is
 * written for every event. Parameter: the retention in seconds.
 */
export const pruneEvents = fixedStatement({
  name: 'event_prune',
  row: z.object({ pruned: z.number().int() }),
  text: `
with horizon as (
  select s.pruned_through, now() - ?::int * interval '1 second' as cutoff from event_sequence s where s.id = 1
),
cut as (
  select coalesce(
           (select e.position - 1 from event e, horizon h
             where e.position > h.pruned_through and e.published_at >= h.cutoff order by e.position limit 1),
           (select max(e.position) from event e)) as p
),
gone as (delete from event where position <= (select p from cut) returning position),
moved as (
  update event_sequence set pruned_through = greatest(pruned_through, (select max(position) from gone))
   where id = 1 and exists (select 1 from gone)
  returning 1
)
select (select count(*) from gone)::int as pruned`,
});

/**
 * The background work waiting, for the metrics (src/metrics.ts `Backlog`), read at each scrape: the
 * events no relay has numbered yet (the `event_unpublished_index` partial index) and the webhook
 * deliveries pending (`webhook_delivery_due_index`), with the age of the oldest of each, the
 * endpoints with the most waiting (the first `WEBHOOK_BACKLOG_TOP` of src/metrics.ts: `limit 10`, written
 * out so the statement is one complete text), and the running flash sales' items sold out.
 */
export const BACKLOG_SQL = `select
  (select count(*)::int from event where position is null) as outbox_events,
  (select coalesce(extract(epoch from now() - min(occurred_at)), 0)::float8 from event where position is null) as outbox_seconds,
  (select count(*)::int from webhook_delivery where state = 'pending') as webhook_pending,
  (select count(distinct endpoint_id)::int from webhook_delivery where state = 'pending') as webhook_endpoints,
  (select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 from webhook_delivery where state = 'pending') as webhook_oldest,
  (select coalesce(json_agg(json_build_object('endpoint_id', t.endpoint_id, 'pending', t.pending) order by t.pending desc, t.endpoint_id), '[]'::json)
     from (select endpoint_id, count(*)::int as pending from webhook_delivery where state = 'pending'
            group by endpoint_id order by pending desc, endpoint_id limit 10) t) as webhook_top,
  (select count(*)::int from flash_sale_item i where i.enabled and i.sale_window @> now() and i.remaining_stock = 0) as flash_sold_out`;

const BacklogRow = z.object({
  outbox_events: z.number(),
  outbox_seconds: z.number(),
  webhook_pending: z.number(),
  webhook_endpoints: z.number(),
  webhook_oldest: z.number(),
  webhook_top: z.array(z.object({ endpoint_id: z.number().int(), pending: z.number().int() })),
  flash_sold_out: z.number(),
});

export async function readBacklog(pool: pg.Pool): Promise<Backlog> {
  const { rows } = await pool.query(BACKLOG_SQL);
  const row = BacklogRow.parse(rows[0]);
  return {
    outboxEvents: row.outbox_events,
    outboxSeconds: row.outbox_seconds,
    webhookPending: row.webhook_pending,
    webhookEndpoints: row.webhook_endpoints,
    webhookOldestSeconds: row.webhook_oldest,
    webhookTop: row.webhook_top.map((t) => ({ endpointId: t.endpoint_id, pending: t.pending })),
    flashSaleItemsSoldOut: row.flash_sold_out,
  };
}
