import type { ServiceContext } from '../shared/context.js';
import { cancelUnpaidOrders, completeDeliveredOrders } from '../services/orders/order.service.js';
import { expireLapsedGroups } from '../services/promotions/group-buy-lifecycle.js';
import { expireIdempotencyKeys } from '../shared/idempotency.js';
import { pruneAuthThrottle } from '../shared/auth-throttle.js';
import { pruneExpiredEvents } from '../services/events/event-feed.service.js';
import { pruneSalesChangeLog } from '../services/catalog/sales-ranking-cache.js';
import { queryPendingPayments } from '../services/payments/payment.service.js';
import { settlePaymentRefunds } from '../services/payments/payment-refunds.js';
import { retryQueuedMail } from '../services/mail/mail-queue.js';
import type { AppDeps } from './request-context.js';
import { sweepDuration, sweepFailures, sweepLastRun } from '../metrics.js';
import { WebhookDispatcher } from '../services/events/webhooks/webhook-dispatcher.js';

/** A context for work no user asked for (sweeps): no actor, its own entity manager. */
export function systemContext(deps: AppDeps, label: string): ServiceContext {
  return {
    em: deps.orm.em.fork(),
    actor: null,
    authProblem: null,
    config: deps.config,
    log: deps.log.child({ job: label }),
    requestId: `job:${label}`,
    events: deps.events,
    wiring: deps.wiring,
  };
}

/** The periodic sweeps. Each is safe to run in several processes at once. Returns a stop function. */
export const SWEEPS: Record<string, (ctx: ServiceContext) => Promise<number>> = {
  'payment-query': queryPendingPayments,
  'payment-refunds': settlePaymentRefunds,
  'mail-retry': retryQueuedMail,
  'payment-window': cancelUnpaidOrders,
  'order-completion': completeDeliveredOrders,
  'group-expiry': expireLapsedGroups,
  'idempotency-keys': expireIdempotencyKeys,
  'auth-throttle': pruneAuthThrottle,
  'event-retention': pruneExpiredEvents,
  'sales-change-retention': (ctx) => pruneSalesChangeLog(ctx),
};

export function startSweeps(deps: AppDeps): () => void {
  const seconds = deps.config.sweepIntervalSeconds;
  if (seconds === 0) return () => {};
  let running = false;
  // Never rejects: a failed sweep is logged and runs again next interval.
  const runSweeps = async () => {
    if (running) return;
    running = true;
    let current = '';
    try {
      for (const [name, sweep] of Object.entries(SWEEPS)) {
        current = name;
        const ctx = systemContext(deps, name);
        const started = performance.now();
        const changed = await sweep(ctx);
        sweepDuration.set({ sweep: name }, (performance.now() - started) / 1000);
        sweepLastRun.set({ sweep: name }, Date.now() / 1000);
        if (changed > 0) ctx.log.info({ changed }, 'sweep');
      }
    } catch (error) {
      sweepFailures.inc({ sweep: current });
      deps.log.warn({ err: error, sweep: current }, 'sweep failed; it runs again next interval');
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void runSweeps(), seconds * 1000);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The webhook dispatcher of this process: woken whenever a relay wrote deliveries, and every half
 * second for retries that came due. Returns the stop function (waits briefly for attempts in flight).
 */
export function startWebhookDispatcher(deps: AppDeps): () => Promise<void> {
  if (!deps.config.webhooks.dispatch) return () => Promise.resolve();
  const dispatcher = new WebhookDispatcher(() => systemContext(deps, 'webhooks'));
  dispatcher.start();
  const unsubscribe = deps.events.onWake?.(() => dispatcher.wake());
  return async () => {
    unsubscribe?.();
    await dispatcher.stop();
  };
}
