import pg from 'pg';
import type { Logger } from '../../logger.js';
import { decodeEvent, encodeEvent, type DomainEvent, type EventBus } from '../../shared/domain-event.js';
import { InProcessEventBus } from './in-process-bus.js';

export const EVENTS_CHANNEL = 'mallfront_events';

export interface PostgresEventBusOptions {
  connectionString: string;
  log: Logger;
  channel?: string;
  /** Backoff between reconnection attempts, doubling from `min` to `max` milliseconds. */
  reconnectDelayMs?: { min: number; max: number };
  /** Events waiting for the connection beyond this many are dropped, oldest first (and logged). */
  maxQueued?: number;
}

/** Events per NOTIFY statement: one round trip sends a batch. */
const BATCH = 200;

/**
 * Cross-process delivery through PostgreSQL LISTEN/NOTIFY, on one dedicated connection per process.
 *
 * `publish` is called after commit (see `inTransaction`): it queues the encoded events and sends
 * them, in order and batched, with `pg_notify` on that connection. Every process, this one included,
 * LISTENs on the channel and hands what arrives to its in-process bus, which the GraphQL
 * subscriptions read. So an event caused through one process reaches subscribers of all of them,
 * and a process delivers its own events the same way as the others'.
 *
 * The connection reconnects by itself with backoff; events published meanwhile wait in the queue
 * (bounded) and go out once it is back. A batch cut off mid-send is sent again, so delivery is at
 * least once: every event carries an `id`. Notifications sent by other processes while this one is
 * disconnected are not seen by it (LISTEN/NOTIFY keeps no history).
 */
export class PostgresEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private readonly channel: string;
  private readonly delay: { min: number; max: number };
  private readonly maxQueued: number;
  private readonly queue: string[] = [];
  private client: pg.Client | null = null;
  private listening = false;
  private flushing: Promise<void> | null = null;
  private flushScheduled = false;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private nextDelay: number;
  private stopped = false;
  private pid: number | null = null;
  private connectCount = 0;
  private readonly connectedWaiters = new Set<() => void>();

  constructor(private readonly options: PostgresEventBusOptions) {
    this.channel = options.channel ?? EVENTS_CHANNEL;
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel)) throw new Error(`Bad channel name: ${this.channel}`);
    this.delay = options.reconnectDelayMs ?? { min: 100, max: 5000 };
    this.maxQueued = options.maxQueued ?? 10_000;
    this.nextDelay = this.delay.min;
  }

  /** Connects and LISTENs. Fails if the first connection fails: the database is needed to start at all. */
  async start(): Promise<void> {
    await this.connect();
  }

  publish(events: DomainEvent[]): void {
    for (const event of events) this.queue.push(encodeEvent(event));
    if (this.queue.length > this.maxQueued) {
      const dropped = this.queue.splice(0, this.queue.length - this.maxQueued).length;
      this.options.log.error({ dropped }, 'event queue full while the events connection is down: oldest events dropped');
    }
    this.flushSoon();
  }

  /**
   * Flushes once the current turn of the event loop is over, so the events of every use case that
   * committed in this turn (a burst of checkouts answered together) go out in one NOTIFY statement.
   */
  private flushSoon(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => {
      this.flushScheduled = false;
      void this.flush();
    });
  }

  subscribe(listener: (event: DomainEvent) => void): () => void {
    return this.local.subscribe(listener);
  }

  subscriberCount(): number {
    return this.local.subscriberCount();
  }

  /** True while the dedicated connection is up and listening. */
  get isListening(): boolean {
    return this.listening;
  }

  /** The server process id of the events connection (what `pg_stat_activity.pid` shows). */
  get backendPid(): number | null {
    return this.listening ? this.pid : null;
  }

  /** How many times the connection has been established (1 + reconnections). */
  get connections(): number {
    return this.connectCount;
  }

  /** Resolves once the connection is (again) listening; for tests and shutdown. */
  whenListening(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.connectedWaiters.add(resolve));
  }

  /** Sends what is queued (waiting at most `timeoutMs` for it), then closes the connection. */
  async stop(timeoutMs = 2000): Promise<void> {
    if (this.stopped) return;
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([this.drain(), deadline]);
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.queue.length > 0) this.options.log.warn({ unsent: this.queue.length }, 'events not sent before shutdown');
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => {});
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0 && !this.stopped) {
      if (!this.listening) await this.whenListening();
      await this.flush();
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'mallfront-events',
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (message.channel === this.channel && message.payload !== undefined) this.receive(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      this.pid = rows[0].pid;
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => {});
      throw error;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.listening = true;
    this.connectCount += 1;
    this.nextDelay = this.delay.min;
    for (const resolve of this.connectedWaiters) resolve();
    this.connectedWaiters.clear();
    void this.flush();
  }

  private lost(client: pg.Client, error?: Error): void {
    if (client !== this.client) return;
    this.client = null;
    this.listening = false;
    client.removeAllListeners('end');
    client.on('error', () => {});
    client.end().catch(() => {});
    if (this.stopped) return;
    this.options.log.warn({ err: error }, 'events connection lost; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    const wait = this.nextDelay;
    this.nextDelay = Math.min(this.nextDelay * 2, this.delay.max);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.connect().then(
        () => this.options.log.info('events connection restored'),
        (error) => {
          this.options.log.warn({ err: error, retryInMs: this.nextDelay }, 'events connection failed');
          this.scheduleReconnect();
        },
      );
    }, wait);
    this.reconnectTimer.unref();
  }

  /** One flush at a time keeps the order of events; a flush sends everything queued, in batches. */
  private flush(): Promise<void> {
    this.flushing ??= this.sendQueued().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async sendQueued(): Promise<void> {
    while (this.queue.length > 0 && this.client && this.listening) {
      const client = this.client;
      const batch = this.queue.slice(0, BATCH);
      try {
        // Named: prepared once per connection instead of parsed and planned for every batch.
        await client.query({ name: 'mf_notify', text: 'select pg_notify($1, payload) from unnest($2::text[]) as t(payload)', values: [this.channel, batch] });
      } catch (error) {
        // The connection went away (it reconnects and flushes again) or the statement failed.
        if (client === this.client) this.options.log.error({ err: error }, 'sending events failed');
        return;
      }
      this.queue.splice(0, batch.length);
    }
  }

  private receive(text: string): void {
    const event = decodeEvent(text);
    if (!event) {
      this.options.log.warn({ payload: text.slice(0, 200) }, 'ignored a malformed event notification');
      return;
    }
    try {
      this.local.publish([event]);
    } catch (error) {
      this.options.log.error({ err: error, type: event.type }, 'an event subscriber failed');
    }
  }
}
