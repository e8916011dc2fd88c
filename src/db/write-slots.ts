import { currentScope, withinDeadline } from './request-scope.js';
import { dbAcquireDuration, measuring } from '../metrics.js';

/**
 * Connections of a pool that writing work (a use case's transaction or write statement) may hold at
 * once: all but a quarter (at least one kept back once the pool has two). Only writers wait for row
 * locks, so a row locked from outside (a long maintenance transaction, a stuck session) can hold at
 * most these connections, up to `lock_timeout` each, and reads (listings, the token lookup of every
 * request) keep connections of their own.
 */
export function writeCapacity(poolSize: number): number {
  if (poolSize <= 1) return poolSize;
  return poolSize - Math.max(1, Math.floor(poolSize / 4));
}

/** A counting semaphore whose waits end at the request's deadline. */
export class WriteSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {
    this.free = capacity;
  }

  /** A slot, as the function that gives it back (idempotent). */
  take(): Promise<() => void> {
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(this.releaser());
    }
    const granted = new Promise<() => void>((resolve) => this.waiting.push(() => resolve(this.releaser())));
    // A slot granted after the deadline went by goes straight back.
    return withinDeadline(granted, 'connection for writing', (release) => release());
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

/**
 * A connection from `connect` within what is left of the request's deadline (one deadline however
 * many connections a request takes), writing work first taking a write slot within the same
 * deadline. `releaseSlot` is null when none was taken; a connection that arrives too late is handed
 * to `giveBack`.
 */
export async function acquireWithin<C>(
  slots: WriteSlots | null,
  connect: () => Promise<C>,
  giveBack: (late: C) => void,
): Promise<{ connection: C; releaseSlot: (() => void) | null }> {
  // No clock is read unless metrics are served (METRICS=off costs nothing here).
  const started = measuring ? performance.now() : 0;
  const releaseSlot = slots && currentScope()?.writing ? await slots.take() : null;
  try {
    const connection = await withinDeadline(connect(), 'connection', giveBack);
    if (measuring) dbAcquireDuration.observe((performance.now() - started) / 1000);
    return { connection, releaseSlot };
  } catch (error) {
    releaseSlot?.();
    throw error;
  }
}
