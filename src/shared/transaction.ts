import { encodeEvent, type EventEnvelope, type EventName, type NewEvent, type PendingEvents } from './domain-event.js';
import { storeEvents, storeTracedEvents } from './outbox.repository.js';
import { tracing } from '../tracing.js';
import { AppError, causeChain, type DetailsArgument } from '../errors.js';
import type { ErrorCode } from '../error-codes.js';
import type { ServiceContext } from './context.js';
import { runWriting } from '../db/request-scope.js';
import { noteUserWrite } from '../db/read-routing.repository.js';
import { Role } from '../entities/user.entity.js';
import { countCommittedEvent } from '../metrics.js';
import { startAudit, storeAudit } from './audit.js';

/** Serialization failures and deadlocks are safe to retry: the transaction had no effect. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 4;

/**
 * A use case throws this when a value it read optimistically changed before its guarded write (e.g.
 * activity stock taken by another checkout): the transaction is rerun like a serialization failure,
 * and the caller sees this 409 only when the last attempt loses too.
 */
export class StaleReadConflict<C extends ErrorCode = ErrorCode> extends AppError<C> {
  constructor(code: C, message: string, ...details: DetailsArgument<C>) {
    super(code, 409, message, ...details);
  }
}

export function isRetryable(error: unknown): boolean {
  if (error instanceof StaleReadConflict) return true;
  for (const link of causeChain(error)) {
    if (typeof link.code === 'string' && RETRYABLE.has(link.code)) return true;
  }
  return false;
}

/**
 * Runs one use case in one transaction. Events emitted inside are stored in the outbox by the same
 * transaction, just before it commits (so a rolled-back use case stores, and publishes, nothing),
 * and the relay is woken after commit; so are the audit log's entries of a member's or staff's
 * writes (shared/audit.ts). A call made inside another transaction joins it.
 */
export function inTransaction<T>(ctx: ServiceContext, work: (tx: ServiceContext) => Promise<T>): Promise<T> {
  return runUseCase(ctx, work, true);
}

/**
 * Runs a use case whose only write is one statement, atomic by itself: its reads run without a
 * transaction and the statement commits on its own. No BEGIN or COMMIT round trip then holds the
 * rows the statement locks (checkout's hot stock rows stay locked only while PostgreSQL runs it).
 * The statement must guard everything it relied on from the reads; when a guard fails it throws
 * `StaleReadConflict` and the use case is rerun, like `inTransaction`. There is no transaction to add
 * the outbox insert to: the statement stores its own events (checkout's does) and says so with
 * `eventsStoredByStatement`; `emit` is refused here.
 */
export function inAutocommit<T>(ctx: ServiceContext, work: (tx: ServiceContext) => Promise<T>): Promise<T> {
  return runUseCase(ctx, work, false);
}

/**
 * A use case's connections are writing work (request-scope.ts): they may wait for row locks, so
 * they take write slots and leave the rest of the pool to reads.
 */
function runUseCase<T>(ctx: ServiceContext, work: (tx: ServiceContext) => Promise<T>, transactional: boolean): Promise<T> {
  return runWriting(() => runAttempts(ctx, work, transactional));
}

async function runAttempts<T>(ctx: ServiceContext, work: (tx: ServiceContext) => Promise<T>, transactional: boolean): Promise<T> {
  if (ctx.pendingEvents) {
    // Joining is only sound when there is a transaction to join.
    if (transactional && !ctx.em.isInTransaction()) throw new Error('inTransaction() called inside inAutocommit()');
    return work(ctx);
  }
  // With read replicas, the customer's reads stay on the primary for a while from here (read-routing.ts).
  // Before the work: once the work is answered, every process already knows.
  if (ctx.actor?.role === Role.Customer && ctx.config.databaseReadUrls.length > 0) {
    await noteUserWrite.run(ctx.em, {}, { userId: ctx.actor.userId });
  }
  for (let attempt = 1; ; attempt++) {
    const pendingEvents: PendingEvents = { events: [], storedByStatements: 0, autocommit: !transactional };
    try {
      const result = transactional
        ? await ctx.em.transactional(async (em) => {
            // A member's or staff's use case is audited (shared/audit.ts); a customer's starts nothing.
            const pendingAudit = startAudit(ctx, em);
            const tx = { ...ctx, em, pendingEvents, pendingAudit };
            const answer = await work(tx);
            await storePending(em, pendingEvents);
            // The use case may have started its audit itself (`auditAs`).
            if (tx.pendingAudit) {
              // What the use case left unflushed is written now, so its rows are in the log too.
              await em.flush();
              await storeAudit(tx, tx.pendingAudit);
            }
            return answer;
          })
        : await work({ ...ctx, pendingEvents });
      if (pendingEvents.events.length > 0 || pendingEvents.storedByStatements > 0) ctx.events.committed();
      // Counted once committed: an attempt that rolled back (and was run again) counts nothing.
      for (const event of pendingEvents.events) countCommittedEvent(event.type, event.payload);
      return result;
    } catch (error) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(error)) throw error;
      ctx.em.clear();
    }
  }
}

async function storePending(em: ServiceContext['em'], pending: PendingEvents): Promise<void> {
  if (pending.events.length === 0) return;
  if (tracing) {
    // The request's trace context goes with its events (the relay and the deliveries link to it).
    const traceParent = tracing.traceparent();
    await storeTracedEvents.run(em, [JSON.stringify(pending.events.map((e) => ({ type: e.type, shop_ids: e.shopIds, customer_id: e.customerId, payload: e.payload, occurred_at: e.occurredAt, trace_parent: traceParent })))]);
    return;
  }
  await storeEvents.run(em, [JSON.stringify(pending.events.map((e) => ({ type: e.type, shop_ids: e.shopIds, customer_id: e.customerId, payload: e.payload, occurred_at: e.occurredAt })))]);
}

/** A one-statement write (inside `inAutocommit` or a transaction) stored `count` events itself. */
export function eventsStoredByStatement(tx: ServiceContext, count: number): void {
  if (tx.pendingEvents) tx.pendingEvents.storedByStatements += count;
}

/**
 * Queues an event of the current transaction; it is stored in the outbox when the transaction
 * commits. Use the names in `src/services/events/event-types.ts`. An event larger than an event may be
 * throws here, so the mistake rolls the use case back in tests instead of failing later.
 */
export function emit<T extends EventName>(tx: ServiceContext, event: Omit<EventEnvelope<T>, 'occurredAt' | 'id'>): void {
  if (!tx.pendingEvents) throw new Error('emit() called outside inTransaction()');
  if (tx.pendingEvents.autocommit) throw new Error('emit() called inside inAutocommit(): the statement must store its own events');
  // The payload was checked against `EventPayloads[T]` for this very `type`: the pair is a NewEvent.
  const full = { ...event, occurredAt: new Date().toISOString() } as NewEvent;
  encodeEvent(full);
  tx.pendingEvents.events.push(full);
}
