import { createHash } from 'node:crypto';
import { AppError, refused } from '../errors.js';
import type { ServiceContext } from './context.js';
import { requireUser } from './guards.js';
import { typedSql } from '../db/typed-sql.js';
import { IdempotencyKey } from '../entities/idempotency-key.entity.js';
import { validationFailed, z } from './validate.js';

/**
 * The key of one idempotent request. The use case writes it, with its answer, in the same
 * transaction or statement as its work (`recordAnswer`, or checkout's write statement), so the key
 * is complete exactly when the work committed.
 */
export interface IdempotencyRecord {
  userId: number;
  scope: string;
  key: string;
  /** SHA-256 of the request, to refuse the same key with another request. */
  requestHash: string;
}

/**
 * An idempotency key: 1 to 200 visible ASCII characters (a UUID does). Sent empty or otherwise it is
 * VALIDATION_FAILED, never taken for "no key": a client that meant one would lose its protection.
 */
const KEY_RULE = 'must be 1 to 200 visible ASCII characters';
export const IdempotencyKeyText = z.string().min(1, KEY_RULE).max(200, KEY_RULE).regex(/^[\x21-\x7e]+$/, KEY_RULE);

/** What is wrong with a key as sent, or undefined when it is a key (REST checks its header with it). */
export function idempotencyKeyProblem(key: string): string | undefined {
  const result = IdempotencyKeyText.safeParse(key);
  return result.success ? undefined : result.error.issues[0].message;
}

/** Dates come back from JSON as strings; the `...At` fields of our views are dates again. */
function reviveDates(value: unknown, key = ''): unknown {
  if (typeof value === 'string') return key.endsWith('At') && /^\d{4}-\d\d-\d\d[T ]\d/.test(value) ? new Date(value) : value;
  if (Array.isArray(value)) return value.map((item) => reviveDates(item));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reviveDates(v, k)]));
}

/** By default the stored answer is `{ result }`, written by `recordAnswer`. */
const storedResult = (stored: unknown) => (stored as { result: unknown }).result;

/**
 * Runs an operation at most once per (customer, key); the key names one operation (`scope`).
 *
 * A key exists only once its work has committed: the operation writes it in its own unit of work
 * (`operation(record)` gets what to write). So a request whose work never committed (refused, or
 * failed with the database) leaves the key free at once, and a key that exists answers its
 * committed result; the same key with another request is 422.
 *
 * Two requests with the same key at the same time both run; the database lets one commit (the
 * key's primary key, and each use case's own guards), and the other fails. Whatever a request
 * fails with, the key is read again: when the work committed after all (a duplicate won, or the
 * answer was lost on the way back from the database), the committed result is the answer.
 */
export async function withIdempotency<T>(
  ctx: ServiceContext,
  options: { scope: string; key: string | undefined; request: unknown; replay?: (stored: unknown) => T },
  operation: (record: IdempotencyRecord | undefined) => Promise<T>,
): Promise<T> {
  const { scope, key } = options;
  if (key === undefined) return operation(undefined);
  const problem = idempotencyKeyProblem(key);
  if (problem) throw validationFailed([{ field: 'idempotencyKey', message: problem }]);
  const record: IdempotencyRecord = {
    userId: requireUser(ctx).userId,
    scope,
    key,
    requestHash: createHash('sha256').update(JSON.stringify({ scope, request: options.request ?? null })).digest('hex'),
  };
  const replay = (options.replay ?? storedResult) as (stored: unknown) => T;

  const prior = await committedAnswer(ctx, record);
  if (prior) return replay(prior.stored);
  try {
    return await operation(record);
  } catch (error) {
    const committed = await committedAnswer(ctx, record).catch((recheck: unknown) => {
      if (recheck instanceof AppError) throw recheck;
      return undefined; // the database is still away: the client retries with its key later
    });
    if (committed) return replay(committed.stored);
    throw error;
  }
}

/**
 * The stored answer of a committed key (none when the key is free); 422 when it was used for another
 * operation (a key is the customer's, for one operation: a checkout's key is no payment's) or with
 * another request.
 */
async function committedAnswer(ctx: ServiceContext, record: IdempotencyRecord): Promise<{ stored: unknown } | undefined> {
  const row = await typedSql(ctx.em)
    .selectFrom('IdempotencyKey')
    .select(['scope', 'requestHash', 'response'])
    .where('user', '=', record.userId)
    .where('key', '=', record.key)
    .executeTakeFirst();
  if (!row) return undefined;
  if (row.scope !== record.scope) {
    throw refused('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used for another operation; send a new key for each operation');
  }
  if (row.requestHash !== record.requestHash) {
    throw refused('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
  }
  return { stored: reviveDates(row.response) };
}

/**
 * Completes the key inside the use case's transaction, with the answer to replay (`{ result }`).
 * Without a key (`record` undefined) it does nothing.
 */
export function recordAnswer(tx: ServiceContext, record: IdempotencyRecord | undefined, result: unknown): Promise<void> {
  return recordStoredAnswer(tx, record, { result });
}

/** Like `recordAnswer`, storing `stored` as it is (the use case's `replay` reads it back). */
export async function recordStoredAnswer(tx: ServiceContext, record: IdempotencyRecord | undefined, stored: unknown): Promise<void> {
  if (!record) return;
  if (!tx.em.isInTransaction()) throw new Error('recordAnswer() must run inside the use case transaction');
  tx.em.create(IdempotencyKey, { user: record.userId, scope: record.scope, key: record.key, requestHash: record.requestHash, response: stored });
  await tx.em.flush();
}

/**
 * Replaces a key's stored answer, inside the transaction that finishes a use case begun under it
 * (a payment whose provider answered after the key was written with the pending payment).
 */
export async function replaceAnswer(tx: ServiceContext, record: IdempotencyRecord | undefined, result: unknown): Promise<void> {
  if (!record) return;
  await typedSql(tx.em).updateTable('IdempotencyKey').set({ response: { result } }).where('user', '=', record.userId).where('key', '=', record.key).execute();
}

/** Frees a key whose use case ended in a refusal after the key was written: the same key may try again. */
export async function releaseKey(tx: ServiceContext, record: IdempotencyRecord | undefined): Promise<void> {
  if (!record) return;
  await typedSql(tx.em).deleteFrom('IdempotencyKey').where('user', '=', record.userId).where('key', '=', record.key).execute();
}

/**
 * Deletes keys older than the configured lifetime (the sweeps run it every interval, so each call
 * finds about one interval's worth of keys, through the `created_at` index).
 */
export async function expireIdempotencyKeys(ctx: ServiceContext): Promise<number> {
  const cutoff = new Date(Date.now() - ctx.config.idempotencyKeyTtlHours * 3_600_000);
  const { numDeletedRows } = await typedSql(ctx.em).deleteFrom('IdempotencyKey').where('createdAt', '<', cutoff).executeTakeFirst();
  return Number(numDeletedRows);
}
