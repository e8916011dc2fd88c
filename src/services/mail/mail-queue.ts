import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { typedSql } from '../../db/typed-sql.js';
import { OutgoingMail } from '../../entities/outgoing-mail.entity.js';
import type { ServiceContext } from '../../shared/context.js';
import type { MailMessage } from './mailer.js';

/**
 * The mail queue: an email is written in the transaction of what it announces (`queueMail`), tried
 * once that has committed (`sendQueued`, by the request that made it), and tried again by the mail
 * sweep (`retryQueuedMail`) while the mail server refuses it or cannot be reached, or when the
 * process stopped before trying. A sender takes a mail by leasing it (its next try moves past the
 * lease) in one statement, so two processes never send one mail at the same time; a process that
 * dies after the mail server took a mail but before noting it sends it once more after the lease:
 * at least once, as mail is. Its text carries a one-time link, so the row holds it sealed and drops
 * it once the mail is sent or given up.
 */

/** Waits before each retry after a failed try; after the last the mail is given up (about 20 hours after it was written, well inside an invitation's week). */
const RETRY_AFTER_SECONDS = [60, 300, 1800, 7200, 21_600, 43_200];
/** A sender's lease on a mail: longer than an SMTP exchange can take (mailer.ts: 10 s a step). */
const LEASE_SECONDS = 120;
/** Mails one sweep takes at most: the rest wait for the next. */
const BATCH = 20;

interface Parts {
  text: string;
  html: string;
}

/** AES-256-GCM: the nonce, the tag and the ciphertext of the parts' JSON. */
function seal(key: Buffer, parts: Parts): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  const body = Buffer.concat([cipher.update(JSON.stringify(parts), 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]);
}

/** The parts, or null when sealed by another key (another DEVICE_TOKEN_SECRET) or damaged. */
function unseal(key: Buffer, sealed: Buffer): Parts | null {
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, 12));
    decipher.setAuthTag(sealed.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8')) as Parts;
  } catch {
    return null;
  }
}

/**
 * Queues `message` in the use case's transaction `tx`: it exists exactly when what it announces does.
 * Its first try is the caller's, after commit (`sendQueued`); until a lease's time has passed the sweep
 * leaves it to that try.
 */
export async function queueMail(tx: ServiceContext, message: MailMessage): Promise<number> {
  // A direct insert, not a flush: the audit log records what staff changed, not the mall's own mail
  // (whose sealed text it would otherwise keep after the row drops it).
  const id = await tx.em.insert(OutgoingMail, {
    recipient: message.to,
    subject: message.subject,
    sealed: seal(tx.config.mail.sealKey, { text: message.text, html: message.html }),
    attempts: 0,
    nextAttemptAt: new Date(Date.now() + LEASE_SECONDS * 1000),
    createdAt: new Date(),
  });
  return Number(id);
}

interface Taken {
  id: number;
  recipient: string;
  subject: string;
  sealed: Buffer | null;
  attempts: number;
}

/** The first try of a queued mail, once its transaction has committed: whether the mail server took it. */
export async function sendQueued(ctx: ServiceContext, mailId: number): Promise<boolean> {
  const [taken] = await take(ctx, [mailId], 'first');
  return taken ? deliver(ctx, taken) : false;
}

/** The mail sweep: tries the mails that are due (a failed try's wait over, or a lease run out). Answers how many went. */
export async function retryQueuedMail(ctx: ServiceContext): Promise<number> {
  const due = await typedSql(ctx.em)
    .selectFrom('OutgoingMail')
    .select('id')
    .where('sentAt', 'is', null)
    .where('failedAt', 'is', null)
    .where('nextAttemptAt', '<=', sql<Date>`now()`)
    .orderBy('nextAttemptAt')
    .limit(BATCH)
    .execute();
  let sent = 0;
  for (const mail of await take(ctx, due.map((d) => d.id), 'due')) if (await deliver(ctx, mail)) sent++;
  return sent;
}

/**
 * Leases the mails of `ids` that are still owed and free: never tried (`first`: the request's own
 * try) or due (`due`: the sweep's). The conditions are on the update itself, which PostgreSQL checks
 * again on a row another sender changed meanwhile: a mail another sender has just leased is no
 * longer due, and is left to it (a row being updated right now is skipped).
 */
async function take(ctx: ServiceContext, ids: number[], which: 'first' | 'due'): Promise<Taken[]> {
  if (ids.length === 0) return [];
  const db = typedSql(ctx.em);
  const free = db
    .selectFrom('OutgoingMail')
    .select('id')
    .where('id', 'in', ids)
    .where('sentAt', 'is', null)
    .where('failedAt', 'is', null)
    .forUpdate()
    .skipLocked();
  const update = db
    .updateTable('OutgoingMail')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), nextAttemptAt: sql<Date>`now() + make_interval(secs => ${LEASE_SECONDS})` }))
    .where('id', 'in', free)
    .where('sentAt', 'is', null)
    .where('failedAt', 'is', null);
  return (which === 'first' ? update.where('attempts', '=', 0) : update.where('nextAttemptAt', '<=', sql<Date>`now()`))
    .returning(['id', 'recipient', 'subject', 'sealed', 'attempts'])
    .execute();
}

/** Sends one leased mail and notes the outcome: sent, tried again later, or given up. */
async function deliver(ctx: ServiceContext, mail: Taken): Promise<boolean> {
  const db = typedSql(ctx.em);
  const done = (fields: { sentAt?: ReturnType<typeof sql<Date>>; failedAt?: ReturnType<typeof sql<Date>>; lastError: string | null }) =>
    db.updateTable('OutgoingMail').set({ ...fields, sealed: null }).where('id', '=', mail.id).execute();
  const parts = mail.sealed ? unseal(ctx.config.mail.sealKey, mail.sealed) : null;
  if (!parts) {
    ctx.log.error({ mailId: mail.id }, 'queued email given up: sealed with another DEVICE_TOKEN_SECRET');
    await done({ failedAt: sql<Date>`now()`, lastError: 'sealed with another DEVICE_TOKEN_SECRET' });
    return false;
  }
  const message = { to: mail.recipient, subject: mail.subject, ...parts };
  const { mailer } = ctx.wiring;
  const sent = await mailer.send(message, ctx.log);
  if (sent) {
    await done({ sentAt: sql<Date>`now()`, lastError: null });
    return true;
  }
  // Without a mail server the message went to the log: nothing to try again.
  if (!mailer.configured) {
    await done({ failedAt: sql<Date>`now()`, lastError: 'no SMTP_URL: written to the log' });
    return false;
  }
  const wait = RETRY_AFTER_SECONDS[mail.attempts - 1];
  if (wait === undefined) {
    ctx.log.error({ mailId: mail.id, attempts: mail.attempts }, 'queued email given up after its last try');
    await done({ failedAt: sql<Date>`now()`, lastError: 'the mail server refused it or could not be reached at every try' });
    return false;
  }
  await db
    .updateTable('OutgoingMail')
    .set({ nextAttemptAt: sql<Date>`now() + make_interval(secs => ${wait})`, lastError: 'the mail server refused it or could not be reached' })
    .where('id', '=', mail.id)
    .execute();
  return false;
}
