import { Migration } from '@mikro-orm/migrations';

/**
 * The transactional outbox and outbound webhooks (issue 29, docs/decisions.md "Durable events").
 *
 * `event`: every domain event, inserted by the transaction (or the one statement) that made the
 * change. `id` is the order of insertion; `position` is given by the relay, one relay at a time, in
 * the order it finds events committed, so a reader that saw position n has seen every committed
 * event before it (ids are handed out before commit and may commit out of order; positions may not).
 * `position` is the event's public id: what `after` and the webhook-id name.
 *
 * `event_sequence` (one row): the last position given, and the last one pruned by retention.
 *
 * `webhook_endpoint`, `webhook_delivery` (one per event and endpoint, written by the relay in the
 * transaction that gives the event its position), `webhook_attempt` (the delivery log).
 */
export class Migration20261126400000Outbox extends Migration {
  override name = 'Migration20261126400000Outbox';

  override async up(): Promise<void> {
    this.addSql(`create table "event" ("id" bigserial primary key, "position" bigint null, "type" text not null, "shop_ids" int[] not null, "customer_id" int null, "payload" jsonb not null, "occurred_at" timestamptz not null, "published_at" timestamptz null)`);
    this.addSql(`alter table "event" add constraint "event_position_unique" unique ("position")`);
    // The relay's queue: what has no position yet, in insertion order.
    this.addSql(`create index "event_unpublished_index" on "event" ("id") where position is null`);
    this.addSql(`create index "event_customer_position_index" on "event" ("customer_id", "position") where customer_id is not null`);
    this.addSql(`create index "event_shop_ids_index" on "event" using gin ("shop_ids")`);
    this.addSql(`create index "event_published_at_index" on "event" ("published_at")`);

    this.addSql(`create table "event_sequence" ("id" int not null, "last_position" bigint not null, "pruned_through" bigint not null, constraint "event_sequence_pkey" primary key ("id"))`);
    this.addSql(`alter table "event_sequence" add constraint "event_sequence_id_check" check (id = 1)`);
    this.addSql(`insert into "event_sequence" ("id", "last_position", "pruned_through") values (1, 0, 0)`);

    this.addSql(`create table "webhook_endpoint" ("id" serial primary key, "shop_id" int null, "url" text not null, "event_types" text[] not null, "active" boolean not null default true, "secret" text not null, "previous_secret" text null, "previous_secret_until" timestamptz null, "failing_since" timestamptz null, "disabled_reason" text null, "created_at" timestamptz not null)`);
    this.addSql(`create index "webhook_endpoint_shop_id_index" on "webhook_endpoint" ("shop_id")`);
    this.addSql(`alter table "webhook_endpoint" add constraint "webhook_endpoint_shop_id_foreign" foreign key ("shop_id") references "shop" ("id") on delete cascade`);
    this.addSql(`alter table "webhook_endpoint" add constraint "webhook_endpoint_disabled_reason_check" check ("disabled_reason" in ('failing', 'gone', 'operator'))`);

    this.addSql(`create table "webhook_delivery" ("id" bigserial primary key, "endpoint_id" int not null, "event_id" bigint not null, "position" bigint not null, "state" text not null, "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "lease_until" timestamptz null, "last_status" int null, "created_at" timestamptz not null)`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_endpoint_id_event_id_unique" unique ("endpoint_id", "event_id")`);
    this.addSql(`create index "webhook_delivery_event_id_index" on "webhook_delivery" ("event_id")`);
    // What is due, per endpoint in position order; and what is in flight (the concurrency cap).
    this.addSql(`create index "webhook_delivery_due_index" on "webhook_delivery" ("endpoint_id", "position") where state = 'pending'`);
    this.addSql(`create index "webhook_delivery_in_flight_index" on "webhook_delivery" ("endpoint_id") where state = 'delivering'`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoint" ("id") on delete cascade`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_event_id_foreign" foreign key ("event_id") references "event" ("id") on delete cascade`);
    this.addSql(`alter table "webhook_delivery" add constraint "webhook_delivery_state_check" check ("state" in ('pending', 'delivering', 'delivered', 'failed', 'cancelled'))`);

    this.addSql(`create table "webhook_attempt" ("id" bigserial primary key, "endpoint_id" int not null, "delivery_id" bigint null, "attempted_at" timestamptz not null, "status_code" int null, "latency_ms" int not null, "error" text null, "response_head" text null)`);
    this.addSql(`create index "webhook_attempt_endpoint_id_id_index" on "webhook_attempt" ("endpoint_id", "id")`);
    this.addSql(`create index "webhook_attempt_delivery_id_index" on "webhook_attempt" ("delivery_id")`);
    this.addSql(`alter table "webhook_attempt" add constraint "webhook_attempt_endpoint_id_foreign" foreign key ("endpoint_id") references "webhook_endpoint" ("id") on delete cascade`);
    this.addSql(`alter table "webhook_attempt" add constraint "webhook_attempt_delivery_id_foreign" foreign key ("delivery_id") references "webhook_delivery" ("id") on delete cascade`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table "webhook_attempt"');
    this.addSql('drop table "webhook_delivery"');
    this.addSql('drop table "webhook_endpoint"');
    this.addSql('drop table "event_sequence"');
    this.addSql('drop table "event"');
  }
}
