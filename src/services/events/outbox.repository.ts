import { fixedStatement } from '../../db/prepared-queries.js';
import { z } from '../../shared/validate.js';

/**
 * The outbox's statements after commit (how events get in: src/shared/outbox.repository.ts).
 *
 * The relay runs `sequenceEvents` on its own connection, inside a transaction holding
 * `RELAY_LOCK` (an advisory lock: one relay at a time across every process). Under the lock it
 * finds the events that have no position yet, in insertion order, numbers them on from the last
 * position given, and writes one webhook delivery per event and matching endpoint, all in the same
 * transaction. Since relays take turns and each statement reads what committed before it, a reader
 * that sees position n has seen every position below it: positions never appear out of order, even
 * though the use cases' transactions commit in any order of their ids.
 */

/** pg_advisory_xact_lock key of the relay ("mfoutbox" as ASCII). */
export const RELAY_LOCK = '7883404617358583928';

/** The relay's statements, run on its own connection (numbered placeholders, plain `pg`). */
export const RELAY_SQL = {
  lock: 'select pg_advisory_xact_lock($1::bigint)',
  sequence: `
with next as (
  select id from event where position is null order by id limit $1 for update
),
numbered as (select id, row_number() over (order by id) as n from next),
counter as (
  update event_sequence set last_position = last_position + (select count(*) from numbered)
   where id = 1 and exists (select 1 from numbered)
  returning last_position - (select count(*) from numbered) as base
),
sequenced as (
  update event e set position = c.base + n.n, published_at = now()
    from numbered n cross join counter c
   where e.id = n.id
  returning e.id, e.position, e.type, e.shop_ids
),
fanned as (
  insert into webhook_delivery (endpoint_id, event_id, position, state, next_attempt_at, created_at)
  select w.id, s.id, s.position, 'pending', now(), now()
    from sequenced s
    join webhook_endpoint w on w.active and s.type = any(w.event_types) and (w.shop_id is null or w.shop_id = any(s.shop_ids))
   order by s.position, w.id
  returning endpoint_id
)
select (select count(*) from sequenced)::int as sequenced,
       (select max(position) from sequenced)::text as last,
       (select count(*) from fanned)::int as deliveries`,
  notify: 'select pg_notify($1, $2)',
  lastPosition: 'select last_position::text as last from event_sequence where id = 1',
  /** The committed events after a position, in order: what a process hands its live subscribers. */
  after: `
select position::text as id, type, to_char(occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as occurred_at,
       shop_ids, customer_id, payload
  from event where position > $1::bigint order by position limit $2`,
} as const;

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
 * Retention: deletes the published events older than the cut-off, as a prefix of positions (so
 * `pruned_through` says exactly which positions may be gone), with their webhook deliveries and log.
 * Parameter: the retention in seconds.
 */
export const pruneEvents = fixedStatement({
  name: 'event_prune',
  row: z.object({ pruned: z.number().int() }),
  text: `
with cut as (
  select max(position) as p from event where published_at < now() - ?::int * interval '1 second'
),
gone as (delete from event where position <= (select p from cut) returning position),
moved as (
  update event_sequence set pruned_through = greatest(pruned_through, (select max(position) from gone))
   where id = 1 and exists (select 1 from gone)
  returning 1
)
select (select count(*) from gone)::int as pruned`,
});
