import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the database layer knows of the request it works for, without being handed it: carried by
 * the request's async context, set by the doors (src/server/app.ts, subscriptions.ts: a REST call
 * that is not a GET, a GraphQL mutation) and by `runUseCase` (every use case that writes).
 */
export interface RequestScope {
  /**
   * One deadline for everything the request waits for from the database (epoch ms): every
   * connection it acquires and every answer it waits for gets what is left of it. Null: no request
   * (sweeps, event delivery), where the pool's own bounds apply.
   */
  deadline: number | null;
  /** Work that writes (a mutation, a use case's transaction or write statement): it may wait for row locks. */
  writing: boolean;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

export function runInScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** A request's scope from now: `timeoutMs` to go. */
export function requestScope(timeoutMs: number, writing = false): RequestScope {
  return { deadline: Date.now() + timeoutMs, writing };
}

/** The current request turns out to write (a GraphQL operation, once parsed, is a mutation). */
export function markWriting(writing = true): void {
  const scope = storage.getStore();
  if (scope) scope.writing = writing;
}

/** Runs `work` as writing work of the current request (same deadline). */
export function runWriting<T>(work: () => T): T {
  const scope = storage.getStore();
  if (scope?.writing) return work();
  return storage.run({ deadline: scope?.deadline ?? null, writing: true }, work);
}

/** Runs `work` as reading work of the current request (same deadline): it cannot wait for a row lock. */
export function runReading<T>(work: () => T): T {
  const scope = storage.getStore();
  if (!scope?.writing) return work();
  return storage.run({ deadline: scope.deadline, writing: false }, work);
}

/**
 * The scope for work done on behalf of several requests at once (a combined statement): the latest
 * deadline among them (null when any has none), writing when any writes.
 */
export function mergedScope(scopes: (RequestScope | undefined)[]): RequestScope {
  let deadline: number | null = 0;
  for (const scope of scopes) {
    if (!scope || scope.deadline === null) deadline = null;
    else if (deadline !== null) deadline = Math.max(deadline, scope.deadline);
  }
  return { deadline, writing: scopes.some((scope) => scope?.writing) };
}

/**
 * The request's deadline passed while it waited for the database. Its `code` puts it with the other
 * "database not reachable in time" failures: 503 SERVICE_UNAVAILABLE (src/errors.ts).
 */
export class DatabaseDeadlineError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(what: string) {
    super(`The database gave no ${what} before the request's deadline`);
    this.name = 'DatabaseDeadlineError';
  }
}

/**
 * Runs `work`, which waits for something other than the database (an outbound HTTP call), without
 * spending the request's database deadline on it: the deadline moves on by the time `work` took. The
 * database waits before and after it keep their bound; a slow receiver's wait is not the database's.
 */
export async function outsideDeadline<T>(work: () => Promise<T>): Promise<T> {
  const scope = storage.getStore();
  const started = Date.now();
  try {
    return await work();
  } finally {
    if (scope && scope.deadline !== null) scope.deadline += Date.now() - started;
  }
}

/** Milliseconds left before the current request's deadline; null without one. */
export function timeLeft(now = Date.now()): number | null {
  const deadline = storage.getStore()?.deadline;
  return deadline === undefined || deadline === null ? null : deadline - now;
}

/**
 * `waiting`, or a DatabaseDeadlineError when the request's deadline comes first; what `waiting`
 * still brings after that is handed to `late` (a connection that must go back to the pool).
 */
export function withinDeadline<T>(waiting: Promise<T>, what: string, late: (value: T) => void): Promise<T> {
  const left = timeLeft();
  if (left === null) return waiting;
  if (left <= 0) {
    waiting.then(late, () => undefined);
    return Promise.reject(new DatabaseDeadlineError(what));
  }
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      reject(new DatabaseDeadlineError(what));
    }, left);
    waiting.then(
      (value) => {
        clearTimeout(timer);
        if (expired) late(value);
        else resolve(value);
      },
      (error: Error) => {
        clearTimeout(timer);
        if (!expired) reject(error);
      },
    );
  });
}
