import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../../shared/context.js';
import { inTransaction, emit, isRetryable } from '../../../shared/transaction.js';
import { snakeKeys } from '../../../shared/case.js';
import { intArray } from '../../../db/sql.js';
import { outsideDeadline, runWriting } from '../../../db/request-scope.js';
import { WebhookDisabledReason } from '../../../entities/event.entity.js';
import { causeChain } from '../../../errors.js';
import { webhookAttempts } from '../../../metrics.js';
import { tracing } from '../../../tracing.js';
import { EventTypes } from '../event-types.js';
import { webhookHeaders } from './webhook-signing.js';
import { postWebhook, type SendResult } from './webhook-sender.js';
import { claimDeliveries, disableEndpoint, lockDueEndpoints, logAttempt, reclaimLapsed, settleAttempts, type ClaimedDelivery } from './webhooks.repository.js';
import { auditedWrite } from '../../../shared/audit.js';
import type { WebhookAttemptView, WebhookPingView } from './webhook-views.js';

// The attempts counter's label sets, made once.
const DELIVERED = { outcome: 'delivered' } as const;
const RETRY = { outcome: 'retry' } as const;
const GIVEN_UP = { outcome: 'failed' } as const;

/** One attempt's outcome, waiting to be settled with the others of its batch (`settleAttempts`). */
interface Outcome {
  delivery_id: string;
  endpoint_id: number;
  attempted_at: string;
  status: number | null;
  latency_ms: number;
  error: string | null;
  head: string | null;
  ok: boolean;
  state: 'delivered' | 'pending' | 'failed';
  wait_ms: number;
}

/**
 * The webhook dispatcher of one server process. Woken by the relay (after every run, which a NOTIFY
 * from any process starts), by its own settlements, and every `pollMs`, it claims the due deliveries
 * of every endpoint in one transaction, at most WEBHOOK_MAX_CONCURRENCY in flight per endpoint across
 * all processes, lowest positions first, and sends each without waiting for the others: one slow
 * endpoint holds only its own slots. With WEBHOOK_MAX_CONCURRENCY=1 an endpoint's deliveries go
 * strictly in order, retries included: one waiting for its retry holds back every later one. A claim is a lease: if this process dies mid-attempt, the
 * delivery is due again once the lease lapses (checked at each poll), and another process sends it
 * (at least once: the receiver drops a repeat by its `webhook-id`).
 *
 * Outcomes are settled in batches: the attempts that end while a settlement runs are settled
 * together by the next one (log, delivery, endpoint health: one statement), and each settlement
 * wakes the claims, so freed slots are filled at once. An outcome not yet settled when the process
 * dies is an attempt whose lease lapses: sent again.
 *
 * Outcomes: a 2xx delivers; a 410 Gone ends the delivery and disables the endpoint; anything else
 * (an error status, a redirect, a timeout, a refused address) is retried after the next wait of
 * WEBHOOK_RETRY_DELAYS_SECONDS, jittered by ±20% so retries of many deliveries spread out, until
 * the waits run out (the delivery fails). An endpoint whose attempts have all failed for
 * WEBHOOK_DISABLE_AFTER_SECONDS is disabled, and a `webhook.endpoint_disabled` event says so.
 */
export class WebhookDispatcher {
  private claiming: Promise<void> | null = null;
  private claimAgain = false;
  private reclaimDue = true;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly sending = new Set<Promise<void>>();
  private readonly outcomes: Outcome[] = [];
  private settling: Promise<void> | null = null;

  constructor(private readonly context: () => ServiceContext, private readonly pollMs = 500) {}

  start(): void {
    this.timer = setInterval(() => {
      // Lapsed leases are looked for at the poll only: a lease lasts seconds, a poll is half of one.
      this.reclaimDue = true;
      this.wake();
    }, this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Claims what is due soon (called by the relay after each run, and by each settlement). */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    this.claiming = (async () => {
      do {
        this.claimAgain = false;
        await this.claim().catch((error: unknown) => this.context().log.warn({ err: error }, 'webhook dispatch failed; retried at the next poll'));
      } while (this.claimAgain && !this.stopped);
    })().finally(() => {
      this.claiming = null;
    });
  }

  /** Stops claiming and waits (at most `timeoutMs`) for the attempts in flight and their settlement. */
  async stop(timeoutMs = 2000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([(async () => {
      await Promise.all([this.claiming, ...this.sending]);
      await this.settling;
    })(), deadline]);
  }

  private async claim(): Promise<void> {
    const ctx = this.context();
    const { webhooks } = ctx.config;
    if (this.reclaimDue) {
      this.reclaimDue = false;
      await runWriting(() => reclaimLapsed.run(ctx.em, []));
    }
    // One delivery at a time per endpoint is delivery in order: a failed one holds back the later ones.
    const inOrder = webhooks.maxConcurrencyPerEndpoint === 1;
    const claimed = await inTransaction(ctx, async (tx) => {
      const endpoints = await lockDueEndpoints.run(tx.em, [inOrder]);
      if (endpoints.length === 0) return [];
      const lease = webhooks.timeoutMs + 5000;
      return claimDeliveries.run(tx.em, [webhooks.maxConcurrencyPerEndpoint, intArray(endpoints.map((e) => e.id)), inOrder, lease]);
    });
    // Claimed means leased to this process: each is sent, even when a stop came meanwhile.
    for (const delivery of claimed) {
      const sending = this.deliver(ctx, delivery).finally(() => this.sending.delete(sending));
      this.sending.add(sending);
    }
  }

  private async deliver(ctx: ServiceContext, delivery: ClaimedDelivery): Promise<void> {
    const { webhooks } = ctx.config;
    const body = deliveryBody(delivery);
    const secrets = [delivery.secret, ...(delivery.previous_secret ? [delivery.previous_secret] : [])];
    const attemptedAt = new Date().toISOString();
    const headers = webhookHeaders(secrets, `evt_${delivery.event_id}`, body);
    // With tracing on, each delivery is a trace of its own, linked to the request that wrote the event.
    const result = tracing
      ? await tracing.inLinkedRoot('webhook delivery', deliveryAttributes(delivery), [delivery.trace_parent], () => postWebhook(delivery.url, headers, body, webhooks))
      : await postWebhook(delivery.url, headers, body, webhooks);
    const ok = result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
    const delays = webhooks.retryDelaysSeconds;
    const exhausted = delivery.attempts > delays.length;
    const retry = !ok && result.status !== 410 && !exhausted;
    webhookAttempts.inc(ok ? DELIVERED : retry ? RETRY : GIVEN_UP);
    this.outcomes.push({
      delivery_id: delivery.id,
      endpoint_id: delivery.endpoint_id,
      attempted_at: attemptedAt,
      status: result.status,
      latency_ms: result.latencyMs,
      error: result.error,
      head: result.head,
      ok,
      state: ok ? 'delivered' : retry ? 'pending' : 'failed',
      wait_ms: retry ? Math.round(delays[delivery.attempts - 1] * 1000 * (0.8 + Math.random() * 0.4)) : 0,
    });
    this.settleSoon();
  }

  /** One settlement at a time; outcomes that arrive meanwhile wait for the next, and go together. */
  private settleSoon(): void {
    if (this.settling) return;
    this.settling = (async () => {
      while (this.outcomes.length > 0) {
        const batch = this.outcomes.splice(0);
        await this.settle(batch).catch((error: unknown) =>
          // Their deliveries stay in flight until their leases lapse, then are sent again.
          this.context().log.error({ err: error, attempts: batch.length }, 'settling webhook attempts failed'));
        this.wake();
      }
    })().finally(() => {
      this.settling = null;
    });
  }

  private async settle(batch: Outcome[]): Promise<void> {
    const ctx = this.context();
    const outcomes = JSON.stringify(batch.map((outcome, n) => ({ ...outcome, n })));
    const overdue = await this.settleOnce(ctx, outcomes);
    const gone = new Set(batch.filter((o) => o.status === 410).map((o) => o.endpoint_id));
    for (const endpointId of gone) await disable(ctx, endpointId, WebhookDisabledReason.Gone);
    for (const { endpoint_id } of overdue) if (!gone.has(endpoint_id)) await disable(ctx, endpoint_id, WebhookDisabledReason.Failing);
  }

  /**
   * The batch's statement. One that had no effect is run again: it lost a deadlock, or a delivery it
   * logs was deleted (with its endpoint) between its check and its insert (the next run skips it).
   */
  private async settleOnce(ctx: ServiceContext, outcomes: string): Promise<{ endpoint_id: number }[]> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Writing work: it may wait for an endpoint row a claim holds (request-scope.ts).
        return await runWriting(() => settleAttempts.run(ctx.em, [outcomes, ctx.config.webhooks.disableAfterSeconds]));
      } catch (error) {
        if (!(isRetryable(error) || isForeignKeyViolation(error)) || attempt >= 3) throw error;
      }
    }
  }
}

const isForeignKeyViolation = (error: unknown) => [...causeChain(error)].some((link) => link.code === '23503');

/** What a delivery's span says of it (no URL: it may carry a secret in its query). */
function deliveryAttributes(delivery: ClaimedDelivery) {
  return {
    'mallfront.webhook.endpoint_id': delivery.endpoint_id,
    'mallfront.webhook.delivery_id': delivery.id,
    'mallfront.webhook.attempt': delivery.attempts,
    'mallfront.event.id': delivery.event_id,
    'mallfront.event.type': delivery.type,
  };
}

/** The body of a delivery: the event as the REST feed (`GET /api/events`) gives it. */
function deliveryBody(content: Pick<ClaimedDelivery, 'event_id' | 'type' | 'occurred_at' | 'shop_ids' | 'customer_id' | 'payload'>): string {
  return JSON.stringify(
    snakeKeys({ id: content.event_id, type: content.type, occurredAt: content.occurred_at, shopIds: content.shop_ids, customerId: content.customer_id, payload: content.payload }),
  );
}

/** Disables the endpoint and, if it was active, announces it (to its shop and the admins). */
async function disable(ctx: ServiceContext, endpointId: number, reason: WebhookDisabledReason.Gone | WebhookDisabledReason.Failing): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const [endpoint] = await disableEndpoint.run(tx.em, [reason, endpointId]);
    if (!endpoint) return;
    emit(tx, {
      type: EventTypes.WEBHOOK_ENDPOINT_DISABLED,
      shopIds: endpoint.shop_id === null ? [] : [endpoint.shop_id],
      customerId: null,
      payload: { endpointId, url: endpoint.url, reason },
    });
  });
  ctx.log.warn({ endpointId, reason }, 'webhook endpoint disabled');
}

/**
 * A test ping: `webhook.ping`, signed like a delivery, sent now; its attempt is logged without a
 * delivery, whatever it met (an answer, a timeout, a refused address), and answered. The wait for the
 * receiver (up to WEBHOOK_TIMEOUT_MS) is outside the request's database deadline: a slow receiver is
 * the receiver's failure, reported as such, never a 503 for a database that answered.
 */
export async function sendPing(ctx: ServiceContext, endpointId: number): Promise<WebhookAttemptView> {
  const [endpoint] = await ctx.em.execute<{ url: string; secret: string; previous_secret: string | null }[]>(
    'select url, secret, case when previous_secret_until > now() then previous_secret end as previous_secret from webhook_endpoint where id = ?',
    [endpointId],
  );
  const id = `ping_${randomUUID()}`;
  const ping: WebhookPingView = { id, type: 'webhook.ping', occurredAt: new Date().toISOString(), payload: {} };
  const body = JSON.stringify(snakeKeys(ping));
  const secrets = [endpoint.secret, ...(endpoint.previous_secret ? [endpoint.previous_secret] : [])];
  const result: SendResult = await outsideDeadline(() => postWebhook(endpoint.url, webhookHeaders(secrets, id, body), body, ctx.config.webhooks));
  // The attempt is logged (and audited, a member's or staff's ping) after the send: no transaction waits on the receiver.
  const [logged] = await inTransaction(ctx, (tx) =>
    auditedWrite(tx, { type: 'WebhookAttempt', createdId: ([row]) => row.id }, () => logAttempt.run(tx.em, [endpointId, null, result.status, result.latencyMs, result.error, result.head])),
  );
  return { id: logged.id, deliveryId: null, eventId: null, attemptedAt: new Date(logged.attempted_at), statusCode: result.status, latencyMs: result.latencyMs, error: result.error, responseHead: result.head };
}

