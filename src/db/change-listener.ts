import type { EntityManager } from '@mikro-orm/postgresql';
import pg from 'pg';
import type { Logger } from '../logger.js';
import { KEEPALIVE } from './deadline-client.js';

/**
 * One connection of its own that LISTENs to a channel a trigger NOTIFYs at every change of a table
 * (issue 43: the storefront's home content). What a process keeps of that table is current while
 * `generation` stays where it was when it was read, and the connection `live`:
 * - a notification moves the generation on (PostgreSQL delivers it at the writer's commit);
 * - so does losing the connection and getting it back: a change made meanwhile was not heard, so
 *   whatever was kept is read again;
 * - while the connection is down nothing may be kept (`live` is false): every read goes to the database.
 * A value read while a change commits is stamped with the generation from before the read, so it
 * is read again at the change's notification even when that arrives after the read ended.
 * Another process's change is heard when its notification arrives (milliseconds after its commit);
 * the writing process moves its own generation at once (`changed`).
 */
export class ChangeListener {
  /** Moves on at every change heard, every loss and regain of the connection, every `changed`. */
  generation = 0;
  /** LISTENing now: kept values may be used. */
  live = false;
  private client: pg.Client | null = null;
  private stopped = false;
  private retry: NodeJS.Timeout | null = null;
  private delayMs: number;
  private connecting: Promise<void> | null = null;

  constructor(
    private readonly clientUrl: string,
    readonly channel: string,
    private readonly log: Logger,
    private readonly reconnectDelayMs = { min: 100, max: 5_000 },
  ) {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a plain channel name: ${channel}`);
    this.delayMs = reconnectDelayMs.min;
  }

  /** Connects and LISTENs; a failure is retried in the background (reads go to the database meanwhile). */
  start(): Promise<void> {
    this.connecting ??= this.connect().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  /** This process changed the table: what it kept is stale at once, whatever the notification's delay. */
  changed(): void {
    this.generation++;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    await this.connecting?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    this.live = false;
    this.generation++;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.clientUrl, ...KEEPALIVE });
    client.on('notification', () => {
      this.generation++;
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      this.log.warn({ err: error, channel: this.channel }, 'change listener could not connect; reads go to the database until it does');
      this.scheduleRetry();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delayMs = this.reconnectDelayMs.min;
    // Changes made while no connection listened were not heard.
    this.generation++;
    this.live = true;
  }

  private lost(client: pg.Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = null;
    this.live = false;
    this.generation++;
    client.end().catch(() => undefined);
    if (this.stopped) return;
    this.log.warn({ err: error, channel: this.channel }, 'change listener lost its connection; reconnecting');
    this.scheduleRetry();
  }

  private scheduleRetry(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.start();
    }, this.delayMs);
    this.retry.unref();
    this.delayMs = Math.min(this.delayMs * 2, this.reconnectDelayMs.max);
  }
}

/** The listeners of each ORM (by its connection, shared by every fork), by channel. */
const listeners = new WeakMap<object, Map<string, ChangeListener>>();

/** Makes `listener` the one for its channel on this ORM's database. */
export function registerChangeListener(em: EntityManager, listener: ChangeListener): void {
  const connection = em.getConnection();
  let byChannel = listeners.get(connection);
  if (!byChannel) listeners.set(connection, (byChannel = new Map<string, ChangeListener>()));
  byChannel.set(listener.channel, listener);
}

/**
 * The listener of `channel` on the database `em` works on; undefined where none runs (a read
 * replica's manager, service tests, commands): nothing is kept there.
 */
export function changeListenerOf(em: EntityManager, channel: string): ChangeListener | undefined {
  return listeners.get(em.getConnection())?.get(channel);
}
