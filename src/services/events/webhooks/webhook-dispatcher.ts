import { randomUUID } from 'node:crypto';
import type { ServiceContext } from '../../../shared/context.js';
import { inTransaction, emit } from '../../../shared/transaction.js';
import { snakeKeys } from '../../../shared/case.js';
import { WebhookDisabledReason } from '../../../entities/event.entity.js';
import { EventTypes } from '../event-types.js';
import { webhookHeaders } from './webhook-signing.js';
import { postWebhook, type SendResult } from './webhook-sender.js';
import {
  claimDeliveries, deliveryContent, disableEndpoint, dueEndpoints, endpointHealth, lockEndpoint, logAttempt, reclaimLapsed, settleDelivery,
} from './webhooks.repository.js';

/**
 * The webhook dispatcher of one server process. Woken by the relay (and every `pollMs`), it claims
 * the due deliveries of each endpoint, at most WEBHOOK_MAX_CONCURRENCY in flight per endpoint across
 * all processes, lowest positions first, and sends each without waiting for the others: one slow
 * endpoint holds only its own slots. A claim is a lease: if this process dies mid-attempt, the
 * delivery is due again once the lease lapses, and another process sends it (at least once: the
 * receiver drops a repeat by its `webhook-id`).
 *
 * Outcomes: a 2xx delivers; a 410 Gone ends the delivery and disables the endpoint; anything else
 * (an error status, a redirect, a timeout, a refused address) is retried after the next wait of
 * WEBHOOK_RETRY_DELAYS_SECONDS, jittered by ±20% so retries of many deliveries spread out, until
 * the waits run out (the delivery fails). An endpoint whose attempts have all failed for
 * WEBHOOK_DISABLE_AFTER_SECONDS is disabled, and a `webhook.endpoint_disabled` event says so.
 */
export class WebhookDispatcher {
  private ticking: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly sending = new Set<Promise<void>>();

  constructor(private readonly context: () => ServiceContext, private readonly pollMs = 500) {}

  start(): void {
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due deliveries soon (called by the relay after it wrote some). */
  wake(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = (async () => {
      do {
        this.again = false;
        await this.tick().catch((error: unknown) => this.context().log.warn({ err: error }, 'webhook dispatch failed; retried at the next poll'));
      } while (this.again && !this.stopped);
    })().finally(() => {
      this.ticking = null;
    });
  }

  /** Stops claiming and waits (at most `timeoutMs`) for the attempts in flight. */
  async stop(timeoutMs = 2000): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.all([this.ticking, ...this.sending]), deadline]);
  }

  private async tick(): Promise<void> {
    const ctx = this.context();
    const { webhooks } = ctx.config;
    await reclaimLapsed.run(ctx.em, []);
    for (const { id } of await dueEndpoints.run(ctx.em, [])) {
      if (this.stopped) return;
      const claimed = await inTransaction(ctx, async (tx) => {
        if ((await lockEndpoint.run(tx.em, [id])).length === 0) return [];
        const lease = webhooks.timeoutMs + 5000;
        return claimDeliveries.run(tx.em, [id, id, webhooks.maxConcurrencyPerEndpoint, lease]);
      });
      if (claimed.length === 0) continue;
      const contents = await deliveryContent.run(ctx.em, [`{${claimed.map((c) => c.id).join(',')}}`]);
      for (const claim of claimed.sort((x, y) => Number(BigInt(x.position) - BigInt(y.position)))) {
        const content = contents.find((c) => c.id === claim.id);
        if (!content) continue;
        const sending = this.deliver(claim.attempts, id, content).finally(() => {
          this.sending.delete(sending);
          // Its slot is free: the endpoint's next delivery may go.
          this.wake();
        });
        this.sending.add(sending);
      }
    }
  }

  private async deliver(attempts: number, endpointId: number, content: Awaited<ReturnType<typeof deliveryContent.run>>[number]): Promise<void> {
    const ctx = this.context();
    const { webhooks } = ctx.config;
    const body = deliveryBody(content);
    const secrets = [content.secret, ...(content.previous_secret ? [content.previous_secret] : [])];
    const result = await postWebhook(content.url, webhookHeaders(secrets, `evt_${content.event_id}`, body), body, webhooks);
    await logAttempt.run(ctx.em, [endpointId, content.id, result.status, result.latencyMs, result.error, result.head]);
    const ok = result.error === null && result.status !== null && result.status >= 200 && result.status < 300;
    if (ok) {
      await settleDelivery.run(ctx.em, ['delivered', 0, result.status, content.id]);
      await endpointHealth.run(ctx.em, [true, endpointId, webhooks.disableAfterSeconds]);
      return;
    }
    if (result.status === 410) {
      await settleDelivery.run(ctx.em, ['failed', 0, result.status, content.id]);
      await disable(ctx, endpointId, WebhookDisabledReason.Gone);
      return;
    }
    const delays = webhooks.retryDelaysSeconds;
    const exhausted = attempts > delays.length;
    const wait = exhausted ? 0 : Math.round(delays[attempts - 1] * 1000 * (0.8 + Math.random() * 0.4));
    await settleDelivery.run(ctx.em, [exhausted ? 'failed' : 'pending', wait, result.status, content.id]);
    const [health] = await endpointHealth.run(ctx.em, [false, endpointId, webhooks.disableAfterSeconds]);
    if (health?.overdue) await disable(ctx, endpointId, WebhookDisabledReason.Failing);
  }
}

/** The body of a delivery: the event as the REST feed (`GET /api/events`) gives it. */
function deliveryBody(content: { event_id: string; type: string; occurred_at: string; shop_ids: number[]; customer_id: number | null; payload: unknown }): string {
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

/** One line of an endpoint's delivery log. */
export interface WebhookAttemptView {
  id: string;
  deliveryId: string | null;
  eventId: string | null;
  attemptedAt: Date;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseHead: string | null;
}

/** A test ping: `webhook.ping`, signed like a delivery, sent now; its attempt is logged without a delivery. */
export async function sendPing(ctx: ServiceContext, endpointId: number): Promise<WebhookAttemptView> {
  const [endpoint] = await ctx.em.execute<{ url: string; secret: string; previous_secret: string | null }[]>(
    'select url, secret, case when previous_secret_until > now() then previous_secret end as previous_secret from webhook_endpoint where id = ?',
    [endpointId],
  );
  const id = `ping_${randomUUID()}`;
  const body = JSON.stringify({ id, type: 'webhook.ping', occurred_at: new Date().toISOString(), payload: {} });
  const secrets = [endpoint.secret, ...(endpoint.previous_secret ? [endpoint.previous_secret] : [])];
  const result: SendResult = await postWebhook(endpoint.url, webhookHeaders(secrets, id, body), body, ctx.config.webhooks);
  const [logged] = await logAttempt.run(ctx.em, [endpointId, null, result.status, result.latencyMs, result.error, result.head]);
  return { id: logged.id, deliveryId: null, eventId: null, attemptedAt: new Date(logged.attempted_at), statusCode: result.status, latencyMs: result.latencyMs, error: result.error, responseHead: result.head };
}

