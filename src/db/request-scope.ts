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
  /** What of this scope waits for the database now, ended together at the deadline (`deadlineWatch`). */
  watch?: DeadlineWatch;
  /** The request's trace id, for the log lines of code handed no request context (GraphQL's error formatting). */
  traceId?: string;
}

/** Something waiting for the database that the deadline ends: a statement's connection, a wait for a connection. */
export interface Expirable {
  expire(): void;
}

/**
 * One timer per scope at a time, not one per statement (issue 43): armed when the scope starts
 * waiting for the database, it ends everything still waiting when the deadline passes, and goes as
 * soon as nothing waits (statements run at the same time share it). Waits register and leave without
 * a timer or a promise of their own; a timer that fires early because `outsideDeadline` moved the
 * deadline on is armed again for the rest.
 */
export class DeadlineWatch {
  private readonly waiting = new Map<Expirable, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly scope: RequestScope & { deadline: number }) {}

  add(waiter: Expirable): void {
    this.waiting.set(waiter, (this.waiting.get(waiter) ?? 0) + 1);
    if (this.timer === null) this.arm();
  }

  /** One wait of `waiter` ended (a statement answered, a connection given). */
  release(waiter: Expirable): void {
    const count = this.waiting.get(waiter);
    if (count === undefined) return;
    if (count > 1) {
      this.waiting.set(waiter, count - 1);
      return;
    }
    this.waiting.delete(waiter);
    // Nothing waits: the timer goes, so that the request (and all it holds) is not kept alive until its
    // deadline. Kept, it outlived the request by seconds and every scavenge copied it (issue 43).
    if (this.waiting.size === 0 && this.timer !== null) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private arm(): void {
    this.timer = setTimeout(this.fire, Math.max(0, this.scope.deadline - Date.now()));
    // What waits keeps the process alive (a socket, a promise); the watch over it need not.
    this.timer.unref();
  }

  private readonly fire = (): void => {
    this.timer = null;
    if (this.waiting.size === 0) return;
    if (this.scope.deadline > Date.now()) return this.arm();
    const expired = [...this.waiting.keys()];
    this.waiting.clear();
    for (const waiter of expired) waiter.expire();
  };
}

/** The watch of the current scope's deadline; null when there is no deadline (no request). */
export function deadlineWatch(scope: RequestScope | undefined = storage.getStore()): DeadlineWatch | null {
  if (!scope || scope.deadline === null) return null;
  return (scope.watch ??= new DeadlineWatch(scope as RequestScope & { deadline: number }));
}

const storage = new AsyncLocalStorage<RequestScope>();

export function currentScope(): RequestScope | undefined {
  return storage.getStore();
}

export function runInScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** A request's scope from now: `timeoutMs` to go. */
export function requestScope(timeoutMs: number, writing = false, traceId?: string): RequestScope {
  return { deadline: Date.now() + timeoutMs, writing, traceId };
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
  return storage.run({ deadline: scope?.deadline ?? null, writing: true, traceId: scope?.traceId }, work);
}

/** Runs `work` as reading work of the current request (same deadline): it cannot wait for a row lock. */
export function runReading<T>(work: () => T): T {
  const scope = storage.getStore();
  if (!scope?.writing) return work();
  return storage.run({ deadline: scope.deadline, writing: false, traceId: scope.traceId }, work);
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
  const scope = storage.getStore();
  const watch = deadlineWatch(scope);
  if (!watch) return waiting;
  if (scope!.deadline! <= Date.now()) {
    waiting.then(late, () => undefined);
    return Promise.reject(new DatabaseDeadlineError(what));
  }
  // The scope's one timer ends the wait (no timer of its own).
  return new Promise<T>((resolve, reject) => {
    let expired = false;
    const waiter: Expirable = {
      expire() {
        expired = true;
        reject(new DatabaseDeadlineError(what));
      },
    };
    watch.add(waiter);
    waiting.then(
      (value) => {
        watch.release(waiter);
        if (expired) late(value);
        else resolve(value);
      },
      (error: Error) => {
        watch.release(waiter);
        if (!expired) reject(error);
      },
    );
  });
}
