import pg from 'pg';
import type { Logger } from '../../logger.js';
import { eventOf, type DomainEvent, type EventBus } from '../../shared/domain-event.js';
import { InProcessEventBus } from './in-process-bus.js';
import { EventRow, RELAY_SQL, SequencedRow } from './outbox.repository.js';
import { tracing } from '../../tracing.js';

export const EVENTS_CHANNEL = 'mallfront_events';

export interface PostgresEventBusOptions {
  connectionString: string;
  log: Logger;
  channel?: string;
  /** Backoff between reconnection attempts, doubling from `min` to `max` milliseconds. */
  reconnectDelayMs?: { min: number; max: number };
  /**
   * How often the relay looks for events without being woken (OUTBOX_POLL_MS): events committed by
   * a process that died before waking any relay, and notifications missed while disconnected.
   */
  pollMs?: number;
}

/** Events numbered, or read, per statement. */
const BATCH = 500;

/**
 * The least time between two rounds of the relay in one process. A round is a statement on the
 * relay's connection that takes the relay lock and writes (and its NOTIFY reaches every process);
 * started after every commit, at a thousand checkouts a second rounds cost the checkout about a third
 * more CPU (docs/performance.md, issue 29). Spaced, a round numbers every event committed in the last
 * few milliseconds at once; an event reaches the subscriptions and webhooks at most this much later.
 */
export const PUMP_SPACING_MS = 10;

/**
 * The outbox relay of one process, with its live delivery, on one dedicated connection (LISTEN).
 *
 * Use cases store their events in the `event` table in their own transaction (`inTransaction`), then
 * call `committed()`. The relay then, in a transaction holding the relay's advisory lock (one relay
 * at a time across all processes), gives the waiting events their positions, in the order they
 * became visible, writes their webhook deliveries, and NOTIFYs the new last position on commit.
 * Every process LISTENs: on that wake-up (and every `pollMs` in any case) it reads the events after
 * the last position it handed over, in order, and hands them to its in-process bus, which the
 * GraphQL subscriptions read. NOTIFY carries no event, only the new last position and whether
 * webhook deliveries were written (`parseRelayNotice`).
 *
 * A round does only what is needed: it numbers events when some were committed (here, or announced
 * by another writer's NOTIFY, or looked for at the poll), reads events only while this process has
 * subscribers (without any it just moves its mark to the last position), and wakes the webhook
 * dispatchers only when a round wrote deliveries. At a thousand checkouts a second each of these was
 * a statement or more per round on a connection the use cases share (docs/performance.md, issue 29).
 *
 * Nothing is lost when a process dies: an event committed by it is found by the next relay that
 * runs (any process's poll, or its own after a restart); a relay transaction cut off gives no
 * positions and is run again. Each process hands its subscribers every position once, in order.
 */
export class PostgresEventBus implements EventBus {
  private readonly local = new InProcessEventBus();
  private readonly channel: string;
  private readonly delay: { min: number; max: number };
  private readonly pollMs: number;
  private client: pg.Client | null = null;
  private listening = false;
  private pumping: Promise<void> | null = null;
  private again = false;
  private pumpScheduled = false;
  /** Events were committed since the last round numbered them (or the poll asks to look). */
  private toSequence = false;
  /** Webhook deliveries were written since the dispatchers were last woken. */
  private toDispatch = false;
  /** The highest position known to be given (this relay's rounds, other relays' notices). */
  private known: bigint | null = null;
  /** When the relay last started a round (performance.now()): rounds are spaced by PUMP_SPACING_MS. */
  private lastRound = Number.NEGATIVE_INFINITY;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private nextDelay: number;
  private stopped = false;
  private pid: number | null = null;
  private connectCount = 0;
  /** The last position handed to this process's subscribers; null until the first connection. */
  private delivered: bigint | null = null;
  private readonly connectedWaiters = new Set<() => void>();
  private readonly wakeListeners = new Set<() => void>();

  constructor(private readonly options: PostgresEventBusOptions) {
    this.channel = options.channel ?? EVENTS_CHANNEL;
    if (!/^[a-z_][a-z0-9_]*$/.test(this.channel)) throw new Error(`Bad channel name: ${this.channel}`);
    this.delay = options.reconnectDelayMs ?? { min: 100, max: 5000 };
    this.pollMs = options.pollMs ?? 1000;
    this.nextDelay = this.delay.min;
  }

  /** Connects and LISTENs. Fails if the first connection fails: the database is needed to start at all. */
  async start(): Promise<void> {
    await this.connect();
    this.pollTimer = setInterval(() => {
      // Events of a process that died before its relay ran, and notices missed while disconnected.
      this.toSequence = true;
      this.pumpSoon();
    }, this.pollMs);
    this.pollTimer.unref();
  }

  committed(): void {
    this.toSequence = true;
    this.pumpSoon();
  }

  deliveriesWritten(): void {
    for (const listener of this.wakeListeners) listener();
  }

  subscribe(listener: (event: DomainEvent) => void): () => void {
    return this.local.subscribe(listener);
  }

  /** Called when a relay (of any process) wrote webhook deliveries (the webhook dispatcher of this process listens). */
  onWake(listener: () => void): () => void {
    this.wakeListeners.add(listener);
    return () => this.wakeListeners.delete(listener);
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

  /** The last position this process handed to its subscribers. */
  get lastDelivered(): string | null {
    return this.delivered === null ? null : String(this.delivered);
  }

  /** Resolves once the connection is (again) listening; for tests and shutdown. */
  whenListening(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve) => this.connectedWaiters.add(resolve));
  }

  /** Relays what is waiting (at most `timeoutMs`), then closes the connection. */
  async stop(timeoutMs = 2000): Promise<void> {
    if (this.stopped) return;
    const deadline = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs).unref());
    this.toSequence = true;
    await Promise.race([this.listening ? this.pump() : Promise.resolve(), deadline]);
    this.stopped = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.pollTimer) clearInterval(this.pollTimer);
    const client = this.client;
    this.client = null;
    this.listening = false;
    await client?.end().catch(() => {});
  }

  /**
   * Runs the relay once the current turn of the event loop is over and PUMP_SPACING_MS after its last
   * round began, so the use cases that committed meanwhile (a burst of checkouts) are numbered by one
   * statement.
   */
  private pumpSoon(): void {
    if (this.pumpScheduled || this.stopped) return;
    this.pumpScheduled = true;
    const run = () => {
      this.pumpScheduled = false;
      void this.pump();
    };
    const wait = this.untilNextRound();
    if (wait === 0) setImmediate(run);
    else setTimeout(run, wait);
  }

  /** Milliseconds until PUMP_SPACING_MS has passed since the last round began (0: now). */
  private untilNextRound(): number {
    return Math.max(0, this.lastRound + PUMP_SPACING_MS - performance.now());
  }

  /** One pump at a time; a wake-up during one runs it again after. */
  pump(): Promise<void> {
    if (this.pumping) {
      this.again = true;
      return this.pumping;
    }
    this.pumping = (async () => {
      do {
        this.again = false;
        this.lastRound = performance.now();
        await this.relayAndRead();
        if (this.again) await new Promise((resolve) => setTimeout(resolve, this.untilNextRound()));
      } while (this.again && this.listening && !this.stopped);
    })().finally(() => {
      this.pumping = null;
    });
    return this.pumping;
  }

  private async relayAndRead(): Promise<void> {
    const client = this.client;
    if (!client || !this.listening) return;
    try {
      if (this.toSequence) {
        this.toSequence = false;
        let full = true;
        while (full) full = (await this.sequence(client)) === BATCH;
      }
      await this.readCommitted(client);
    } catch (error) {
      // The connection went away (it reconnects and pumps again) or a statement failed (retried next poll).
      this.toSequence = true;
      if (client === this.client) this.options.log.error({ err: error }, 'relaying events failed; retried at the next poll');
    }
    if (this.toDispatch) {
      this.toDispatch = false;
      for (const listener of this.wakeListeners) listener();
    }
  }

  /** Numbers one batch of waiting events under the relay lock (one statement: `mf_relay_round`); returns how many. */
  private async sequence(client: pg.Client): Promise<number> {
    const started = tracing ? new Date() : null;
    const { rows } = await client.query<{ round: unknown }>({ name: 'mf_relay_round', text: RELAY_SQL.round, values: [BATCH, this.channel] });
    const result = SequencedRow.parse(rows[0]?.round);
    if (result.last !== null) this.learn(BigInt(result.last), result.deliveries > 0);
    if (started && result.sequenced > 0 && result.last !== null) await this.traceRound(client, started, result.sequenced, result.last, result.deliveries);
    return result.sequenced;
  }

  /**
   * With tracing on, a round that numbered events is a trace of its own, from the round's start,
   * linked to the traces of the requests that wrote them (their `trace_parent`, read back here by
   * position: a round gives consecutive positions). Rounds that found nothing (most polls) make no
   * trace, which is why the span starts after the round and not before. A failure here loses the
   * span, never the round.
   */
  private async traceRound(client: pg.Client, started: Date, sequenced: number, last: string, deliveries: number): Promise<void> {
    const first = BigInt(last) - BigInt(sequenced);
    const attributes = { 'mallfront.outbox.events': sequenced, 'mallfront.outbox.last_position': last, 'mallfront.outbox.deliveries': deliveries };
    await tracing
      ?.inLinkedRoot('outbox relay', attributes, [], async (link) => {
        const { rows } = await client.query<{ trace_parent: string }>({ name: 'mf_relay_trace_parents', text: RELAY_SQL.traceParents, values: [String(first), last] });
        link(rows.map((row) => row.trace_parent));
      }, started)
      .catch((error: unknown) => this.options.log.debug({ err: error }, 'the relay round\'s trace was not recorded'));
  }

  /**
   * A relay gave positions up to `last` (and wrote deliveries when `fanned`). Without subscribers
   * there is nothing to read: the mark moves at once, so a subscriber that arrives later is handed
   * only what is given after it came (what came before is its replay's, with `after`).
   */
  private learn(last: bigint, fanned: boolean): void {
    if (this.known === null || last > this.known) this.known = last;
    if (fanned) this.toDispatch = true;
    this.passIfUnwatched();
  }

  /** Without subscribers there is nothing to hand over: the mark moves to the last position known. */
  private passIfUnwatched(): void {
    if (this.local.subscriberCount() > 0 || this.delivered === null || this.known === null) return;
    if (this.known > this.delivered) this.delivered = this.known;
  }

  /** A NOTIFY on the channel: a relay's round (`mf_relay_round`), or any other payload: events were committed. */
  private noticed(payload: string | undefined): void {
    const notice = parseRelayNotice(payload);
    if (!notice) {
      this.toSequence = true;
      this.pumpSoon();
      return;
    }
    this.learn(notice.last, notice.fanned);
    if (notice.fanned || (this.delivered !== null && notice.last > this.delivered)) this.pumpSoon();
  }

  /** Hands the committed events after the last one delivered to this process's subscribers, in order. */
  private async readCommitted(client: pg.Client): Promise<void> {
    if (this.delivered === null) return;
    if (this.local.subscriberCount() === 0) {
      this.passIfUnwatched();
      return;
    }
    for (;;) {
      const { rows } = await client.query({ name: 'mf_relay_after', text: RELAY_SQL.after, values: [String(this.delivered), BATCH] });
      for (const raw of rows) {
        const row = EventRow.parse(raw);
        this.delivered = BigInt(row.id);
        this.deliver(row);
      }
      if (rows.length < BATCH) return;
    }
  }

  private deliver(row: EventRow): void {
    const event = eventOf({ id: row.id, type: row.type, occurredAt: row.occurred_at, shopIds: row.shop_ids, customerId: row.customer_id, payload: row.payload });
    if (!event) {
      this.options.log.warn({ id: row.id, type: row.type }, 'skipped a stored event of an unknown type or shape');
      return;
    }
    try {
      this.local.publish([event]);
    } catch (error) {
      this.options.log.error({ err: error, type: event.type }, 'an event subscriber failed');
    }
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: this.options.connectionString,
      application_name: 'mallfront-events',
      keepAlive: true,
    });
    client.on('notification', (message) => {
      if (message.channel === this.channel) this.noticed(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
      const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
      this.pid = rows[0].pid;
      // Live delivery starts at the first connection: what committed before is the feeds' replay.
      // After a reconnection, notices may have been missed while away: the position is read again.
      const { rows: lastRows } = await client.query<{ last: string }>(RELAY_SQL.lastPosition);
      const last = BigInt(lastRows[0]?.last ?? '0');
      if (this.delivered === null) this.delivered = last;
      this.learn(last, false);
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
    // Whatever committed while this process was not listening.
    this.toSequence = true;
    this.pumpSoon();
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
}

/** A relay round's NOTIFY payload (sent by `mf_relay_round`): the last position it gave, and `+` when it wrote webhook deliveries. */
function parseRelayNotice(payload: string | undefined): { last: bigint; fanned: boolean } | null {
  const match = /^([0-9]{1,19})(\+?)$/.exec(payload ?? '');
  return match ? { last: BigInt(match[1]), fanned: match[2] === '+' } : null;
}
