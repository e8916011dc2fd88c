import { createHash } from 'node:crypto';
import { AppError, conflict, refused, validationError } from '../errors.js';
import type { ServiceContext } from './context.js';
import { requireUser } from './guards.js';

/** An in-progress key older than this is taken to be abandoned (its process died) and may run again. */
const ABANDONED_AFTER_SECONDS = 60;

interface StoredResponse {
  result?: unknown;
  error?: { code: string; status: number; message: string; details?: Record<string, unknown> };
}

/** Dates come back from JSON as strings; the `...At` fields of our views are dates again. */
function reviveDates(json: string): unknown {
  return JSON.parse(json, (key, value) =>
    typeof value === 'string' && key.endsWith('At') && /^\d{4}-\d\d-\d\d[T ]\d/.test(value) ? new Date(value) : value,
  );
}

/**
 * Runs an operation at most once per (customer, scope, key). The key is claimed in its own statement
 * before the operation starts, so a duplicate arriving meanwhile sees it (409). A finished key replays
 * the first response (success or business refusal); the same key with another request is 422.
 * Unexpected failures release the key so the client can retry.
 */
export async function withIdempotency<T>(
  ctx: ServiceContext,
  options: { scope: string; key: string | undefined; request: unknown },
  operation: () => Promise<T>,
): Promise<T> {
  const { scope, key } = options;
  if (key === undefined || key === '') return operation();
  if (key.length > 200 || !/^[\x21-\x7e]+$/.test(key)) {
    throw validationError('Idempotency-Key must be 1 to 200 visible ASCII characters');
  }
  const userId = requireUser(ctx).userId;
  const requestHash = createHash('sha256').update(JSON.stringify({ scope, request: options.request ?? null })).digest('hex');

  const claimed = await ctx.em.execute<{ key: string }[]>(
    `insert into idempotency_key (user_id, scope, key, request_hash, created_at) values (?, ?, ?, ?, now())
     on conflict (user_id, scope, key) do update set created_at = now()
       where idempotency_key.completed_at is null
         and idempotency_key.request_hash = excluded.request_hash
         and idempotency_key.created_at < now() - make_interval(secs => ?)
     returning key`,
    [userId, scope, key, requestHash, ABANDONED_AFTER_SECONDS],
  );
  if (claimed.length === 0) {
    const [row] = await ctx.em.execute<{ request_hash: string; response: string | null; completed_at: Date | null }[]>(
      `select request_hash, response::text as response, completed_at from idempotency_key where user_id = ? and scope = ? and key = ?`,
      [userId, scope, key],
    );
    if (row.request_hash !== requestHash) {
      throw refused('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with a different request');
    }
    if (!row.completed_at || row.response === null) {
      throw conflict('IDEMPOTENCY_REQUEST_IN_PROGRESS', 'A request with this Idempotency-Key is still running');
    }
    const stored = reviveDates(row.response) as StoredResponse;
    if (stored.error) throw new AppError(stored.error.code, stored.error.status, stored.error.message, stored.error.details);
    return stored.result as T;
  }

  const complete = (response: StoredResponse) =>
    ctx.em.execute(`update idempotency_key set response = ?::jsonb, completed_at = now() where user_id = ? and scope = ? and key = ?`, [
      JSON.stringify(response),
      userId,
      scope,
      key,
    ]);
  try {
    const result = await operation();
    await complete({ result });
    return result;
  } catch (error) {
    if (error instanceof AppError && error.status >= 400 && error.status < 500 && error.status !== 409) {
      await complete({ error: { code: error.code, status: error.status, message: error.message, details: error.details } });
    } else {
      await ctx.em
        .execute('delete from idempotency_key where user_id = ? and scope = ? and key = ? and completed_at is null', [userId, scope, key])
        .catch(() => undefined);
    }
    throw error;
  }
}
