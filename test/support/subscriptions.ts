import { createClient, type Client, type ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import type { DomainEvent } from '../../src/shared/domain-event.js';
import { EventTypes } from '../../src/services/events/event-types.js';
import { OrderStatus } from '../../src/entities/order.entity.js';
import { emit, inTransaction } from '../../src/shared/transaction.js';
import type { TestApp } from './harness.js';

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`${what}: not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A graphql-ws subscription of a test, collecting what the server sends. */
export class LiveSubscription {
  readonly results: ExecutionResult<any>[] = [];
  error: unknown = null;
  completed = false;
  private read = 0;

  constructor(private readonly client: Client, private readonly app: SubscriptionTarget) {}

  /** The next result not read yet (waits for it). */
  async nextResult(timeoutMs = 5000): Promise<ExecutionResult<any>> {
    await waitFor(() => this.results.length > this.read || this.error !== null || this.completed, timeoutMs, 'next subscription result');
    if (this.results.length > this.read) return this.results[this.read++];
    throw new Error(`subscription ended without a result: ${this.error ? JSON.stringify(this.error) : 'completed'}`);
  }

  /** The next event's data under `field` (fails on an error result). */
  async next(field: string, timeoutMs = 5000): Promise<any> {
    const result = await this.nextResult(timeoutMs);
    if (result.errors) throw new Error(`subscription error: ${JSON.stringify(result.errors)}`);
    return result.data[field];
  }

  /** Closes the connection and waits until the server has let go of the subscription. */
  async close(): Promise<void> {
    const events = this.app.events;
    const count = events?.subscriberCount();
    await this.client.dispose();
    if (events && count !== undefined && this.error === null && !this.completed) {
      await waitFor(() => events.subscriberCount() < count, 5000, 'subscription released');
    }
  }
}

/** A server to subscribe on: a test app, or a server process (whose subscribers the test cannot count). */
export interface SubscriptionTarget {
  wsUrl: string;
  events?: { subscriberCount(): number };
}

/**
 * Subscribes on `t` over a real websocket with the token in connectionParams, and returns once the
 * server listens for events for it (or answered with an error), so nothing emitted later is missed.
 * For a server process (no `events` to watch) it returns once the connection is acknowledged.
 */
export async function subscribe(
  t: SubscriptionTarget,
  query: string,
  options: { token?: string; variables?: Record<string, unknown>; shopId?: number } = {},
): Promise<LiveSubscription> {
  const before = t.events?.subscriberCount() ?? 0;
  let connected = false;
  const client = createClient({
    url: t.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: options.token ? { authorization: `Bearer ${options.token}`, ...(options.shopId === undefined ? {} : { shopId: options.shopId }) } : {},
    retryAttempts: 0,
    on: { connected: () => void (connected = true) },
  });
  const live = new LiveSubscription(client, t);
  client.subscribe(
    { query, variables: options.variables },
    {
      next: (result) => void live.results.push(result as ExecutionResult<any>),
      error: (error) => void (live.error = error),
      complete: () => void (live.completed = true),
    },
  );
  await waitFor(
    () => (t.events ? t.events.subscriberCount() > before : connected) || live.results.length > 0 || live.error !== null || live.completed,
    5000,
    'subscription in place',
  );
  return live;
}

/** Runs one operation (query or mutation) over graphql-ws and returns its single result. */
export async function wsOperation(t: TestApp, query: string, token?: string): Promise<{ result?: ExecutionResult<any>; error?: any }> {
  const client = createClient({
    url: t.wsUrl,
    webSocketImpl: WebSocket,
    connectionParams: token ? { token } : {},
    retryAttempts: 0,
  });
  try {
    return await new Promise((resolve) => {
      let result: ExecutionResult<any> | undefined;
      client.subscribe(
        { query },
        {
          next: (r) => void (result = r as ExecutionResult<any>),
          error: (error) => resolve({ error }),
          complete: () => resolve({ result }),
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

/** Opens a raw graphql-transport-ws connection, sends connection_init, and reports how it ended. */
export function connectRaw(t: TestApp, payload: Record<string, unknown>): Promise<{ acknowledged: boolean; code?: number; reason?: string }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(t.wsUrl, 'graphql-transport-ws');
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    socket.on('message', (data) => {
      if (JSON.parse(String(data)).type === 'connection_ack') {
        socket.close(1000);
        resolve({ acknowledged: true });
      }
    });
    socket.on('close', (code, reason) => resolve({ acknowledged: false, code, reason: String(reason) }));
    socket.on('error', reject);
  });
}

export type TestEvent = Omit<DomainEvent, 'id' | 'occurredAt'>;

/**
 * Every field of every event payload type (the `EventPayload` union), so a test can compare a
 * delivered payload with what was emitted (closed-set values in the schema's spelling). Fields of
 * one name and two types in two payload types must be aliased in one document (GraphQL's rule for
 * fields of a union): a refund's `status` is `refundStatus` here, a paid order's `groupId` is
 * `seatGroupId`, a disabled endpoint's `reason` (not an order's cancel reason) is `disabledReason`.
 */
export const PAYLOAD_FIELDS = `payload {
  ... on OrderPlacedEventPayload { orderId total status }
  ... on OrderPaidEventPayload { orderId total status seatGroupId: groupId }
  ... on OrderCancelledEventPayload { orderId reason status }
  ... on OrderDeliveredEventPayload { orderId status }
  ... on ShipmentCreatedEventPayload { orderId shipmentId companyCode carrier trackingNumber }
  ... on GroupStateChangedEventPayload { groupId activityId state paidSeats capacity orderIds }
  ... on RedemptionCreatedEventPayload { redemptionId pointsProductId quantity points }
  ... on StockLowEventPayload { skuId productId stock threshold }
  ... on ReviewCreatedEventPayload { reviewId productId rating }
  ... on ReviewRepliedEventPayload { reviewId }
  ... on RefundRequestedEventPayload { refundId orderId kind refundStatus: status amount }
  ... on RefundApprovedEventPayload { refundId orderId kind refundStatus: status }
  ... on RefundShippedBackEventPayload { refundId orderId kind refundStatus: status }
  ... on RefundCompletedEventPayload { refundId orderId kind refundStatus: status amount }
  ... on RefundRejectedEventPayload { refundId orderId kind refundStatus: status }
  ... on RefundCancelledEventPayload { refundId orderId kind refundStatus: status }
  ... on WebhookEndpointDisabledEventPayload { endpointId url disabledReason: reason }
}`;

/**
 * Emits events from a real transaction of `t` (published after commit, as a use case does). With
 * `rollback` the transaction throws after emitting and nothing may be published.
 */
export async function commitEvents(t: TestApp, events: TestEvent[], options: { rollback?: boolean } = {}): Promise<void> {
  const ctx = await t.context();
  await inTransaction(ctx, async (tx) => {
    await tx.em.execute('select 1');
    for (const event of events) emit(tx, event);
    if (options.rollback) throw new Error('rolled back on purpose');
  });
}

export const orderPlaced = (shopId: number, customerId: number, orderId: number): TestEvent => ({
  type: EventTypes.ORDER_PLACED,
  shopIds: [shopId],
  customerId,
  payload: { orderId, total: 1000, status: OrderStatus.PendingPayment },
});

/**
 * An event every admin subscriber receives, told apart by `tag` (its payload's `skuId`): sent last,
 * it proves the ones before it were not held back.
 */
export const marker = (tag: number): TestEvent => ({
  type: EventTypes.STOCK_LOW,
  shopIds: [],
  customerId: null,
  payload: { skuId: tag, productId: 0, stock: 0, threshold: 1 },
});
