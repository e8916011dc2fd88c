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

type Slot = 'shared' | 'reserved';

/**
 * Runs expensive work (password hashing: each scrypt holds a libuv thread and a core for tens of
 * milliseconds) at most `concurrency` at once, plus one slot kept for the two first lanes. Others
 * wait in one of three FIFO lanes, each holding at most `queueLimit`; a freed slot goes to the first
 * lane that has work waiting. A known device or a clean record therefore never waits for a flood's
 * hash to finish, and while one runs in the kept slot, no new work of the last lane starts: it gets
 * a core to itself as far as the gate can give it one. Without the cap a flood of logins queued
 * inside libuv ahead of everyone else's, and a genuine login waited for all of them.
 */
export class WorkGate {
  private shared = 0;
  private reserved = 0;
  private readonly waiting: Record<Lane, ((slot: Slot) => void)[]> = { trusted: [], clean: [], normal: [] };

  constructor(private readonly concurrency: number, private readonly queueLimit: number) {}

  async run<T>(lane: Lane, work: () => Promise<T>): Promise<T> {
    let slot = this.take(lane);
    if (!slot) {
      const queue = this.waiting[lane];
      if (queue.length >= this.queueLimit) throw serviceBusy();
      // The slot is taken for this work by `pump` before it is handed over.
      slot = await new Promise<Slot>((resolve) => queue.push(resolve));
    }
    try {
      return await work();
    } finally {
      if (slot === 'shared') this.shared--;
      else this.reserved--;
      this.pump();
    }
  }

  /** A slot for work of `lane` now, or null. The last lane takes a shared one only while none is kept busy. */
  private take(lane: Lane): Slot | null {
    if (lane === 'normal') {
      if (this.shared + this.reserved >= this.concurrency) return null;
    } else if (this.shared >= this.concurrency) {
      if (this.reserved > 0) return null;
      this.reserved++;
      return 'reserved';
    }
    this.shared++;
    return 'shared';
  }

  /** Hands freed slots to waiting work, first lanes first. */
  private pump(): void {
    for (const lane of ORDER) {
      const queue = this.waiting[lane];
      while (queue.length > 0) {
        const slot = this.take(lane);
        if (!slot) break;
        queue.shift()!(slot);
      }
    }
  }
}
