import { AppError } from '../errors.js';

/** Work of a caller with a clean record goes first; see `AuthThrottle` for who that is. */
export type Lane = 'priority' | 'normal';

/** The answer when a lane's queue is full: refused at once, not queued without bound. */
export const serviceBusy = () =>
  new AppError('SERVICE_BUSY', 503, 'Too many sign-ins are being checked right now; try again shortly', { retry_after_seconds: 1 });

/**
 * Runs at most `concurrency` pieces of expensive work at once (password hashing: each scrypt holds a
 * libuv thread and a core for tens of milliseconds). Others wait in one of two FIFO lanes, each
 * holding at most `queueLimit`; a freed slot goes to the priority lane first. Without the cap a
 * flood of logins queued inside libuv ahead of everyone else's, and a genuine login waited for all
 * of them.
 */
export class WorkGate {
  private running = 0;
  private readonly waiting: Record<Lane, (() => void)[]> = { priority: [], normal: [] };

  constructor(private readonly concurrency: number, private readonly queueLimit: number) {}

  async run<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) {
      this.running++;
    } else {
      const queue = this.waiting[lane];
      if (queue.length >= this.queueLimit) throw serviceBusy();
      // The slot is handed over by `release`, so `running` already counts this work.
      await new Promise<void>((resolve) => queue.push(resolve));
    }
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.priority.shift() ?? this.waiting.normal.shift();
    if (next) next();
    else this.running--;
  }
}
