import { Migration } from '@mikro-orm/migrations';

/**
 * The outbox relay's round becomes one stored function, `mf_relay_round` (src/entities/routines.ts):
 * one statement per round instead of five, whose plans reach events by primary key whatever the
 * table's size when they were made. The single statement it replaces
 * numbered the events through a hash join over a sequential scan of the whole `event` table: at
 * 50,000 stored events a round took 5-7 ms, and more with every event kept (docs/performance.md,
 * issue 29).
 *
 * `event_published_at_index` goes: retention now walks the oldest positions (`event_prune`), and the
 * index was written twice for every event (at insert, and again when the relay numbered it).
 */
export class Migration20261126900000RelayRound extends Migration {
  override name = 'Migration20261126900000RelayRound';

  override async up(): Promise<void> {
    this.addSql(`create or replace function mf_relay_round(batch int, channel text) returns json language plpgsql set enable_seqscan to off as $$ declare
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
end $$`);
    this.addSql('drop index "event_published_at_index"');
  }

  override async down(): Promise<void> {
    this.addSql('create index "event_published_at_index" on "event" ("published_at")');
    this.addSql('drop function mf_relay_round(int, text)');
  }
}
