import { Migration } from '@mikro-orm/migrations';

/** The mail queue (issue 41): emails written with what they announce, sealed, retried until sent. */
export class Migration20261204200000OutgoingMail extends Migration {
  override name = 'Migration20261204200000OutgoingMail';

  override async up(): Promise<void> {
    this.addSql(`create table "outgoing_mail" ("id" serial primary key, "recipient" varchar(254) not null, "subject" varchar(300) not null, "sealed" bytea null, "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "sent_at" timestamptz null, "failed_at" timestamptz null, "last_error" text null, "created_at" timestamptz not null)`);
    this.addSql(`create index "outgoing_mail_due_index" on "outgoing_mail" ("next_attempt_at") where sent_at is null and failed_at is null`);
    this.addSql(`alter table "outgoing_mail" add constraint "outgoing_mail_sealed_until_done" check ((sealed is null) = (sent_at is not null or failed_at is not null))`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "outgoing_mail"`);
  }
}
