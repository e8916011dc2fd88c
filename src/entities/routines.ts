import { Routine } from '@mikro-orm/core';

/**
 * `mf_refuse(code, details)`: raises SQLSTATE `MF001` with the refusal as its detail, one JSON object
 * of the details and the code (`{"code": ..., ...}`), read as data (never from the message). Checkout writes its orders, items, counters and stock decrements in one
 * statement (`src/services/checkout/place-orders-statement.ts`); when one of its guarded writes finds fewer rows than it
 * needs, the statement calls this so that the whole statement, and so every write in it, fails.
 * Created by the CheckoutRefusal migration, changed by StructuredRefusals; declared here so the schema comparator knows it.
 */
export const MfRefuse = new Routine({
  name: 'mf_refuse',
  type: 'function',
  language: 'plpgsql',
  params: {
    code: { type: 'text' },
    details: { type: 'json' },
  },
  returns: { runtimeType: 'number', columnType: 'int' },
  body: "raise exception using errcode = 'MF001', message = 'refused: ' || code,\n          detail = (coalesce(details::jsonb, '{}'::jsonb) || jsonb_build_object('code', code))::text;",
});

/**
 * `mf_relay_round(batch, channel)`: one round of the outbox relay, in one statement (src/services/events/postgres-event-bus.ts).
 * It numbers up to `batch` events that have no position yet, in insertion order, on from the last
 * position given, writes their webhook deliveries, and NOTIFYs `channel` with the new last position
 * (`+` when it wrote deliveries), all in the calling statement's transaction. The relay's advisory
 * lock (`RELAY_LOCK`, src/services/events/outbox.repository.ts) is taken first, so one relay at a time numbers; each
 * statement inside takes its own snapshot, so the events read after the lock are what the previous
 * relay left. With nothing waiting (the poll's rounds) it takes no lock and writes nothing.
 * Sequential scans are off inside it, and the numbered events are reached by `id = any(ids)`: its
 * plans are cached on a connection that lives as long as the process, and a plan made while the
 * table was small (a fresh database) joined the numbered ids to a scan of every event, and kept doing
 * so as the table grew (docs/performance.md and docs/decisions.md, issue 29). Created by the RelayRound migration.
 */
export const MfRelayRound = new Routine({
  name: 'mf_relay_round',
  type: 'function',
  language: 'plpgsql',
  params: {
    batch: { type: 'int' },
    channel: { type: 'text' },
  },
  returns: { runtimeType: 'object', columnType: 'json' },
  expression: `create or replace function mf_relay_round(batch int, channel text) returns json language plpgsql set enable_seqscan to off as $$ declare
  ids bigint[];
  base bigint;
  fanned int;
begin
  select array_agg(w.id order by w.id) into ids from (select e.id from event e where e.position is null order by e.id limit batch) w;
  if ids is null then
    return json_build_object('sequenced', 0, 'last', null, 'deliveries', 0);
  end if;
  perform pg_advisory_xact_lock(7883404617358583928);
  select array_agg(w.id order by w.id) into ids
    from (select e.id from event e where e.position is null order by e.id limit batch for update) w;
  if ids is null then
    return json_build_object('sequenced', 0, 'last', null, 'deliveries', 0);
  end if;
  update event_sequence s set last_position = s.last_position + cardinality(ids) where s.id = 1
  returning s.last_position - cardinality(ids) into base;
  update event e set position = base + array_position(ids, e.id), published_at = clock_timestamp()
   where e.id = any(ids);
  insert into webhook_delivery (endpoint_id, event_id, position, state, next_attempt_at, created_at)
  select w.id, e.id, e.position, 'pending', now(), now()
    from event e
    join webhook_endpoint w on w.active and e.type = any(w.event_types) and (w.shop_id is null or w.shop_id = any(e.shop_ids))
   where e.id = any(ids)
   order by e.position, w.id;
  get diagnostics fanned = row_count;
  perform pg_notify(channel, (base + cardinality(ids))::text || case when fanned > 0 then '+' else '' end);
  return json_build_object('sequenced', cardinality(ids), 'last', (base + cardinality(ids))::text, 'deliveries', fanned);
end $$`,
});

/**
 * Every stored routine the entities rely on. Trigger functions are not listed: MikroORM leaves
 * functions returning `trigger` to their triggers (see the entities' `@Trigger` declarations).
 */
export const routines = [MfRefuse, MfRelayRound];
