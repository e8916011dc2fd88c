import { Migration } from '@mikro-orm/migrations';

/**
 * The trace context of the request that wrote an event (issue 45, traces): its W3C `traceparent`,
 * written only while tracing is on, so the relay's round and the event's webhook deliveries are
 * traces linked to that request. Null otherwise (tracing off, or an event of no request).
 */
export class Migration20261203900000EventTraceContext extends Migration {
  override name = 'Migration20261203900000EventTraceContext';

  override async up(): Promise<void> {
    this.addSql(`alter table "event" add column "trace_parent" text null`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "event" drop column "trace_parent"`);
  }
}
