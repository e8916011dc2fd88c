import type { Logger } from '../logger.js';

/** A count as the database holds it after an exchange. */
export interface SharedCount {
  key: string;
  count: number;
  /** When its window ends, epoch milliseconds. */
  windowEndsAt: number;
}

/** Where the processes of one server meet to add up their counts (PostgreSQL: attempt-count-store.ts). */
export interface CountExchange {
  /**
   * Deletes the `cleared` keys, adds each change to its key (a key whose window has ended starts a
   * new one with the change), and answers the resulting counts of the changed keys and of every key
   * changed by anyone since `since` (null: none), with the time to pass as `since` next time.
   */
  exchange(cleared: string[], changes: { key: string; delta: number }[], since: number | null): Promise<{ counts: SharedCount[]; at: number }>;
}

interface Entry {
  /** The database's count at the last exchange (this process's changes sent so far included). */
  shared: number;
  sharedEndsAt: number;
  /** Changes made here and not sent yet. */
  pending: number;
  /** Changes on their way to the database (added to `shared` when the answer comes). */
  sending: number;
  /** When the first of the pending changes was made: the window until the database says otherwise. */
  localSince: number;
  /** Cleared here; the database has not been told yet. */
  cleared: boolean;
  /** Moves on with every clear, so the answer to an exchange sent before it changes nothing. */
  clears: number;
}

/** Past this many keys, counts changed by other processes are no longer copied here (memory bound; SIGN_IN_COUNTS_MAX_KEYS). */
const DEFAULT_MAX_KEYS = 200_000;
/** Rows changed this long before the last exchange are read again: a change committed late is not missed. */
const OVERLAP_MS = 2_000;

/**
 * Attempt counts in fixed windows, kept in this process's memory so that checking and counting cost
 * no round trip (a refusal, above all, never waits for the database), and exchanged with the other
 * server processes through PostgreSQL every `syncIntervalMs`: each process sends what it added and
 * cleared since the last exchange and reads back the totals. Between two exchanges a process sees
 * its own changes at once and the others' up to one interval late, so all processes together may let
 * through a few more attempts than a limit before every one of them refuses.
 */
export class AttemptCounts {
  private readonly entries = new Map<string, Entry>();
  private since: number | null = null;
  private exchanging: Promise<void> | null = null;
  /** The exchange queued behind the running one, shared by every caller meanwhile. */
  private following: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly windowMs: number,
    private readonly store: CountExchange | null,
    private readonly log: Logger,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {}

  /** The key's count in its current window, and when that window ends. */
  count(key: string, now = Date.now()): { count: number; resetsAt: number } {
    const e = this.entries.get(key);
    if (!e) return { count: 0, resetsAt: now + this.windowMs };
    const sharedLive = e.sharedEndsAt > now;
    const localLive = e.localSince + this.windowMs > now;
    const count = (sharedLive ? e.shared : 0) + (localLive || sharedLive ? e.pending + e.sending : 0);
    return { count: Math.max(0, count), resetsAt: sharedLive ? e.sharedEndsAt : localLive ? e.localSince + this.windowMs : now + this.windowMs };
  }

  /** Adds `delta` (negative: takes back an attempt counted before its outcome was known). */
  add(key: string, delta = 1, now = Date.now()): void {
    let e = this.entries.get(key);
    if (!e) {
      e = { shared: 0, sharedEndsAt: 0, pending: 0, sending: 0, localSince: now, cleared: false, clears: 0 };
      this.entries.set(key, e);
    } else if (e.pending === 0 && e.sending === 0 && e.sharedEndsAt <= now) {
      e.localSince = now;
    }
    e.pending += delta;
  }

  /** Forgets the key's count, here at once and in every process after the next exchange. */
  clear(key: string): void {
    const e = this.entries.get(key);
    if (!e) {
      if (this.store) this.entries.set(key, { shared: 0, sharedEndsAt: 0, pending: 0, sending: 0, localSince: 0, cleared: true, clears: 1 });
      return;
    }
    Object.assign(e, { shared: 0, sharedEndsAt: 0, pending: 0, sending: 0, cleared: this.store !== null, clears: e.clears + 1 });
  }

  /**
   * Exchanges counts with the other processes now (also what the timer runs); one at a time. An
   * exchange already running may have been sent before the caller's changes were made, so a caller
   * that finds one waits for the next, which sends everything counted until it starts.
   */
  sync(): Promise<void> {
    if (!this.exchanging) {
      this.exchanging = this.exchange().finally(() => {
        this.exchanging = null;
      });
      return this.exchanging;
    }
    const next = () => {
      this.following = null;
      return this.sync();
    };
    this.following ??= this.exchanging.then(next, next);
    return this.following;
  }

  start(intervalMs: number): void {
    if (!this.store || this.timer) return;
    this.timer = setInterval(() => void this.sync(), intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and sends what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sync();
  }

  private async exchange(): Promise<void> {
    const now = Date.now();
    this.prune(now);
    if (!this.store) return;
    const cleared: string[] = [];
    const changes: { key: string; delta: number; clears: number }[] = [];
    for (const [key, e] of this.entries) {
      if (e.cleared) cleared.push(key);
      e.cleared = false;
      if (e.pending !== 0) {
        changes.push({ key, delta: e.pending, clears: e.clears });
        e.sending += e.pending;
        e.pending = 0;
      }
    }
    let answer: Awaited<ReturnType<CountExchange['exchange']>>;
    try {
      answer = await this.store.exchange(cleared, changes, this.since);
    } catch (error) {
      // Counting goes on here; what was not sent goes with the next exchange.
      for (const key of cleared) this.entries.get(key)!.cleared = true;
      for (const { key, delta, clears } of changes) {
        const e = this.entries.get(key);
        if (e?.clears === clears) {
          e.sending -= delta;
          e.pending += delta;
        }
      }
      this.log.warn({ err: error }, 'sign-in counts could not be exchanged with the database; counting goes on in this process');
      return;
    }
    for (const { key, delta, clears } of changes) {
      const e = this.entries.get(key);
      if (e?.clears === clears) e.sending -= delta;
    }
    for (const { key, count, windowEndsAt } of answer.counts) {
      let e = this.entries.get(key);
      if (!e) {
        if (this.entries.size >= this.maxKeys) continue;
        e = { shared: 0, sharedEndsAt: 0, pending: 0, sending: 0, localSince: 0, cleared: false, clears: 0 };
        this.entries.set(key, e);
      }
      // Cleared here after this exchange was sent: the database learns it next time.
      if (e.cleared) continue;
      e.shared = count;
      e.sharedEndsAt = windowEndsAt;
    }
    this.since = answer.at - OVERLAP_MS;
  }

  /** Drops keys with nothing left to count or to send. */
  private prune(now: number): void {
    for (const [key, e] of this.entries) {
      if (e.cleared || e.sending !== 0) continue;
      const nothingShared = e.sharedEndsAt <= now || e.shared <= 0;
      // Without a store nothing pending is ever sent: it ends with its window.
      const nothingPending = e.pending === 0 || (!this.store && e.localSince + this.windowMs <= now);
      if (nothingShared && nothingPending) this.entries.delete(key);
    }
  }

  /** Keys held in memory (tests). */
  get size(): number {
    return this.entries.size;
  }
}
