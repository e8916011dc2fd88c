import { Entity, PrimaryKey, Property, Index, Check } from '@mikro-orm/decorators/legacy';
import { EntityName, type Opt } from '@mikro-orm/core';

/**
 * An email the mall owes someone (src/services/mail/mail-queue.ts): written in the transaction of
 * what it announces, so it outlives a process that stops before sending it, and tried again until
 * the mail server takes it. Its text carries one-time links, so it is kept sealed (AES-256-GCM, a key
 * derived from DEVICE_TOKEN_SECRET) and wiped once sent or given up.
 */
@Entity()
@Index({ name: 'outgoing_mail_due_index', expression: 'create index "outgoing_mail_due_index" on "outgoing_mail" ("next_attempt_at") where sent_at is null and failed_at is null' })
@Check({ name: 'outgoing_mail_sealed_until_done', expression: '(sealed is null) = (sent_at is not null or failed_at is not null)' })
export class OutgoingMail {
  declare [EntityName]?: 'OutgoingMail';

  @PrimaryKey()
  id!: number;

  @Property({ length: 254 })
  recipient!: string;

  @Property({ length: 300 })
  subject!: string;

  /** The text and HTML parts, sealed; null once sent or given up. */
  @Property({ columnType: 'bytea', nullable: true })
  sealed?: Buffer | null;

  @Property()
  attempts: number & Opt = 0;

  /** When a sender may take it next: after a failed try, or once a sender's lease on it ran out. */
  @Property({ columnType: 'timestamptz' })
  nextAttemptAt!: Date;

  @Property({ columnType: 'timestamptz', nullable: true })
  sentAt?: Date | null;

  /** Given up after the last retry (or, without a mail server, written to the log instead). */
  @Property({ columnType: 'timestamptz', nullable: true })
  failedAt?: Date | null;

  @Property({ columnType: 'text', nullable: true })
  lastError?: string | null;

  @Property({ columnType: 'timestamptz' })
  createdAt: Date & Opt = new Date();
}
