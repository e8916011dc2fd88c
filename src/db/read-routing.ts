import pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../logger.js';
import { openOrm, type MikroORM, type OrmOptions } from './orm.js';

/**
 * Where a request's reads go: the primary, or a streaming replica. Use cases never ask: they read
 * through `ctx.em`, and the request context (src/server/request-context.ts) decides, once per request,
 * which database `ctx.em` reads from while the request is not writing:
 * - every write (a use case's connections are writing work: request-scope.ts) goes to the primary;
 * - reads of a request that is neither anonymous nor a customer's, or that came over a websocket
 *   (a subscription reads what an event just announced), go to the primary;
 * - a customer's reads go to the primary for READ_YOUR_WRITES_MS after any write of theirs
 *   (`noteUserWrite`, kept in `app_user.last_write_at`, so every server process knows);
 * - other reads (the storefront: listing, detail, search, facets, suggestions, categories, brands,
 *   shops, home content, flash-sale and group-buy discovery) go to a replica that answers and is
 *   within READ_REPLICA_MAX_LAG_MS of the primary, else to the primary.
 */
export interface ReadRouting {
  /** A fork of a usable replica's ORM (round robin among them), or null: read from the primary. */
  replicaFork(): ReplicaRead | null;
  /** What the router knows of each replica (operations, tests). */
  status(): ReplicaStatus[];
  close(): Promise<void>;
}

export interface ReplicaStatus {
  url: string;
  /** Answered its last probe, and lost no read since. */
  up: boolean;
  /** How far behind the primary it was at its last probe (ms), null when unknown. */
  lagMs: number | null;
  usable: boolean;
  /** Reads whose connection to it failed under them (each ran again on the primary). */
  readsLost: number;
}

/** A request's reads on one replica. */
export interface ReplicaRead {
  em: EntityManager;
  /**
   * A read's connection to the replica failed (`connectionLost`, src/errors.ts): the replica is
   * skipped from now until a probe finds it answering again.
   */
  lost(error: unknown): void;
}

/** No replicas: everything reads from the primary. */
export const primaryOnly: ReadRouting = {
  replicaFork: () => null,
  status: () => [],
  close: async () => {},
};

/** A point of the primary's WAL and when it was seen. */
interface WalSample {
  at: number;
  lsn: bigint;
}

/** `16/B374D848` as a number. */
export function parseLsn(text: string): bigint {
  const [high, low] = text.split('/');
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

class Replica {
  orm: MikroORM | null = null;
  probe: pg.Client | null = null;
  up = false;
  lagMs: number | null = null;
  probedAt = 0;
  readsLost = 0;

  constructor(readonly url: string) {}
}

export interface ReplicaRouterOptions {
  primary: MikroORM;
  urls: string[];
  /** The replicas' pools are made like the primary's (sizes, timeouts, pool mode). */
  pool: Omit<OrmOptions, 'clientUrl'>;
  maxLagMs: number;
  log: Logger;
  /** How often the primary's WAL position and each replica's replay position are read. */
  probeEveryMs?: number;
}

/**
 * Lag is measured against the primary's clock of WAL, not the replica's replay timestamp (which
 * grows while the primary is idle, and says nothing when the replica stopped receiving): every probe
 * reads the primary's current WAL position and keeps it with the time it was seen; a replica's lag is
 * how long ago the primary first had WAL the replica has not replayed yet (0 when it replayed all
 * the primary had at the last probe). That bounds the real lag from above, to within one probe.
 * A replica is usable when it answered a probe recently and its lag is within the limit; a replica
 * whose probe connection drops, or that loses a read (`ReplicaRead.lost`), is unusable at once, not
 * at the next probe.
 */
export class ReplicaRouter implements ReadRouting {
  private readonly replicas: Replica[];
  private readonly samples: WalSample[] = [];
  private readonly probeEveryMs: number;
  private timer: NodeJS.Timeout | null = null;
  private probing: Promise<void> | null = null;
  private next = 0;
  private closed = false;

  constructor(private readonly options: ReplicaRouterOptions) {
    this.replicas = options.urls.map((url) => new Replica(url));
    this.probeEveryMs = options.probeEveryMs ?? Math.min(1_000, Math.max(50, Math.floor(options.maxLagMs / 4)));
  }

  /** Opens the replicas' pools and probes once; a replica that is down now is retried by the probes. */
  async start(): Promise<void> {
    for (const replica of this.replicas) {
      try {
        replica.orm = await openOrm({ ...this.options.pool, clientUrl: replica.url });
      } catch (error) {
        this.options.log.warn({ err: error, replica: redacted(replica.url) }, 'read replica not reachable at start: reads go to the primary until it is');
      }
    }
    await this.probe();
    this.timer = setInterval(() => void this.probe(), this.probeEveryMs);
    this.timer.unref();
  }

  replicaFork(): ReplicaRead | null {
    const now = Date.now();
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length];
      if (this.usable(replica, now)) {
        this.next = (this.next + i + 1) % this.replicas.length;
        return { em: replica.orm!.em.fork(), lost: (error) => this.readLost(replica, error) };
      }
    }
    return null;
  }

  status(): ReplicaStatus[] {
    const now = Date.now();
    return this.replicas.map((r) => ({ url: redacted(r.url), up: r.up, lagMs: r.lagMs, usable: this.usable(r, now), readsLost: r.readsLost }));
  }

  /** Runs a probe now (tests: not to wait for the timer). */
  probeNow(): Promise<void> {
    return this.probe();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.probing;
    for (const replica of this.replicas) {
      await replica.probe?.end().catch(() => {});
      await replica.orm?.close().catch(() => {});
    }
  }

  private usable(replica: Replica, now: number): boolean {
    // A probe older than the lag limit (plus one period) cannot vouch for the lag any more.
    const fresh = now - replica.probedAt <= this.options.maxLagMs + 2 * this.probeEveryMs;
    return replica.orm !== null && replica.up && fresh && replica.lagMs !== null && replica.lagMs <= this.options.maxLagMs;
  }

  private probe(): Promise<void> {
    this.probing ??= this.probeAll().finally(() => {
      this.probing = null;
    });
    return this.probing;
  }

  private async probeAll(): Promise<void> {
    if (this.closed) return;
    try {
      const [row] = await this.options.primary.em.fork().execute<{ lsn: string }[]>('select pg_current_wal_lsn()::text as lsn');
      this.samples.push({ at: Date.now(), lsn: parseLsn(row.lsn) });
    } catch (error) {
      // Without the primary's position no lag can be known: the replicas are judged on the last ones kept.
      this.options.log.warn({ err: error }, 'read replicas: could not read the primary WAL position');
    }
    // Keep what a lag up to the limit (and a bit) can be measured against.
    const keepFrom = Date.now() - (this.options.maxLagMs + 5 * this.probeEveryMs);
    while (this.samples.length > 1 && this.samples[0].at < keepFrom) this.samples.shift();
    await Promise.all(this.replicas.map((replica) => this.probeReplica(replica)));
  }

  private async probeReplica(replica: Replica): Promise<void> {
    try {
      if (!replica.orm) replica.orm = await openOrm({ ...this.options.pool, clientUrl: replica.url });
      replica.probe ??= await this.connectProbe(replica);
      const { rows } = await replica.probe.query<{ lsn: string | null }>('select pg_last_wal_replay_lsn()::text as lsn');
      const replayed = rows[0].lsn === null ? null : parseLsn(rows[0].lsn);
      const wasUsable = this.usable(replica, Date.now());
      replica.up = true;
      replica.probedAt = Date.now();
      replica.lagMs = replayed === null ? null : this.lagOf(replayed);
      if (replayed === null) this.options.log.warn({ replica: redacted(replica.url) }, 'a read replica URL names a server that is not replaying WAL (not a standby): not used');
      const usable = this.usable(replica, Date.now());
      if (wasUsable !== usable) this.options.log.info({ replica: redacted(replica.url), lagMs: replica.lagMs, usable }, usable ? 'read replica in use' : 'read replica skipped: too far behind');
    } catch (error) {
      this.lost(replica, error);
    }
  }

  /** ms since the primary first had WAL beyond `replayed`; 0 when the replica has all of the latest sample. */
  private lagOf(replayed: bigint): number | null {
    const latest = this.samples.at(-1);
    if (!latest) return null;
    if (replayed >= latest.lsn) return 0;
    const firstAhead = this.samples.find((sample) => sample.lsn > replayed)!;
    // When even the oldest sample kept is ahead, the lag is at least its age: past the limit anyway.
    return Date.now() - firstAhead.at;
  }

  private async connectProbe(replica: Replica): Promise<pg.Client> {
    const client = new pg.Client({
      connectionString: replica.url,
      application_name: 'mallfront-replica-probe',
      connectionTimeoutMillis: Math.max(500, this.options.maxLagMs),
      // A frozen replica: the probe fails in time and the replica is skipped.
      query_timeout: Math.max(500, this.options.maxLagMs),
      keepAlive: true,
    });
    // A replica that stops ends this connection: skipped at once, not at the next probe.
    client.on('error', (error) => this.lost(replica, error, client));
    client.on('end', () => this.lost(replica, undefined, client));
    await client.connect();
    return client;
  }

  /**
   * Down until the next probe that answers: the probe's own connection is left alone, so a replica
   * that only lost some sessions (`pg_terminate_backend`, a restarted pooler) is back within a
   * probe, and one that stopped is found down by the probe too.
   */
  private readLost(replica: Replica, error: unknown): void {
    replica.readsLost++;
    if (!replica.up) return;
    replica.up = false;
    if (!this.closed) this.options.log.warn({ err: error, replica: redacted(replica.url) }, 'read replica lost a read: it is skipped until it answers a probe, and the read runs again on the primary');
  }

  private lost(replica: Replica, error: unknown, client: pg.Client | null = replica.probe): void {
    if (client !== replica.probe && client !== null) return;
    const wasUp = replica.up;
    replica.up = false;
    replica.lagMs = null;
    const probe = replica.probe;
    replica.probe = null;
    probe?.removeAllListeners('end');
    probe?.on('error', () => {});
    probe?.end().catch(() => {});
    if (wasUp && !this.closed) this.options.log.warn({ err: error, replica: redacted(replica.url) }, 'read replica down: reads go to the primary');
  }
}

/** A URL fit for logs: no password. */
function redacted(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
