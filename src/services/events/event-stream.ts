import { AppError } from '../../errors.js';
import type { DomainEvent, EventSource } from '../../shared/domain-event.js';

/** A subscriber further behind than this many events is cut off (it would only grow memory). */
const MAX_BUFFERED = 1000;

/**
 * The events of `source` that pass `accept`, as an async iterator for a GraphQL subscription.
 * It listens from the moment it is created (no event between subscribe and the first `next()` is
 * missed) until `return()`, which also ends a pending `next()` at once: an async generator could
 * not, it would wait for one more event before letting go of its listener.
 */
export function eventStream(
  source: EventSource,
  accept: (event: DomainEvent) => boolean,
  maxBuffered = MAX_BUFFERED,
): AsyncIterableIterator<DomainEvent> & { return(): Promise<IteratorResult<DomainEvent>> } {
  const buffered: DomainEvent[] = [];
  let waiting: { resolve: (r: IteratorResult<DomainEvent>) => void; reject: (e: unknown) => void } | null = null;
  let failure: AppError | null = null;
  let done = false;

  const finish = () => {
    if (done) return;
    done = true;
    unsubscribe();
    buffered.length = 0;
  };

  const unsubscribe = source.subscribe((event) => {
    if (done || !accept(event)) return;
    if (waiting) {
      const w = waiting;
      waiting = null;
      w.resolve({ value: event, done: false });
    } else if (buffered.length >= maxBuffered) {
      failure = new AppError('SUBSCRIBER_TOO_SLOW', 503, 'This subscription fell too far behind and was ended; subscribe again');
      finish();
    } else {
      buffered.push(event);
    }
  });

  return {
    next() {
      if (buffered.length > 0) return Promise.resolve({ value: buffered.shift()!, done: false });
      if (failure) {
        const error = failure;
        failure = null;
        return Promise.reject(error);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    return() {
      finish();
      if (waiting) {
        waiting.resolve({ value: undefined, done: true });
        waiting = null;
      }
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(error: unknown) {
      finish();
      // The iterator protocol hands the caller's value back as thrown, whatever it is.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
