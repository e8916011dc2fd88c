import { AppError } from '../errors.js';

/**
 * Who goes first (see `AuthThrottle`): a device that signed in to the account before, then an
 * existing account with a clean record, then everyone else.
 */
export type Lane = 'trusted' | 'clean' | 'normal';
const ORDER: readonly Lane[] = ['trusted', 'clean', 'normal'];

/** The answer when a lane's queue is full: refused at once, not queued without bound. */
export const serviceBusy = () =>
  new AppError('SERVICE_BUSY', 503, 'Too many sign-ins are being checked right now; try again shortly', { retry_after_seconds: 1 });

/**
 * Runs at most `concurrency` pieces of expensive work at once (password hashing: each scrypt holds a
 * libuv thread and a core for tens of milliseconds). Others wait in one of three FIFO lanes, each
 * holding at most `queueLimit`; a freed slot goes to the first lane that has work waiting, and one
 * more slot is kept for the trusted lane alone. Without the cap a
 * flood of logins queued inside libuv ahead of everyone else's, and a genuine login waited for all
 * of them.
 */
export class WorkGate {
  private running = 0;
  /** Trusted work running in the slot kept for it (beyond `concurrency`). */
  private trustedExtra = 0;
  private readonly waiting: Record<Lane, (() => void)[]> = { trusted: [], clean: [], normal: [] };

  constructor(private readonly concurrency: number, private readonly queueLimit: number) {}

  async run<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    if (lane === 'trusted' && this.running >= this.concurrency && this.trustedExtra === 0) {
      // One slot more than `concurrency` is kept for known devices: their sign-in never waits for a
      // flood's hash to finish.
      this.trustedExtra++;
      try {
        return await work();
      } finally {
        this.trustedExtra--;
      }
    }
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
    const next = ORDER.map((lane) => this.waiting[lane]).find((queue) => queue.length > 0)?.shift();
    if (next) next();
    else this.running--;
  }
}
